import { z } from 'zod';
import { type ListQuery, listQuery } from './list-query.js';
import type { Module } from './permissions.js';

/**
 * A standard resource (SPEC §7 "Standard resources") is declared once here: its API key,
 * the module whose permissions guard it, its writable fields as zod, its operations and its
 * list defaults. The server turns a declaration into a table and routes; the web turns it
 * plus a small screen config into a list and a form. Adding a resource costs this
 * declaration and a screen config — never a copied folder.
 */
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';

export interface ResourceOptions<S extends z.ZodRawShape> {
  /** The exact API segment of the spec (`equipos-de-ventas`, `imagina_template_messages`). */
  key: string;
  /** Spanish singular and plural names, for messages and screens. */
  label: string;
  labelPlural: string;
  module: Module;
  /**
   * Writable fields: the body of create (and, partially, of update). Normalise with zod's
   * in-place checks (`.trim()`, `.toLowerCase()`, `.toUpperCase()`), not `.transform()`:
   * the same schemas describe responses, which must serialise.
   */
  fields: S;
  /** Default: list, create, update, delete. `get` adds GET /{id}. */
  operations?: readonly Operation[];
  /** The exact API path when it is not `/<key>` (chat groups live at `users/chat_groups`). */
  path?: string;
  /**
   * The spec's delete with a body (ecommerces-attributes, ecommerces-orders, contactos): the
   * body names the record as the external system knows it, and the server deletes only when
   * every given field equals the stored one (decision 0010).
   */
  deleteBody?: z.ZodObject;
  /**
   * Fields holding ids of another resource's records (`brandId: 'brands'`, also arrays of
   * ids): the server accepts only ids of the caller's company; forms offer them as choices.
   * Several keys: the id may be a record of any of them (labels reference each other across
   * categories, tags and mostrador labels). A reference inside a field is declared by its path:
   * `'items[].ecommerceId'` (each line of an order), `'filters.mostradorLabelIds'` (an object's
   * list). Every id at any depth must be declared (the contract test walks the schemas), and the
   * server checks each one against the caller's company (decision 0021).
   */
  refs?: Partial<Record<RefPath<Extract<keyof S, string>>, string | readonly string[]>>;
  /**
   * Secrets (tokens, API keys, client secrets): accepted on create and update, stored, never
   * returned. Responses carry `<field>Set: true` instead, so a form can say it is kept.
   */
  writeOnly?: ReadonlyArray<Extract<keyof S, string>>;
  /** Default sort of the list (SPEC §9): name asc for most. */
  defaultSort?: { field: Extract<keyof S, string> | 'createdAt' | 'updatedAt'; order: 'asc' | 'desc' };
  /** Fields a user searches with `filter` (text fields). */
  searchable?: ReadonlyArray<Extract<keyof S, string>>;
  /** Fields the list may sort by, besides createdAt and updatedAt. */
  sortable?: ReadonlyArray<Extract<keyof S, string>>;
  /**
   * Fields the list filters by, one query parameter each (GET /leads?status=sin-asignar):
   * an enum or a reference → equality, checked by the field's own schema; a list of ids
   * (`mostradorLabels`) → records holding any of the given ids (one id, comma-separated or a
   * JSON list); 'createdAt' → `from` / `to` (ISO 8601, from inclusive, to exclusive). Each
   * scalar one gets a (company, field, default sort) index.
   */
  filterable?: ReadonlyArray<Extract<keyof S, string> | 'createdAt'>;
  /**
   * References a create must name and an update may not clear, with the Spanish message of a
   * missing one (`telegramGroupId: 'Elige el grupo…'`). Stored nullable all the same: deleting
   * the referenced record clears them, and the record then asks for one again (decision 0061).
   */
  requiredRefs?: Partial<Record<Extract<keyof S, string>, string>>;
  /** Fields unique within a company (a 409 with a Spanish message on repeats). */
  unique?: ReadonlyArray<Extract<keyof S, string>>;
  /**
   * Yes/no flags at most one record of a company holds (a catalogue's isDefault, SPEC §4): a
   * partial unique index keeps it so, and a write that sets the flag clears it on the others
   * in the same statement's transaction.
   */
  onlyOne?: ReadonlyArray<Extract<keyof S, string>>;
  /**
   * Realistic Spanish records: the demo tenant's data, and the generic tests' inputs
   * (at least three, with distinct unique values).
   */
  examples: ReadonlyArray<z.input<z.ZodObject<S>>>;
}

export const systemFields = ['_id', 'createdAt', 'updatedAt'] as const;

/** A field, or a path into it: `items[].ecommerceId`, `filters.mostradorLabelIds`. */
export type RefPath<F extends string> = F | `${F}.${string}` | `${F}[].${string}`;

/** Whether a `refs` key points inside a field rather than at a whole field. */
export const isNestedRef = (path: string) => path.includes('.');

/**
 * The ids a value holds at a `refs` path: `items[].ecommerceId` → every line's ecommerceId;
 * a list at the end is flattened. Missing parts and non-strings are skipped (the schema has
 * already said whether they may be missing).
 */
