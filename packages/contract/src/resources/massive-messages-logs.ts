import { z } from 'zod';
import { campaignStatuses } from '../constants.js';
import { defineResource } from '../define-resource.js';
import { zEnum, zInteger, zText } from '../fields.js';
import { recipientOut, recipientStatuses, sendOut } from '../sending-api.js';

/**
 * massive-messages-logs (SPEC §7, /marketing/historial_mensajes_masivos): one row per
 * massive send. Not shown in the spec: a name, the message, the number of recipients and how
 * many were sent and failed, and the send's status (the campaign statuses of SPEC §9).
 * Default sort createdAt desc: the latest send first. The screen is a history (decision 0042):
 * the rows are written by the send itself; the spec's create, update and delete stay served.
 */
export const massiveMessagesLogs = defineResource({
  key: 'massive-messages-logs',
  label: 'Envío masivo',
  labelPlural: 'Historial de mensajes masivos',
  module: 'messaging',
  fields: {
    name: zText(200),
    message: zText(4096),
    total: zInteger(0),
    sent: zInteger(0),
    failed: zInteger(0),
    status: zEnum(campaignStatuses),
  },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['name', 'message'],
  sortable: ['name', 'status'],
  filterable: ['status', 'createdAt'],
  examples: [
    {
      name: 'Ofertas de verano',
      message: '¡Llegó el verano! 2x1 en gaseosas de 1.5 L hasta el domingo.',
      total: 1250,
      sent: 1250,
      failed: 0,
      status: 'sent',
    },
    {
      name: 'Aviso de feriado',
      message: 'Este 28 de julio atendemos de 9 a. m. a 1 p. m. ¡Felices Fiestas Patrias!',
      total: 980,
      sent: 961,
      failed: 19,
      status: 'sent_with_some_errors',
    },
    { name: 'Canastas Día de la Madre', message: 'Sorprende a mamá: canastas desde S/ 59.90.', total: 1500, sent: 0, failed: 0, status: 'pending' },
  ],
});

/**
 * GET /massive-messages-logs/{id}/recipients (decision 0042): the per-recipient report of a
 * massive send, filtered by status and by a search on name or phone, paged. `send`: the send
 * the log is (status and live counts), absent for a log written before the sending engine.
 */
export const massiveLogRecipientQuery = z
  .object({
    status: z.enum(recipientStatuses, { error: 'Elige una opción válida' }).optional(),
    q: z.string({ error: 'Debe ser un texto' }).trim().max(200, 'Como máximo 200 caracteres').optional(),
    page: z.coerce.number({ error: 'Debe ser un número' }).int('Debe ser un número entero').min(1, 'Debe ser al menos 1').max(100_000, 'La página es demasiado grande').default(1),
    limit: z.coerce.number({ error: 'Debe ser un número' }).int('Debe ser un número entero').min(1, 'Debe ser al menos 1').max(500, 'Como máximo 500').default(50),
  })
  .strict();
export const massiveLogReportOut = z.object({
  payload: z.array(recipientOut),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  send: sendOut.optional(),
});
export type MassiveLogReport = z.infer<typeof massiveLogReportOut>;
