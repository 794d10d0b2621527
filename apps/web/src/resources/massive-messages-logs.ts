import { campaignStatusLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['massive-messages-logs'],
  title: 'Historial de mensajes masivos',
  subtitle: 'Los envíos masivos y cuántos mensajes llegaron',
  newLabel: 'Nuevo registro',
  editLabel: 'Editar registro',
  emptyMessage: 'Aún no hay envíos masivos',
  noResultsMessage: 'Ningún envío coincide con la búsqueda',
  columns: ['name', 'status', 'total', 'sent', 'failed', 'createdAt'],
  fields: {
    message: { label: 'Mensaje', widget: 'textarea' },
    total: { label: 'Total' },
    sent: { label: 'Enviados' },
    failed: { label: 'Fallidos' },
    status: { options: campaignStatusLabels },
  },
});
