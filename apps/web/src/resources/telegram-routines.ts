import { resources, weekdayLabels } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['telegram-routines'],
  title: 'Rutinas de Telegram',
  subtitle: 'Mensajes que se publican en un grupo los días y a la hora elegidos',
  newLabel: 'Nueva rutina',
  editLabel: 'Editar rutina',
  emptyMessage: 'Aún no hay rutinas de Telegram',
  noResultsMessage: 'Ninguna rutina coincide con la búsqueda',
  columns: ['name', 'telegramGroupId', 'days', 'time', 'active'],
  fields: {
    telegramGroupId: { label: 'Grupo de Telegram' },
    message: { widget: 'textarea' },
    days: { label: 'Días', options: weekdayLabels },
    time: { label: 'Hora' },
    active: { label: 'Activa' },
  },
  defaults: { active: true },
});
