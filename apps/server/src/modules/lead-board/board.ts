import {
  type Board,
  type BoardCard,
  type BoardColumn,
  type BoardColumnPage,
  companyCurrency,
  isStatusKey,
  type LeadPlatform,
  type LeadStatus,
  leadStatuses,
  leadStatusLabels,
  openOrderStatuses,
} from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { badCursor, cursorValueCheck, decodeCursor, encodeCursor } from '../../lib/list.js';
import type { Tenant } from '../../plugins/auth.js';
import { ownerCondition } from '../../resources/owned-rows.js';

/**
 * The pipeline board's reads (issue 31, decision 0099). A column is a status and a stage: the
 * status's own column holds its leads without a stage, a company stage the leads in it (whose
 * status is the one the stage maps onto). Every statement is scoped by the caller's company and,
 * for an agent who sees only their own and the unassigned leads (decision 0026), by that too.
 */

export interface BoardFilters {
  agenteId?: string;
  mostradorLabels?: string[];
  platform?: LeadPlatform;
}

/** A column as the board knows it before reading its leads. */
export interface ColumnDef {
  stage: string;
  name: string;
  status: LeadStatus;
  stageId: string | null;
}

const rowsOf = async <T>(db: Db, query: SQL): Promise<T[]> => (await db.execute<T & Record<string, unknown>>(query)).rows as T[];
const num = (v: unknown) => Number(v ?? 0);

/** The company's columns in board order: each status, then its stages by position and name. */
export async function columnsOf(db: Db, companyId: string): Promise<{ columns: ColumnDef[]; currency: string }> {
  const rows = await rowsOf<{ id: string | null; name: string | null; maps_to: LeadStatus | null; currency: string | null; country: string }>(
    db,
    sql`select s.id::text, s.name, s.maps_to, c.settings->>'currency' as currency, c.country
          from companies c left join lead_stages s on s.company_id = c.id
         where c.id = ${companyId} order by s.position, s.name, s.id`,
  );
  const first = rows[0];
  const currency = companyCurrency(first?.currency, first?.country ?? 'PE');
  const columns: ColumnDef[] = [];
  for (const status of leadStatuses) {
    columns.push({ stage: status, name: leadStatusLabels[status], status, stageId: null });
    for (const r of rows) if (r.id && r.maps_to === status) columns.push({ stage: r.id, name: r.name as string, status, stageId: r.id });
  }
  return { columns, currency };
}

/** The column of a key, or the Spanish 404 (a column read) or 400 (a move's target) when the company has no such stage. */
export function columnOf(columns: ColumnDef[], key: string, as: 'NOT_FOUND' | 'VALIDATION' = 'NOT_FOUND'): ColumnDef {
  const column = columns.find((c) => c.stage === key);
  if (!column) {
    const msg = isStatusKey(key) ? 'Columna desconocida' : 'La etapa no existe en esta compañía';
    throw as === 'VALIDATION' ? new AppError('VALIDATION', msg, [{ path: 'toStage', msg }]) : new AppError('NOT_FOUND', msg);
  }
  return column;
}

/** The conditions on a lead (alias `l`) of the caller's company, row scope and the filters. */
function leadScope(tenant: Tenant, filters: BoardFilters): SQL {
  const parts: SQL[] = [sql`l.company_id = ${tenant.companyId}`];
  const owner = ownerCondition('leads', tenant, (column) => sql.raw(`l.${column}`));
  if (owner) parts.push(owner);
  if (filters.agenteId) parts.push(sql`l.agente_id = ${filters.agenteId}::uuid`);
  if (filters.platform) parts.push(sql`l.platform = ${filters.platform}`);
  if (filters.mostradorLabels?.length) {
    parts.push(sql`l.mostrador_labels ?| array[${sql.join(filters.mostradorLabels.map((id) => sql`${id}`), sql`, `)}]::text[]`);
  }
  return sql.join(parts, sql` and `);
}
const narrowed = (tenant: Tenant, filters: BoardFilters) =>
  Boolean(filters.agenteId || filters.platform || filters.mostradorLabels?.length || ownerCondition('leads', tenant, (c) => sql.raw(c)));

