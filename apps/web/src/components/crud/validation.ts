import { formMessages } from '@mostrador/contract';
import type { z } from 'zod';
import { fieldErrorsOf } from '../../lib/use-schema-form';
import type { FieldSpec } from './field-model';
import { type FormValues, valueAt } from './form-values';

/**
 * Spanish messages for what a contract schema does not word itself. The schema's own
 * messages ('Este campo es requerido', 'Debe ser una URL válida'…) come first; this map only
 * answers the issues zod would otherwise word in English.
 */
type Issue = {
  code?: string;
  input?: unknown;
  expected?: string;
  format?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
};

export function spanishIssue(issue: Issue): string | undefined {
  if (issue.input === undefined || issue.input === null) {
    if (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') return formMessages.required;
  }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'number' || issue.expected === 'int') return formMessages.decimal;
      return formMessages.invalid;
    case 'invalid_value':
      return formMessages.option;
    case 'invalid_format':
      if (issue.format === 'email') return formMessages.email;
      if (issue.format === 'url') return formMessages.url;
      if (issue.format === 'datetime' || issue.format === 'date') return formMessages.datetime;
      return formMessages.invalid;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) <= 1) return formMessages.required;
      if (issue.origin === 'array') return Number(issue.minimum) <= 1 ? formMessages.required : `Elige al menos ${issue.minimum}`;
      if (issue.origin === 'string') return `Debe tener al menos ${issue.minimum} caracteres`;
      return `Debe ser al menos ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string' || issue.origin === 'array') return formMessages.tooLong;
      return `Debe ser como máximo ${issue.maximum}`;
    case 'unrecognized_keys':
      return 'Este campo no se acepta';
    default:
      return formMessages.invalid;
  }
}

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
  const result = schema.safeParse(body, { error: (issue) => spanishIssue(issue as Issue) });
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
