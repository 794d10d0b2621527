import { forgotInput } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router';
import { FormTextField } from '../../components/ui/form-text-field';
import { PublicLayout } from '../../components/ui/public-layout';
import { useT } from '../../i18n';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useSubmit } from '../../lib/use-submit';
import { authApi } from './api';

export function ForgotPasswordPage() {
  const t = useT();
  const form = useSchemaForm({ schema: forgotInput, defaultValues: { corporation: '', email: '' } });
  const forgot = useSubmit(authApi.forgot);

  return (
    <PublicLayout title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      {forgot.data ? (
        <Alert severity="success" role="status" sx={{ mb: 3 }}>
          {forgot.data.msg}
        </Alert>
      ) : (
        <Box
          component="form"
          noValidate
          aria-label={t('forgot.title')}
          onSubmit={form.handleSubmit((values) => forgot.submit(values))}
        >
          <Stack spacing={2.5} sx={{ mb: 3 }}>
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
              autoComplete="email"
            />
            <Button type="submit" variant="contained" size="large" disabled={forgot.pending}>
              {t('forgot.submit')}
            </Button>
          </Stack>
        </Box>
      )}
      <Box sx={{ textAlign: 'center' }}>
        <Link component={RouterLink} to="/login" variant="body2">
          {t('forgot.back')}
        </Link>
      </Box>
    </PublicLayout>
  );
}

export default ForgotPasswordPage;
