import { sanitizeText } from './third-party-text.js';

/** What went wrong, readable by an admin: a validation error as its fields and messages, else its text. */
export function errorText(error: unknown): string {
  const issues = (error as { issues?: Array<{ path?: PropertyKey[]; message?: string }> } | null)?.issues;
  // a failed query names the database's reason as its cause (its own message repeats the query and its values)
  const cause = (error as { cause?: unknown } | null)?.cause;
  const text = Array.isArray(issues)
    ? `Datos no válidos: ${issues.map((i) => [i.path?.map(String).join('.'), i.message].filter(Boolean).join(': ')).join('; ')}`
    : cause instanceof Error
      ? `Base de datos: ${cause.message}`
      : String(error);
  // the error may quote the third-party text that caused it: storable too
  return sanitizeText(text).slice(0, 2000);
}
