import type { SessionUser } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { Navigate, Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { FormTextField } from '../../components/ui/form-text-field';
import { PublicLayout } from '../../components/ui/public-layout';
import { useT } from '../../i18n';
import { showSuccess } from '../../lib/feedback';
import { HOME_SCREEN, landingPath } from '../../lib/landing';
import { sessionStore, setSession, useSession } from '../../lib/session';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useSubmit } from '../../lib/use-submit';
import { authApi } from './api';

/**
 * The contract's loginInput, imported when the user starts typing (or on submit, which
 * waits for it): zod stays out of the first load of /login.
 */
const loadLoginInput = () => import('../../lib/contract-lazy').then((contract) => contract.loginInput);

/**
 * Where to go after signing in: the protected page that sent us here, else the landing of the
 * user's role (lib/landing.ts: an agent the inbox, an owner the screen they used last or the inbox).
 */
function useReturnPath(): (user: SessionUser | null) => string {
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return (user) => {
    if (from?.startsWith('/') && !from.startsWith('/login')) return from;
    return user ? landingPath(user, sessionStore.get().companyId) : HOME_SCREEN;
  };
}

export function LoginPage() {
  const t = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnPath = useReturnPath();
  const session = useSession();
  const form = useSchemaForm({
    schema: loadLoginInput,
    defaultValues: { corporation: params.get('corporation') ?? '', email: '', password: '' },
  });
  const login = useSubmit(authApi.login, (response) => {
    setSession(response);
    showSuccess(t('success.welcome'));
    navigate(returnPath(response.user), { replace: true });
  });

  if (session.token && session.user) return <Navigate to={returnPath(session.user)} replace />;

  return (
    <PublicLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <Box
        component="form"
        noValidate
        aria-label={t('login.title')}
        onInput={form.preload}
        onSubmit={form.handleSubmit((values) => login.submit(values))}
      >
        {/* A flex column rather than Stack: Stack is not otherwise in the first load of /login. */}
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
          <FormTextField
            {...form.field('corporation')}
            label={t('login.corporation')}
            placeholder={t('login.corporationPlaceholder')}
            autoComplete="organization"
            autoFocus
          />
          <FormTextField
            {...form.field('email')}
            type="email"
            label={t('login.email')}
            autoComplete="username"
          />
          <FormTextField
            {...form.field('password')}
            type="password"
            label={t('login.password')}
            autoComplete="current-password"
          />
          <Button type="submit" variant="contained" size="large" disabled={login.pending}>
            {t('login.submit')}
          </Button>
          <Link component={RouterLink} to="/recuperar-contrasena" variant="body2" sx={{ alignSelf: 'center' }}>
            {t('login.forgot')}
          </Link>
        </Box>
      </Box>
    </PublicLayout>
  );
}

export default LoginPage;
