import { type SchemaCheck, type SchemaDef, type SchemaNode, unwrapSchema as unwrap } from '@mostrador/contract';
import type { z } from 'zod';

/**
 * Reads a contract resource's zod fields into what a form and a table need: a widget per
 * field, whether it is required, its options, its inner fields. One reading for every
 * resource, so a screen config only names, orders and labels fields.
 */
export type FieldWidget =
  | 'text'
  | 'textarea'
  | 'email'
  | 'url'
  | 'phone'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'enums'
  | 'color'
  | 'datetime'
  | 'date'
  | 'time'
  | 'ref'
  | 'refs'
  | 'secret'
  | 'strings'
  | 'objects'
  | 'object'
  | 'json';

export interface FieldSpec {
  name: string;
  widget: FieldWidget;
  /** Create must carry it (the schema rejects `undefined`). */
  required: boolean;
  /** The schema accepts `null` (a field can be cleared with null). */
  nullable: boolean;
  /** Longest text the schema accepts. */
  maxLength?: number;
  /** Enum values, in declaration order. */
  options?: string[];
  /** Resource keys whose ids a ref field holds. */
  refs?: string[];
  /** Inner fields of an object, or of each item of an array of objects. */
  fields?: FieldSpec[];
  /** A write-only object (credentials): its inner fields are secrets kept when left empty. */
  secret?: boolean;
  /** The schema's `.default()` value, if any. */
  defaultValue?: unknown;
  schema: z.ZodType;
}

type Def = SchemaDef;
type CheckDef = SchemaCheck;
type Node = SchemaNode;

function maxLengthOf(checks: CheckDef[]): number | undefined {
  const max = checks.filter((c) => c.check === 'max_length').map((c) => c.maximum ?? Infinity);
  return max.length ? Math.min(...max) : undefined;
}

const HEX_PATTERN = /#.*(0-9a-f|a-f0-9|A-F0-9|0-9A-F|0-9a-fA-F)/;

/** Names of free-text fields that read better in several lines. */
const LONG_TEXT = /description|descripcion|message|mensaje|body|notes|notas|comment|comentario|token|key|prompt/i;

function stringWidget(name: string, def: Def, checks: CheckDef[], maxLength: number | undefined): FieldWidget {
  const format = def.format ?? checks.find((c) => c.check === 'string_format' && c.format !== 'regex')?.format;
  if (format === 'email') return 'email';
  if (format === 'url') return 'url';
  if (format === 'datetime') return 'datetime';
  if (format === 'date') return 'date';
  const patterns = checks.filter((c) => c.format === 'regex' && c.pattern).map((c) => String(c.pattern?.source));
  if (patterns.some((p) => HEX_PATTERN.test(p))) return 'color';
  if (patterns.some((p) => p.startsWith('^\\d{') && p.endsWith('}$'))) return 'phone';
  if (patterns.some((p) => p.includes('[0-5]\\d$') && p.includes(':'))) return 'time';
  if (maxLength !== undefined && (maxLength > 1000 || (maxLength >= 300 && LONG_TEXT.test(name)))) return 'textarea';
  return 'text';
}

function isInteger(def: Def, checks: CheckDef[]): boolean {
  const formats = [def.format, ...checks.map((c) => c.format)];
  return formats.some((f) => f === 'safeint' || f === 'int32' || f === 'uint32' || f === 'int64');
}

export interface SpecOptions {
  refs?: Record<string, readonly string[]>;
  writeOnly?: readonly string[];
}

/** One field's spec. */
export function fieldSpecOf(name: string, schema: z.ZodType, options: SpecOptions = {}): FieldSpec {
  const { core, optional, nullable, defaultValue, checks } = unwrap(schema);
  const def = core._zod.def;
  const maxLength = maxLengthOf(checks);
  const base = { name, required: !optional && !nullable, nullable, maxLength, defaultValue, schema };
  const refs = options.refs?.[name];
  const secret = options.writeOnly?.includes(name) ?? false;

  if (def.type === 'object') {
    // A write-only object (credentials) keeps its inner kinds; the form masks its texts.
    return { ...base, widget: 'object', fields: objectFieldsOf(core), secret: secret || undefined };
  }
  if (secret) return { ...base, widget: 'secret' };
  if (refs?.length) return { ...base, widget: def.type === 'array' ? 'refs' : 'ref', refs: [...refs] };

  switch (def.type) {
    case 'string':
      return { ...base, widget: stringWidget(name, def, checks, maxLength) };
    case 'enum':
      return { ...base, widget: 'enum', options: Object.values(def.entries as Record<string, string>) };
    case 'literal':
      return { ...base, widget: 'enum', options: (def.values as unknown[]).map(String) };
    case 'number':
      return { ...base, widget: isInteger(def, checks) ? 'integer' : 'number' };
    case 'int':
      return { ...base, widget: 'integer' };
    case 'boolean':
      return { ...base, widget: 'boolean' };
    case 'date':
      return { ...base, widget: 'datetime' };
    case 'array': {
      const item = unwrap(def.element as z.ZodType);
      const itemType = item.core._zod.def.type;
      if (itemType === 'object') return { ...base, widget: 'objects', fields: objectFieldsOf(item.core) };
      if (itemType === 'enum') {
        return { ...base, widget: 'enums', options: Object.values(item.core._zod.def.entries as Record<string, string>) };
      }
      if (itemType === 'string' || itemType === 'number') return { ...base, widget: 'strings' };
      return { ...base, widget: 'json' };
    }
    default:
      return { ...base, widget: 'json' };
  }
}

function shapeOf(schema: Node): Record<string, z.ZodType> {
  return (schema._zod.def.shape as Record<string, z.ZodType>) ?? {};
}

export function objectFieldsOf(schema: z.ZodType, options: SpecOptions = {}): FieldSpec[] {
  return Object.entries(shapeOf(schema as Node)).map(([name, s]) => fieldSpecOf(name, s, options));
}

/** Every field of a resource, in declaration order. */
export function fieldSpecsOf(
  fields: Readonly<Record<string, z.ZodType | z.core.$ZodType>>,
  options: SpecOptions = {},
): FieldSpec[] {
  return Object.entries(fields).map(([name, s]) => fieldSpecOf(name, s as z.ZodType, options));
}
