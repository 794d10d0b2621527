import { z } from 'zod';
import { formMessages } from './messages-es.js';
import { type Action, actionsOf, type Module, moduleNames, modules } from './permissions.js';

/**
 * API keys (issue 28, decision 0071): a business's own systems call Mostrador with a key instead
 * of a person's session. All under /api, owner only (module `api`):
 *
 *   POST   /api-keys          apiKeyIn → 201 apiKeyCreated (the secret, shown this once)
 *   GET    /api-keys          the company's keys (never their secret)
 *   DELETE /api-keys/{id}     revoked at once: the very next request with it is refused
 *
 * A key is a bearer by itself (`Authorization: Bearer mst_…`), bound to its company (no
 * X-Company-Id needed; another company's is refused), limited to its permissions and
 * rate-limited per key (429 + Retry-After; RateLimit-Limit / -Remaining / -Reset on every answer).
 */

/** What a key's secret starts with (a scanner can recognise a leaked one). */
export const API_KEY_PREFIX = 'mst_';
/** How many characters of the key are kept in clear to tell keys apart ("mst_1a2b3c4d"). */
export const API_KEY_SHOWN = 12;

/**
 * The modules a key may be given: the business's records, not who may do what. A key never
 * makes keys or webhooks (api), has no profile, and never manages the people, roles or
 * companies of the corporation, nor reads the audit log: those stay with a person's session.
 */
const sessionOnlyModules: readonly Module[] = ['api', 'profile', 'users', 'roles', 'companies', 'audit'];
export const apiKeyModules: Module[] = moduleNames.filter((m) => !sessionOnlyModules.includes(m));

/** Every `module.action` a key may hold. */
export const apiKeyPermissions: string[] = apiKeyModules.flatMap((m) => actionsOf(m).map((a) => `${m}.${a}`));
const allowed = new Set(apiKeyPermissions);

export const apiKeyPermission = z
  .string()
  .max(60)
  .refine((p) => allowed.has(p), { message: 'Ese permiso no existe: usa módulo.acción de la matriz de roles (por ejemplo, leads.list)' });

export const apiKeyIn = z.object({
  name: z.string({ error: formMessages.required }).trim().min(1, 'Ponle un nombre a la clave (por ejemplo, «ERP» o «Zapier»)').max(100, formMessages.tooLong),
  permissions: z
    .array(apiKeyPermission)
    .min(1, 'Elige al menos un permiso para la clave')
    .max(apiKeyPermissions.length)
    .transform((list) => [...new Set(list)]),
  /** When it stops working (ISO date-time, in the future); absent: until it is revoked. */
  expiresAt: z
    .string()
    .datetime({ offset: true, message: 'La fecha de vencimiento debe ser una fecha y hora ISO (2027-01-31T23:59:59-05:00)' })
    .refine((at) => new Date(at).getTime() > Date.now(), { message: 'La fecha de vencimiento debe ser futura' })
    .optional(),
});
export type ApiKeyIn = z.input<typeof apiKeyIn>;

export const apiKeyOut = z.object({
  _id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell which one is which («mst_1a2b3c4d…»). */
  prefix: z.string(),
  permissions: z.array(z.string()),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.object({ _id: z.string(), name: z.string() }).nullable(),
  lastUsedAt: z.string().nullable(),
  status: z.enum(['active', 'expired']),
});
export type ApiKeyOut = z.infer<typeof apiKeyOut>;

export const apiKeyList = z.object({ payload: z.array(apiKeyOut) });

export const apiKeyCreated = apiKeyOut.extend({
  /** The whole secret: shown once, stored hashed; lost, the key is revoked and another made. */
  key: z.string(),
});
export type ApiKeyCreated = z.infer<typeof apiKeyCreated>;

/** The screen's grouping of a key's permissions: module → its actions, as the roles' matrix shows them. */
export function permissionsByModule(permissions: readonly string[]): Array<{ module: Module; label: string; actions: Action[] }> {
  const held = new Set(permissions);
  return apiKeyModules
    .map((module) => ({ module, label: modules[module].label, actions: actionsOf(module).filter((a) => held.has(`${module}.${a}`)) }))
    .filter((m) => m.actions.length > 0);
}

/** The Spanish refusals of a key (401/403), said once. */
export const apiKeyMessages = {
  invalid: 'La clave de API no es válida o fue revocada',
  expired: 'La clave de API venció: pide a un administrador que cree otra en Configuración › API',
  otherCompany: 'Esta clave de API es de otra compañía: quita el encabezado X-Company-Id o usa la clave de esa compañía',
  sessionOnly: 'Esta llamada es de una sesión de usuario, no de una clave de API',
  rateLimited: (wait: string) => `Demasiadas solicitudes con esta clave de API. Espera ${wait} e inténtalo de nuevo`,
};
