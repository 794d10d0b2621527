import { mailchimpContactStatusLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['mailchimp-contacts'],
  title: 'Contactos de Mailchimp',
  subtitle: 'Los contactos de tus audiencias de Mailchimp',
  newLabel: 'Nuevo contacto',
  editLabel: 'Editar contacto',
  emptyMessage: 'Aún no hay contactos de Mailchimp',
  noResultsMessage: 'Ningún contacto coincide con la búsqueda',
  columns: ['email', 'name', 'telefono', 'status', 'tags'],
  form: ['email', 'name', 'telefono', 'status', 'tags'],
  fields: { status: { options: mailchimpContactStatusLabels } },
});
