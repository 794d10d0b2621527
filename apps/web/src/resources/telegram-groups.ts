import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['telegram-groups'],
  title: 'Grupos de Telegram',
  subtitle: 'Los grupos donde el bot de Telegram publica',
  newLabel: 'Nuevo grupo de Telegram',
  editLabel: 'Editar grupo de Telegram',
  emptyMessage: 'Aún no hay grupos de Telegram',
  noResultsMessage: 'Ningún grupo de Telegram coincide con la búsqueda',
  columns: ['name', 'chatId', 'description'],
  fields: { chatId: { label: 'Id del chat', placeholder: '-1001234567890' }, description: { widget: 'textarea' } },
});
