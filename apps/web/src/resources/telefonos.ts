import { resources } from '@mostrador/contract';
import Contacts from '@mui/icons-material/Contacts';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources.telefonos,
  title: 'Teléfonos',
  subtitle: 'Los números de WhatsApp de la compañía',
  newLabel: 'Nuevo teléfono',
  editLabel: 'Editar teléfono',
  emptyMessage: 'Aún no hay teléfonos registrados',
  noResultsMessage: 'Ningún teléfono coincide con la búsqueda',
  columns: ['numero', 'googleContactEmail', 'agenteId', 'credenciales'],
  displayField: 'numero',
  /** The phone's contacts (/telefonos/contactos/{id}). */
  detail: { label: 'Contactos', path: (row) => `/telefonos/contactos/${row._id}`, icon: Contacts },
  fields: {
    numero: { helperText: 'Con código de país, por ejemplo 51987654321' },
    googleContactEmail: { label: 'Cuenta de Google (contactos)' },
    agenteId: { label: 'Agente' },
    credenciales: {
      label: 'Credenciales de Google',
      fields: {
        clientId: { label: 'Client ID' },
        clientSecret: { label: 'Client secret' },
        access_token: { label: 'Access token' },
        refresh_token: { label: 'Refresh token' },
        scope: { label: 'Scope' },
        token_type: { label: 'Tipo de token' },
        id_token: { label: 'ID token' },
        expiry_date: { label: 'Vence (ms desde 1970)' },
      },
    },
  },
});
