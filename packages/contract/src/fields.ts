import { z } from 'zod';
import { formMessages } from './messages-es.js';
import { countryCodes, isPhoneNumber, PHONE_INVALID_MESSAGE } from './phone.js';

/**
 * Field builders shared by forms and server: one schema, both sides.
 * Every builder answers with the spec's Spanish messages.
 */
/** An error map: 'Este campo es requerido' when the value is missing, `message` when it is of the wrong kind. */
export const requiredOr =
  (message: string) =>
  (iss: { input?: unknown }): string =>
    iss.input === undefined || iss.input === null ? formMessages.required : message;

const requiredError = requiredOr(formMessages.invalid);

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

/** The id of another resource's record (declare the field in `refs`): optional, a uuid. */
export const zRefId = () => zId().optional();

/** Ids of other resources' records (declare the field in `refs`): optional, a list of uuids. */
export const zRefIds = (max = 500) => z.array(zId(), { error: formMessages.invalid }).max(max, formMessages.tooLong).optional();

/** One of fixed values (statuses, platforms, languages): required, else 'Elige una de las opciones…'. */
export const zEnum = <const T extends readonly [string, ...string[]]>(values: T, message: string = formMessages.option) =>
  z.enum(values, { error: requiredOr(message) });

/** A yes/no flag a form may leave out (active, isDefault, answered). */
export const zOptionalBoolean = () => z.boolean({ error: formMessages.invalid }).optional();

/** A country the product sells in (SPEC §9): PE, CL, CO or ES. */
export const zCountry = () => zEnum(countryCodes, formMessages.country);

/** The largest value of PostgreSQL's `integer` column, where `zInteger` fields are stored. */
export const INT4_MAX = 2_147_483_647;
/** Amounts are kept as `double precision`; a trillion is beyond any price or total we keep. */
export const AMOUNT_MAX = 1e12;

/** An amount (price, total, cost): a number, zero or more, at most a trillion. */
export const zAmount = () =>
  z.number({ error: requiredOr(formMessages.decimal) }).min(0, formMessages.nonNegative).max(AMOUNT_MAX, formMessages.tooBig);

/**
 * An integer (stock, counters, an external system's numeric id), `min` or more (default 0), at
 * most what the `integer` column holds (a larger one is a Spanish 400, never a database error).
 */
export const zInteger = (min = 0) =>
  z
    .int({ error: requiredOr(formMessages.integer) })
    .min(min, min === 0 ? formMessages.nonNegative : `Este campo debe ser al menos ${min}`)
    .max(INT4_MAX, formMessages.tooBig);

/** An instant as milliseconds since 1970 (OAuth's `expiry_date`), kept inside a JSON field. */
export const zEpochMs = () =>
  z.int({ error: requiredOr(formMessages.integer) }).min(0, formMessages.nonNegative).max(8.64e15, formMessages.tooBig);

/** An http(s) URL, trimmed. */
export const zUrl = (max = 500) =>
  z
    .string({ error: requiredError })
    .trim()
    .min(1, formMessages.required)
    .max(max, formMessages.tooLong)
    .pipe(z.url({ protocol: /^https?$/, error: formMessages.url }));

/** A colour as #RRGGBB, upper-cased. */
export const zHexColor = () =>
  z
    .string({ error: requiredError })
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, formMessages.hex)
    .toUpperCase();

/**
 * A phone number as the product stores it: digits only, country code first (51987654321),
 * and a number some country could have (libphonenumber-js: the code exists, the length and
 * leading digits fit its plan), else the Spanish PHONE_INVALID_MESSAGE. SPEC §5's
 * normalisation (strip non-digits, prefix the dialling code) is the form's job; the schema
 * only checks, since a `.transform()` could not describe responses.
 */
export const zPhone = () =>
  z
    .string({ error: requiredError })
    .trim()
    .min(1, formMessages.required)
    .regex(/^\d{8,15}$/, { message: formMessages.phone, abort: true })
    .refine(isPhoneNumber, { message: PHONE_INVALID_MESSAGE, abort: true });

/**
 * An instant as text: ISO 8601 in UTC (`2025-03-14T15:30:00Z`, what `toISOString()` writes).
 * UTC only, so that text order is time order when the precision is the same.
 */
export const zDateTime = () => z.iso.datetime({ error: requiredOr(formMessages.datetime) });

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