const inColumn = (c: ColumnDef): SQL => (c.stageId ? sql`l.status = ${c.status} and l.stage_id = ${c.stageId}::uuid` : sql`l.status = ${c.status} and l.stage_id is null`);
const keyOf = (status: string, stageKey: string) => `${status}|${stageKey}`;

/**
 * Leads and open orders' value per column. Unfiltered, for a caller who sees every lead: the
 * trigger-kept counts and values (one index range each, migrations lead_board and board_values);
 * otherwise counted. Open orders (created, paid, shipped)
 * in the company's currency, by their lead's column.
 */
async function totalsOf(db: Db, tenant: Tenant, filters: BoardFilters, currency: string) {
  const scope = leadScope(tenant, filters);
  const kept = !narrowed(tenant, filters);
  const counts = kept
    ? sql`select status, stage_key, sum(n)::float8 as value from lead_board_counts where company_id = ${tenant.companyId} group by 1, 2`
    : sql`select l.status, coalesce(l.stage_id::text, '') as stage_key, count(*)::float8 as value from leads l where ${scope} group by 1, 2`;
  const values = kept
    ? sql`select status, stage_key, sum(total)::float8 as value from lead_board_values
           where company_id = ${tenant.companyId} and currency = ${currency} group by 1, 2`
    : sql`select l.status, coalesce(l.stage_id::text, '') as stage_key, sum(o.total)::float8 as value
            from orders o join leads l on l.id = o.lead_id
           where o.company_id = ${tenant.companyId} and o.status in (${sql.join(openOrderStatuses.map((s) => sql`${s}`), sql`, `)})
             and o.currency = ${currency} and ${scope}
           group by 1, 2`;
  const rows = await rowsOf<{ kind: 'n' | 'v'; status: string; stage_key: string; value: string | number }>(
    db,
    sql`select 'n' as kind, c.status, c.stage_key, c.value from (${counts}) c
        union all
        select 'v', v.status, v.stage_key, v.value from (${values}) v`,
  );
  const counted = new Map<string, number>();
  const valued = new Map<string, number>();
  for (const r of rows) (r.kind === 'n' ? counted : valued).set(keyOf(r.status, r.stage_key), num(r.value));
  return { counted, valued };
}

interface CardRow {
  col: number;
  id: string;
  name: string;
  platform: LeadPlatform;
  status: LeadStatus;
  stage_id: string | null;
  agente_id: string | null;
  labels: string[] | null;
  created_at: string;
  cursor_key: string;
  last_at: string | null;
  open_value: number | string | null;
}

const toCard = (r: CardRow): BoardCard => ({
  _id: r.id,
  name: r.name,
  platform: r.platform,
  status: r.status,
  ...(r.stage_id ? { stageId: r.stage_id } : {}),
  ...(r.agente_id ? { agenteId: r.agente_id } : {}),
  mostradorLabels: r.labels ?? [],
  ...(r.last_at ? { lastMessageAt: new Date(r.last_at).toISOString() } : {}),
  openOrderValue: num(r.open_value),
  createdAt: new Date(r.created_at).toISOString(),
});

/**
 * The first `limit` cards of each column (and whether more follow), newest lead first, in ONE
 * statement: a union of one index range per column (leads_board_idx: company, status, stage,
 * created_at, id), then each card's last message and open orders' value.
 */
