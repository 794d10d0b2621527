import { FUNNEL_DEFAULT_DAYS, FUNNEL_MAX_DAYS, type Funnel, type FunnelStage } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { ownerCondition } from '../../resources/owned-rows.js';
import { columnsOf } from './board.js';

const DAY = 86_400_000;

/**
 * GET /lead-board/funnel (decision 0099): from the history (lead_stage_history), for the leads
 * that entered each column in [from, to): how many entered, how many are still there, where the
 * others went next and how long they stayed (the median of the stays that ended), and the
 * conversion — the share that went on to a column further right on the board. A row of a stage
 * deleted since (or remapped) counts in its status's own column.
 */
export async function readFunnel(db: Db, tenant: Tenant, query: { from?: string; to?: string }): Promise<Funnel> {
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - FUNNEL_DEFAULT_DAYS * DAY);
  if (from >= to) throw new AppError('VALIDATION', 'La fecha inicial debe ser anterior a la final', [{ path: 'from', msg: 'Debe ser anterior a «to»' }]);
  if (to.getTime() - from.getTime() > FUNNEL_MAX_DAYS * DAY) {
    throw new AppError('VALIDATION', `Como máximo ${FUNNEL_MAX_DAYS} días`, [{ path: 'from', msg: `Como máximo ${FUNNEL_MAX_DAYS} días` }]);
  }
  const { columns } = await columnsOf(db, tenant.companyId);
  const owner = ownerCondition('leads', tenant, (column) => sql.raw(`l.${column}`));
  // an agent who sees only their own and the unassigned leads counts only those (decision 0026)
  const scoped = owner ? sql` and exists (select 1 from leads l where l.company_id = h.company_id and l.id = h.lead_id and ${owner})` : sql``;
  const { rows } = await db.execute<{ stage: string; next_stage: string | null; total: number; n: number | string; median: number | string | null }>(
    sql`with h as (
          select h.at, coalesce(s.id::text, h.to_status) as stage,
                 lead(coalesce(s.id::text, h.to_status)) over w as next_stage, lead(h.at) over w as next_at
            from lead_stage_history h
            left join lead_stages s on s.company_id = h.company_id and s.id = h.to_stage_id and s.maps_to = h.to_status
           where h.company_id = ${tenant.companyId} and h.at >= ${from.toISOString()}::timestamptz${scoped}
          window w as (partition by h.lead_id order by h.at, h.id))
        select stage, next_stage, grouping(next_stage) as total, count(*)::int as n,
               percentile_cont(0.5) within group (order by extract(epoch from next_at - at)) as median
          from h where at < ${to.toISOString()}::timestamptz
         group by grouping sets ((stage, next_stage), (stage))`,
  );
  const order = new Map(columns.map((c, i) => [c.stage, i]));
  const stages: FunnelStage[] = columns.map((c) => {
    // the (stage) grouping set: every entry; the (stage, next_stage) sets: where they went (none: still there)
    const total = rows.find((r) => r.stage === c.stage && Number(r.total) === 1);
    const entered = Number(total?.n ?? 0);
    const exits = rows
      .filter((r) => r.stage === c.stage && Number(r.total) === 0 && r.next_stage !== null)
      .map((r) => ({ stage: r.next_stage as string, count: Number(r.n), rate: entered ? Number(r.n) / entered : 0 }))
      .sort((a, b) => b.count - a.count || (order.get(a.stage) ?? 99) - (order.get(b.stage) ?? 99));
    const left = exits.reduce((n, e) => n + e.count, 0);
    const here = order.get(c.stage) ?? 0;
    const advanced = exits.filter((e) => (order.get(e.stage) ?? -1) > here).reduce((n, e) => n + e.count, 0);
    const median = total?.median === null || total?.median === undefined ? null : Math.round(Number(total.median));
    return {
      stage: c.stage,
      name: c.name,
      status: c.status,
      custom: c.stageId !== null,
      entered,
      stillIn: entered - left,
      advanced,
      conversion: entered ? advanced / entered : null,
      medianSeconds: left ? median : null,
      exits,
    };
  });
  return { from: from.toISOString(), to: to.toISOString(), stages };
}
