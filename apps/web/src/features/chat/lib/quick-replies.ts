import type { QuickReply } from '../hooks/use-composer-data';

/** The "/" being typed before the caret: where it starts and what follows it (letters, digits, hyphens). */
export function slashQuery(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)\/([\p{L}\p{N}-]*)$/u.exec(before);
  if (!match) return undefined;
  return { start: before.length - match[2].length - 1, query: match[2] };
}

const fold = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');

/** Quick replies matching what follows "/": shortcuts that start with it first, then any that contain it (shortcut or text). */
export function filterQuickReplies(all: readonly QuickReply[], query: string, limit = 8): QuickReply[] {
  const q = fold(query.trim());
  if (!q) return all.slice(0, limit);
  const starts = all.filter((r) => fold(r.atajo).startsWith(q));
  const contains = all.filter((r) => !starts.includes(r) && (fold(r.atajo).includes(q) || fold(r.texto).includes(q)));
  return [...starts, ...contains].slice(0, limit);
}

/** The text with the "/query" at [start, caret) replaced by `inserted`; the caret goes after it. */
export function insertAt(text: string, start: number, caret: number, inserted: string): { text: string; caret: number } {
  const next = text.slice(0, start) + inserted + text.slice(caret);
  return { text: next, caret: start + inserted.length };
}
