import { resources } from '@mostrador/contract';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { createElement, useMemo } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import type { ScreenConfig } from '../../components/crud/types';
import { useResourceRecord } from '../../components/crud/use-resource';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../i18n';
import { screen as contactosScreen } from './contactos-screen';
import { GoogleContactsPanel } from './google-contacts-panel';

/** '+51 987 654 321' for a number stored as digits with its country code. */
export function phoneLabel(digits: string): string {
  const m = /^(\d{2})(\d{3})(\d{3})(\d{3,4})$/.exec(digits);
  return m ? `+${m[1]} ${m[2]} ${m[3]} ${m[4]}` : digits;
}

/**
 * The contacts list of one business phone, from the /contactos screen config: the list sends
 * telefonoId (GET /contactos?telefonoId=…), a new contact starts on this phone, and a delete
 * sends {telefonoId} as every contactos delete does (SPEC §7).
 */
export function phoneContactsScreen(telefonoId: string, numero?: string): ScreenConfig {
  const panel = createElement(GoogleContactsPanel, { telefonoId });
  return {
    ...contactosScreen,
    title: numero ? `Contactos de ${phoneLabel(numero)}` : 'Contactos del teléfono',
    subtitle: 'Los contactos de este número de la empresa',
    emptyMessage: 'Este teléfono aún no tiene contactos',
    columns: contactosScreen.columns.filter((c) => (typeof c === 'string' ? c : c.field) !== 'telefonoId'),
    filters: { telefonoId },
    defaults: { telefonoId },
    // the phone's leads as its Google contacts, «Sincronizar con Google» (decision 0052); one element, so the list's renders skip it
    panel: () => panel,
  };
}

/** /telefonos/contactos/{id} (SPEC §2): the contacts of one of the company's phones. */
export function PhoneContactsPage() {
  const t = useT();
  const { id = '' } = useParams();
  const phone = useResourceRecord(resources.telefonos, id);
  const numero = typeof phone.data?.numero === 'string' ? phone.data.numero : undefined;
  const config = useMemo(() => phoneContactsScreen(id, numero), [id, numero]);
  const back = (
    <Button component={RouterLink} to="/telefonos" startIcon={<ArrowBackIcon />} sx={{ mb: 1, ml: -1 }}>
      {t('crud.back')}
    </Button>
  );

  if (phone.isError) {
    return (
      <>
        {back}
        <PageHeader title="Contactos del teléfono" />
        <Alert severity="warning" data-testid="phone-missing">
          Ese teléfono no existe en esta compañía.
        </Alert>
      </>
    );
  }
  return (
    <>
      {back}
      <ResourceListPage key={id} config={config} />
    </>
  );
}

export default PhoneContactsPage;
