import { fieldMessage } from './field-labels.js';

// the fields' Spanish names are part of reading errors: exported with them
export { fieldLabelOf, fieldLabels, fieldMessage } from './field-labels.js';

/**
 * Reading error bodies, without zod: the SPA's first load imports this, so it stays tiny.
 * The wire shape itself is `apiErrorSchema` in errors.ts.
 */

/** The SPA's fallback when the server gave no message (SPEC §8). */
export const SERVER_TIMEOUT_CONNECTION_ERROR = 'SERVER_TIMEOUT_CONNECTION_ERROR';

type Loose = { msg?: unknown; path?: unknown };

/**
 * Messages a user should read from an error body: the main one, then each field's, named by
 * its Spanish label (never the raw key). A field line the main message already says is not
 * repeated.
 */
export function errorMessagesOf(body: unknown): string[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors)) {
    return errors.map((e: Loose) => e?.msg).filter((m): m is string => typeof m === 'string');
  }
  if (!errors || typeof (errors as Loose).msg !== 'string') return [];
  const { msg, details } = errors as { msg: string; details?: Loose[] };
  const lines = Array.isArray(details)
    ? details
        .filter((d) => typeof d?.msg === 'string')
        .map((d) => fieldMessage(typeof d.path === 'string' ? d.path : undefined, String(d.msg)))
    : [];
  return [msg, ...lines.filter((line) => line !== msg)];
}
