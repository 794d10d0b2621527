import type { FieldSpec } from './field-model';

/**
 * Between a record and what the form's inputs hold. Inputs hold text for text-like and
 * number fields, booleans for switches, arrays for chips and multi-selects, an array of
 * value objects for repeatable rows and a value object for a nested object. A body is what
 * the API takes: numbers as numbers, instants as ISO text, empty optional fields left out.
 */
export type FormValue = string | boolean | string[] | FormValues | FormValues[];
export interface FormValues {
  [field: string]: FormValue;
}

export type FormMode = 'create' | 'edit';

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO instant → `YYYY-MM-DDTHH:mm` in the browser's zone (what `datetime-local` shows). */
export function isoToLocalInput(value: unknown): string {
  if (typeof value !== 'string' && !(value instanceof Date)) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** `YYYY-MM-DDTHH:mm` in the browser's zone → ISO instant in UTC; unparseable text as typed. */
export function localInputToIso(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString().replace('.000Z', 'Z');
}

function emptyValue(spec: FieldSpec): FormValue {
  switch (spec.widget) {
    case 'boolean':
      return false;
    case 'refs':
    case 'strings':
    case 'enums':
    case 'objects':
      return [];
    case 'object':
      return valuesOf(spec.fields ?? [], undefined);
    default:
      return '';
  }
}

/** One field's input value from a record's value. */
export function toFormValue(spec: FieldSpec, value: unknown): FormValue {
  if (value === undefined || value === null) {
    if (spec.defaultValue !== undefined && spec.widget !== 'object') return toFormValue({ ...spec, defaultValue: undefined }, spec.defaultValue);
    return emptyValue(spec);
  }
  switch (spec.widget) {
    case 'boolean':
      return value === true;
    case 'refs':
    case 'strings':
    case 'enums':
      return Array.isArray(value) ? value.map(String) : [];
    case 'objects':
      return Array.isArray(value) ? value.map((item) => valuesOf(spec.fields ?? [], item as Record<string, unknown>)) : [];
    case 'object':
      return valuesOf(spec.fields ?? [], value as Record<string, unknown>);
    case 'datetime':
      return isoToLocalInput(value);
    case 'date':
      return String(value).slice(0, 10);
    case 'secret':
      return '';
    case 'json':
      return JSON.stringify(value, null, 2);
    default:
      return String(value);
  }
}

/** The form's values for a record (edit) or for a new one (create: empty or defaults). */
export function valuesOf(specs: FieldSpec[], record: Record<string, unknown> | undefined): FormValues {
  const values: FormValues = {};
  for (const spec of specs) values[spec.name] = toFormValue(spec, record?.[spec.name]);
  return values;
}

const OMIT = Symbol('omit');
type Out = unknown | typeof OMIT;

function isBlank(value: FormValue): boolean {
  return typeof value === 'string' ? value.trim() === '' : Array.isArray(value) ? value.length === 0 : false;
}

/** What an emptied optional field sends on edit: '' or null when the schema takes it, else nothing. */
function clearedValue(spec: FieldSpec): Out {
  if (spec.schema.safeParse('').success) return '';
  if (spec.nullable) return null;
  return OMIT;
}

function parseNumber(text: string): number | string {
  const normalised = text.trim().replace(/\s/g, '').replace(',', '.');
  const n = Number(normalised);
  // Not a number: the text goes as typed, and the schema answers 'Este campo debe ser un número válido'.
  return normalised !== '' && Number.isFinite(n) ? n : text;
}

/** One field's body value; OMIT leaves it out. */
function toBodyValue(spec: FieldSpec, value: FormValue, mode: FormMode): Out {
  if (spec.widget === 'object') {
    const inner = bodyOf(spec.fields ?? [], (value as FormValues) ?? {}, 'create');
    if (Object.keys(inner).length === 0) return spec.required ? {} : OMIT;
    return inner;
  }
  if (spec.widget === 'objects') {
    const rows = (value as FormValues[]) ?? [];
    // an optional list left empty on create is not sent (on edit, [] clears it)
    if (rows.length === 0 && mode === 'create' && !spec.required) return OMIT;
    return rows.map((row) => bodyOf(spec.fields ?? [], row, 'create'));
  }
  if (spec.widget === 'boolean') return value === true;
  if (Array.isArray(value)) return value;
  if (spec.widget === 'secret') return isBlank(value) ? OMIT : value;
  const text = String(value ?? '');
  if (text.trim() === '') {
    // A required field sends nothing, so the schema's 'Este campo es requerido' answers;
    // an optional one emptied on edit is cleared when the schema allows it.
    if (mode === 'create' || spec.required) return OMIT;
    return clearedValue(spec);
  }
  switch (spec.widget) {
    case 'number':
    case 'integer':
      return parseNumber(text);
    case 'datetime':
      return localInputToIso(text);
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    default:
      return text;
  }
}

/** The request body of the form's values: create sends every filled field. */
export function bodyOf(specs: FieldSpec[], values: FormValues, mode: FormMode): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const spec of specs) {
    const out = toBodyValue(spec, values[spec.name] ?? emptyValue(spec), mode);
    if (out !== OMIT) body[spec.name] = out;
  }
  return body;
}

/**
 * An update body: only the fields whose value changed since the form opened (PUT is
 * partial). A secret left empty is kept; a filled one is sent.
 */
export function changesOf(specs: FieldSpec[], values: FormValues, initial: FormValues): Record<string, unknown> {
  const now = bodyOf(specs, values, 'edit');
  const before = bodyOf(specs, initial, 'edit');
  const changes: Record<string, unknown> = {};
  for (const spec of specs) {
    const field = spec.name;
    const required = spec.required && isBlank(values[field] ?? '') && !isBlank(initial[field] ?? '');
    if (required) {
      // A required field emptied: send '' so the schema answers 'Este campo es requerido'.
      changes[field] = '';
      continue;
    }
    if (!(field in now) && !(field in before)) continue;
    if (JSON.stringify(now[field]) !== JSON.stringify(before[field])) {
      if (field in now) changes[field] = now[field];
    }
  }
  return changes;
}

/** Reads a value at a dotted path of form values (`terms.0.name`). */
export function valueAt(values: FormValues, path: string): FormValue | undefined {
  let node: unknown = values;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return node as FormValue | undefined;
}
