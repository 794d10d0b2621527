/**
 * Request generators read from the contract's zod schemas (issue 10): every field gets values its
 * schema describes, mixed with hostile ones at any depth. The values go on the wire as they are
 * (JSON bodies, query strings, path segments): nothing here knows a route by name.
 */
import { type SchemaNode, unwrapSchema } from '@mostrador/contract';
import fc from 'fast-check';
import type { z } from 'zod';

/** Ids a generated value may name: the caller's company's records, other companies' records. */
export interface IdPools {
  home: string[];
  other: string[];
}

/** Placeholder for JSON nested 10,000 deep: spliced in as text when the body is serialised. */
export const DEEP = '\uE000DEEP\uE000';
export const DEEP_LEVELS = 10_000;
const deepText = `${'['.repeat(DEEP_LEVELS)}${']'.repeat(DEEP_LEVELS)}`;
/** Placeholder for the raw `%00` of a query string (a NUL as the client sends it). */
export const RAW_NUL = '\uE001NUL\uE001';

const BIG = 100_000;

/** Hostile text: NUL, control characters, huge, emoji, combining marks, lone surrogates, SQL, HTML. */
export const hostileStrings: readonly string[] = [
  '\u0000',
  'a\u0000b',
  'Ana\u0000',
  '\u0001\u0002\u0007\b\t\n\v\f\r\u001b\u007f\u0085',
  '\u2028\u2029\u200b\u200e\u202e\ufeff',
  'a'.repeat(BIG),
  'ñ'.repeat(BIG),
  '😀'.repeat(BIG / 2),
  '👩‍👩‍👧‍👦🇵🇪🏳️‍🌈',
  'e\u0301\u0301\u0301\u0301 Zalgo: Z\u0337\u0321\u0322a\u0335\u0330l\u0336\u0323g\u0338\u0327o',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  "'; drop table leads; --",
  "' or '1'='1",
  '1; select pg_sleep(5)',
  '%_\\%',
  '\\',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  `{{7*7}}$${'{'}7*7}`,
  '../../../../etc/passwd',
  '',
  ' ',
  '   \t  ',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e400',
  '9007199254740993',
  '2147483648',
  '0x10',
  'true',
  '[]',
  '{}',
  '2025-13-45T99:99:99Z',
  '0000-00-00',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'not-a-uuid',
  '__proto__',
  'constructor',
];

export const hostileNumbers: readonly number[] = [
  1e308,
  -1e308,
  -1,
  0,
  -0,
  0.5,
  -0.000001,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e21,
  123.456789012345,
];

/** Any JSON value of the wrong kind, and the structural attacks (deep nesting, arrays for objects). */
function hostileAny(pools: IdPools): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...hostileStrings) },
    { weight: 3, arbitrary: fc.constantFrom(...hostileNumbers) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(true, false, null, [], {}, [null], [[]], [{}], { '': '' }, { __proto__: 1 }),
    },
    { weight: 1, arbitrary: fc.constant(DEEP) },
    { weight: 2, arbitrary: idFrom(pools) },
    { weight: 1, arbitrary: fc.array(idFrom(pools), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.constantFrom('a', '\u0000', '$where', 'constructor', 'companyId', 'id', '_id'),
        fc.constantFrom<unknown>(1, 'x', null),
      ),
    },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3, maxKeys: 4 }) },
  );
}

/** An id of the caller's company, of another company, or one nobody has. */
export function idFrom(pools: IdPools): fc.Arbitrary<string> {
  const options: Array<fc.WeightedArbitrary<string>> = [{ weight: 2, arbitrary: fc.uuid() }];
  if (pools.home.length) options.push({ weight: 3, arbitrary: fc.constantFrom(...pools.home) });
  if (pools.other.length) options.push({ weight: 3, arbitrary: fc.constantFrom(...pools.other) });
  return fc.oneof(...options);
}

const checksOf = (schema: z.ZodType) => unwrapSchema(schema).checks;

function lengthOf(schema: z.ZodType): { min: number; max: number } {
  let min = 0;
  let max = 40;
  for (const c of checksOf(schema)) {
    const def = c as unknown as {
      check: string;
      minimum?: number;
      maximum?: number;
      length?: number;
    };
    if (def.check === 'min_length' && def.minimum !== undefined) min = Math.max(min, def.minimum);
    if (def.check === 'max_length' && def.maximum !== undefined) max = Math.min(Math.max(def.maximum, min), 400);
    if (def.check === 'length_equals' && def.length !== undefined) min = max = def.length;
  }
  return { min, max: Math.max(min, max) };
}

