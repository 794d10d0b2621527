import { resetInput } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { FormTextField } from '../../components/ui/form-text-field';
import { PublicLayout } from '../../components/ui/public-layout';
import { useT } from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { showSuccess } from '../../lib/feedback';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useSubmit } from '../../lib/use-submit';
import { authApi } from './api';

/** The page of the e-mailed link `/restablecer-contrasena?token=…`. */
export function ResetPasswordPage() {
  const t = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const form = useSchemaForm({
    schema: resetInput,
    defaultValues: { token, password: '', passwordConfirmation: '' },
  });
  const reset = useSubmit(authApi.reset, (response) => {
    showSuccess(response.msg);
    navigate('/login', { replace: true });
  });
  const tokenProblem = !token || form.errors.token;
  const serverMessages = reset.error instanceof ApiError ? reset.error.messages : [];

  return (
    <PublicLayout title={t('reset.title')} subtitle={t('reset.subtitle')}>
      {tokenProblem && (
        <Alert severity="error" sx={{ mb: 3 }}>
          {t('reset.missingToken')}
        </Alert>
      )}
      {serverMessages.length > 0 && (
        <Alert severity="error" sx={{ mb: 3 }} data-testid="reset-error">
          {serverMessages.map((message) => (
            <div key={message}>{message}</div>
          ))}
        </Alert>
      )}
      {token && (
        <Box
          component="form"
          noValidate
          aria-label={t('reset.title')}
          onSubmit={form.handleSubmit((values) => reset.submit(values))}
        >
          <Stack spacing={2.5} sx={{ mb: 3 }}>
            <FormTextField
              {...form.field('password')}
              type="password"
              label={t('reset.password')}
              autoComplete="new-password"
              autoFocus
            />
            <FormTextField
              {...form.field('passwordConfirmation')}
              type="password"
              label={t('reset.confirmation')}
              autoComplete="new-password"
            />
            <Button type="submit" variant="contained" size="large" disabled={reset.pending}>
              {t('reset.submit')}
            </Button>
          </Stack>
        </Box>
      )}
      <Stack spacing={1} sx={{ textAlign: 'center' }}>
        {(tokenProblem || serverMessages.length > 0) && (
          <Link component={RouterLink} to="/recuperar-contrasena" variant="body2">
            {t('reset.requestNew')}
          </Link>
        )}
        <Link component={RouterLink} to="/login" variant="body2">
          {t('reset.back')}
        </Link>
      </Stack>
    </PublicLayout>
  );
}

export default ResetPasswordPage;
