/**
 * WhatsApp's own formatting, as the customer sees it in the app (issue 30): `*negrita*`,
 * `_cursiva_`, `~tachado~` and ```monoespaciado```, and the http(s) addresses a text carries.
 * A pure parser into segments; the thread renders them as elements (never as HTML).
 *
 * The markers follow WhatsApp's rules: one opens after the start, a space or a punctuation mark
 * and before a character that is not a space; it closes after a character that is not a space
 * and before the end, a space or a punctuation mark; bold, italic and strike stay on one line and
 * may nest (`*_así_*`); a monospaced block may span lines and holds its text as typed.
 */
export type WhatsappSegment =
  | { type: 'text'; text: string }
  | { type: 'link'; text: string; href: string }
  | { type: 'mono'; text: string }
  | { type: 'bold' | 'italic' | 'strike'; children: WhatsappSegment[] };

const MARKERS = { '*': 'bold', _: 'italic', '~': 'strike' } as const;
/** What may stand before an opening marker or after a closing one. */
const EDGE = /[\s.,;:!?¡¿()[\]"'«»-]/u;
const LINK = /\bhttps?:\/\/[^\s<>"'«»]+/giu;
/** Marks that end a sentence, not an address («mira https://x.pe/a.»). */
const TRAILING = /[.,;:!?)\]'"»]+$/u;

export function whatsappSegments(text: string): WhatsappSegment[] {
  const out: WhatsappSegment[] = [];
  // monospaced blocks first: nothing inside them is read
  const parts = text.split(/```([\s\S]+?)```/u);
  parts.forEach((part, i) => {
    if (i % 2 === 1) out.push({ type: 'mono', text: part });
    else if (part) out.push(...linksAndMarks(part));
  });
  return merged(out);
}

function linksAndMarks(text: string): WhatsappSegment[] {
  const out: WhatsappSegment[] = [];
  let at = 0;
  for (const m of text.matchAll(LINK)) {
    const raw = m[0];
    const href = raw.replace(TRAILING, '');
    const start = m.index ?? 0;
    if (start > at) out.push(...marks(text.slice(at, start)));
    out.push({ type: 'link', text: href, href });
    at = start + href.length;
  }
  if (at < text.length) out.push(...marks(text.slice(at)));
  return out;
}

function marks(text: string): WhatsappSegment[] {
  const out: WhatsappSegment[] = [];
  let plain = '';
  let i = 0;
  // per marker, where a search that found no closing stopped: whether a character can close
  // depends only on its neighbours, so a later opener before that point finds none either (a
  // text of 100,000 «*a » is read once, not once per asterisk)
  const noCloseBefore: Record<string, number> = {};
  while (i < text.length) {
    const ch = text[i];
    const kind = MARKERS[ch as keyof typeof MARKERS];
    const before = i === 0 ? '' : text[i - 1];
    if (kind && (noCloseBefore[ch] ?? -1) <= i && (i === 0 || EDGE.test(before)) && i + 1 < text.length && !/\s/u.test(text[i + 1])) {
      const close = closingOf(text, ch, i + 1);
      if (close < 0) noCloseBefore[ch] = lineEndOf(text, i);
      if (close > 0) {
        if (plain) out.push({ type: 'text', text: plain });
        plain = '';
        out.push({ type: kind, children: marks(text.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  if (plain) out.push({ type: 'text', text: plain });
  return out;
}

/** Where the line that holds `i` ends (its newline, or the text's end). */
function lineEndOf(text: string, i: number): number {
  const n = text.indexOf('\n', i);
  return n < 0 ? text.length : n;
}

/** Where the marker opened at `from` closes on the same line, or -1. */
function closingOf(text: string, marker: string, from: number): number {
  for (let j = from + 1; j < text.length; j++) {
    if (text[j] === '\n') return -1;
    if (text[j] !== marker) continue;
    const after = j + 1 < text.length ? text[j + 1] : '';
    if (!/\s/u.test(text[j - 1]) && (after === '' || EDGE.test(after))) return j;
  }
  return -1;
}

/** Neighbouring plain texts joined (a marker that did not close leaves its character as text). */
function merged(list: WhatsappSegment[]): WhatsappSegment[] {
  const out: WhatsappSegment[] = [];
  for (const s of list) {
    const last = out.at(-1);
    if (s.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + s.text };
    else out.push(s);
  }
  return out;
}
