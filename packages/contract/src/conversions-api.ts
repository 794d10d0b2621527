import { z } from 'zod';
import { leadStatuses } from './resources/leads.js';

/**
 * Meta's Conversions API for business messaging (issue 31, decision 0098): purchases (paid orders)
 * and qualified leads of people who came from a click-to-WhatsApp, click-to-Messenger or
 * click-to-Instagram ad go back to the company's dataset, when its owner turns it on.
 *
 *   GET  /conversions-api/settings            → ConversionSettingsOut (the token never, only whether it is set)
 *   PUT  /conversions-api/settings            conversionSettingsInput → ConversionSettingsOut
 *   GET  /conversions-api/events?status&cursor → {data: ConversionEventOut[], nextCursor?}
 *   POST /conversions-api/events/{id}/retry   → ConversionEventOut (a failed or pending event, queued now)
 */
export const CONVERSION_WINDOW_DAYS = 7;
/** Meta's limit per request. */
export const CONVERSION_BATCH_MAX = 1000;
export const conversionEventNames = ['Purchase', 'LeadSubmitted'] as const;
export type ConversionEventName = (typeof conversionEventNames)[number];
export const conversionEventStatuses = ['pending', 'sent', 'skipped', 'failed'] as const;
export type ConversionEventStatus = (typeof conversionEventStatuses)[number];
export const conversionEventStatusLabels: Record<ConversionEventStatus, string> = {
  pending: 'Pendiente',
  sent: 'Enviado',
  skipped: 'No se envía',
  failed: 'Falló',
};
export const conversionEventNameLabels: Record<ConversionEventName, string> = { Purchase: 'Compra', LeadSubmitted: 'Lead calificado' };

export const conversionSettingsInput = z
  .object({
    enabled: z.boolean(),
    datasetId: z
      .string({ error: 'Escribe el identificador del conjunto de datos' })
      .trim()
      .regex(/^\d{5,25}$/, 'Es el número del conjunto de datos (dataset) de Meta, solo dígitos')
      .optional(),
    /** Absent: the stored one is kept. */
    accessToken: z.string().trim().min(20, 'El token de acceso parece incompleto').max(1000, 'El token de acceso es demasiado largo').optional(),
    /** Absent: the stored one is kept (first time: «Informado al agente»). */
    qualifiedStatus: z.enum(leadStatuses, { error: 'Elige un estado del lead' }).optional(),
    /** Absent: the stored one is kept (first time: on). */
    sendQualified: z.boolean().optional(),
  })
  .strict();
export type ConversionSettingsInput = z.input<typeof conversionSettingsInput>;

export const conversionSettingsOut = z.object({
  enabled: z.boolean(),
  datasetId: z.string().optional(),
  tokenSet: z.boolean(),
  tokenHint: z.string().optional(),
  qualifiedStatus: z.enum(leadStatuses),
  sendQualified: z.boolean(),
});
export type ConversionSettingsOut = z.infer<typeof conversionSettingsOut>;

export const conversionEventOut = z.object({
  _id: z.string(),
  eventName: z.enum(conversionEventNames),
  channel: z.string().nullable(),
  status: z.enum(conversionEventStatuses),
  leadId: z.string().nullable(),
  orderId: z.string().nullable(),
  value: z.number().nullable(),
  currency: z.string().nullable(),
  /** Why it was skipped or failed, in Spanish. */
  reason: z.string().nullable(),
  eventsReceived: z.number().int().nullable(),
  fbtraceId: z.string().nullable(),
  errorCode: z.number().int().nullable(),
  errorType: z.string().nullable(),
  attempts: z.number().int(),
  eventTime: z.string(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ConversionEventOut = z.infer<typeof conversionEventOut>;

export const conversionEventsQuery = z.object({
  status: z.enum(conversionEventStatuses, { error: 'Elige un estado del envío' }).optional(),
  cursor: z.string().max(200).optional(),
});

export const conversionEventsOut = z.object({ data: z.array(conversionEventOut), nextCursor: z.string().optional() });

export const conversionsMessages = {
  needsDataset: 'Para activar el envío falta el identificador del conjunto de datos',
  needsToken: 'Para activar el envío falta el token de acceso',
  notFound: 'No existe ese envío a Meta',
  notRetryable: 'Solo se reintenta un envío pendiente o fallido',
  retried: 'Se reintentará el envío ahora',
  organic: 'El lead no llegó desde un anuncio de Meta (no tiene referencia de clic)',
  noClickId: 'La referencia del anuncio no trae el id de clic (ctwa_clid) que Meta pide',
  tooOld: `Pasaron más de ${CONVERSION_WINDOW_DAYS} días desde el clic en el anuncio: Meta ya no acepta el evento`,
  noChannel: 'La empresa no tiene conectado el canal por el que llegó el lead (falta el id de la cuenta)',
  noPerson: 'El lead no tiene el id de la persona en el canal',
  noLead: 'El pedido no está asociado a un lead',
  expired: `Pasaron más de ${CONVERSION_WINDOW_DAYS} días desde el clic y Meta no lo recibió: no se reintenta más`,
} as const;
