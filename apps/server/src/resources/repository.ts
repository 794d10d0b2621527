import { columnNameOf, idsAtPath, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, type ListQuery, ownedRows, type Page, type Resource, tableNameOf, totalPagesOf } from '@mostrador/contract';
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { requestActor, requestOrigin } from '../db/actor.js';
import { MASKED, originSql } from '../db/audit.js';
import type { Db } from '../db/database.js';
import { resourceCounts } from '../db/schema.js';
import { AppError } from '../lib/errors.js';
import { badCursor, containsPattern, cursorValueCheck, decodeCursor, encodeCursor, listRules, pageResult } from '../lib/list.js';
import { createHash } from 'node:crypto';
import { getTableColumns, is, Placeholder } from 'drizzle-orm';
import type pg from 'pg';
import { namedStatements } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import { type AuthRow, authColumns, authStatement, type Tenant } from '../plugins/auth.js';
import { clearedReference, needsCurrent, settleWrite } from './assignment-rules.js';
import { isOwned, ownerCondition } from './owned-rows.js';
import type { ResourceTable } from '../db/table-for.js';

/** Tables of the other resources, by key: references are checked and cleaned through them. */
export type TableLookup = (key: string) => ResourceTable;

/** A resource field that holds ids of `key`'s records (scalar or array). */
export interface Referrer {
  resource: Resource;
  table: ResourceTable;
  field: string;
  many: boolean;
}

type Row = Record<string, unknown> & { id: string; createdAt: Date; updatedAt: Date };
export type WireRecord = Record<string, unknown> & { _id: string; createdAt: string; updatedAt: string };
/** A list query with the resource's field filters (`resource.listQuery`, parsed). */
export type FilteredQuery = ListQuery & Record<string, unknown>;

