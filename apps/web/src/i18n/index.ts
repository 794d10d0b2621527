import { es } from './es';

/**
 * UI strings: a typed lookup in the Spanish dictionary (es.ts), no i18n runtime
 * (docs/decisions/0008-ui-strings-without-i18next.md). `t('login.title')`,
 * `t('register.expiresAt', { date })`; keys are checked by TypeScript.
 */

/** Every `group.key` path of a dictionary that leads to a string. */
type KeysOf<T> = {
  [K in keyof T & string]: T[K] extends string ? K : T[K] extends object ? `${K}.${KeysOf<T[K]>}` : never;
}[keyof T & string];

export type MessageKey = KeysOf<typeof es>;

/** Values for the `{{name}}` placeholders of a message. */
export type MessageVars = Record<string, string | number>;

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** The Spanish text of `key`, with `{{name}}` replaced by `vars.name` (unknown keys answer the key). */
export function t(key: MessageKey, vars?: MessageVars): string {
  let node: unknown = es;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  const text = typeof node === 'string' ? node : key;
  if (!vars) return text;
  return text.replace(PLACEHOLDER, (match, name: string) => (name in vars ? String(vars[name]) : match));
}

/**
 * The hook components use. Today it hands back `t`; it is the seam where a second UI
 * language would subscribe the component to language changes.
 */
export function useT(): typeof t {
  return t;
}

/** SPEC §9: the locale is the browser's first two letters, falling back to es (dates use it). */
export function browserLocale(language: string | undefined = globalThis.navigator?.language): string {
  const two = (language ?? '').slice(0, 2).toLowerCase();
  return two || 'es';
}

/**
 * The locale dates and numbers are written in. The interface is Spanish, so they are too:
 * the browser's own Spanish variant (es-CL, es-CO…) when it has one, else Peru's.
 */
export function displayLocale(language: string | undefined = globalThis.navigator?.language): string {
  return language?.toLowerCase().startsWith('es') ? language : 'es-PE';
}

/** A count as the display locale writes it: 1,234 in es-PE, 1.234 in es-ES. */
export function formatCount(n: number): string {
  return n.toLocaleString(displayLocale());
}
