import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources['mailchimp-tags'],
  title: 'Etiquetas de Mailchimp',
  subtitle: 'Las etiquetas (tags) de tus contactos en Mailchimp: las de Mostrador llegan con este nombre',
  newLabel: 'Nueva etiqueta',
  editLabel: 'Editar etiqueta',
  emptyMessage: 'Aún no hay etiquetas de Mailchimp. Aparecen al enviar etiquetas a Mailchimp desde Leads o al traer contactos de una audiencia.',
  noResultsMessage: 'Ninguna etiqueta coincide con la búsqueda',
  columns: ['name', 'mailchimpTagId', 'mailchimpId'],
  fields: { mailchimpTagId: { label: 'Id en Mailchimp' }, mailchimpId: { label: 'Cuenta de Mailchimp' } },
});