function rangeOf(schema: z.ZodType): { min: number; max: number } {
  let min = -1000;
  let max = 1_000_000;
  for (const c of checksOf(schema)) {
    const def = c as unknown as { check: string; value?: number };
    if (def.check === 'greater_than' && typeof def.value === 'number') min = def.value;
    if (def.check === 'less_than' && typeof def.value === 'number') max = def.value;
  }
  return { min: Math.min(min, max), max };
}

function validString(node: SchemaNode, schema: z.ZodType, pools: IdPools): fc.Arbitrary<unknown> {
  const format = String(node._zod.def.format ?? '');
  switch (format) {
    case 'uuid':
    case 'guid':
      return idFrom(pools);
    case 'email':
      return fc.emailAddress();
    case 'url':
      return fc.webUrl();
    case 'datetime':
      return fc
        .date({
          noInvalidDate: true,
          min: new Date('1900-01-01'),
          max: new Date('2100-01-01'),
        })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({
          noInvalidDate: true,
          min: new Date('1900-01-01'),
          max: new Date('2100-01-01'),
        })
        .map((d) => d.toISOString().slice(0, 10));
  }
  const { min, max } = lengthOf(schema);
  const pattern = checksOf(schema).find((c) => c.pattern)?.pattern;
  const options: Array<fc.Arbitrary<unknown>> = [
    fc.string({ minLength: min, maxLength: max }),
    fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }),
    fc.string({ minLength: min, maxLength: max, unit: 'binary' }),
  ];
  if (pattern)
    options.push(fc.stringMatching(new RegExp(pattern.source.replace(/^(?!\^)/, '^').replace(/(?<!\$)$/, '$'), pattern.flags.replace('g', ''))));
  return fc.oneof(...options);
}

/**
 * A value for one schema: usually one it describes (its children fuzzed in turn), sometimes a
 * hostile one. `examples`: realistic values of the field (a resource's examples).
 */
export function fuzzValue(schema: z.ZodType, pools: IdPools, depth = 0, examples: unknown[] = []): fc.Arbitrary<unknown> {
  const options: Array<fc.WeightedArbitrary<unknown>> = [
    { weight: 5, arbitrary: validValue(schema, pools, depth) },
    { weight: 2, arbitrary: hostileAny(pools) },
  ];
  if (examples.length) options.push({ weight: 3, arbitrary: fc.constantFrom(...examples) });
  return fc.oneof(...options);
}

function validValue(schema: z.ZodType, pools: IdPools, depth: number): fc.Arbitrary<unknown> {
  const u = unwrapSchema(schema);
  const node = u.core;
  const def = node._zod.def as Record<string, unknown> & { type: string };
  const child = (s: unknown) => (depth > 6 ? hostileAny(pools) : fuzzValue(s as z.ZodType, pools, depth + 1));
  let base: fc.Arbitrary<unknown>;
  switch (def.type) {
    case 'string':
      base = validString(node, schema, pools);
      break;
    case 'number': {
      const { min, max } = rangeOf(schema);
      const integer = def.format === 'safeint' || def.format === 'int32';
      base = integer
        ? fc.integer({
            min: Math.max(min, -(2 ** 31)),
            max: Math.min(max, 2 ** 31 - 1),
          })
        : fc.double({ min, max, noNaN: true });
      break;
    }
    case 'bigint':
      base = fc.integer();
      break;
    case 'boolean':
      base = fc.boolean();
      break;
    case 'enum': {
      const entries = Object.values(def.entries as Record<string, unknown>);
      base = entries.length ? fc.constantFrom(...entries) : fc.string();
      break;
    }
    case 'literal': {
      const values = def.values as unknown[];
      base = values.length ? fc.constantFrom(...values) : fc.constant(null);
      break;
    }
    case 'array': {
      const { min, max } = lengthOf(schema);
      base = fc.array(child(def.element), {
        minLength: Math.min(min, 5),
        maxLength: Math.min(Math.max(min, 5), max),
      });
      break;
    }
    case 'tuple':
      base = fc.tuple(...((def.items as unknown[]) ?? []).map((s) => child(s)));
      break;
    case 'object':
      base = objectValue(def.shape as Record<string, z.ZodType>, pools, depth);
      break;
    case 'record':
      base = fc.dictionary(fc.string({ maxLength: 12 }), child(def.valueType), {
        maxKeys: 5,
      });
      break;
    case 'union':
    case 'xor':
      base = fc.oneof(...(def.options as unknown[]).map((s) => validValue(s as z.ZodType, pools, depth)));
      break;
    case 'intersection':
      base = fc
        .tuple(validValue(def.left as z.ZodType, pools, depth), validValue(def.right as z.ZodType, pools, depth))
        .map(([a, b]) => (a && b && typeof a === 'object' && typeof b === 'object' ? { ...a, ...b } : a));
      break;
    case 'date':
      base = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      break;
    case 'null':
      base = fc.constant(null);
      break;
    default:
      // any, unknown, custom, transform…: anything JSON
      base = fc.jsonValue({ maxDepth: 3 });
  }
  const extra: Array<fc.Arbitrary<unknown>> = [base];
  if (u.optional) extra.push(fc.constant(undefined));
  if (u.nullable || u.optional) extra.push(fc.constant(null));
  return extra.length === 1 ? base : fc.oneof({ weight: 6, arbitrary: base }, ...extra.slice(1).map((a) => ({ weight: 1, arbitrary: a })));
}

