import { defineResource } from '../define-resource.js';
import { zEnum, zOptionalText, zPhone, zRefId, zText } from '../fields.js';

export const templateDeliveryStatuses = ['sent', 'delivered', 'read', 'failed'] as const;
export type TemplateDeliveryStatus = (typeof templateDeliveryStatuses)[number];
export const templateDeliveryStatusLabels: Record<TemplateDeliveryStatus, string> = {
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  failed: 'Fallido',
};

/**
 * template-messages-logs (SPEC §7, /marketing/historial-plantillas): one row per template
 * message sent. Not shown in the spec: the template's name, the recipient's phone (digits
 * with country code), WhatsApp's delivery status, the error when it failed and the lead it
 * was sent to. Default sort createdAt desc: the latest send first.
 */
export const templateMessagesLogs = defineResource({
  key: 'template-messages-logs',
  label: 'Historial de plantilla',
  labelPlural: 'Historial de plantillas',
  module: 'messaging',
  fields: {
    templateName: zText(512),
    telefono: zPhone(),
    status: zEnum(templateDeliveryStatuses),
    error: zOptionalText(1000).optional(),
    leadId: zRefId(),
  },
  refs: { leadId: 'leads' },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['templateName', 'telefono', 'error'],
  sortable: ['templateName', 'status'],
  examples: [
    { templateName: 'bienvenida_cliente', telefono: '51987001122', status: 'read' },
    { templateName: 'confirmacion_pedido', telefono: '51955443322', status: 'delivered' },
    {
      templateName: 'recordatorio_pago',
      telefono: '51944556677',
      status: 'failed',
      error: '131026: el número no tiene WhatsApp',
    },
  ],
});