async function cardsOf(
  db: Db,
  tenant: Tenant,
  columns: ColumnDef[],
  filters: BoardFilters,
  currency: string,
  limit: number,
  after?: { value: string; id: string },
): Promise<CardRow[][]> {
  if (!columns.length) return [];
  const scope = leadScope(tenant, filters);
  const afterSql = after ? sql` and (l.created_at, l.id) < (${after.value}::timestamptz, ${after.id}::uuid)` : sql``;
  const pages = columns.map(
    (c, i) =>
      sql`(select ${i}::int as col, l.id, l.name, l.platform, l.status, l.stage_id, l.agente_id, l.mostrador_labels, l.created_at
             from leads l where ${inColumn(c)} and ${scope}${afterSql}
            order by l.created_at desc, l.id desc limit ${limit + 1})`,
  );
  const rows = await rowsOf<CardRow>(
    db,
    sql`with page as (${sql.join(pages, sql` union all `)})
        select p.col, p.id::text, p.name, p.platform, p.status, p.stage_id::text, p.agente_id::text, p.mostrador_labels as labels,
               p.created_at, p.created_at::text as cursor_key, m.last_at, v.open_value
          from page p
          left join lateral (select max(c.last_message_at) as last_at from chats c where c.company_id = ${tenant.companyId} and c.lead_id = p.id) m on true
          left join lateral (select sum(o.total)::float8 as open_value from orders o
                              where o.company_id = ${tenant.companyId} and o.lead_id = p.id
                                and o.status in (${sql.join(openOrderStatuses.map((s) => sql`${s}`), sql`, `)}) and o.currency = ${currency}) v on true
         order by p.col, p.created_at desc, p.id desc`,
  );
  const out: CardRow[][] = columns.map(() => []);
  for (const r of rows) out[r.col].push(r);
  return out;
}

const pageOfRows = (rows: CardRow[], limit: number) => {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const last = shown[shown.length - 1];
  const nextCursor = more && last ? encodeCursor({ sort: 'createdAt', order: 'desc', value: last.cursor_key, id: last.id }) : undefined;
  return { cards: shown.map(toCard), ...(nextCursor ? { nextCursor } : {}) };
};

/** GET /lead-board: every column with its count, open orders' value and first cards. */
export async function readBoard(db: Db, tenant: Tenant, filters: BoardFilters, limit: number): Promise<Board> {
  const { columns, currency } = await columnsOf(db, tenant.companyId);
  const [totals, cards] = await Promise.all([totalsOf(db, tenant, filters, currency), cardsOf(db, tenant, columns, filters, currency, limit)]);
  const out: BoardColumn[] = columns.map((c, i) => {
    const key = keyOf(c.status, c.stageId ?? '');
    return {
      stage: c.stage,
      name: c.name,
      status: c.status,
      custom: c.stageId !== null,
      count: totals.counted.get(key) ?? 0,
      openOrderValue: totals.valued.get(key) ?? 0,
      ...pageOfRows(cards[i] ?? [], limit),
    };
  });
  return { currency, columns: out };
}

const validTimestamp = cursorValueCheck('timestamp with time zone');

/** GET /lead-board/columns/:stage: the cards of one column after `cursor` («Ver más»). */
export async function readColumn(db: Db, tenant: Tenant, key: string, filters: BoardFilters, limit: number, cursor?: string): Promise<BoardColumnPage> {
  const { columns, currency } = await columnsOf(db, tenant.companyId);
  const column = columnOf(columns, key);
  let after: { value: string; id: string } | undefined;
  if (cursor) {
    const decoded = decodeCursor(cursor, 'createdAt', 'desc', validTimestamp);
    if (decoded.value === null) throw badCursor();
    after = { value: decoded.value as string, id: decoded.id };
  }
  const [rows] = await cardsOf(db, tenant, [column], filters, currency, limit, after);
  return { stage: column.stage, ...pageOfRows(rows ?? [], limit) };
}

/** One lead as a card (after a move). */
export async function cardOf(db: Db, tenant: Tenant, leadId: string): Promise<BoardCard> {
  const { currency } = await columnsOf(db, tenant.companyId);
  const [row] = await rowsOf<CardRow>(
    db,
    sql`select 0 as col, l.id::text, l.name, l.platform, l.status, l.stage_id::text, l.agente_id::text, l.mostrador_labels as labels,
               l.created_at, l.created_at::text as cursor_key,
               (select max(c.last_message_at) from chats c where c.company_id = l.company_id and c.lead_id = l.id) as last_at,
               (select sum(o.total)::float8 from orders o where o.company_id = l.company_id and o.lead_id = l.id
                   and o.status in (${sql.join(openOrderStatuses.map((s) => sql`${s}`), sql`, `)}) and o.currency = ${currency}) as open_value
          from leads l where l.company_id = ${tenant.companyId} and l.id = ${leadId}::uuid`,
  );
  if (!row) throw new AppError('NOT_FOUND');
  return toCard(row);
}