export function idsAtPath(value: unknown, path: string): string[] {
  let current: unknown[] = [value];
  for (const segment of path.split('.')) {
    const many = segment.endsWith('[]');
    const key = many ? segment.slice(0, -2) : segment;
    const next: unknown[] = [];
    for (const v of current) {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
      const child = (v as Record<string, unknown>)[key];
      if (many) {
        if (Array.isArray(child)) next.push(...child);
      } else if (child !== undefined && child !== null) next.push(child);
    }
    current = next;
  }
  return current.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v): v is string => typeof v === 'string');
}

/**
 * The paths of every id (uuid string) in a resource's fields, at any depth, in `refs` syntax:
 * what the contract test requires to be declared.
 */
export function idPathsOf(fields: Record<string, z.ZodType>): string[] {
  const out: string[] = [];
  const walk = (schema: z.ZodType, path: string) => {
    const def = unwrapSchema(schema).core._zod.def;
    if (def.type === 'string' && (def.format === 'uuid' || def.format === 'guid')) out.push(path);
    else if (def.type === 'array') {
      const element = def.element as z.ZodType;
      const inner = unwrapSchema(element).core._zod.def;
      // a list of ids is declared by the list's own path; a list of objects by `list[].field`
      if (inner.type === 'object') walk(element, `${path}[]`);
      else walk(element, path);
    } else if (def.type === 'object') {
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) walk(v, path ? `${path}.${k}` : k);
    }
  };
  for (const [field, schema] of Object.entries(fields)) walk(schema, field);
  return out;
}

/** An instant in a query string: ISO 8601 with its offset (`2025-03-01T00:00:00-05:00`, `…Z`). */
export const zQueryDate = () => z.iso.datetime({ offset: true, error: 'Fecha inválida (ISO 8601)' });

/**
 * Ids in a query string: one id, comma-separated ids or a JSON list ('["id1","id2"]'),
 * parsed to a list (empty text: an empty list).
 */
export const zIdsText = (message = 'Debe ser un id o una lista de ids') =>
  z
    .string()
    .trim()
    .max(4000, 'Demasiados ids')
    .transform((v, ctx) => {
      if (!v) return [] as string[];
      let ids: unknown;
      try {
        ids = v.startsWith('[') ? JSON.parse(v) : v.split(',').map((s) => s.trim()).filter(Boolean);
      } catch {
        ids = undefined;
      }
      const parsed = z.array(z.uuid()).safeParse(ids);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return parsed.data;
    });

/**
 * The query parameter(s) of one filterable field. Equality filters reuse the field's own
 * schema (its Spanish messages); lists of ids become id text; createdAt becomes from/to.
 */
function filterParams(resourceKey: string, field: string, schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (field === 'createdAt') return { from: zQueryDate().optional(), to: zQueryDate().optional() };
  if (!schema) throw new Error(`${resourceKey}: filterable «${field}» no es un campo`);
  const core = unwrapSchema(schema).core._zod.def;
  if (core.type === 'array') {
    const element = (core.element as SchemaNode | undefined)?._zod.def;
    if (element?.type !== 'string' || !['uuid', 'guid'].includes(String(element.format))) {
      throw new Error(`${resourceKey}: solo se filtra por listas de ids («${field}»)`);
    }
    return { [field]: zIdsText().optional() };
  }
  if (core.type === 'enum' || core.type === 'literal' || core.type === 'string') return { [field]: schema.optional() };
  throw new Error(`${resourceKey}: no se puede filtrar por «${field}» (${core.type})`);
}

/** A reference that must be given: a uuid, with its own message when missing or null. */
const requiredRef = (missing: string) =>
  z.uuid({ error: (iss) => (iss.input === undefined || iss.input === null ? missing : 'El identificador no es válido') });

