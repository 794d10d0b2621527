import { registerCorporationForm } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { FormTextField } from '../../components/ui/form-text-field';
import { PublicLayout } from '../../components/ui/public-layout';
import { displayLocale, useT } from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useSchemaForm } from '../../lib/use-schema-form';
import { type RegisterCorporationResponse, registrationApi } from './api';

const grid = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;

export interface RegisterCorporationFormProps {
  token: string;
  onRegistered: (response: RegisterCorporationResponse) => void;
}

/** The registration form itself, validated by the contract's registerCorporationForm. */
export function RegisterCorporationForm({ token, onRegistered }: RegisterCorporationFormProps) {
  const t = useT();
  const form = useSchemaForm({
    schema: registerCorporationForm,
    defaultValues: {
      corporationName: '',
      corporation: '',
      companyName: '',
      first_name: '',
      last_name: '',
      email: '',
      password: '',
      passwordConfirmation: '',
    },
  });
  const register = useMutation({ mutationFn: registrationApi.register, onSuccess: onRegistered });
  const { field } = form;

  return (
    <Box
      component="form"
      noValidate
      aria-label={t('register.title')}
      onSubmit={form.handleSubmit((values) => register.mutate({ ...values, token }))}
    >
      <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
        {t('register.corporationSection')}
      </Typography>
      <Box sx={grid}>
        <FormTextField {...field('corporationName')} label={t('register.corporationName')} autoFocus />
        <FormTextField
          {...field('corporation')}
          label={t('register.corporation')}
          helperText={t('register.corporationHelp')}
        />
        <Box sx={{ gridColumn: '1 / -1' }}>
          <FormTextField {...field('companyName')} label={t('register.companyName')} />
        </Box>
      </Box>
      <Divider sx={{ my: 3 }} />
      <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
        {t('register.userSection')}
      </Typography>
      <Box sx={grid}>
        <FormTextField {...field('first_name')} label={t('register.firstName')} autoComplete="given-name" />
        <FormTextField {...field('last_name')} label={t('register.lastName')} autoComplete="family-name" />
        <Box sx={{ gridColumn: '1 / -1' }}>
          <FormTextField {...field('email')} type="email" label={t('register.email')} autoComplete="email" />
        </Box>
        <FormTextField
          {...field('password')}
          type="password"
          label={t('register.password')}
          autoComplete="new-password"
        />
        <FormTextField
          {...field('passwordConfirmation')}
          type="password"
          label={t('register.passwordConfirmation')}
          autoComplete="new-password"
        />
      </Box>
      <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 3 }} disabled={register.isPending}>
        {t('register.submit')}
      </Button>
    </Box>
  );
}

export function RegisterCorporationPage() {
  const t = useT();
  const { token = '' } = useParams();
  const check = useQuery({
    queryKey: queryKeys.registrationToken.detail(token),
    queryFn: () => registrationApi.checkToken(token),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { quiet: true },
  });
  const [registered, setRegistered] = useState<RegisterCorporationResponse | null>(null);

  if (registered) {
    const { msg, corporation } = registered;
    return (
      <PublicLayout title={t('register.doneTitle')}>
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {msg}
        </Alert>
        <Typography sx={{ mb: 3 }}>{t('register.doneIdentifier', { slug: corporation.slug })}</Typography>
        <Button
          component={RouterLink}
          to={`/login?corporation=${encodeURIComponent(corporation.slug)}`}
          variant="contained"
          size="large"
          fullWidth
        >
          {t('register.goToLogin')}
        </Button>
      </PublicLayout>
    );
  }

  if (check.isPending) {
    return (
      <PublicLayout title={t('register.title')}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={24} />
          <Typography>{t('register.checking')}</Typography>
        </Stack>
      </PublicLayout>
    );
  }

  if (check.isError) {
    const message =
      check.error instanceof ApiError ? (check.error.messages[0] ?? t('register.invalidFallback')) : t('errors.connection');
    return (
      <PublicLayout title={t('register.invalidTitle')}>
        <Alert severity="error" sx={{ mb: 2 }} data-testid="registration-invalid">
          {message}
        </Alert>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('register.invalidHint')}
        </Typography>
        <Button component={RouterLink} to="/login" variant="outlined" fullWidth>
          {t('register.goToLogin')}
        </Button>
      </PublicLayout>
    );
  }

  const expires = new Date(check.data.expiresAt);
  return (
    <PublicLayout title={t('register.title')} subtitle={t('register.subtitle')} width={720}>
      {!Number.isNaN(expires.getTime()) && (
        <Alert severity="info" sx={{ mb: 3 }}>
          {t('register.expiresAt', {
            date: expires.toLocaleString(displayLocale(), { dateStyle: 'long', timeStyle: 'short' }),
          })}
        </Alert>
      )}
      <RegisterCorporationForm token={token} onRegistered={setRegistered} />
    </PublicLayout>
  );
}

export default RegisterCorporationPage;
