import type { DriveKind } from '@mostrador/contract';

/**
 * What a file is, read from its first bytes (magic numbers), never from its name or the type the
 * browser claims (decision 0056). A small table rather than a package: `file-type` 22 needs
 * Node 22 (the product runs on 20.19+), and Drive needs the kind from the first bytes, before
 * the rest arrives, to hold each kind to WhatsApp's limit while the upload streams; the formats
 * WhatsApp sends are few and their signatures fixed.
 */
export interface Sniffed {
  mimeType: string;
  kind: DriveKind;
  /** The extension the name should end with. */
  ext: string;
}

/** How many first bytes the sniffing reads (an Office file's part names sit in its first entries). */
export const SNIFF_BYTES = 64 * 1024;

const ascii = (head: Buffer, at: number, text: string) => head.length >= at + text.length && head.toString('latin1', at, at + text.length) === text;
const bytes = (head: Buffer, at: number, values: number[]) => values.every((v, i) => head[at + i] === v);

const extOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** Valid UTF-8 with no NUL and few control characters (a cut multi-byte character at the end is allowed). */
function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return false;
  let controls = 0;
  for (const b of head) {
    if (b === 0) return false;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) controls += 1;
  }
  if (controls > head.length / 100) return false;
  try {
    // a multi-byte character cut at SNIFF_BYTES is not a reason to refuse
    new TextDecoder('utf-8', { fatal: true }).decode(head.length >= SNIFF_BYTES ? head.subarray(0, head.length - 4) : head);
    return true;
  } catch {
    // Windows-1252 spreadsheets' CSV: bytes above 0x7f with no control characters
    return controls === 0;
  }
}

/** The file's type from its first bytes; null when Drive does not keep such files. */
export function sniff(head: Buffer, name: string): Sniffed | null {
  if (bytes(head, 0, [0xff, 0xd8, 0xff])) return { mimeType: 'image/jpeg', kind: 'image', ext: 'jpg' };
  if (bytes(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mimeType: 'image/png', kind: 'image', ext: 'png' };
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return { mimeType: 'image/gif', kind: 'image', ext: 'gif' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return { mimeType: 'image/webp', kind: 'image', ext: 'webp' };
  if (ascii(head, 0, '%PDF-')) return { mimeType: 'application/pdf', kind: 'document', ext: 'pdf' };
  if (ascii(head, 4, 'ftyp')) {
    const brand = head.toString('latin1', 8, 12);
    if (brand.startsWith('3gp') || brand.startsWith('3g2')) return { mimeType: 'video/3gpp', kind: 'video', ext: '3gp' };
    if (brand === 'M4A ' || brand === 'M4B ' || brand === 'M4P ') return { mimeType: 'audio/mp4', kind: 'audio', ext: 'm4a' };
    return { mimeType: 'video/mp4', kind: 'video', ext: 'mp4' };
  }
  if (ascii(head, 0, 'OggS')) {
    // a voice note (Opus) or Vorbis audio; Ogg video (Theora) is not what WhatsApp plays
    if (head.includes('theora', 0, 'latin1')) return null;
    return { mimeType: 'audio/ogg', kind: 'audio', ext: head.includes('OpusHead', 0, 'latin1') ? 'opus' : 'ogg' };
  }
  if (ascii(head, 0, '#!AMR\n')) return { mimeType: 'audio/amr', kind: 'audio', ext: 'amr' };
  if (ascii(head, 0, 'ID3')) return { mimeType: 'audio/mpeg', kind: 'audio', ext: 'mp3' };
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0) {
    const layer = (head[1] >> 1) & 0x03;
    // layer bits 00 with MPEG sync: an AAC ADTS stream; otherwise MPEG audio (MP3)
    if (layer === 0) return (head[1] & 0xf6) === 0xf0 ? { mimeType: 'audio/aac', kind: 'audio', ext: 'aac' } : null;
    return { mimeType: 'audio/mpeg', kind: 'audio', ext: 'mp3' };
  }
  if (bytes(head, 0, [0x50, 0x4b, 0x03, 0x04])) {
    // Office Open XML: a zip whose part names (stored uncompressed in the entries' headers) say which
    if (head.includes('word/', 0, 'latin1')) {
      return { mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', kind: 'document', ext: 'docx' };
    }
    if (head.includes('xl/', 0, 'latin1')) return { mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', kind: 'document', ext: 'xlsx' };
    return null;
  }
  if (looksLikeText(head)) {
    return extOf(name) === 'csv' ? { mimeType: 'text/csv', kind: 'document', ext: 'csv' } : { mimeType: 'text/plain', kind: 'document', ext: 'txt' };
  }
  return null;
}

/** The name with the sniffed type's extension: «lista.pdf» holding a PNG is kept as «lista.png». */
export function nameFor(name: string, sniffed: Sniffed): string {
  const ext = extOf(name);
  const same = ext === sniffed.ext || (sniffed.ext === 'jpg' && ext === 'jpeg') || (sniffed.ext === 'opus' && ext === 'ogg') || (sniffed.ext === 'ogg' && ext === 'oga');
  if (same) return name;
  const known = /^(jpe?g|png|gif|webp|pdf|mp4|m4v|mov|webm|avi|mkv|3gp|m4a|wav|ogg|opus|oga|amr|mp3|aac|docx|xlsx|csv|txt|exe|bin|html?|js|zip)$/.test(ext);
  const base = known ? name.slice(0, name.length - ext.length - 1) : name;
  return `${base}.${sniffed.ext}`;
}
