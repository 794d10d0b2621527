import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources.mailchimps,
  title: 'Mailchimp',
  subtitle: 'Las credenciales de tus cuentas de Mailchimp',
  newLabel: 'Nueva credencial',
  editLabel: 'Editar credencial',
  emptyMessage: 'Aún no hay credenciales de Mailchimp',
  noResultsMessage: 'Ninguna credencial coincide con la búsqueda',
  columns: ['name', 'serverPrefix', 'listId', 'apiKey'],
  fields: {
    serverPrefix: { label: 'Prefijo del servidor', placeholder: 'us21' },
    listId: { label: 'Id de la audiencia' },
    apiKey: { label: 'API key' },
  },
});
