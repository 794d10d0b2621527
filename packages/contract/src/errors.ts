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
