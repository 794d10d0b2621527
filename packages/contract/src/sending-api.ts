import { z } from 'zod';
import { campaignStatuses, campaignStatusLabels } from './constants.js';
import { zId, zInteger } from './fields.js';
import { imaginaVariables } from './imagina.js';

/**
 * The sending engine (issue 13, decision 0041): a send is one chunk of a campaign, or one
 * massive message, going to its recipients exactly once each through an outbox.
 *
 * A send's status: the spec's campaign statuses (SPEC §4) plus `scheduled` (a chunk waiting for
 * its time) and `stopped` (stopped by hand, or a scheduled chunk called off; resumable).
 */
export const sendStatuses = ['scheduled', ...campaignStatuses, 'stopped'] as const;
export type SendStatus = (typeof sendStatuses)[number];
export const sendStatusLabels: Record<SendStatus, string> = {
  scheduled: 'Programado',
  pending: 'Pendiente',
  processing: 'Enviando',
  sent: 'Enviado',
  error: 'Con error',
  sent_with_some_errors: campaignStatusLabels.sent_with_some_errors,
  stopped: 'Detenido',
};

/**
 * One recipient's outcome: `queued` (waiting its turn), `sending` (claimed, the provider is being
 * called), `skipped` (the pre-send check left them out, with why), `failed` (with the provider's
 * reason), then what the provider reports of a sent message: `sent`, `delivered`, `read`.
 */
export const recipientStatuses = ['queued', 'sending', 'skipped', 'sent', 'delivered', 'read', 'failed'] as const;
export type RecipientStatus = (typeof recipientStatuses)[number];
export const recipientStatusLabels: Record<RecipientStatus, string> = {
  queued: 'En cola',
  sending: 'Enviando',
  skipped: 'Omitido',
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  failed: 'Falló',
};

/** The most recipients a chunk holds (the campaign's chunkSize has the same limit). */
export const MAX_CHUNK_SIZE = 1000;

/** SPEC §3 chunk payload: chunkPage (from 0), chunkSize, segment, campaign; `scheduledAt` (beyond the spec) programs it. */
export const chunkInput = z
  .object({
    chunkPage: zInteger(0).max(100_000, 'La página del bloque es demasiado grande'),
    chunkSize: zInteger(1).max(MAX_CHUNK_SIZE, `El tamaño máximo de un bloque es ${MAX_CHUNK_SIZE}`),
    segment: zId(),
    campaign: zId(),
    scheduledAt: z.iso.datetime({ offset: true, error: 'Debe ser una fecha y hora válida' }).optional(),
  })
  .strict();
export type ChunkInput = z.infer<typeof chunkInput>;

/** POST /marketing-campaigns/stop_scheduled_chunk, /stop_manually_chunk, /resume_chunk, /retry_failed_chunk. */
export const chunkRef = z.object({ campaignId: zId(), chunkPage: zInteger(0).max(100_000, 'La página del bloque es demasiado grande') }).strict();
export type ChunkRef = z.infer<typeof chunkRef>;
/** POST /marketing-campaigns/stop_all_scheduled_chunks_for_campaign. */
export const campaignRef = z.object({ campaignId: zId() }).strict();

/** A send's counts: every recipient is in exactly one. */
export const sendCounts = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  sending: z.number().int(),
  skipped: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
});
export type SendCounts = z.infer<typeof sendCounts>;

export const sendOut = z.object({
  _id: z.string(),
  kind: z.enum(['campaign', 'massive']),
  campaignId: z.string().optional(),
  chunkPage: z.number().int().optional(),
  chunkSize: z.number().int().optional(),
  name: z.string(),
  status: z.enum(sendStatuses),
  counts: sendCounts,
  scheduledAt: z.string().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  stopRequested: z.boolean(),
  /** Why the whole send could not go out (no line, template not approved…). */
  error: z.string().optional(),
  createdAt: z.string(),
});
export type SendOut = z.infer<typeof sendOut>;

/** POST /marketing-campaigns/send_chunk and the chunk calls that change one: the message and the chunk as it is now. */
export const chunkActionOut = z.object({ msg: z.string(), chunk: sendOut });
export const chunkActionsOut = z.object({ msg: z.string(), stopped: z.number().int() });