/**
 * An object of a shape: each key present or left out, fuzzed; sometimes an unknown key. A value
 * of `undefined` drops the key on the wire.
 */
export function objectValue(
  shape: Record<string, z.ZodType>,
  pools: IdPools,
  depth = 0,
  examples: Record<string, unknown[]> = {},
): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(shape);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const k of keys) record[k] = fuzzValue(shape[k], pools, depth + 1, examples[k] ?? []);
  const unknownKeys = fc.oneof(
    { weight: 8, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.constantFrom('companyId', 'company_id', '_id', 'id', 'createdAt', 'corporationId', 'role', 'x\u0000y', '__proto__', 'desconocido'),
        hostileAny(pools),
        { minKeys: 1, maxKeys: 3 },
      ),
    },
  );
  return fc.tuple(keys.length ? fc.record(record, { requiredKeys: [] }) : fc.constant({}), unknownKeys).map(([known, unknown]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(known)) if (v !== undefined) out[k] = v;
    for (const [k, v] of Object.entries(unknown))
      if (v !== undefined)
        Object.defineProperty(out, k, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    return out;
  });
}

/** Schemas of the three parts of a request, as a route declares them. */
export interface RouteSchemas {
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
}

const shapeOf = (schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined => {
  if (!schema) return undefined;
  const def = unwrapSchema(schema).core._zod.def;
  return def.type === 'object' ? (def.shape as Record<string, z.ZodType>) : undefined;
};

/** A JSON body for a body schema: the object mostly, sometimes a whole-body attack. */
export function bodyValue(schema: z.ZodType | undefined, pools: IdPools, examples: Array<Record<string, unknown>> = []): fc.Arbitrary<unknown> {
  const shape = shapeOf(schema);
  const byField: Record<string, unknown[]> = {};
  for (const e of examples) {
    for (const [k, v] of Object.entries(e)) {
      byField[k] = byField[k] ?? [];
      byField[k].push(v);
    }
  }
  const main = shape ? objectValue(shape, pools, 0, byField) : schema ? fuzzValue(schema, pools) : fc.jsonValue({ maxDepth: 2 });
  const options: Array<fc.WeightedArbitrary<unknown>> = [
    { weight: 12, arbitrary: main },
    { weight: 1, arbitrary: fc.array(main, { minLength: 1, maxLength: 2 }) },
    { weight: 1, arbitrary: hostileAny(pools) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ];
  if (examples.length) {
    options.push({ weight: 3, arbitrary: fc.constantFrom(...examples) });
    // a realistic record with one field replaced: the near-valid bodies where partial writes hide
    const keys = Object.keys(shape ?? {});
    if (shape && keys.length) {
      const mutated = fc.tuple(fc.constantFrom(...examples), fc.constantFrom(...keys)).chain(([example, key]) =>
        fuzzValue(shape[key], pools, 1, byField[key] ?? []).map((v) => ({
          ...example,
          [key]: v,
        })),
      );
      options.push({ weight: 6, arbitrary: mutated });
    }
  }
  return fc.oneof(...options);
}

/** Query parameters for a query schema: its own keys (as text) and, sometimes, unknown ones. */
export function queryValue(schema: z.ZodType | undefined, pools: IdPools): fc.Arbitrary<Record<string, unknown>> {
  const shape = shapeOf(schema) ?? {};
  const text = (s: z.ZodType) =>
    fc.oneof(
      { weight: 5, arbitrary: fuzzValue(s, pools, 1) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('%00', RAW_NUL, `a${RAW_NUL}b`, '1e400', '-1', '0', '1.5', 'NaN', 'Infinity', '2147483648', '9007199254740993'),
      },
      {
        weight: 1,
        arbitrary: fc.array(idFrom(pools), { minLength: 1, maxLength: 3 }).map((ids) => (ids.length % 2 ? ids.join(',') : JSON.stringify(ids))),
      },
    );
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, s] of Object.entries(shape)) record[k] = text(s);
  const known = Object.keys(record).length ? fc.record(record, { requiredKeys: [] }) : fc.constant({});
  return fc
    .tuple(
      known,
      fc.oneof(
        { weight: 6, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.dictionary(fc.constantFrom('companyId', 'desconocido', 'x%00'), fc.constantFrom('1', '%00')),
        },
      ),
    )
    .map(([a, b]) => ({ ...a, ...b }));
}

