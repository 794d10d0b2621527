import { z } from 'zod';
import { errorCodes } from './messages-es.js';

/** One problem with one field of a request. */
export const fieldErrorSchema = z.object({ path: z.string(), msg: z.string() });

/**
 * The error shape on the wire: `{ errors: { code, msg, details? } }`.
 * `msg` is always a human Spanish sentence; `details` lists per-field messages for 400s.
 */
export const apiErrorSchema = z.object({
  errors: z.object({
    code: z.enum(errorCodes),
    msg: z.string(),
    details: z.array(fieldErrorSchema).optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The SPA's fallback when the server gave no message (SPEC §8). */
export const SERVER_TIMEOUT_CONNECTION_ERROR = 'SERVER_TIMEOUT_CONNECTION_ERROR';

/** Messages a user should read from an error body: the main one, then each field's. */
export function errorMessagesOf(body: unknown): string[] {
  const parsed = apiErrorSchema.safeParse(body);
  if (parsed.success) {
    const { msg, details } = parsed.data.errors;
    return [msg, ...(details ?? []).map((d) => (d.path ? `${d.path}: ${d.msg}` : d.msg))];
  }
  const loose = body as { errors?: unknown } | null;
  if (loose && Array.isArray(loose.errors)) {
    return loose.errors.map((e) => (e as { msg?: string }).msg).filter((m): m is string => !!m);
  }
  if (loose?.errors && typeof (loose.errors as { msg?: unknown }).msg === 'string') {
    return [(loose.errors as { msg: string }).msg];
  }
  return [];
}
