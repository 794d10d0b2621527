import { resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { AccountKey, AccountSummary } from './account-extras';
import { MailchimpSyncsPanel } from './sync-panel';

/**
 * /mailchimp (issue 15, decision 0051): one credential per audience, the key sealed (only «guardada»
 * and its last four characters show); under each name «Probar conexión», saying what is wrong,
 * and «Sincronizar desde Mailchimp»; above the list the syncs with their live bars and reports.
 */
export const screen = defineScreen({
  resource: resources.mailchimps,
  title: 'Mailchimp',
  subtitle: 'Tus audiencias de Mailchimp: las etiquetas de tus clientes llegan a ellas como etiquetas (tags)',
  newLabel: 'Nueva credencial',
  editLabel: 'Editar credencial',
  emptyMessage:
    'Aún no hay credenciales de Mailchimp. Agrega una con «Nueva credencial»: una API key (Perfil › Extras › API keys), el prefijo del servidor (lo que va tras el guion de la key) y el id de la audiencia.',
  noResultsMessage: 'Ninguna credencial coincide con la búsqueda',
  columns: [
    { field: 'name', label: 'Audiencia', render: (row) => createElement(AccountSummary, { account: row }) },
    { field: 'key', label: 'API key y conexión', hideOnMobile: true, render: (row) => createElement(AccountKey, { account: row }) },
  ],
  form: ['name', 'apiKey', 'serverPrefix', 'listId'],
  fields: {
    name: { helperText: 'Cómo la reconoces aquí (por ejemplo, el nombre de la audiencia)' },
    serverPrefix: { label: 'Prefijo del servidor', placeholder: 'us21', helperText: 'Lo que va después del guion en la API key' },
    listId: { label: 'Id de la audiencia', placeholder: 'a1b2c3d4e5', helperText: 'Audiencia › Configuración › Nombre y valores por defecto' },
    apiKey: { label: 'API key', placeholder: '0123abcd…-us21', helperText: 'Se guarda cifrada y no se vuelve a mostrar' },
  },
  panel: () =>
    createElement(MailchimpSyncsPanel, {
      emptyMessage:
        'Aún no se ha enviado nada a Mailchimp. Marca «Enviar también a Mailchimp» al etiquetar un segmento en Leads, o usa «Sincronizar desde Mailchimp» en una audiencia.',
    }),
});
