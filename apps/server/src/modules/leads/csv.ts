/**
 * CSV as spreadsheets write and read it (RFC 4180): fields quoted when they hold the
 * delimiter, a quote or a line break, quotes doubled inside. Excel in Spanish locales writes
 * `;` and often Windows-1252, so the reader detects both; the writer answers UTF-8 with a BOM,
 * which Excel needs to show accents.
 */

export const UTF8_BOM = '\uFEFF';

/** Decodes an upload: UTF-8 (with or without BOM), else Windows-1252 (Excel's "CSV" on Windows). */
export function decodeCsv(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  return text.startsWith(UTF8_BOM) ? text.slice(1) : text;
}

/** The delimiter of the header line: the most frequent of `,` `;` tab outside quotes (`,` by default). */
export function detectDelimiter(text: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch] += 1;
  }
  return Object.entries(counts).reduce((best, entry) => (entry[1] > best[1] ? entry : best), [',', 0])[0];
}

/**
 * Records of a CSV text, one array of fields per line (a quoted field may span lines). A blank
 * line is a record with one empty field, so record numbers stay the spreadsheet's row numbers.
 */
export function* parseCsv(text: string, delimiter = detectDelimiter(text)): Generator<string[]> {
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      record.push(field);
      yield record;
      record = [];
      field = '';
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
    } else field += ch;
    i += 1;
  }
  // the last line, unless the text ended with its line break
  if (field !== '' || record.length > 0) {
    record.push(field);
    yield record;
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
