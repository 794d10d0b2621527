import { defineResource } from '../define-resource.js';
import { zEnum, zOptionalText, zRefId, zText } from '../fields.js';

/**
 * A template message's status: `pending` (stored, waiting for the line: «En cola»), then what
 * WhatsApp reports (sent, delivered, read) or `failed` with the provider's reason. The statuses
 * of the chat message it is (decision 0042).
 */
export const templateDeliveryStatuses = ['pending', 'sent', 'delivered', 'read', 'failed'] as const;
export type TemplateDeliveryStatus = (typeof templateDeliveryStatuses)[number];
export const templateDeliveryStatusLabels: Record<TemplateDeliveryStatus, string> = {
  pending: 'En cola',
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  failed: 'Fallido',
};

/** Where a template message was sent from: a chat's composer, a campaign chunk or a massive send. */
export const templateLogSources = ['chat', 'campaign', 'massive'] as const;
export type TemplateLogSource = (typeof templateLogSources)[number];
export const templateLogSourceLabels: Record<TemplateLogSource, string> = {
  chat: 'Chat',
  campaign: 'Campaña',
  massive: 'Envío masivo',
};

/**
 * template-messages-logs (SPEC §7, /marketing/historial-plantillas): one row per template
 * message sent. A read model (decision 0042): the database writes each row from the chat
 * message it is (its id is the message's), in the same statement that writes or moves the
 * message — from a chat, a campaign chunk or a massive send — so the history is the messages'
 * own status, never a second place to update. Hence list and get only.
 *
 * Not shown in the spec: the template's name, the recipient's phone and name, the delivery
 * status, the provider's reason when it failed, the lead and chat, where it was sent from and
 * the send's name. Default sort createdAt desc: the latest send first.
 */
export const templateMessagesLogs = defineResource({
  key: 'template-messages-logs',
  label: 'Historial de plantilla',
  labelPlural: 'Historial de plantillas',
  module: 'messaging',
  operations: ['list', 'get'],
  fields: {
    /** Meta's name of the template: lower case letters, digits and _. */
    templateName: zText(512).regex(/^[a-z0-9_]+$/, 'El nombre de una plantilla solo tiene minúsculas, números y _'),
    telefono: zOptionalText(40).optional(),
    nombre: zOptionalText(200).optional(),
    status: zEnum(templateDeliveryStatuses),
    error: zOptionalText(2000).optional(),
    leadId: zRefId(),
    chatId: zRefId(),
    source: zEnum(templateLogSources),
    sendName: zOptionalText(200).optional(),
  },
  refs: { leadId: 'leads', chatId: 'chats' },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['templateName', 'telefono', 'nombre'],
  sortable: ['templateName', 'status'],
  filterable: ['status', 'templateName', 'source', 'createdAt'],
  examples: [
    { templateName: 'bienvenida_cliente', telefono: '51987001122', nombre: 'María Quispe', status: 'read', source: 'chat' },
    { templateName: 'confirmacion_pedido', telefono: '51955443322', nombre: 'José Flores', status: 'delivered', source: 'campaign', sendName: 'Campaña Día de la Madre · bloque 1' },
    {
      templateName: 'recordatorio_pago',
      telefono: '51944556677',
      nombre: 'Lucía Sánchez',
      status: 'failed',
      error: '131026 · Mensaje no entregable · el número no tiene WhatsApp o no pudo recibirlo',
      source: 'chat',
    },
  ],
});
