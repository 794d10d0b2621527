import { mailchimpContactStatusLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { MailchimpSyncsPanel } from './sync-panel';

/**
 * /mailchimp/contactos (decision 0051): the members of the company's audiences as the syncs left
 * them (sent with their labels as tags, or pulled with «Sincronizar desde Mailchimp»), with
 * Mailchimp's status; the pulls above, live.
 */
export const screen = defineScreen({
  resource: resources['mailchimp-contacts'],
  title: 'Contactos de Mailchimp',
  subtitle: 'Los contactos de tus audiencias de Mailchimp, con su estado y etiquetas',
  newLabel: 'Nuevo contacto',
  editLabel: 'Editar contacto',
  emptyMessage:
    'Aún no hay contactos de Mailchimp. Llegan al enviar etiquetas a Mailchimp desde Leads, o con «Sincronizar desde Mailchimp» en la pantalla Mailchimp.',
  noResultsMessage: 'Ningún contacto coincide con la búsqueda',
  columns: ['email', 'name', 'status', 'tags', 'telefono'],
  form: ['email', 'name', 'telefono', 'status', 'tags'],
  fields: { status: { options: mailchimpContactStatusLabels } },
  panel: () =>
    createElement(MailchimpSyncsPanel, {
      kind: 'pull',
      title: 'Traídos desde Mailchimp',
      emptyMessage: 'Aún no se han traído contactos. Usa «Sincronizar desde Mailchimp» en una audiencia de la pantalla Mailchimp.',
    }),
});
