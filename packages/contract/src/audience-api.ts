import { z } from 'zod';
import { zId } from './fields.js';

/**
 * Facebook Custom Audiences (SPEC §2 /facebook-audiencias, §7 send-to-audience; decision 0048):
 * the people of some labels uploaded to a customer-file custom audience of the company's Meta ad
 * account (the one connected in Métricas › Ventas), e-mails and phones normalised then SHA-256
 * hashed, in batches of at most `AUDIENCE_BATCH_MAX` rows of one upload session.
 *
 *   GET  /facebook-audiences/overview                   → AudienceOverview (every audience: members, last send; the ad account)
 *   GET  /facebook-audiences/{id}/sends                 → { payload: AudienceSendOut[] } (its history, newest first)
 *   POST /facebook-audiences/{id}/create-at-facebook    → AudienceOverviewItem (creates it in the ad account, keeps its id)
 *   POST /audience-sends/{id}/retry                     → AudienceSendOut (a failed send goes on where it stopped)
 *   POST /leads/send-to-audience, /clean-leads/send-to-audience (lead-api.ts) record and queue a send
 *
 * The `audience.progress` event (GET /api/events) carries a send as it moves.
 */

/** Meta takes at most 10,000 rows per call of POST /{audience_id}/users. */
export const AUDIENCE_BATCH_MAX = 10_000;

/**
 * A send's state: queued → uploading → finished | failed (with why, in Spanish; «Reintentar»
 * goes on from the last batch Meta accepted) | cancelado (the audience was deleted first).
 * `pendiente-de-integracion`: sends recorded before the upload existed (only marked members).
 */
export const audienceSendStatuses = ['queued', 'uploading', 'finished', 'failed', 'pendiente-de-integracion', 'cancelado'] as const;
export type AudienceSendStatus = (typeof audienceSendStatuses)[number];
export const audienceSendStatusLabels: Record<AudienceSendStatus, string> = {
  queued: 'En cola',
  uploading: 'Subiendo',
  finished: 'Terminado',
  failed: 'Falló',
  'pendiente-de-integracion': 'Registrado (sin subir)',
  cancelado: 'Cancelado',
};

export const audienceSendOut = z.object({
  _id: z.string(),
  kind: z.enum(['leads', 'clean-leads']),
  audienceId: z.string().nullable(),
  facebookAudienceId: z.string().nullable(),
  labels: z.array(z.string()),
  showMissingLeads: z.boolean(),
  status: z.enum(audienceSendStatuses),
  /** Records with the labels when it was asked. */
  count: z.number().int(),
  /** People with an e-mail or a phone when the upload started (Meta's estimated_num_total). */
  total: z.number().int(),
  /** Rows Meta accepted so far (one per person). */
  sent: z.number().int(),
  /** Meta's num_received and num_invalid_entries, summed over the batches. */
  received: z.number().int(),
  invalid: z.number().int(),
  /** People with neither a usable e-mail nor a phone: not uploaded. */
  skipped: z.number().int(),
  batchesDone: z.number().int(),
  batchesTotal: z.number().int(),
  /** Why it failed (Spanish). */
  reason: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type AudienceSendOut = z.infer<typeof audienceSendOut>;

export const audienceOverviewItem = z.object({
  _id: z.string(),
  name: z.string(),
  facebookAudienceId: z.string().nullable(),
  /** People marked as sent to it (their batch accepted by Meta). */
  members: z.number().int(),
  lastSend: audienceSendOut.nullable(),
});
export type AudienceOverviewItem = z.infer<typeof audienceOverviewItem>;

export const audienceOverview = z.object({
  /** The ad account audiences belong to (Métricas › Ventas). */
  account: z.object({ configured: z.boolean(), adAccountId: z.string().optional(), name: z.string().optional(), sandbox: z.boolean().optional() }),
  payload: z.array(audienceOverviewItem),
});
export type AudienceOverview = z.infer<typeof audienceOverview>;

export const audienceIdParams = z.object({ id: zId() }).strict();

export const audienceMessages = {
  noAccount: 'Conecta primero la cuenta publicitaria de Meta (Métricas › Ventas): las audiencias se crean en ella',
  noIdentifiers: 'Ninguno de esos registros tiene e-mail ni teléfono: Meta no tendría con qué encontrarlos',
  tokenInvalid: 'El token de Meta venció o no es válido: genera uno nuevo en Meta Business (con el permiso ads_management) y guárdalo en Métricas › Ventas',
  noPermission: 'El token no tiene el permiso ads_management sobre la cuenta publicitaria: agrégalo al usuario del sistema en Meta Business',
  noAudience: 'La audiencia no existe en la cuenta publicitaria de Meta (¿se borró allí?): quita su identificador y vuelve a crearla',
  terms: 'Meta pide aceptar los términos de las audiencias personalizadas de la cuenta publicitaria (Administrador de anuncios › Públicos) antes de subir personas',
  throttled: 'Meta limitó las subidas a audiencias por un momento y no aceptó el lote tras varios intentos: usa «Reintentar» en unos minutos',
  tooMany: 'Meta rechazó el lote por tener más de 10.000 filas',
  alreadyCreated: 'La audiencia ya existe en Facebook',
  created: 'Audiencia creada en Facebook',
  notFailed: 'Solo un envío que falló se puede reintentar',
  retried: 'Reintentando el envío desde el último lote aceptado',
  crashed: 'El envío se interrumpió: se continúa desde el último lote aceptado',
} as const;
