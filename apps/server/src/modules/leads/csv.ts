import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { AppError } from '../../lib/errors.js';

/**
 * CSV as spreadsheets write and read it (RFC 4180): fields quoted when they hold the
 * delimiter, a quote or a line break, quotes doubled inside. Uploads are decoded with
 * iconv-lite and split by csv-parse (decision 0022); the writer answers UTF-8 with a BOM,
 * which Excel needs to show accents.
 */

export const UTF8_BOM = '\uFEFF';

/** Start bytes of files people upload by mistake instead of a CSV (a .xlsx is a zip). */
const BINARY_SIGNATURES: Array<[string, number[]]> = [
  ['una imagen PNG', [0x89, 0x50, 0x4e, 0x47]],
  ['una imagen JPEG', [0xff, 0xd8, 0xff]],
  ['una imagen GIF', [0x47, 0x49, 0x46, 0x38]],
  ['un PDF', [0x25, 0x50, 0x44, 0x46]],
  ['un libro de Excel (.xlsx) o un archivo comprimido', [0x50, 0x4b, 0x03, 0x04]],
  ['un libro de Excel antiguo (.xls)', [0xd0, 0xcf, 0x11, 0xe0]],
  ['un archivo comprimido', [0x1f, 0x8b]],
  ['un archivo comprimido', [0x37, 0x7a, 0xbc, 0xaf]],
  ['un archivo comprimido', [0x52, 0x61, 0x72, 0x21]],
];

const notText = (what?: string) =>
  new AppError(
    'VALIDATION',
    `El archivo no es un CSV de texto${what ? ` (parece ${what})` : ''}: en Excel, usa "Guardar como" → "CSV UTF-8 (delimitado por comas)" y sube ese archivo`,
  );

export type CsvEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'windows-1252' | 'macintosh';

/**
 * The encoding of an upload. A BOM says it (Excel's "Texto Unicode" is UTF-16LE with BOM and
 * tabs, "CSV UTF-8" has the UTF-8 BOM); UTF-16 without a BOM shows as a zero in every other
 * byte; then text that is valid UTF-8 is UTF-8, and anything else is Windows-1252 (Excel's
 * plain "CSV" on Windows in Spanish, of which ISO-8859-1 is a subset) or Mac Roman (Excel for
 * Mac's "CSV (Macintosh)"), whichever reads as Spanish (`singleByteEncoding`). chardet was
 * measured and is not used: see decision 0022.
 */
export function detectEncoding(bytes: Uint8Array): CsvEncoding {
  const [a, b, c] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) return 'utf8';
  if (a === 0xff && b === 0xfe) return 'utf16le';
  if (a === 0xfe && b === 0xff) return 'utf16be';
  const sample = bytes.subarray(0, 4096 - (Math.min(bytes.length, 4096) % 2));
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i += 1) if (sample[i] === 0) i % 2 === 0 ? (evenZeros += 1) : (oddZeros += 1);
  const pairs = sample.length / 2;
  if (pairs >= 2 && oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf16le';
  if (pairs >= 2 && evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf16be';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'utf8';
  } catch {
    return singleByteEncoding(bytes);
  }
}

const SPANISH_LETTERS = new Set('áéíóúüñÁÉÍÓÚÜÑ');
const LETTER = /\p{L}/u;
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
const WORD = /[\p{L}\p{N}]/u;

/**
 * How Spanish the non-ASCII characters of a single-byte decoding look: a Spanish letter (ñ, á…)
 * scores 2, ¿ and ¡ 2 at the start of a word (-1 inside one), an upper-case letter right after a
 * lower-case one -2 ("JosÈ" is how Windows-1252's "José" reads as Mac Roman), a byte the
 * encoding does not define -3; other letters and punctuation 0 (Windows-1252's “ ” – € are
 * letters in Mac Roman: ì î ñ Ä, so no other letter may count). Both encodings share ASCII,
 * so only the bytes ≥ 0x80 are read (a single-byte decoding has one character per byte).
 */
function spanishScore(text: string): number {
  let score = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c.charCodeAt(0) < 0x80) continue;
    const before = i > 0 ? text[i - 1] : '';
    if (c === '\uFFFD' || (c >= '\u0080' && c <= '\u009F')) score -= 3;
    else if (LETTER.test(c)) {
      if (UPPER.test(c) && LOWER.test(before)) score -= 2;
      else if (SPANISH_LETTERS.has(c)) score += 2;
    } else if (c === '¿' || c === '¡') score += WORD.test(before) ? -1 : 2;
  }
  return score;
}