/** A SQL string literal of a constant the server writes itself (field names). */
const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** `array['a', 'b']::text[]`, each id a bound parameter. */
export const textArray = (values: readonly string[]) => sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`;


/**
 * Page sizes written into the unfiltered page's statement instead of bound (see plainPage): the
 * default, the web's choices (components/crud/pagination.ts) and a reference field's options.
 */
const FIXED_PAGE_SIZES = new Set([LIST_DEFAULT_LIMIT, 10, 20, 30, 50, 100, LIST_MAX_LIMIT]);

/**
 * Data access of one standard resource. Every statement is scoped by the tenant's company
 * here, and only here: a handler cannot reach a row of another company, and ids of another
 * company simply do not exist (404).
 */
export function repositoryFor(
  resource: Resource,
  table: ResourceTable,
  tableOf: TableLookup,
  secrets: Pick<SecretBox, 'seal'>,
  referrers: () => Referrer[] = () => [],
) {
  const columns = table as unknown as Record<string, AnyPgColumn>;
  const fieldNames = Object.keys(resource.fields);
  const secret = new Set(resource.writeOnly);
  const wireFields = ['_id', ...fieldNames.map((f) => (secret.has(f) ? `${f}Set` : f)), 'createdAt', 'updatedAt'];
  const rules = listRules(resource.sortable, wireFields, { cursor: true });
  const tableName = tableNameOf(resource.key);
  /** A column of this table by its SQL name, for conditions built outside drizzle's column objects. */
  const columnSql = (name: string) => sql.raw(`"${tableName}"."${name}"`);
  /** The rows an agent may see of an owned resource (decision 0026: their own and unassigned ones); undefined: every row. */
  const owned = (tenant: Tenant) => ownerCondition(resource.key, tenant, columnSql);
  const scope = (tenant: Tenant, extra?: SQL) => and(eq(columns.companyId, tenant.companyId), extra, owned(tenant));

  function toWire(row: Row): WireRecord {
    const out: Record<string, unknown> = { _id: row.id };
    for (const f of fieldNames) {
      if (row[f] === null || row[f] === undefined) continue;
      // secrets are stored, never returned: the form only learns that one is kept
      if (secret.has(f)) out[`${f}Set`] = true;
      else out[f] = row[f];
    }
    out.createdAt = row.createdAt.toISOString();
    out.updatedAt = row.updatedAt.toISOString();
    return out as WireRecord;
  }

  /**
   * The SQL that writes a row as its wire JSON text, exactly what toWire + JSON.stringify
   * write (decision 0036): `_id`, then the declared fields in order without the empty ones
   * (a secret only as `<field>Set: true`), then createdAt and updatedAt in milliseconds UTC.
   * Text, uuid and numbers through to_json (JSON's escaping), jsonb as PostgreSQL prints it
   * (same keys in the same order as pg's JSON.parse of it would keep), timestamps as
   * Date#toISOString writes them (to_char's MS truncates the microseconds, as Date does; the
   * colons quoted in the format, so that pgbench -M prepared does not read `:MI` as a variable).
   */
  const rowJson = (() => {
    const qualified = (f: string) => `"${tableName}"."${columns[f].name}"`;
    const iso = (c: string) => `'"' || to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24":"MI":"SS.MS"Z"') || '"'`;
    const valueSql = (f: string) => {
      const c = qualified(f);
      const type = columns[f].getSQLType().toLowerCase();
      if (type.startsWith('timestamp')) return iso(c);
      if (type === 'jsonb' || type === 'integer' || type === 'boolean') return `${c}::text`;
      return `to_json(${c})::text`;
    };
    const parts = [`'{"_id":"' || ${qualified('id')}::text || '"'`];
    for (const f of fieldNames) {
      if (secret.has(f)) parts.push(`case when ${qualified(f)} is null then '' else ${sqlString(`,${JSON.stringify(`${f}Set`)}:true`)} end`);
      else parts.push(`coalesce(${sqlString(`,${JSON.stringify(f)}:`)} || ${valueSql(f)}, '')`);
    }
    parts.push(`',"createdAt":' || ${iso(qualified('createdAt'))}`, `',"updatedAt":' || ${iso(qualified('updatedAt'))} || '}'`);
    return sql.raw(`(${parts.join(' || ')})`);
  })();

  function uniqueViolation(error: unknown): never {
    const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
    const pgError = e.code ? e : e.cause;
    if (pgError?.code === '23505') {
      const field = resource.unique.find((f) => pgError.constraint?.endsWith(`_${columnNameOf(f)}_uq`));
      throw new AppError(
        'CONFLICT',
        field ? `Ya existe un registro con ese valor en ${field}` : 'El registro ya existe',
        field ? [{ path: field, msg: 'Este valor ya está en uso' }] : undefined,
      );
    }
    throw error;
  }

  /**
   * The audit log's changes of a write (decision 0072), computed by the database from the row
   * before (`before`, a CTE alias or null for a creation) and after (`after`, null for a
   * deletion): `{field: {from, to}}` for each declared field that differs, secrets as '••••'.
   */
  const changesSql = (before: string | null, after: string | null) => {
    const masked = `'${JSON.stringify(MASKED)}'::jsonb`;
    const parts = fieldNames.map((f) => {
      const column = `"${columns[f].name}"`;
      const b = before && `${before}.${column}`;
      const a = after && `${after}.${column}`;
      const differs = b && a ? `${b} is distinct from ${a}` : `${(b ?? a) as string} is not null`;
      const value = (side: string | null) =>
        side === null ? `'null'::jsonb` : secret.has(f) ? `case when ${side} is null then 'null'::jsonb else ${masked} end` : `to_jsonb(${side})`;
      return `case when ${differs} then jsonb_build_object(${sqlString(f)}, jsonb_build_object('from', ${value(b)}, 'to', ${value(a)})) else '{}'::jsonb end`;
    });
    return sql.raw(`('{}'::jsonb${parts.map((p) => ` || ${p}`).join('')})`);
  };
  /** `insert into audit_log … select … from <rows>`: one audit row per changed record, in the write's own statement. */
  const auditInsert = (action: 'create' | 'update' | 'delete', from: SQL, rowAlias: string, changes: SQL) =>
    sql`insert into audit_log (company_id, actor, ip, user_agent, action, entity, entity_id, changes)
        select ${sql.raw(rowAlias)}.company_id, ${originSql()}, ${action}, ${resource.key}, ${sql.raw(rowAlias)}.id::text, ${changes} from ${from}`;
  /**
   * Tables whose triggers record who changed a row (the pipeline board's history of leads,
   * decision 0099): the write's statement names the request's caller for them, transaction-local
   * (`mostrador.caller`), in a CTE the statement reads — no round trip. Nothing outside a request.
   */
  const namesCaller = resource.key === 'leads';
  const callerCte = () => {
    const { actor } = requestOrigin();
    return namesCaller && actor.type !== 'system' ? sql`who as (select set_config('mostrador.caller', ${JSON.stringify(actor)}, true) as v), ` : sql``;
  };
  const callerJoin = () => (namesCaller && requestOrigin().actor.type !== 'system' ? sql` cross join who` : sql``);
  /** A row as the database wrote it (column names, driver values) as drizzle's `returning()` answers it. */
  const tableColumns = Object.entries(getTableColumns(table));
  const rowOf = (raw: Record<string, unknown>): Row => {
    const out: Record<string, unknown> = {};
    for (const [key, column] of tableColumns) {
      const value = raw[column.name];
      out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return out as Row;
  };

  /**
   * A write that sets a flag only one record may hold (`onlyOne`: a catalogue's isDefault)
   * takes it from the others first, in the write's transaction; the partial unique index
   * settles two such writes racing (the second is a 409).
   */
  async function clearOnlyOne(db: Db, tenant: Tenant, input: Record<string, unknown>, except?: string) {
    for (const f of resource.onlyOne) {
      if (input[f] !== true) continue;
      await db
        .update(table)
        .set({ [f]: false, updatedAt: new Date() } as never)
        .where(scope(tenant, and(eq(columns[f], true), except ? ne(columns.id, except) : undefined)));
    }
  }
  /**
   * `fn` in one transaction only when it must be: a resource with `onlyOne` flags, or a request
   * that names its actor (an API key's, db/actor.ts), which every transaction begins by saying.
   */
  const inOne = <T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> =>
    resource.onlyOne.length || requestActor() ? db.transaction((tx) => fn(tx as unknown as Db)) : fn(db);

  /** Write-only fields are sealed before they reach the database (lib/secret-box.ts). */
  function sealSecrets(input: Record<string, unknown>): Record<string, unknown> {
    if (secret.size === 0) return input;
    const out = { ...input };
    for (const f of secret) if (out[f] !== undefined && out[f] !== null) out[f] = secrets.seal(out[f]);
    return out;
  }

  /**
   * Every id a body names in a reference, at any depth (`items[].ecommerceId`), must be a
   * record of the caller's company: one query per referenced table, whatever the count.
   */
  async function assertReferences(db: Db, tenant: Tenant, input: Record<string, unknown>) {
    const details: Array<{ path: string; msg: string }> = [];
    for (const [field, keys] of Object.entries(resource.refs)) {
      const wanted = [...new Set(idsAtPath(input, field))];
      if (wanted.length === 0) continue;
      const found = new Set<string>();
      for (const key of keys) {
        const other = tableOf(key) as unknown as Record<string, AnyPgColumn>;
        const rows = await db
          .select({ id: other.id })
          .from(tableOf(key))
          .where(and(eq(other.companyId, tenant.companyId), inArray(other.id, wanted)));
        for (const r of rows) found.add(r.id as string);
      }
      if (found.size < wanted.length) details.push({ path: field, msg: 'No existe en esta compañía' });
    }
    if (details.length) throw new AppError('VALIDATION', 'Alguna referencia no existe en esta compañía', details);
  }

  /** The conditions of the field filters a query names (resource.filterable). */
  function filterConditions(q: Record<string, unknown>): SQL[] {
    const out: SQL[] = [];
    for (const f of resource.filterable) {
      if (f === 'createdAt') {
        if (typeof q.from === 'string') out.push(gte(columns.createdAt, new Date(q.from)));
        if (typeof q.to === 'string') out.push(lt(columns.createdAt, new Date(q.to)));
        continue;
      }
      const value = q[f];
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) {
        // a list of ids holds any of the given ones (GIN index); no ids: no filter
        if (value.length) out.push(sql`${columns[f]} ?| ${textArray(value as string[])}`);
      } else out.push(eq(columns[f], value));
    }
    return out;
  }

  /** Where, order and whether the list is narrowed (its total must then be counted). */
  function plan(tenant: Tenant, q: FilteredQuery, extra?: SQL) {
    const sortField = rules.sortOf(q, resource.defaultSort.field);
    rules.assertFields(q);
    const order = q.order ?? (q.sort ? 'asc' : resource.defaultSort.order);
    const term = q.filter ? containsPattern(q.filter) : undefined;
    const search = term && resource.searchable.length ? or(...resource.searchable.map((f) => ilike(columns[f], term))) : undefined;
    const filters = filterConditions(q);
    if (extra) filters.push(extra);
    const where = scope(tenant, and(search ?? (term ? sql`false` : undefined), ...filters)) as SQL;
    const direction = order === 'asc' ? asc : desc;
    return { where, narrowed: Boolean(term) || filters.length > 0 || owned(tenant) !== undefined, orderBy: [direction(columns[sortField]), direction(columns.id)], sortField, order };
  }

  /**
   * The rows after a cursor's row in the list's order (sort, then id), for keyset paging
   * (decision 0023). The (company_id, sort, id) indexes serve it: `(sort, id) < ($1, $2)`.
   * Empty values sort last ascending and first descending (PostgreSQL's default).
   */
  function afterCursor(cursor: string, sortField: string, order: 'asc' | 'desc'): SQL {
    const key = cursorKey(cursor, sortField, order);
    return afterRow(sortField, order, key.value, key.id);
  }

  /** A cursor of this list's sort, checked against the sort column's type (else the Spanish 400). */
  function cursorKey(cursor: string, sortField: string, order: 'asc' | 'desc') {
    const column = columns[sortField];
    const key = decodeCursor(cursor, sortField, order, cursorValueCheck(column.getSQLType()));
    if (key.value === null && column.notNull) throw badCursor();
    return key;
  }

  /** The rows after the row with sort value `value` (null: empty) and id `id`: bound values or placeholders. */
  function afterRow(sortField: string, order: 'asc' | 'desc', value: unknown, id: unknown): SQL {
    const column = columns[sortField];
    const idValue = sql`${id}::uuid`;
    const op = sql.raw(order === 'asc' ? '>' : '<');
    if (value === null) {
      return order === 'asc' ? sql`(${column} is null and ${columns.id} > ${idValue})` : sql`(${column} is not null or ${columns.id} < ${idValue})`;
    }
    const after = sql`(${column}, ${columns.id}) ${op} (${value}::${sql.raw(column.getSQLType())}, ${idValue})`;
    return order === 'asc' && !column.notNull ? sql`(${after} or ${column} is null)` : after;
  }

  /**
   * A page past the first by the spec's `page` (OFFSET): the skipped rows are walked for their
   * ids alone, in the (company_id, sort, id) index (an index-only scan once the table is
   * vacuumed), and only the page's own rows are read whole and written as JSON (a deferred
   * join). OFFSET on the page itself built every skipped row first: a page at 500,000 leads
   * took 1.2 s, nearly all of it writing rows it then threw away.
   */
  const pageIdsAt = (where: SQL, orderBy: SQL[], limit: SQL | Placeholder | number, offset: SQL | Placeholder | number) =>
    sql`${columns.id} in (select ${columns.id} from ${table} where ${where} order by ${sql.join(orderBy, sql`, `)} limit ${limit} offset ${offset})`;

  /**
   * The statement of an unfiltered page (no search, field filter or module condition: the
   * common case), built once per sort, direction and kind of cursor and then only executed:
   * a named prepared statement on PostgreSQL (parsed and planned once per connection).
   * The same rows, cursor key and total as the general statement below.
   */
  const plainPages = new WeakMap<Db, Map<string, { execute(values: Record<string, unknown>): Promise<unknown[]> }>>();
  function plainPage(
    db: Db,
    sortField: string,
    order: 'asc' | 'desc',
    cursor: 'none' | 'value' | 'null',
    window: { limit: number; offset: number },
    asJson = false,
    gate?: string,
  ) {
    let byShape = plainPages.get(db);
    if (!byShape) plainPages.set(db, (byShape = new Map()));
    // The row count is written into the statement for the usual page sizes, and OFFSET only when
    // there is one: with `limit $n` PostgreSQL's generic plan must assume 10 % of the table, so it
    // never chose it and planned the statement again on every call (~0.7 ms, about half of its
    // cost); with `limit 21` it keeps the generic plan after five calls, as pgbench -M prepared
    // does. Other sizes keep the parameter (a bounded number of statements per connection).
    const fixed = FIXED_PAGE_SIZES.has(window.limit - 1) ? window.limit : undefined;
    const offset = window.offset > 0;
    const shape = `${sortField} ${order} ${cursor} ${fixed ?? 'n'}${offset ? ' offset' : ''}${asJson ? ' json' : ''}${gate ? ` ${gate}` : ''}`;
    let statement = byShape.get(shape);
    if (!statement) {
      const company = sql.placeholder('company');
      const conditions = [eq(columns.companyId, company)];
      if (cursor !== 'none') conditions.push(afterRow(sortField, order, cursor === 'null' ? null : sql.placeholder('value'), sql.placeholder('id')));
      // with the auth row: the page is read only when the caller may see all of it
      if (gate) conditions.push(sql.raw(`(${gate})`));
      const direction = order === 'asc' ? asc : desc;
      if (offset) {
        const limit = fixed ? sql.raw(String(fixed)) : sql.placeholder('limit');
        conditions.push(pageIdsAt(eq(columns.companyId, company), [direction(columns[sortField]), direction(columns.id)], limit, sql.placeholder('offset')));
      }
      const selection = {
        // text: each row as its wire JSON, read as text (no date or jsonb parsing in node)
        ...(asJson ? { json: sql<string>`${rowJson}`, id: sql<string>`${columns.id}::text` } : getTableColumns(table)),
        cursorKey: sql<string | null>`${columns[sortField]}::text`,
        listTotal: sql<number | null>`${counterOf(company)}`,
      };
      const query = db
        .select(selection)
        .from(table)
        .where(and(...conditions))
        .orderBy(direction(columns[sortField]), direction(columns.id));
      // drizzle renders it once; each request only binds the values and names the columns of
      // each row (pg's own parsers: Date, numbers, parsed jsonb — what drizzle's select gives)
      const rendered = query.toSQL();
      const params: unknown[] = rendered.params;
      let text = rendered.sql;
      const limitParam = fixed ? 0 : params.push(sql.placeholder('limit'));
      text += ` limit ${fixed ?? `$${limitParam}`}`;
      const keys = Object.keys(selection);
      if (gate) {
        // ONE statement with the caller's auth row (decision 0036): the auth statement ($1–$3) as
        // a CTE (materialized: read once, not once per page row) and the page (its parameters
        // after them), read only when the gate is open; no session, no row at all.
        // ONE row comes back: the auth columns once, and the page folded by PostgreSQL into the
        // payload's text (its records joined by commas, in the page's order), the rows read (one
        // more than the page when another follows), the sort key and id of the page's last row
        // (the next cursor) and the total. 21 rows repeating the auth columns cost node a
        // protocol message, a row object and a string per column each.
        const page = text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 3}`);
        const size = fixed ? String(fixed - 1) : `($${limitParam + 3} - 1)`;
        text = `with a as materialized (${authStatement})
select ${authColumns.map((c) => `a.${c}`).join(', ')}, (${gate}) as gate, p.* from a left join lateral (
  select string_agg(q.json, ',' order by q.page_row) filter (where q.page_row <= ${size}) as json, count(*)::int as fetched,
         max(q.cursor_key) filter (where q.page_row = ${size}) as last_key, max(q.id) filter (where q.page_row = ${size}) as last_id,
         max(q.list_total) as list_total
    from (select r.*, row_number() over () as page_row from (${page}) as r (json, id, cursor_key, list_total)) q) p on true`;
        params.unshift(sql.placeholder('sid'), sql.placeholder('sub'), sql.placeholder('company'));
        keys.splice(0, keys.length, ...authColumns, 'gate', 'json', 'fetched', 'lastKey', 'lastId', 'listTotal');
      }
      const pool = (db as unknown as { $client: pg.Pool }).$client;
      const name = namedStatements.has(pool) ? `list_${createHash('sha1').update(text).digest('hex').slice(0, 20)}` : undefined;
      statement = {
        async execute(values: Record<string, unknown>) {
          const bound = params.map((p) => (is(p, Placeholder) ? values[p.name] : p));
          const { rows } = await pool.query<unknown[]>({ name, text, values: bound, rowMode: 'array' });
          return rows.map((r) => {
            const row: Record<string, unknown> = {};
            for (let i = 0; i < keys.length; i++) row[keys[i]] = r[i];
            return row;
          });
        },
      };
      byShape.set(shape, statement);
    }
    return statement;
  }

  /** The cursor of a row read with `cursorKey`: where the next page starts. */
  const cursorOf = (row: Row & { cursorKey?: string | null }, sortField: string, order: 'asc' | 'desc') =>
    encodeCursor({ sort: sortField, order, value: row.cursorKey ?? null, id: row.id });

  /** A database complaint about a cursor's value (data exception, class 22) is the cursor's 400. */
  const cursorFault = (error: unknown): never => {
    const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    throw code?.startsWith('22') ? badCursor() : error;
  };

  /** The unfiltered total: the trigger-kept counter (db/counters.ts). */
  const counterOf = (companyId: unknown) =>
    sql`(select sum(${resourceCounts.n})::int from ${resourceCounts} where ${resourceCounts.companyId} = ${companyId} and ${resourceCounts.resource} = ${tableName})`;

  type PageRow = Record<string, unknown> & { id: string; json?: string; cursorKey: string | null; listTotal: number | null };
  /**
   * ONE statement: the page, one row more (is there a next page?), the sort key of each row at
   * full precision (the cursor) and the total: the trigger-kept counter, or the count of a
   * search or filter's matches (a subquery the database runs once). `text`: each row as its
   * wire JSON (`json`) instead of its columns.
   */
  async function pageRows(db: Db, tenant: Tenant, q: FilteredQuery, extra: SQL | undefined, text: boolean) {
    const { where, narrowed, orderBy, sortField, order } = plan(tenant, q, extra);
    // a cursor starts after its row (no OFFSET however deep); else the spec's page
    const offset = q.cursor ? 0 : (q.page - 1) * q.limit;
    const total = narrowed ? sql`(select ${count()} from ${table} where ${where})` : counterOf(tenant.companyId);
    let rows: PageRow[];
    if (!narrowed) {
      const key = q.cursor ? cursorKey(q.cursor, sortField, order) : undefined;
      const statement = plainPage(db, sortField, order, key ? (key.value === null ? 'null' : 'value') : 'none', { limit: q.limit + 1, offset }, text);
      rows = (await statement
        .execute({ company: tenant.companyId, limit: q.limit + 1, offset, value: key?.value, id: key?.id })
        .catch(cursorFault)) as PageRow[];
    } else {
      const pageWhere = q.cursor ? and(where, afterCursor(q.cursor, sortField, order)) : offset ? and(where, pageIdsAt(where, orderBy, q.limit + 1, offset)) : where;
      const selection = text ? { json: sql<string>`${rowJson}`, id: sql<string>`${columns.id}::text` } : getTableColumns(table);
      rows = (await db
        .select({ ...selection, cursorKey: sql<string | null>`${columns[sortField]}::text`, listTotal: sql<number | null>`${total}` })
        .from(table)
        .where(pageWhere)
        .orderBy(...orderBy)
        .limit(q.limit + 1)
        .catch(cursorFault)) as PageRow[];
    }
    // past the end there is no row to carry the total: ask for it alone
    const totalDocs = rows.length
      ? Number(rows[0].listTotal ?? 0)
      : Number((await db.execute<{ n: number }>(sql`select ${total} as n`)).rows[0]?.n ?? 0);
    const more = rows.length > q.limit;
    const page = more ? rows.slice(0, q.limit) : rows;
    return { rows: page, totalDocs, nextCursor: more ? cursorOf(page[page.length - 1] as unknown as Row & { cursorKey: string | null }, sortField, order) : undefined };
  }

  /** A page's JSON from its records' JSON texts joined by commas: what JSON.stringify(pageResult(…)) writes. */
  function pageJson(payload: string, totalDocs: number, q: FilteredQuery, nextCursor?: string): string {
    let out = `{"payload":[${payload}],"totalDocs":${JSON.stringify(totalDocs)},"totalPages":${JSON.stringify(totalPagesOf(totalDocs, q.limit))},"page":${JSON.stringify(q.page)},"limit":${JSON.stringify(q.limit)}`;
    if (nextCursor) out += `,"nextCursor":${JSON.stringify(nextCursor)}`;
    return `${out}}`;
  }

  /**
   * The gate of a list read with its auth row: a live session of an enabled user with a
   * membership whose role holds the route's permission and, for an owned resource (decision
   * 0026), its module's `all` (else row scope applies). `admit` judges the row again in node.
   */
  function gateOf(permission: { module: string; action: string }): string {
    const holds = (p: string) => `position(${sqlString(`,${p},`)} in ',' || coalesce(a.permissions, '') || ',') > 0`;
    const parts = ['not a.revoked', 'not a.disabled', 'a.role is not null', holds(`${permission.module}.${permission.action}`)];
    if (isOwned(resource.key)) parts.push(holds(`${ownedRows[resource.key].module}.all`));
    return parts.join(' and ');
  }

  return {
    resource,
    sealSecrets,
    /**
     * The page of a list. `extra`: a condition a module adds (the advanced filter's platform);
     * `q` carries the field filters of `resource.filterable`.
     */
    async list(db: Db, tenant: Tenant, q: FilteredQuery, extra?: SQL): Promise<Page<WireRecord>> {
      const { rows, totalDocs, nextCursor } = await pageRows(db, tenant, q, extra, false);
      return pageResult(
        (rows as unknown as Row[]).map((r) => toWire(r)),
        totalDocs,
        q,
        nextCursor,
      );
    },
    /**
     * The same page as `list`, already as its JSON text (decision 0036): PostgreSQL writes each
     * record's JSON and node only joins them, so no row is parsed into dates and objects and
     * written again. Byte for byte the JSON.stringify of `list`'s page (keys inside a jsonb value
     * as PostgreSQL keeps them, as before). A query naming `fields` is trimmed in node.
     */
    async listJson(db: Db, tenant: Tenant, q: FilteredQuery, extra?: SQL): Promise<string> {
      const { rows, totalDocs, nextCursor } = await pageRows(db, tenant, q, extra, !q.fields);
      if (q.fields) return JSON.stringify(pageResult((rows as unknown as Row[]).map((r) => toWire(r)), totalDocs, q, nextCursor));
      return pageJson(rows.map((r) => r.json).join(','), totalDocs, q, nextCursor);
    },
    /**
     * Whether `listJsonAuthed` can answer a query: no search, field filter or `fields` (an
     * unfiltered page, first or by cursor or page).
     */
    plainQuery(q: FilteredQuery): boolean {
      if (q.filter || q.fields) return false;
      return resource.filterable.every((f) => (f === 'createdAt' ? q.from === undefined && q.to === undefined : q[f] === undefined));
    },
    /**
     * An unfiltered page with the caller's session, user, membership and permissions read in
     * the SAME statement (decision 0036): `auth` is the auth statement's row (undefined: no such
     * session), for `admit` to judge exactly as the auth hook does; `json` the page, present
     * only when the role may list (`<module>.<action>`) and sees every row (for an owned
     * resource `<module>.all`: otherwise the caller's row scope applies and the page is read
     * again, once admitted, by `listJson`). Tenant scope is the statement's company_id = X-Company-Id.
     */
    async listJsonAuthed(
      db: Db,
      caller: { sid: string; sub: string; companyId: string },
      q: FilteredQuery,
      permission: { module: string; action: string },
    ): Promise<{ auth?: AuthRow; json?: string }> {
      const sortField = rules.sortOf(q, resource.defaultSort.field);
      rules.assertFields(q);
      const order = q.order ?? (q.sort ? 'asc' : resource.defaultSort.order);
      const key = q.cursor ? cursorKey(q.cursor, sortField, order) : undefined;
      const offset = q.cursor ? 0 : (q.page - 1) * q.limit;
      const statement = plainPage(db, sortField, order, key ? (key.value === null ? 'null' : 'value') : 'none', { limit: q.limit + 1, offset }, true, gateOf(permission));
      const [row] = (await statement
        .execute({ sid: caller.sid, sub: caller.sub, company: caller.companyId, limit: q.limit + 1, offset, value: key?.value, id: key?.id })
        .catch(cursorFault)) as Array<AuthRow & { gate: boolean | null; json: string | null; fetched: number | null; lastKey: string | null; lastId: string | null; listTotal: number | null }>;
      if (!row) return {};
      const auth: AuthRow = {
        corporation_id: row.corporation_id,
        disabled: row.disabled,
        token_version: row.token_version,
        revoked: row.revoked,
        role: row.role,
        permissions: row.permissions,
        agente_id: row.agente_id,
      };
      if (row.gate !== true) return { auth };
      const fetched = row.fetched ?? 0;
      // past the end there is no row to carry the total: ask for it alone
      const totalDocs = fetched
        ? Number(row.listTotal ?? 0)
        : Number((await db.execute<{ n: number }>(sql`select ${counterOf(caller.companyId)} as n`)).rows[0]?.n ?? 0);
      const nextCursor = fetched > q.limit ? encodeCursor({ sort: sortField, order, value: row.lastKey, id: row.lastId as string }) : undefined;
      return { auth, json: pageJson(row.json ?? '', totalDocs, q, nextCursor) };
    },
    /** Every matching record, sorted, without paging: at most `max`, else a Spanish 400. */
    async all(db: Db, tenant: Tenant, q: FilteredQuery, max: number, extra?: SQL): Promise<{ payload: WireRecord[] }> {
      const { where, orderBy, sortField, order } = plan(tenant, q, extra);
      // a cursor of the list: every matching record after it
      const rows = (await db
        .select()
        .from(table)
        .where(q.cursor ? and(where, afterCursor(q.cursor, sortField, order)) : where)
        .orderBy(...orderBy)
        .limit(max + 1)
        .catch(cursorFault)) as Row[];
      if (rows.length > max) {
        throw new AppError('VALIDATION', 'Demasiados registros: acota el filtro', [{ path: 'limit', msg: `Como máximo ${max} registros` }]);
      }
      return { payload: pageResult(rows.map((r) => toWire(r)), rows.length, q).payload };
    },
    /** The company scope, search and field filters of a query, for modules that count or update what a list shows. */
    whereOf(tenant: Tenant, q: Partial<FilteredQuery>, extra?: SQL): SQL {
      return plan(tenant, { page: 1, limit: 1, fields: undefined, ...q }, extra).where;
    },
    async get(db: Db, tenant: Tenant, id: string): Promise<WireRecord> {
      const [row] = await db.select().from(table).where(scope(tenant, eq(columns.id, id)));
      if (!row) throw new AppError('NOT_FOUND');
      return toWire(row as Row);
    },
    async create(db: Db, tenant: Tenant, given: Record<string, unknown>): Promise<WireRecord> {
      await assertReferences(db, tenant, given);
      // the agent rules (decision 0025): status and agent agree, no inactive agent, one agent per user
      const input = await settleWrite(db, tenant, resource, given);
      return inOne(db, async (tx) => {
        await clearOnlyOne(tx, tenant, input);
        // the row and its audit entry in ONE statement (decision 0072)
        const insert = tx
          .insert(table)
          .values({ ...sealSecrets(input), companyId: tenant.companyId } as never)
          .returning();
        const { rows } = await tx
          .execute(sql`with ${callerCte()}r as (${insert.getSQL()}), audited as (${auditInsert('create', sql`r`, 'r', changesSql(null, 'r'))}) select r.* from r${callerJoin()}`)
          .catch(uniqueViolation);
        return toWire(rowOf(rows[0] as Record<string, unknown>));
      });
    },
    async update(db: Db, tenant: Tenant, id: string, given: Record<string, unknown>): Promise<WireRecord> {
      await assertReferences(db, tenant, given);
      let current: Record<string, unknown> | undefined;
      if (needsCurrent(resource, given)) {
        const [stored] = await db.select().from(table).where(scope(tenant, eq(columns.id, id)));
        if (!stored) throw new AppError('NOT_FOUND');
        current = { ...(stored as Row), _id: (stored as Row).id };
      }
      const patch = await settleWrite(db, tenant, resource, given, current);
      return inOne(db, async (tx) => {
        await clearOnlyOne(tx, tenant, patch, id);
        // the row before, the update and its audit entry in ONE statement (decision 0072). Not
        // `for update`: a CTE is read when first needed, after the update ran, and a row locked
        // after this statement changed it is skipped; the statement's snapshot is the row before.
        const before = tx.select().from(table).where(scope(tenant, eq(columns.id, id)));
        const update = tx
          .update(table)
          .set({ ...sealSecrets(patch), updatedAt: new Date() } as never)
          .where(scope(tenant, eq(columns.id, id)))
          .returning();
        const { rows } = await tx
          .execute(
            sql`with ${callerCte()}b as (${before.getSQL()}), r as (${update.getSQL()}), audited as (${auditInsert('update', sql`b join r on r.id = b.id`, 'r', changesSql('b', 'r'))}) select r.* from r${callerJoin()}`,
          )
          .catch(uniqueViolation);
        if (!rows[0]) throw new AppError('NOT_FOUND');
        return toWire(rowOf(rows[0] as Record<string, unknown>));
      });
    },
    /**
     * Deletes one record and, in the same transaction, every reference to it from other
     * records of the company (a scalar reference becomes empty, an id leaves a list).
     * `expected`: the spec's delete body — each given field must equal the stored one.
     */
    /**
     * Deletes a record (and clears what refers to it) in one transaction; `within` runs in it first,
     * with the stored row, for what a module must remove with the record (its answer is returned as `extra`).
     */
    async remove(
      db: Db,
      tenant: Tenant,
      id: string,
      expected?: Record<string, unknown>,
      within?: (tx: Db, row: Record<string, unknown>) => Promise<unknown>,
    ): Promise<Record<string, unknown> & { extra?: unknown }> {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(table).where(scope(tenant, eq(columns.id, id))).for('update');
        if (!row) throw new AppError('NOT_FOUND');
        // every field of the delete body names the record: a stored value must be sent and equal,
        // an empty one must not be sent
        const mismatched = Object.keys(resource.deleteBody?.shape ?? {})
          .map((f) => [f, expected?.[f], (row as Row)[f]] as const)
          .filter(([, given, stored]) => (stored === null || stored === undefined ? given !== undefined : String(stored) !== String(given)));
        if (mismatched.length) {
          throw new AppError(
            'VALIDATION',
            'Los datos enviados no corresponden al registro',
            mismatched.map(([f]) => ({ path: f, msg: 'No coincide con el registro' })),
          );
        }
        const extra = within ? await within(tx as unknown as Db, row as Row) : undefined;
        // the deletion and its audit entry in one statement (decision 0072)
        const deletion = tx.delete(table).where(scope(tenant, eq(columns.id, id))).returning();
        await tx.execute(sql`with d as (${deletion.getSQL()}) ${auditInsert('delete', sql`d`, 'd', changesSql('d', null))}`);
        for (const ref of referrers()) {
          const other = ref.table as unknown as Record<string, AnyPgColumn>;
          const column = other[ref.field];
          const sameCompany = eq(other.companyId, tenant.companyId);
          if (ref.many) {
            await tx
              .update(ref.table)
              .set({ [ref.field]: sql`${column} - ${id}::text` } as never)
              .where(and(sameCompany, sql`${column} ? ${id}::text`));
          } else {
            // a cleared agent returns a worked lead to sin-asignar (decision 0025)
            const also = clearedReference(ref.resource.key, ref.field) ?? {};
            await tx.update(ref.table).set({ [ref.field]: null, ...also } as never).where(and(sameCompany, eq(column, id)));
          }
        }
        return extra === undefined ? toWire(row as Row) : { ...toWire(row as Row), extra };
      });
    },
  };
}