/** GET /marketing-campaigns/{id}/programmed-chunks: the campaign's chunks (scheduled first, by time), with the plan. */
export const programmedChunksOut = z.object({
  campaignId: z.string(),
  status: z.enum(campaignStatuses),
  /** Who the segment holds now, and how many chunks of the campaign's size that makes. */
  audience: z.number().int(),
  chunkSize: z.number().int(),
  chunks: z.number().int(),
  payload: z.array(sendOut),
});
export type ProgrammedChunks = z.infer<typeof programmedChunksOut>;

/** One recipient of a send or chunk, as the report lists it. */
export const recipientOut = z.object({
  _id: z.string(),
  cleanLeadId: z.string(),
  name: z.string(),
  telefono: z.string().optional(),
  chatId: z.string().optional(),
  status: z.enum(recipientStatuses),
  reason: z.string().optional(),
  attempts: z.number().int(),
  sentAt: z.string().optional(),
  updatedAt: z.string(),
});
export type RecipientOut = z.infer<typeof recipientOut>;

/** POST /marketing-campaigns/chunk_detail: who is in a chunk (before it is sent: who would be, as the segment is now). */
export const chunkDetailOut = z.object({
  chunkPage: z.number().int(),
  chunkSize: z.number().int(),
  /** Absent when the chunk was never sent: the list is the segment's page as it is now. */
  chunk: sendOut.optional(),
  total: z.number().int(),
  payload: z.array(recipientOut),
});
export type ChunkDetail = z.infer<typeof chunkDetailOut>;

/** GET /sends/{id}/recipients: a send's report, filtered by status, paged. */
export const recipientQuery = z
  .object({
    status: z.enum(recipientStatuses).optional(),
    page: z.coerce.number({ error: 'Debe ser un número' }).int('Debe ser un número entero').min(1, 'Debe ser al menos 1').max(100_000, 'La página es demasiado grande').default(1),
    limit: z.coerce.number({ error: 'Debe ser un número' }).int('Debe ser un número entero').min(1, 'Debe ser al menos 1').max(500, 'Como máximo 500').default(50),
  })
  .strict();
