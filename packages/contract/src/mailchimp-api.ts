import { z } from 'zod';
import { zId } from './fields.js';

/**
 * Mailchimp, end to end (issue 15, decision 0051): each credential of `mailchimps` is one
 * audience (server prefix, audience id, API key sealed). The labels of
 * `set_mostrador_labels_massive` with `hasToSendToMailchimp` reach Mailchimp as tags of the
 * labelled people, a member upserted per e-mail; a pull brings an audience's members into
 * `mailchimp-contacts`. Both are jobs with live progress and a per-contact report.
 *
 *   GET    /mailchimp/accounts                 → {payload: MailchimpAccountOut[]} (the key's last 4 only)
 *   POST   /mailchimps/{id}/test               → MailchimpTestOut («Probar conexión»)
 *   POST   /mailchimps/{id}/pull               → 202 {msg, sync}: «Sincronizar desde Mailchimp»
 *   GET    /mailchimp/syncs                    → {payload: MailchimpSyncOut[]} (the last 20)
 *   GET    /mailchimp/syncs/{id}               → MailchimpSyncOut
 *   GET    /mailchimp/syncs/{id}/report        ?outcome&page → the per-contact report
 *   (SSE)  mailchimp.sync                      a sync moved on
 */

/** Which part of a credential a failed connection test points at. */
export const mailchimpProblems = ['apiKey', 'serverPrefix', 'listId', 'network', 'mailchimp'] as const;
export type MailchimpProblem = (typeof mailchimpProblems)[number];

export const mailchimpTestOut = z.object({
  ok: z.boolean(),
  msg: z.string(),
  problem: z.enum(mailchimpProblems).optional(),
  /** The audience as Mailchimp names it, and its member count. */
  audience: z.object({ name: z.string(), members: z.number().int() }).optional(),
});
export type MailchimpTestOut = z.infer<typeof mailchimpTestOut>;

export const mailchimpAccountOut = z.object({
  _id: z.string(),
  name: z.string(),
  serverPrefix: z.string(),
  listId: z.string(),
  /** «…-us21» style: the key's last four characters, never more. */
  keyHint: z.string().optional(),
  sandbox: z.boolean(),
});
export type MailchimpAccountOut = z.infer<typeof mailchimpAccountOut>;

export const mailchimpSyncKinds = ['labels', 'pull'] as const;
export const mailchimpSyncStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type MailchimpSyncStatus = (typeof mailchimpSyncStatuses)[number];
export const mailchimpSyncStatusLabels: Record<MailchimpSyncStatus, string> = {
  queued: 'En cola',
  running: 'Enviando',
  done: 'Terminada',
  failed: 'Falló',
};

export const mailchimpSyncOut = z.object({
  _id: z.string(),
  kind: z.enum(mailchimpSyncKinds),
  status: z.enum(mailchimpSyncStatuses),
  /** The audience (pull), or absent: a labels sync goes to every audience of the company. */
  mailchimpId: z.string().optional(),
  audienceNames: z.array(z.string()),
  segmentId: z.string().optional(),
  segmentName: z.string().optional(),
  labelNames: z.array(z.string()),
  /** Contacts to go through (people × audiences; a pull: the audience's members). */
  total: z.number().int(),
  done: z.number().int(),
  ok: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  requests: z.number().int(),
  /** Why it stopped, or what it waits for («… se reintentará»). */
  message: z.string().optional(),
  createdAt: z.string(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
});
export type MailchimpSyncOut = z.infer<typeof mailchimpSyncOut>;

export const mailchimpOutcomes = ['ok', 'error', 'skipped'] as const;
export type MailchimpOutcome = (typeof mailchimpOutcomes)[number];
export const mailchimpOutcomeLabels: Record<MailchimpOutcome, string> = { ok: 'Enviado', error: 'Con error', skipped: 'Omitido' };

export const mailchimpReportQuery = z
  .object({
    outcome: z.enum(mailchimpOutcomes, { error: 'Resultado desconocido' }).optional(),
    page: z.coerce.number({ error: 'La página debe ser un número' }).int().min(1, 'La página mínima es 1').max(10_000, 'Página demasiado alta').default(1),
  })
  .strict();

export const MAILCHIMP_REPORT_PAGE = 50;

export const mailchimpReportOut = z.object({
  payload: z.array(
    z.object({
      cleanLeadId: z.string().optional(),
      name: z.string().optional(),
      email: z.string().optional(),
      audienceName: z.string().optional(),
      outcome: z.enum(mailchimpOutcomes),
      reason: z.string().optional(),
      tags: z.array(z.string()),
      at: z.string(),
    }),
  ),
  totalDocs: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type MailchimpReportOut = z.infer<typeof mailchimpReportOut>;

export const mailchimpIdParams = z.object({ id: zId() });

export const mailchimpMessages = {
  noAccounts: 'No hay credenciales de Mailchimp en esta compañía: agrégalas en Mailchimp (menú Integraciones) y vuelve a enviar',
  pullQueued: 'Trayendo los contactos de la audiencia de Mailchimp',
  busy: 'Otra sincronización con Mailchimp de esta compañía está en curso: esta empieza al terminar aquella',
  noEmail: 'Sin correo electrónico: Mailchimp identifica a cada contacto por su correo',
  keyInvalid: 'La API key no es válida o fue revocada: genera una nueva en Mailchimp (Perfil › Extras › API keys) y guárdala',
  keyDatacenter: 'La API key termina en otro servidor: el prefijo del servidor debe ser el final de la key (por ejemplo us21 en «…-us21»)',
  serverPrefix: 'El prefijo del servidor no corresponde a esta API key: usa lo que va después del guion en la key (por ejemplo us21)',
  listMissing: 'La audiencia no existe en esta cuenta: revisa el id de la audiencia (Audiencia › Configuración › Nombre y valores por defecto)',
  forbidden: 'Mailchimp rechazó la key: la cuenta está deshabilitada o la key no tiene permiso sobre esta audiencia',
  rateLimited: 'Mailchimp limitó las solicitudes (429) y siguió rechazándolas tras varios reintentos: se reintentará',
  unavailable: 'Mailchimp respondió con un error del servidor tras varios reintentos: se reintentará',
  network: 'No se pudo conectar con Mailchimp: revisa el prefijo del servidor y la conexión a internet',
} as const;
