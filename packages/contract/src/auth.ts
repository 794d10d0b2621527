import { countryCodes } from './phone.js';
import { z } from 'zod';
import { zEmail, zId, zLoginPassword, zPassword, zSlug, zText, withConfirmation } from './fields.js';
import { formMessages } from './messages-es.js';
import { actions, moduleNames, roles } from './permissions.js';

export const loginInput = z.object({
  email: zEmail(),
  password: zLoginPassword(),
  corporation: zSlug(),
});
export type LoginInput = z.infer<typeof loginInput>;

/** One company the user may work in (SPEC §3: corporation.companies[{company:{_id,name}, default}]). */
export const membershipSchema = z.object({
  /**
   * `country`: the company's (phones typed without a dialling code get its code). `currency`:
   * the company's (its setting, else its country's), so every member's screens show prices in
   * it, agents included (they cannot read the company itself).
   */
  company: z.object({
    _id: z.string(),
    name: z.string(),
    country: z.enum(countryCodes).optional(),
    currency: z.string().optional(),
    /** The company's time zone (its setting, else its country's): schedules and logs read in it. */
    timezone: z.string().optional(),
  }),
  default: z.boolean(),
  role: z.enum(roles),
});

/** The signed-in user as the SPA keeps it (SPEC §3 Session). */
export const sessionUserSchema = z.object({
  _id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  token: z.string(),
  companyId: z.string(),
  corporation: z.object({
    _id: z.string(),
    name: z.string(),
    slug: z.string(),
    companies: z.array(membershipSchema),
  }),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
export type Membership = z.infer<typeof membershipSchema>;

export const loginResponse = z.object({
  status: z.literal(200),
  token: z.string(),
  /** Seconds until the access token expires. */
  expiresIn: z.number(),
  user: sessionUserSchema,
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const authQuery = z.object({
  module: z.enum(moduleNames as [string, ...string[]], { error: 'Módulo desconocido' }),
  action: z.enum(actions, { error: 'Acción desconocida' }),
});
export const authResponse = z.object({ allowed: z.boolean(), role: z.enum(roles) });

/** GET /api/permissions: what the caller's role may do in the current company, per module. */
export const permissionsResponse = z.object({
  role: z.enum(roles),
  permissions: z.record(z.string(), z.array(z.enum(actions))),
});
export type PermissionsResponse = z.infer<typeof permissionsResponse>;

export const forgotInput = z.object({ email: zEmail(), corporation: zSlug() });

export const resetInput = withConfirmation(
  z.object({ token: z.string().min(10).max(200), password: zPassword(), passwordConfirmation: z.string() }),
  'password',
  'passwordConfirmation',
);

/**
 * SPEC §7's {newPassword}, plus the caller's own current password: a stolen session alone
 * cannot change a password (issue 10). An admin setting someone else's confirms with theirs.
 */
export const updatePasswordInput = z.object({ newPassword: zPassword(), currentPassword: zLoginPassword() });

/** The change-password form adds the confirmation; the API takes newPassword and currentPassword. */
export const changePasswordForm = withConfirmation(
  z.object({ currentPassword: zLoginPassword(), newPassword: zPassword(), passwordConfirmation: z.string() }),
  'newPassword',
  'passwordConfirmation',
);

/** An admin adds a user to the corporation, with a role in some of its companies. */
export const registerInput = z.object({
  first_name: zText(80),
  last_name: zText(80),
  email: zEmail(),
  password: zPassword(),
  role: z.enum(roles, { error: formMessages.required }),
  companyIds: z.array(zId()).min(1, formMessages.required).max(200),
});

/** Public corporation registration with a one-time token (the page /corporation/{token}). */
export const registerCorporationFields = z.object({
  corporationName: zText(120),
  corporation: zSlug(),
  companyName: zText(120),
  first_name: zText(80),
  last_name: zText(80),
  email: zEmail(),
  password: zPassword(),
  passwordConfirmation: z.string({ error: formMessages.required }),
});
export const registerCorporationForm = withConfirmation(registerCorporationFields, 'password', 'passwordConfirmation');
export const registerCorporationInput = withConfirmation(
  registerCorporationFields.extend({ token: z.string().min(10).max(200) }),
  'password',
  'passwordConfirmation',
);

export const registrationTokenInfo = z.object({ valid: z.literal(true), expiresAt: z.string() });

export const healthResponse = z.object({ status: z.literal('ok'), database: z.literal('ok') });
/** GET /api/health/ready (decision 0066): each check's state, and when not ready the failing ones in Spanish. */
export const readinessChecks = z.object({
  database: z.enum(['ok', 'error']),
  migrations: z.enum(['ok', 'error']),
  queue: z.enum(['ok', 'error']),
  worker: z.enum(['ok', 'error']),
  /** Drive's store: the disk under DATA_DIR/drive can be written, or the S3 bucket answers (decision 0105). */
  storage: z.enum(['ok', 'error']),
});
export const readyResponse = z.object({ status: z.literal('ok'), checks: readinessChecks });
export const notReadyResponse = z.object({ status: z.literal('error'), checks: readinessChecks, errors: z.object({ msg: z.string() }) });
export const versionResponse = z.object({
  version: z.string(),
  database: z.enum(['pglite', 'postgres']),
  time: z.string(),
});

