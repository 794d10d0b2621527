import { resources, telegramMediaKindLabels, weekdayLabels } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { RoutineActions } from './routine-actions';

export const screen = defineScreen({
  resource: resources['telegram-routines'],
  title: 'Rutinas de Telegram',
  subtitle: 'Mensajes que se publican en grupos los días y a la hora elegidos (hora de la empresa)',
  newLabel: 'Nueva rutina',
  editLabel: 'Editar rutina',
  emptyMessage: 'Aún no hay rutinas de Telegram',
  noResultsMessage: 'Ninguna rutina coincide con la búsqueda',
  columns: ['name', 'telegramGroupId', 'days', 'time', 'active'],
  form: ['name', 'telegramGroupId', 'telegramGroupIds', 'message', 'mediaUrl', 'mediaKind', 'days', 'time', 'active'],
  fields: {
    telegramGroupId: { label: 'Grupo de Telegram' },
    telegramGroupIds: { label: 'Otros grupos' },
    message: { widget: 'textarea', label: 'Mensaje' },
    mediaUrl: { widget: 'text', label: 'Imagen o documento (URL, opcional)', placeholder: 'https://…', helperText: 'Se envía con el mensaje como pie de foto' },
    mediaKind: { label: 'Tipo de archivo', options: telegramMediaKindLabels },
    days: { label: 'Días', options: weekdayLabels },
    time: { label: 'Hora' },
    active: { label: 'Activa' },
  },
  defaults: { active: true },
  rowActions: (row) => createElement(RoutineActions, { row }),
});
