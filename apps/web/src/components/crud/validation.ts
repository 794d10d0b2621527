import { formMessages, spanishIssue, type ZodIssueLike } from '@mostrador/contract';
import type { z } from 'zod';
import { fieldErrorsOf } from '../../lib/use-schema-form';
import type { FieldSpec } from './field-model';
import { type FormValues, valueAt } from './form-values';

export type FieldErrors = Record<string, string>;

export interface Validation {
  success: boolean;
  data: unknown;
  errors: FieldErrors;
}

/**
 * Validates a body with a contract schema (`input` on create, `patch` on edit). A required
 * field left empty always reads 'Este campo es requerido', whatever check tripped first.
 */
export function validateBody(schema: z.ZodType, body: unknown, specs: FieldSpec[], values: FormValues): Validation {
  const result = schema.safeParse(body, { error: (issue) => spanishIssue(issue as ZodIssueLike) });
  if (result.success) return { success: true, data: result.data, errors: {} };
  const errors = fieldErrorsOf(result.error.issues);
  for (const spec of specs) {
    const value = valueAt(values, spec.name);
    const blank = typeof value === 'string' && value.trim() === '';
    if (errors[spec.name] && spec.required && blank) errors[spec.name] = formMessages.required;
  }
  return { success: false, data: undefined, errors };
}

/** Field messages of a 400's `details` (`[{ path, msg }]`), keyed by the field's dotted path. */
export function serverFieldErrors(body: unknown): FieldErrors {
  const details = (body as { errors?: { details?: unknown } } | null)?.errors?.details;
  const errors: FieldErrors = {};
  if (!Array.isArray(details)) return errors;
  for (const detail of details as Array<{ path?: unknown; msg?: unknown }>) {
    if (typeof detail?.path !== 'string' || typeof detail.msg !== 'string') continue;
    const path = detail.path.replace(/^(body)[./]/, '').replace(/\//g, '.');
    if (path && !(path in errors)) errors[path] = detail.msg;
  }
  return errors;
}