/**
 * Windows-1252 or Mac Roman, for bytes that are not UTF-8. The two share ASCII and put Spanish
 * letters on different bytes (é is 0xE9 in Windows-1252 and 0x8E in Mac Roman, where 0xE9 is È
 * and Windows-1252's 0x8E is Ž), so the right one is the one whose non-ASCII characters read as
 * Spanish (`spanishScore` of the first 64 KB). Mac Roman must win outright; a tie goes to it
 * only when lines end in CR alone, as Excel for Mac writes "CSV (Macintosh)" — else to
 * Windows-1252, the common case.
 */
function singleByteEncoding(bytes: Uint8Array): 'windows-1252' | 'macintosh' {
  const sample = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 65_536));
  const mac = spanishScore(iconv.decode(sample, 'macintosh'));
  const windows = spanishScore(iconv.decode(sample, 'windows-1252'));
  const crOnly = sample.includes(0x0d) && !sample.includes(0x0a);
  return mac > windows || (mac === windows && crOnly) ? 'macintosh' : 'windows-1252';
}

/** C0 control characters other than tab, line feed and carriage return (and DEL). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is stripped
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * The text of an upload, or a 400 when it is not text at all (an image, a zip or .xlsx renamed
 * .csv, any file mostly made of control bytes). NUL and the other control characters are
 * stripped (decision 0021: text from files has NUL stripped); vertical tab and form feed become
 * spaces.
 */
export function decodeCsv(bytes: Uint8Array): string {
  for (const [what, signature] of BINARY_SIGNATURES) {
    if (signature.every((byte, i) => bytes[i] === byte)) throw notText(what);
  }
  const text = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), detectEncoding(bytes), { stripBOM: true });
  const sample = text.slice(0, 65_536);
  const controls = (sample.match(CONTROL) ?? []).length;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NULs are what is counted
  const nuls = (sample.match(/\u0000/g) ?? []).length;
  // a cell with a stray NUL is text; a file where one character in ten is a NUL, or one in fifty
  // another control character, is not
  if (nuls > sample.length * 0.1 || controls - nuls > sample.length * 0.02) throw notText();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: vertical tab and form feed are what becomes a space
  return text.replace(/[\u000b\u000c]/g, ' ').replace(CONTROL, '');
}

const DELIMITERS = [',', ';', '\t'] as const;

/**
 * The delimiter of the header record: the one of `,` `;` tab that splits it into the most
 * fields, read by csv-parse itself so quoted titles count right (`,` on ties). csv-parse's own
 * `delimiter_auto` scores every ASCII character, digits and letters included, so a
 * one-column file of phones would be split on a digit.
 */
export function detectDelimiter(text: string): string {
  let best: string = ',';
  let most = 0;
  const head = text.slice(0, 65_536);
  for (const delimiter of DELIMITERS) {
    let fields = 0;
    try {
      const [header] = parse(head, { delimiter, to: 1, relax_quotes: true, relax_column_count: true, max_record_size: 0 }) as string[][];
      fields = header?.length ?? 0;
    } catch {
      fields = 0;
    }
    if (fields > most) [best, most] = [delimiter, fields];
  }
  return best;
}

/**
 * The records of a decoded CSV, each with its spreadsheet row number (the header is row 1; a
 * blank line is a row, as a spreadsheet shows it; a quoted field with line breaks stays one
 * row). Columns may vary per record. A quote that never closes swallows the rest of the file:
 * a 400 naming the row where it opens.
 */
export function parseCsv(text: string, delimiter = detectDelimiter(text)): Array<{ row: number; fields: string[] }> {
  try {
    const records = parse(text, {
      delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      max_record_size: 0,
    }) as string[][];
    // every record is one spreadsheet row, blank ones included (skip_empty_lines is off)
    return records.map((fields, i) => ({ row: i + 1, fields }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'CSV_QUOTE_NOT_CLOSED') {
      const row = ((error as { records?: number }).records ?? 0) + 1;
      throw new AppError('VALIDATION', `La fila ${row} abre comillas (") que no se cierran: corrígela y vuelve a subir el archivo`);
    }
    throw new AppError('VALIDATION', `El archivo no se pudo leer como CSV: ${(error as Error).message}`);
  }
}

/** Spreadsheets run a cell starting with these as a formula (CSV injection): such text gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field as CSV: quoted when needed, never read as a formula. */
export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",;\r\n\t]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line (CRLF, as RFC 4180 and Excel expect). */
export const csvLine = (fields: ReadonlyArray<string | null | undefined>) => `${fields.map(csvField).join(',')}\r\n`;

/** Lower case, no accents, letters and digits only: 'Teléfono ' → 'telefono', 'E-mail' → 'email'. */
export function foldHeader(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Lower case without accents and spaces collapsed (label names as a person types them). */
export function foldName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