export function defineResource<const S extends z.ZodRawShape>(options: ResourceOptions<S>) {
  const requiredRefs = (options.requiredRefs ?? {}) as Record<string, string>;
  const writable = Object.fromEntries(
    Object.entries(options.fields as unknown as Record<string, z.ZodType>).map(([f, schema]) => [f, f in requiredRefs ? requiredRef(requiredRefs[f]) : schema]),
  ) as unknown as S;
  const stored = z.object(options.fields).strict();
  const input = Object.keys(requiredRefs).length ? z.object(writable).strict() : stored;
  const writeOnly = [...(options.writeOnly ?? [])] as string[];
  const readable: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(options.fields)) {
    if (writeOnly.includes(field)) readable[`${field}Set`] = z.boolean().optional();
    else readable[field] = schema;
  }
  const entity = z.object({
    _id: z.string(),
    // typed as the fields: a write-only field is absent from responses, its `<field>Set` flag present
    ...(readable as unknown as S),
    createdAt: z.string(),
    updatedAt: z.string(),
  });
  const sortable = ['createdAt', 'updatedAt', ...(options.sortable ?? [])] as string[];
  const defaultSort = options.defaultSort ?? { field: 'createdAt', order: 'desc' };
  if (!sortable.includes(defaultSort.field)) sortable.push(defaultSort.field);
  const filterable = [...(options.filterable ?? [])] as string[];
  const filterShape = Object.assign(
    {},
    ...filterable.map((f) => filterParams(options.key, f, (options.fields as unknown as Record<string, z.ZodType>)[f])),
  ) as Record<string, z.ZodType>;
  return {
    ...options,
    operations: options.operations ?? (['list', 'create', 'update', 'delete'] as const),
    defaultSort,
    sortable,
    searchable: [...(options.searchable ?? [])] as string[],
    unique: [...(options.unique ?? [])] as string[],
    onlyOne: [...(options.onlyOne ?? [])] as string[],
    filterable,
    /**
     * The list's query: sort, order, page, limit, filter, fields and one parameter per
     * filterable field. Strict: an unknown parameter is a 400, never a silently wider list.
     */
    listQuery: listQuery.extend(filterShape).strict() as unknown as z.ZodType<ListQuery & Record<string, unknown>, Record<string, unknown>>,
    writeOnly,
    refs: Object.fromEntries(
      Object.entries(options.refs ?? {}).map(([field, keys]) => [field, [keys as string | string[]].flat()]),
    ) as Record<string, string[]>,
    path: options.path ?? options.key,
    /** Create body. */
    input,
    /** The fields as stored: the create body without `requiredRefs` (examples leave references out; the seed sets them). */
    stored,
    /**
     * Update body: any subset of the fields; an optional field may be sent as null to clear
     * it (unassigning a lead's agent, removing a brand's logo).
     */
    patch: z
      .object(
        Object.fromEntries(
          Object.entries(writable as unknown as Record<string, z.ZodType>).map(([f, schema]) => [
            f,
            (unwrapSchema(schema).optional ? schema.nullable() : schema).optional(),
          ]),
        ),
      )
      .strict() as unknown as z.ZodObject<{ [K in keyof S]: z.ZodOptional<z.ZodNullable<S[K]>> }>,
    /** A record as the API returns it. */
    entity,
  };
}
export type Resource = ReturnType<typeof defineResource>;

/** The kind of column a field is stored in, read from its zod schema. */
export type FieldKind = 'text' | 'uuid' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'json';

export type SchemaDef = Record<string, unknown> & { type: string; format?: string; checks?: Array<{ _zod: { def: SchemaCheck } }> };
export interface SchemaCheck {
  check: string;
  format?: string;
  maximum?: number;
  minimum?: number;
  pattern?: RegExp;
}
export type SchemaNode = z.ZodType & { _zod: { def: SchemaDef } };

export interface UnwrappedSchema {
  core: SchemaNode;
  optional: boolean;
  nullable: boolean;
  defaultValue?: unknown;
  /** Checks of every layer (a pipe's input keeps its `.max()`, its output the format). */
  checks: SchemaCheck[];
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional', 'lazy']);

/**
 * Peels optional / nullable / default / pipe layers off a schema, keeping what they said: what
 * the table generator (`fieldKind`) and the web's form builder both read a field by.
 */
export function unwrapSchema(schema: z.ZodType): UnwrappedSchema {
  let node = schema as SchemaNode;
  let optional = false;
  let nullable = false;
  let defaultValue: unknown;
  const checks: SchemaCheck[] = [];
  for (let depth = 0; depth < 20; depth++) {
    const def = node._zod.def;
    for (const c of def.checks ?? []) checks.push(c._zod.def);
    if (WRAPPERS.has(def.type)) {
      if (def.type === 'optional') optional = true;
      if (def.type === 'nullable') nullable = true;
      if (def.type === 'default' || def.type === 'prefault') {
        optional = true;
        const value = def.defaultValue;
        defaultValue = typeof value === 'function' ? (value as () => unknown)() : value;
      }
      if (def.type === 'lazy') node = (def.getter as () => SchemaNode)();
      else node = def.innerType as SchemaNode;
    } else if (def.type === 'pipe') {
      const out = def.out as SchemaNode;
      const input = def.in as SchemaNode;
      // a transform keeps the input's kind; a schema pipe (string → email) its output's
      if (out._zod.def.type === 'transform') node = input;
      else {
        for (const c of input._zod.def.checks ?? []) checks.push(c._zod.def);
        node = out;
      }
    } else break;
  }
  return { core: node, optional, nullable, defaultValue, checks };
}

export function fieldKind(schema: z.ZodType): FieldKind {
  const def = unwrapSchema(schema).core._zod.def;
  switch (def.type) {
    case 'string':
      return def.format === 'uuid' || def.format === 'guid' ? 'uuid' : 'text';
    case 'enum':
    case 'literal':
      return 'text';
    case 'number':
      return def.format === 'safeint' || def.format === 'int32' ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'timestamp';
    default:
      return 'json';
  }
}

/** Whether a field may be left out of a create body (its column is then nullable). */
export function isOptionalField(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** The table name of a resource key: snake_case (`equipos-de-ventas` → `equipos_de_ventas`). */
export function tableNameOf(key: string): string {
  return key.replace(/[^a-zA-Z0-9]+/g, '_').replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The column name of a wire field: snake_case (`foreignLabelId` → `foreign_label_id`). */
export function columnNameOf(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}
