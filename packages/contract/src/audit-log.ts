import { z } from 'zod';
import { resourceList } from './resources/index.js';

/**
 * The audit log (issue 28, decision 0072): who changed what, when and from where, read by the
 * company's owner (module `audit`). Append-only: the API has no call that edits or deletes it.
 *
 *   GET /audit-log?entity=&entityId=&actor=&from=&to=&cursor=&limit=   auditPage (newest first, keyset)
 *   GET /audit-log.csv?entity=&entityId=&actor=&from=&to=              the same rows as CSV
 */

export const auditActorTypes = ['user', 'api_key', 'rule', 'system'] as const;
export type AuditActorType = (typeof auditActorTypes)[number];

/** Spanish names of what the log records beyond the resources (and their actions). */
export const auditEntityLabels: Record<string, string> = {
  ...Object.fromEntries(resourceList.map((r) => [r.key, r.labelPlural])),
  users: 'Usuarios',
  api_keys: 'Claves de API',
  audit_log: 'Registro de auditoría',
  // the custom modules' records (decision 0072)
  chat_messages: 'Mensajes de chat',
  sends: 'Envíos',
  scheduled_messages: 'Mensajes programados',
  webhook_subscriptions: 'Suscripciones de webhook',
  webhook_deliveries: 'Entregas de webhook',
  channels: 'Canales (WhatsApp, Messenger, Instagram)',
  telegram_settings: 'Bot de Telegram',
  genial_settings: 'Configuración de Genial',
  llm_settings: 'Motor de IA',
  attribution_settings: 'Atribución de ventas',
  meta_ad_accounts: 'Cuenta publicitaria de Meta',
  business_hours: 'Horario de atención',
  automation_settings: 'Ajustes de las automatizaciones',
};
export const auditActionLabels: Record<string, string> = {
  create: 'Creó',
  update: 'Modificó',
  delete: 'Eliminó',
  sign_in: 'Inició sesión',
  sign_in_failed: 'Intento de inicio de sesión fallido',
  role_change: 'Cambió el rol',
  disable: 'Deshabilitó',
  enable: 'Habilitó',
  revoke: 'Revocó',
  export: 'Exportó',
  import: 'Importó',
  stop: 'Detuvo',
  resume: 'Reanudó',
  retry: 'Reintentó',
  redeliver: 'Reenvió',
  sync: 'Sincronizó',
  cancel: 'Canceló',
};

export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 200;

const isoDate = (what: string) =>
  z.string().datetime({ offset: true, message: `${what} debe ser una fecha y hora ISO (2026-12-31T23:59:59-03:00)` }).optional();

export const auditQuery = z
  .object({
    entity: z
      .string()
      .max(60)
      .refine((e) => e in auditEntityLabels, { message: 'Esa entidad no existe en el registro de auditoría' })
      .optional(),
    entityId: z.string().trim().min(1, 'Indica el id del registro').max(100, 'El id del registro es demasiado largo').optional(),
    actor: z.string().uuid({ message: 'El actor debe ser el id de un usuario o de una clave de API' }).optional(),
    from: isoDate('«Desde»'),
    to: isoDate('«Hasta»'),
    cursor: z.string().max(200, 'El cursor no es válido').optional(),
    limit: z.coerce
      .number({ message: 'El límite debe ser un número' })
      .int('El límite debe ser un número entero')
      .min(1, 'El límite debe ser al menos 1')
      .max(AUDIT_MAX_LIMIT, `El límite es como máximo ${AUDIT_MAX_LIMIT}`)
      .default(AUDIT_DEFAULT_LIMIT),
  })
  .strict()
  .refine((q) => !q.from || !q.to || new Date(q.from) <= new Date(q.to), { message: '«Desde» debe ser anterior a «Hasta»', path: ['from'] });
export type AuditQuery = z.input<typeof auditQuery>;

export const auditEntry = z.object({
  _id: z.string(),
  at: z.string(),
  actor: z.object({ type: z.enum(auditActorTypes), id: z.string().optional(), name: z.string() }),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  /** `{field: {from, to}}`; a secret is '••••', never its value. */
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = z.object({ payload: z.array(auditEntry), nextCursor: z.string().optional() });
export type AuditPage = z.infer<typeof auditPage>;
