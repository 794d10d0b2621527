import { resources } from '@mostrador/contract';
import Contacts from '@mui/icons-material/Contacts';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { GoogleCallbackNotice, GoogleRowAction, GoogleStateCell } from './google-phones';

/**
 * /telefonos: the company's WhatsApp numbers and the Google account each syncs its contacts with
 * (decision 0052). The Google credentials are not a form field: «Conectar con Google» posts the
 * OAuth client's id and secret once and goes to Google's consent (or the spec's
 * /telefonos/googlepeople/{id}/{clientId}/{clientSecret}); the tokens are never shown.
 */
export const screen = defineScreen({
  resource: resources.telefonos,
  title: 'Teléfonos',
  subtitle: 'Los números de WhatsApp de la compañía y su cuenta de Google para los contactos',
  newLabel: 'Nuevo teléfono',
  editLabel: 'Editar teléfono',
  emptyMessage: 'Aún no hay teléfonos registrados',
  noResultsMessage: 'Ningún teléfono coincide con la búsqueda',
  columns: ['numero', 'agenteId', { field: 'google', label: 'Google', render: (row) => createElement(GoogleStateCell, { row }) }],
  form: ['numero', 'googleContactEmail', 'agenteId'],
  displayField: 'numero',
  /** The phone's contacts and its leads in Google (/telefonos/contactos/{id}). */
  detail: { label: 'Contactos', path: (row) => `/telefonos/contactos/${row._id}`, icon: Contacts },
  rowActions: (row) => createElement(GoogleRowAction, { row }),
  panel: () => createElement(GoogleCallbackNotice),
  fields: {
    numero: { helperText: 'Con código de país, por ejemplo 51987654321' },
    googleContactEmail: { label: 'Cuenta de Google (contactos)', helperText: 'Se completa al conectar con Google' },
    agenteId: { label: 'Agente' },
  },
});