/** Path parameters: ids of any company, random ids and hostile text. */
export function paramsValue(schema: z.ZodType | undefined, names: string[], pools: IdPools): fc.Arbitrary<Record<string, unknown>> {
  const shape = shapeOf(schema) ?? {};
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) {
    const s = shape[name];
    record[name] = fc.oneof(
      { weight: 4, arbitrary: idFrom(pools) },
      { weight: 2, arbitrary: s ? validValue(s, pools, 1) : fc.string() },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...hostileStrings.filter((h) => h.length < 1000), '%00', RAW_NUL, '1e400', '-1', String(2 ** 53 + 1)),
      },
    );
  }
  return fc.record(record);
}

/** A lone surrogate cannot be percent-encoded as UTF-8: it goes as the bytes a broken client sends. */
function encodePart(value: string): string {
  let out = '';
  for (const ch of value) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      out += '%ED%A0%80';
    }
  }
  return out.replaceAll(encodeURIComponent(RAW_NUL), '%00');
}

const asText = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : v === null ? '' : (JSON.stringify(v) ?? '');

/** The query string of generated parameters: `%00` stays a raw NUL, lists repeat their key. */
export function encodeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    const values = Array.isArray(v) && v.every((x) => typeof x === 'string') && v.length > 0 ? v : [v];
    for (const one of values) {
      const text = asText(one).replaceAll(DEEP, '[[[]]]');
      parts.push(`${encodePart(k)}=${text === '%00' ? '%00' : encodePart(text)}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The path of a route with its parameters filled in (`/api/leads/:id` → `/api/leads/<id>`). */
export function fillPath(url: string, params: Record<string, unknown>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const v = asText(params[name]).replaceAll(DEEP, '[]');
    return v === '%00' ? '%00' : encodePart(v) || '%20';
  });
}

/** A JSON body as text, with the deep-nesting placeholder replaced by 10,000 nested arrays. */
export function serialiseBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  const text = JSON.stringify(body);
  if (text === undefined) return undefined;
  return text.includes(DEEP) ? text.replaceAll(JSON.stringify(DEEP), deepText).replaceAll(DEEP, '') : text;
}

/** A short, printable description of a generated value (for findings): long text elided. */
export function describe(value: unknown, max = 400): string {
  const text =
    serialiseBody(value)
      ?.replace(/(.)\1{50,}/gu, (m, c: string) => `${c}×${m.length / c.length}`)
      .replace(/(\[){50,}/g, (m) => `[×${m.length}`)
      .replace(/(\]){50,}/g, (m) => `]×${m.length}`) ?? 'undefined';
  return text.length > max ? `${text.slice(0, max)}…(${text.length})` : text;
}

// ---------------------------------------------------------------------------------------------
// Checks of a response

/** English text zod or Fastify write by default; a Spanish product never shows it. */
const english =
  /\b(invalid input|invalid|expected|required|received|unrecognized|must (be|have)|too (big|small)|should|not found|bad request|unauthorized|forbidden|internal server error|no such route|body|querystring|params)\b/i;
const spanish =
  /[áéíóúñ¿¡«»]|\b(el|la|los|las|de|del|un|una|no|es|debe|campo|valor|para|en|con|por|ya|demasiad[oa]s?|falta|ruta|solicitud|permiso|desconocid[oa]s?|canal|registro|fecha|texto|lista|existe|enlace|sesi[oó]n|token|correo|contraseña|usuario|compañ[ií]a|formato|archivo|cuerpo)\b/i;

/**
 * Whether `msg` is a Spanish message. A field path before a colon and names in «…» are not
 * judged (a field may be called `number` or `status`).
 */
export function isSpanishMessage(msg: unknown): boolean {
  if (typeof msg !== 'string' || !msg.trim()) return false;
  const prose = msg
    .replace(/^[\w.[\]-]+:\s*/, '')
    .replace(/«[^»]*»/g, '')
    .replace(/\([^)]*\)/g, '');
  return spanish.test(prose) && !english.test(prose);
}
