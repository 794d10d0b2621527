import { z } from 'zod';
import { formMessages } from './messages-es.js';

/**
 * Field builders shared by forms and server: one schema, both sides.
 * Every builder answers with the spec's Spanish messages.
 */
const requiredError = (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null ? formMessages.required : formMessages.invalid;

export const zText = (max = 200) =>
  z.string({ error: requiredError }).trim().min(1, formMessages.required).max(max, formMessages.tooLong);

export const zOptionalText = (max = 200) => z.string({ error: formMessages.invalid }).trim().max(max, formMessages.tooLong);

export const zEmail = () =>
  z
    .string({ error: requiredError })
    .trim()
    .toLowerCase()
    .min(1, formMessages.required)
    .max(254, formMessages.tooLong)
    .pipe(z.email({ error: formMessages.email }));

/** Passwords: at least 8 characters, at most 200 (argon2 hashes any length; the cap keeps bodies small). */
export const zPassword = () =>
  z
    .string({ error: requiredError })
    .min(1, formMessages.required)
    .min(8, formMessages.passwordLength)
    .max(200, formMessages.tooLong);

/** A password typed at login: any non-empty string (old passwords may predate the policy). */
export const zLoginPassword = () =>
  z.string({ error: requiredError }).min(1, formMessages.required).max(200, formMessages.tooLong);

export const zSlug = () =>
  z
    .string({ error: requiredError })
    .trim()
    .toLowerCase()
    .min(1, formMessages.required)
    .max(60, formMessages.tooLong)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, formMessages.slug);

export const zId = () => z.uuid({ error: 'El identificador no es válido' });

/** Adds the 'confirmed' rule: `confirmField` must equal `field`. */
export function withConfirmation<T extends z.ZodObject>(schema: T, field: string, confirmField: string) {
  return schema.refine((v: Record<string, unknown>) => v[field] === v[confirmField], {
    message: formMessages.confirmed,
    path: [confirmField],
    // check as soon as both were typed, even while other fields are still invalid
    when: (payload) => {
      const v = payload.value as Record<string, unknown> | undefined;
      return typeof v?.[field] === 'string' && typeof v?.[confirmField] === 'string';
    },
  });
}
