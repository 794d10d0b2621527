import { z } from 'zod';

export { gravityFieldMap, type GravityFieldMap, zGravityFieldId } from './resources/gravity-forms.js';

/**
 * Gravity Forms entries as leads (issue 15, decision 0050). Besides the standard resource
 * `gravity-forms` (settings, keys write-only, `fieldMap`):
 *
 *   GET  /gravity-forms/{id}/status          → GravityFormStatus (webhook, last pull, fields known)
 *   POST /gravity-forms/{id}/test            → GravityTestOut (reads the form from the site)
 *   GET  /gravity-forms/{id}/fields          → GravityFieldsOut (the form's fields, live; the mapping editor)
 *   POST /gravity-forms/{id}/webhook-secret  → GravityWebhookSecretOut (a new secret, shown once)
 *   POST /gravity-forms/{id}/sync            → 202 GravitySyncOut («Sincronizar entradas», a job; `gravity.sync` events)
 *   GET  /gravity-forms/entries?formId=…     → {payload: GravityEntryOut[]} (the newest 100)
 *   POST /webhooks/gravity-forms/{id}        the site's Webhooks add-on: `Authorization: Bearer <secret>`, the entry as JSON
 */
export const GRAVITY_WEBHOOK_HEADER = 'Authorization';

export const gravityFormParams = z.object({ id: z.uuid({ error: 'El formulario no existe' }) }).strict();
export const gravityEntriesQuery = z
  .object({
    formId: z.uuid({ error: 'El formulario no existe' }).optional(),
    status: z.enum(['pending', 'created', 'merged', 'rejected'], { error: 'Estado desconocido' }).optional(),
  })
  .strict();

export const gravityFieldOut = z.object({ id: z.string(), label: z.string(), type: z.string() });
export type GravityFieldOut = z.infer<typeof gravityFieldOut>;
/** What the mapping editor offers: each field and each input of a compound field («Nombre › Apellido», 1.6). */
export const gravityFieldsOut = z.object({
  title: z.string(),
  fields: z.array(gravityFieldOut),
  /** The mapping guessed from the fields' types and labels. */
  suggested: z.record(z.string(), z.string()),
});
export type GravityFieldsOut = z.infer<typeof gravityFieldsOut>;

export const gravityTestOut = z.object({
  ok: z.boolean(),
  msg: z.string(),
  /** The setting to fix when it failed. */
  field: z.enum(['siteUrl', 'consumerKey', 'formId']).optional(),
});
export type GravityTestOut = z.infer<typeof gravityTestOut>;

export const gravitySyncStatuses = ['idle', 'queued', 'running', 'done', 'failed'] as const;
export const gravitySyncOut = z.object({
  formId: z.string(),
  status: z.enum(gravitySyncStatuses),
  total: z.number().int(),
  done: z.number().int(),
  created: z.number().int(),
  merged: z.number().int(),
  rejected: z.number().int(),
  requests: z.number().int(),
  /** The highest entry id kept: the next pull asks for the entries after it. */
  lastEntryId: z.number().int(),
  error: z.string().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
});
export type GravitySyncOut = z.infer<typeof gravitySyncOut>;

export const gravityFormStatus = z.object({
  formId: z.string(),
  /** The webhook's path under this server (the screen prefixes its own origin). */
  webhookPath: z.string(),
  webhookSecretSet: z.boolean(),
  /** The secret's last four characters. */
  webhookSecretHint: z.string().optional(),
  webhookSecretAt: z.string().optional(),
  formTitle: z.string().optional(),
  fieldsKnown: z.number().int(),
  sync: gravitySyncOut,
  entries: z.object({ total: z.number().int(), created: z.number().int(), merged: z.number().int(), rejected: z.number().int(), pending: z.number().int() }),
  sandbox: z.boolean(),
});
export type GravityFormStatus = z.infer<typeof gravityFormStatus>;

export const gravityWebhookSecretOut = z.object({
  /** Shown this once: only its last four characters are kept readable. */
  secret: z.string(),
  header: z.string(),
  value: z.string(),
  webhookPath: z.string(),
});
export type GravityWebhookSecretOut = z.infer<typeof gravityWebhookSecretOut>;

export const gravityEntryStatuses = ['pending', 'created', 'merged', 'rejected'] as const;
export type GravityEntryStatus = (typeof gravityEntryStatuses)[number];
export const gravityEntryOut = z.object({
  _id: z.string(),
  formId: z.string(),
  formName: z.string(),
  entryId: z.number().int(),
  source: z.enum(['webhook', 'pull']),
  submittedAt: z.string().optional(),
  name: z.string().optional(),
  telefono: z.string().optional(),
  email: z.string().optional(),
  message: z.string().optional(),
  status: z.enum(gravityEntryStatuses),
  /** Why it made no lead, or what was left out (an invalid phone kept aside). */
  reason: z.string().optional(),
  leadId: z.string().optional(),
  leadName: z.string().optional(),
  /** The dead letter to retry (after fixing the mapping). */
  eventId: z.string().optional(),
  receivedAt: z.string(),
});
export type GravityEntryOut = z.infer<typeof gravityEntryOut>;
export const gravityEntryList = z.object({ payload: z.array(gravityEntryOut) });

export const gravityEntryStatusLabels: Record<GravityEntryStatus, string> = {
  pending: 'Pendiente',
  created: 'Lead creado',
  merged: 'Sumada a un lead',
  rejected: 'Rechazada',
};

export const gravityMessages = {
  noSecret: 'El formulario no tiene secreto de webhook: genéralo en /gravity-forms',
  badSecret: 'Secreto del webhook ausente o no válido (cabecera Authorization: Bearer …)',
  noEntryId: 'El aviso no trae el id de la entrada: en el webhook de Gravity Forms elige formato JSON y «Todos los campos» en el cuerpo',
  wrongForm: (got: string, expected: number) => `La entrada es del formulario ${got}, pero esta dirección es la del formulario ${expected}`,
  notJson: 'El cuerpo del aviso no es JSON ni un formulario codificado',
  noMapping: 'El formulario no tiene asignados los campos de teléfono ni correo: ábrelo en /gravity-forms › «Campos» y luego reintenta la entrada',
  noContact: 'La entrada no tiene teléfono ni correo válidos: no se creó ningún lead (revisa los campos asignados y reintenta)',
  badPhone: (text: string) => `Teléfono no válido, no se guardó: «${text.slice(0, 40)}»`,
  badEmail: (text: string) => `Correo no válido, no se guardó: «${text.slice(0, 60)}»`,
  formGone: 'El formulario ya no existe en Mostrador',
  syncQueued: 'Sincronizando las entradas nuevas del formulario',
  syncRunning: 'Ya se están sincronizando las entradas de este formulario',
  noKeys: 'Faltan la clave y el secreto del consumidor: edita el formulario y guárdalos',
} as const;
