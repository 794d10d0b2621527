import { resources, templateDeliveryStatusLabels, templateLogSourceLabels } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { InstantCell } from '../../components/crud/instant-cell';
import { ChatLink, RecipientCell, SourceCell, TemplateLogCsvButton, TemplateStatusCell } from './template-cells';

/**
 * /marketing/historial-plantillas (decision 0042): one row per template message — from a chat, a
 * campaign or a massive send — with the status WhatsApp reported (the reason when it failed), a
 * link to the chat and the CSV of what the list shows. Read only: the messages write it.
 * features/histories adds the filters. On a phone: who, and the status.
 */
export const screen = defineScreen({
  resource: resources['template-messages-logs'],
  title: 'Historial de plantillas',
  subtitle: 'Cada mensaje de plantilla enviado y lo que WhatsApp informó de él',
  newLabel: 'Nuevo registro',
  editLabel: 'Ver mensaje',
  emptyMessage: 'Aún no se enviaron mensajes de plantilla: se envían desde un chat o con una campaña',
  noResultsMessage: 'Ningún mensaje coincide con la búsqueda o los filtros',
  columns: [
    { field: 'nombre', label: 'Destinatario', hideOnMobile: false, render: (row) => createElement(RecipientCell, { row }) },
    { field: 'templateName', label: 'Plantilla', hideOnMobile: true },
    { field: 'status', label: 'Estado', hideOnMobile: false, render: (row) => createElement(TemplateStatusCell, { row }) },
    { field: 'source', label: 'Origen', hideOnMobile: true, render: (row) => createElement(SourceCell, { row }) },
    { field: 'createdAt', label: 'Enviado', hideOnMobile: true, render: (row) => createElement(InstantCell, { value: row.createdAt }) },
  ],
  displayField: 'templateName',
  fields: {
    templateName: { label: 'Plantilla' },
    nombre: { label: 'Nombre' },
    status: { options: templateDeliveryStatusLabels },
    source: { label: 'Origen', options: templateLogSourceLabels },
    sendName: { label: 'Envío' },
    error: { label: 'Motivo' },
    leadId: { label: 'Lead' },
    chatId: { label: 'Chat' },
  },
  create: false,
  edit: false,
  delete: false,
  toolbar: (query) => createElement(TemplateLogCsvButton, { query }),
  rowActions: (row) => createElement(ChatLink, { row }),
});
