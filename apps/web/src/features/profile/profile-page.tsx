import { changePasswordForm, roleLabels, type SessionUser } from '@mostrador/contract';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { FormTextField } from '../../components/ui/form-text-field';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../i18n';
import { currentMembership, fullName, membershipsOf, setSession, useSession } from '../../lib/session';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useSwitchCompany } from '../../lib/use-switch-company';
import { profileApi } from './api';

function initials(user: SessionUser): string {
  return `${user.first_name.charAt(0)}${user.last_name.charAt(0)}`.toUpperCase();
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography sx={{ fontWeight: 500, wordBreak: 'break-word' }}>{value}</Typography>
    </Box>
  );
}

function WhoAmICard({ user, companyName }: { user: SessionUser; companyName: string | undefined }) {
  const t = useT();
  return (
    <Card>
      <CardHeader title={t('profile.whoAmI')} slotProps={{ title: { variant: 'h3', component: 'h2' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 3 }}>
          <Avatar sx={{ bgcolor: 'primary.main', width: 56, height: 56, fontSize: '1.25rem' }}>{initials(user)}</Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h2" component="p" data-testid="profile-name">
              {fullName(user)}
            </Typography>
            <Typography color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              {user.email}
            </Typography>
          </Box>
        </Stack>
        <Stack spacing={2}>
          <Field label={t('profile.corporation')} value={user.corporation.name} />
          <Field label={t('profile.corporationSlug')} value={user.corporation.slug} />
          {companyName && <Field label={t('profile.currentCompany')} value={companyName} />}
        </Stack>
      </CardContent>
    </Card>
  );
}

function CompaniesCard({ user, companyId }: { user: SessionUser; companyId: string | null }) {
  const t = useT();
  const switchCompany = useSwitchCompany();
  const memberships = membershipsOf(user);
  return (
    <Card>
      <CardHeader title={t('profile.companies')} slotProps={{ title: { variant: 'h3', component: 'h2' } }} />
      {memberships.length === 0 ? (
        <CardContent>
          <Typography color="text.secondary">{t('profile.noCompanies')}</Typography>
        </CardContent>
      ) : (
        <TableContainer>
          <Table aria-label={t('profile.companies')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('profile.companyName')}</TableCell>
                <TableCell>{t('profile.role')}</TableCell>
                <TableCell>{t('profile.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {memberships.map((m) => {
                const selected = m.company._id === companyId;
                return (
                  <TableRow key={m.company._id} selected={selected}>
                    <TableCell sx={{ fontWeight: selected ? 600 : undefined }}>{m.company.name}</TableCell>
                    <TableCell>{roleLabels[m.role] ?? m.role}</TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                        {m.default && <Chip size="small" label={t('profile.default')} variant="outlined" color="primary" />}
                        {selected ? (
                          <Chip size="small" label={t('profile.selected')} color="primary" />
                        ) : (
                          <Button
                            size="small"
                            onClick={() => switchCompany(m.company._id)}
                            aria-label={`${t('profile.select')} ${m.company.name}`}
                          >
                            {t('profile.select')}
                          </Button>
                        )}
                      </Stack>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Card>
  );
}

export function ChangePasswordCard({ user }: { user: SessionUser }) {
  const t = useT();
  const form = useSchemaForm({
    schema: changePasswordForm,
    defaultValues: { currentPassword: '', newPassword: '', passwordConfirmation: '' },
  });
  const update = useMutation({
    mutationFn: (v: { newPassword: string; currentPassword: string }) => profileApi.updatePassword(user._id, v.newPassword, v.currentPassword),
    onSuccess: (response) => {
      // Changing one's own password revokes old tokens: the answer carries a fresh session.
      if (response.token && response.user && response.expiresIn) {
        setSession({ token: response.token, expiresIn: response.expiresIn, user: response.user }, { keepCompany: true });
      }
      form.reset();
    },
  });
  return (
    <Card>
      <CardHeader title={t('profile.changePassword')} slotProps={{ title: { variant: 'h3', component: 'h2' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Box
          component="form"
          noValidate
          aria-label={t('profile.changePassword')}
          onSubmit={form.handleSubmit((values) => update.mutate({ newPassword: values.newPassword, currentPassword: values.currentPassword }))}
        >
          <Stack spacing={2.5}>
            <FormTextField
              {...form.field('currentPassword')}
              type="password"
              label={t('profile.currentPassword')}
              autoComplete="current-password"
            />
            <FormTextField
              {...form.field('newPassword')}
              type="password"
              label={t('profile.newPassword')}
              autoComplete="new-password"
            />
            <FormTextField
              {...form.field('passwordConfirmation')}
              type="password"
              label={t('profile.confirmPassword')}
              autoComplete="new-password"
            />
            <Box>
              <Button type="submit" variant="contained" disabled={update.isPending}>
                {t('profile.savePassword')}
              </Button>
            </Box>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}

export function ProfilePage() {
  const t = useT();
  const session = useSession();
  const { user, companyId } = session;
  if (!user) return null;
  return (
    <>
      <PageHeader title={t('profile.title')} subtitle={t('profile.subtitle')} />
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', lg: 'minmax(320px, 1fr) 2fr' },
          alignItems: 'start',
        }}
      >
        <WhoAmICard user={user} companyName={currentMembership(session)?.company.name} />
        <Stack spacing={3}>
          <CompaniesCard user={user} companyId={companyId} />
          <ChangePasswordCard user={user} />
        </Stack>
      </Box>
    </>
  );
}

export default ProfilePage;
