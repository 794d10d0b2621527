import { campaignStatusLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { MassiveNameCell, MassiveStatusCell } from './massive-cells';

/**
 * /marketing/historial_mensajes_masivos (decision 0042): one row per massive send, written by the
 * send itself — a history, read only (no New, no Edit, no Delete). features/histories adds the
 * filters, the live progress and each send's per-recipient report. On a phone: name (with its
 * counts and date under it) and status.
 */
export const screen = defineScreen({
  resource: resources['massive-messages-logs'],
  title: 'Historial de mensajes masivos',
  subtitle: 'Cada envío masivo, cuántos mensajes salieron y el estado de cada persona',
  newLabel: 'Nuevo registro',
  editLabel: 'Ver envío',
  emptyMessage: 'Aún no hay envíos masivos: se envían desde el chat o desde Mensajes masivos',
  noResultsMessage: 'Ningún envío coincide con los filtros',
  columns: [
    { field: 'name', hideOnMobile: false, render: (row) => createElement(MassiveNameCell, { row }) },
    { field: 'status', label: 'Estado', hideOnMobile: false, render: (row) => createElement(MassiveStatusCell, { row }) },
    { field: 'total', label: 'Personas', hideOnMobile: true },
    { field: 'sent', label: 'Enviados', hideOnMobile: true },
    { field: 'failed', label: 'Fallidos', hideOnMobile: true },
    { field: 'createdAt', label: 'Fecha', hideOnMobile: true },
  ],
  fields: {
    name: { label: 'Envío' },
    message: { label: 'Mensaje', widget: 'textarea' },
    total: { label: 'Personas' },
    sent: { label: 'Enviados' },
    failed: { label: 'Fallidos' },
    status: { options: campaignStatusLabels },
  },
  create: false,
  edit: false,
  delete: false,
});
