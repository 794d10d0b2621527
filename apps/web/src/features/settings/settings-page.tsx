import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { ResourceFormFields, useResourceForm } from '../../components/crud/resource-form';
import { PAGE_SIZES } from '../../components/crud/pagination';
import type { ResourceRecord } from '../../components/crud/types';
import { useResourceRecord } from '../../components/crud/use-resource';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../i18n';
import { refreshSession } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { currentMembership, useSession } from '../../lib/session';
import { setPreference, usePreferences } from '../../lib/session-store';
import { ConversionsCard } from '../conversions-api/conversions-card';
import { screen as companiesScreen } from '../organization/companies-screen';
import { CsatCard } from './csat-card';

const cardTitle = { title: { variant: 'h3', component: 'h2' } } as const;

function CompanyForm({ company }: { company: ResourceRecord }) {
  const t = useT();
  const formId = useId();
  // A new name shows in the company switcher once the session is read again.
  const form = useResourceForm(companiesScreen, company, () => void refreshSession().catch(() => undefined));
  return (
    <>
      <ResourceFormFields config={companiesScreen} form={form} record={company} id={formId} />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
        <Button type="submit" form={formId} variant="contained" disabled={form.pending}>
          {t('crud.save')}
        </Button>
      </Box>
    </>
  );
}

/** /configuracion: the current company's data and settings (PUT /companies/{id}) and the user's preferences. */
export function SettingsPage() {
  const t = useT();
  const session = useSession();
  const permissions = usePermissions();
  const { itemsPerPage } = usePreferences();
  const canEdit = permissions.can('companies', 'update');
  const companyQuery = useResourceRecord(companiesScreen.resource, canEdit ? (session.companyId ?? undefined) : undefined);
  const company = companyQuery.data;
  const membership = currentMembership(session);

  return (
    <>
      <PageHeader title="Configuración" subtitle="Los datos de la compañía y tus preferencias" />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' }, alignItems: 'start' }}>
        <Card component="section" aria-label="Compañía">
          <CardHeader title="Compañía" subheader={membership?.company.name} slotProps={cardTitle} />
          <CardContent sx={{ pt: 0 }}>
            {!canEdit ? (
              <Typography color="text.secondary">Solo un administrador puede cambiar los datos de la compañía.</Typography>
            ) : companyQuery.isLoading ? (
              <Skeleton variant="rounded" height={240} />
            ) : company ? (
              <CompanyForm key={String(company.updatedAt)} company={company} />
            ) : (
              <Typography color="text.secondary">{t('crud.notFound')}</Typography>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader title="Preferencias" subheader="Se guardan en este navegador" slotProps={cardTitle} />
          <CardContent sx={{ pt: 0 }}>
            <TextField
              select
              label="Registros por página"
              value={itemsPerPage}
              onChange={(event) => setPreference('itemsPerPage', Number(event.target.value))}
              helperText="Cuántas filas muestran las listas"
            >
              {PAGE_SIZES.map((size) => (
                <MenuItem key={size} value={size}>
                  {size}
                </MenuItem>
              ))}
            </TextField>
          </CardContent>
        </Card>
        {permissions.can('settings', 'read') && <CsatCard />}
        <Box sx={{ gridColumn: { lg: '1 / -1' }, minWidth: 0 }}>
          <ConversionsCard />
        </Box>
      </Box>
    </>
  );
}

export default SettingsPage;
