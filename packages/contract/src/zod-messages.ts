import { formMessages } from './messages-es.js';

/**
 * The one Spanish error map for zod issues a schema does not word itself. A schema's own
 * messages ('Este campo es requerido', 'Debe ser una URL válida'…) always win; this answers
 * the rest, which zod would word in English. The server installs it for every request
 * (`z.config({ customError })`), the web passes it to the forms' `safeParse`.
 */
export interface ZodIssueLike {
  code?: string;
  input?: unknown;
  path?: ReadonlyArray<PropertyKey>;
  expected?: string;
  format?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  keys?: readonly string[];
}

export function spanishIssue(issue: ZodIssueLike): string {
  if (issue.input === undefined || issue.input === null) {
    // a whole body missing (a DELETE that must send one) reads differently from a field
    if (issue.code === 'invalid_type' && issue.expected === 'object' && (issue.path?.length ?? 0) === 0) {
      return 'Falta el cuerpo de la solicitud';
    }
    if (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') return formMessages.required;
  }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'number' || issue.expected === 'int') return formMessages.decimal;
      if (issue.expected === 'array') return 'Debe ser una lista';
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
      return issue.keys?.length ? `Campo no permitido: ${issue.keys.join(', ')}` : 'Este campo no se acepta';
    default:
      return formMessages.invalid;
  }
}
