import { resources, telegramChatTypeLabels } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { TelegramBotPanel } from './bot-panel';
import { GroupActions } from './group-actions';
import { GroupCheckAside } from './group-check';

export const screen = defineScreen({
  resource: resources['telegram-groups'],
  title: 'Grupos de Telegram',
  subtitle: 'Los grupos donde el bot de Telegram publica',
  newLabel: 'Nuevo grupo de Telegram',
  editLabel: 'Editar grupo de Telegram',
  emptyMessage: 'Aún no hay grupos de Telegram',
  noResultsMessage: 'Ningún grupo de Telegram coincide con la búsqueda',
  columns: [
    'name',
    'chatId',
    { field: 'title', label: 'Nombre en Telegram' },
    { field: 'type', label: 'Tipo', render: (row) => (row.type ? (telegramChatTypeLabels[String(row.type)] ?? String(row.type)) : '—') },
    'description',
  ],
  form: ['name', 'chatId', 'description'],
  fields: { chatId: { label: 'Id del chat o @usuario', placeholder: '-1001234567890 o @mi_grupo' }, description: { widget: 'textarea' } },
  panel: () => createElement(TelegramBotPanel),
  rowActions: (row) => createElement(GroupActions, { row }),
  formAside: (body) => createElement(GroupCheckAside, { chatId: String(body.chatId ?? '').trim() }),
});