export const recipientListOut = z.object({ payload: z.array(recipientOut), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

export const sendingMessages = {
  chunkQueued: 'Bloque en cola de envío',
  chunkScheduled: (at: string) => `Bloque programado para ${at}`,
  chunkStopped: 'Bloque detenido',
  chunkResumed: 'Bloque reanudado',
  retryQueued: (n: number) => (n === 1 ? 'Se reintentará 1 destinatario' : `Se reintentarán ${n} destinatarios`),
  nothingToRetry: 'No hay destinatarios con error en este bloque',
  scheduledStopped: (n: number) => (n === 1 ? 'Se detuvo 1 bloque programado' : `Se detuvieron ${n} bloques programados`),
  chunkNotFound: 'Ese bloque no se ha enviado ni programado',
  campaignNotFound: 'La campaña no existe en esta compañía',
  segmentNotFound: 'El segmento no existe en esta compañía',
  segmentMismatch: 'El segmento no es el de la campaña',
  chunkExists: 'Ese bloque ya se envió o está programado: detenlo, reanúdalo o reintenta sus errores',
  notScheduled: 'Ese bloque no está programado',
  notRunning: 'Ese bloque no se está enviando',
  notStopped: 'Solo se reanuda un bloque detenido',
  pastSchedule: 'La fecha programada ya pasó',
  emptyChunk: 'Ese bloque no tiene destinatarios: el segmento tiene menos personas',
  // why a recipient is left out (the pre-send check)
  optedOut: 'La persona pidió no recibir mensajes (/dias-frecuencia)',
  frequency: (days: number) => `Ya recibió un mensaje masivo en los últimos ${days} días (/dias-frecuencia)`,
  noChat: 'No tiene chat de WhatsApp con la empresa',
  noPhone: 'No tiene número de WhatsApp',
  missingValue: (n: number, field: string) => `Falta el valor de {{${n}}} (${field})`,
  missingVariable: (name: string) => `Falta el valor de {{${name}}}${name in imaginaVariables ? ` (${imaginaVariables[name as keyof typeof imaginaVariables]})` : ''}`,
  alreadySent: 'Ya recibió esta campaña en otro bloque',
  windowClosed: 'Pasaron más de 24 horas desde su último mensaje: solo se le puede escribir con una plantilla',
  // why a whole send cannot go out
  noLine: 'La empresa no tiene una línea de WhatsApp conectada',
  noTemplate: (name: string) => `La plantilla «${name}» no existe en la línea de WhatsApp de la empresa: sincroniza las plantillas`,
  templateNotApproved: (name: string, status: string) => `La plantilla «${name}» no está aprobada (${status})`,
  onlyWhatsapp: 'Por ahora las campañas se envían por WhatsApp',
  typedVariable: (name: string, n: number) =>
    `La plantilla «${name}» tiene una variable que se escribe a mano ({{${n}}}): en un envío a muchas personas cada variable sale de la ficha del cliente; elige de dónde en /mensajes_de_plantilla`,
  interrupted: 'El envío se interrumpió varias veces sin respuesta de WhatsApp: revisa la línea y reintenta',
} as const;

/**
 * Massive sends to an audience (issue 13, /marketing/massive-messages, decision 0043): who (a
 * saved segment, or a selection of Mostrador labels: people holding any of them) and what (free
 * text, an approved WhatsApp template, or an Imagina template).
 *
 *   POST /sends/check   sendCheckInput → SendCheckOut   the pre-send check; nothing is written
 *   POST /sends         massSendInput  → 202 MassSendOut a massive send through the engine
 */
export const MAX_MASS_AUDIENCE = 100_000;
const audienceShape = z
  .object({
    segmentId: zId().optional(),
    mostradorLabelIds: z.array(zId()).min(1, 'Elige al menos una etiqueta').max(200, 'Como máximo 200 etiquetas').optional(),
  })
  .strict();
export const massAudience = audienceShape.refine((a) => Boolean(a.segmentId) !== Boolean(a.mostradorLabelIds?.length), {
  message: 'Elige un segmento o una selección de etiquetas (solo uno de los dos)',
  path: ['segmentId'],
});
export type MassAudience = z.infer<typeof massAudience>;
const messageShape = z
  .object({
    text: z.string({ error: 'Debe ser un texto' }).trim().min(1, 'Escribe el mensaje').max(4096, 'El mensaje admite hasta 4096 caracteres').optional(),
    whatsappTemplateId: zId().optional(),
    imaginaTemplateId: zId().optional(),
  })
  .strict();
export const massMessage = messageShape.refine((m) => [m.text, m.whatsappTemplateId, m.imaginaTemplateId].filter(Boolean).length === 1, {
  message: 'Elige qué enviar: un texto, una plantilla de WhatsApp o una plantilla Imagina',
  path: ['text'],
});
export type MassMessage = z.infer<typeof massMessage>;
export const sendCheckInput = z.object({ audience: massAudience, message: massMessage }).strict();
export type SendCheckInput = z.infer<typeof sendCheckInput>;
export const massSendInput = z
  .object({
    name: z.string({ error: 'Debe ser un texto' }).trim().min(1, 'Ponle un nombre al envío').max(200, 'El nombre admite hasta 200 caracteres'),
    audience: massAudience,
    message: massMessage,
  })
  .strict();
export type MassSendInput = z.infer<typeof massSendInput>;

/** How many of the audience would get it, how many not and why, the line's daily limit and the cost. */
export const sendCheckOut = z.object({
  /** Everyone the audience holds now. */
  audience: z.number().int(),
  /** Those who would receive it; the rest are skipped with a reason. */
  queued: z.number().int(),
  skipped: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  /** A few of those skipped, with why, to act on before sending. */
  skippedSample: z.array(z.object({ cleanLeadId: z.string(), name: z.string(), telefono: z.string().optional(), reason: z.string() })),
  /** Of those queued: inside the 24-hour window (free text allowed, utility free) or outside it (templates only, counted by Meta's limit). */
  insideWindow: z.number().int(),
  outsideWindow: z.number().int(),
  /** Why nothing can be sent as asked (no line, template not approved…); absent when it can. */
  blocking: z.string().optional(),
  dailyLimit: z.object({
    tier: z.string().optional(),
    /** Unique people outside the window per moving 24 h; absent = unlimited or unknown (see `known`). */
    limit: z.number().int().optional(),
    known: z.boolean(),
    /** People reached outside their window by this company's line in the last 24 h. */
    used: z.number().int(),
    /** Of this send, how many would go over the limit. */
    over: z.number().int(),
  }),
  cost: z.object({
    currency: z.string(),
    total: z.number(),
    /** Per category and market: how many messages are charged, the rate and the amount (in `currency`). */
    lines: z.array(z.object({ category: z.string(), market: z.string(), count: z.number().int(), rate: z.number(), amount: z.number() })),
    /** Messages that cost nothing (free text, utility inside the window). */
    free: z.number().int(),
    ratesAsOf: z.string(),
    usdRate: z.number(),
  }),
});
export type SendCheckOut = z.infer<typeof sendCheckOut>;
export const massSendOut = z.object({ msg: z.string(), send: sendOut, logId: z.string() });

/**
 * The Imagina template calls (SPEC §7 imagina_template_messages; not shown: their bodies):
 *   POST /imagina_template_messages/send_single_message  {imaginaTemplateId, chatId}
 *   POST /imagina_template_messages/send_bulk_messages   {imaginaTemplateId, chatIds[], name?}
 *   POST /imagina_template_messages/send_massive_messages {imaginaTemplateId, audience, name}
 * each → 202 MassSendOut: one send through the engine, in the massive history.
 */
export const imaginaSingleInput = z.object({ imaginaTemplateId: zId(), chatId: zId() }).strict();
export const imaginaBulkInput = z
  .object({
    imaginaTemplateId: zId(),
    chatIds: z.array(zId(), { error: 'Debe ser una lista' }).min(1, 'Elige al menos un chat').max(1000, 'Como máximo 1000 chats por envío'),
    name: z.string({ error: 'Debe ser un texto' }).trim().min(1, 'Ponle un nombre al envío').max(200, 'El nombre admite hasta 200 caracteres').optional(),
  })
  .strict();
export const imaginaMassiveInput = z
  .object({
    imaginaTemplateId: zId(),
    audience: massAudience,
    name: z.string({ error: 'Debe ser un texto' }).trim().min(1, 'Ponle un nombre al envío').max(200, 'El nombre admite hasta 200 caracteres'),
  })
  .strict();
export type MassSendOut = z.infer<typeof massSendOut>;

export const massSendMessages = {
  queued: 'Envío masivo en cola: sigue su avance en el historial',
  singleQueued: 'Mensaje en cola de envío',
  chatNotFound: 'Algún chat no existe en esta compañía',
  audienceTooLarge: (n: number) => `La audiencia tiene ${n.toLocaleString('es-PE')} personas: el máximo de un envío es ${MAX_MASS_AUDIENCE.toLocaleString('es-PE')}`,
  emptyAudience: 'Nadie de esta audiencia recibiría el mensaje: revisa los omitidos',
  imaginaNotFound: 'La plantilla Imagina no existe en esta compañía',
  imaginaNotApproved: (name: string) => `La plantilla Imagina «${name}» es un borrador: apruébala antes de enviarla`,
  templateNotFound: 'La plantilla no existe en la línea de WhatsApp de la empresa',
  /** The pre-send check's warning (the composer's panel and its confirmation). */
  overLimit: (n: number) =>
    `${n.toLocaleString('es-PE')} ${n === 1 ? 'persona de este envío supera' : 'personas de este envío superan'} el límite diario de la línea: WhatsApp no les entregará el mensaje hasta que se libere cupo (el cupo se mueve con las últimas 24 horas)`,
  limitUnknown: 'No se pudo consultar el límite diario de la línea en Meta',
} as const;
