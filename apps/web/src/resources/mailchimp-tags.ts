import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['mailchimp-tags'],
  title: 'Etiquetas de Mailchimp',
  subtitle: 'Las etiquetas que se asignan a los contactos en Mailchimp',
  newLabel: 'Nueva etiqueta',
  editLabel: 'Editar etiqueta',
  emptyMessage: 'Aún no hay etiquetas de Mailchimp',
  noResultsMessage: 'Ninguna etiqueta coincide con la búsqueda',
  columns: ['name', 'mailchimpTagId', 'mailchimpId'],
  fields: { mailchimpTagId: { label: 'Id en Mailchimp' }, mailchimpId: { label: 'Cuenta de Mailchimp' } },
});
