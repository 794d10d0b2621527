import type { loginInput } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { FormTextField } from '../../components/ui/form-text-field';
import { PublicLayout } from '../../components/ui/public-layout';
import { showSuccess } from '../../lib/feedback';
import { lazyZodResolver } from '../../lib/lazy-resolver';
import { setSession, useSession } from '../../lib/session';
import { useSubmit } from '../../lib/use-submit';
import { authApi } from './api';

/** The contract's loginInput, fetched once the user starts typing (see lazy-resolver.ts). */
const loginResolver = lazyZodResolver<typeof loginInput>(() =>
  import('../../lib/contract-lazy').then((contract) => contract.loginInput),
);

/** Where to go after signing in: the protected page that sent us here, else Profile. */
function useReturnPath(): string {
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return from && from.startsWith('/') && !from.startsWith('/login') ? from : '/perfil';
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnPath = useReturnPath();
  const session = useSession();
  const form = useForm({
    resolver: loginResolver,
    defaultValues: { corporation: params.get('corporation') ?? '', email: '', password: '' },
  });
  const login = useSubmit(authApi.login, (response) => {
    setSession(response);
    showSuccess(t('success.welcome'));
    navigate(returnPath, { replace: true });
  });

  if (session.token && session.user) return <Navigate to={returnPath} replace />;

  return (
    <PublicLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <Box
        component="form"
        noValidate
        aria-label={t('login.title')}
        onInput={loginResolver.preload}
        onSubmit={form.handleSubmit((values) => login.submit(values))}
      >
        <Stack spacing={2.5}>
          <FormTextField
            control={form.control}
            name="corporation"
            label={t('login.corporation')}
            placeholder={t('login.corporationPlaceholder')}
            autoComplete="organization"
            autoFocus
          />
          <FormTextField
            control={form.control}
            name="email"
            type="email"
            label={t('login.email')}
            autoComplete="username"
          />
          <FormTextField
            control={form.control}
            name="password"
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
        </Stack>
      </Box>
    </PublicLayout>
  );
}

export default LoginPage;
