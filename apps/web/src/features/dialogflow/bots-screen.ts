import { botLanguageLabels, platformLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { BotState, BotSummary } from './bot-extras';

/**
 * /bots, /facebook and /dialogflow (issue 15, decision 0053): the Dialogflow ES agents that answer
 * chats. Each row: whether it answers now, its connection as last seen (the reason when it
 * failed), «Probar conexión», and how many messages it answered and chats it handed to a person.
 */
export const screen = defineScreen({
  resource: resources.bots,
  title: 'Bots',
  subtitle: 'Los bots de Dialogflow que responden en cada plataforma',
  newLabel: 'Nuevo bot',
  editLabel: 'Editar bot',
  emptyMessage: 'Aún no hay bots configurados',
  noResultsMessage: 'Ningún bot coincide con la búsqueda',
  columns: [
    { field: 'name', label: 'Bot', render: (row) => createElement(BotSummary, { bot: row }) },
    { field: 'state', label: 'Estado', render: (row) => createElement(BotState, { bot: row }) },
    'platform',
    { field: 'language', hideOnMobile: true },
    { field: 'credentials', hideOnMobile: true },
  ],
  fields: {
    platform: { options: platformLabels },
    language: { options: botLanguageLabels },
    dialogflowProjectId: {
      label: 'Proyecto de Dialogflow',
      helperText: 'El id del proyecto de Google Cloud del agente; «sandbox:…» usa el agente de prueba sin Google',
    },
    active: { label: 'Activo' },
    credentials: {
      label: 'Cuenta de servicio de Google',
      fields: { client_email: { label: 'Correo de la cuenta de servicio' }, private_key: { label: 'Clave privada', widget: 'secret' } },
    },
  },
  defaults: { active: true },
});
