import {
  platformLabels,
  TEAM_METRICS_MAX_DAYS,
  TEAM_SLA_DEFAULTS,
  type TeamGrouping,
  type TeamMeasure,
  type TeamMetricsOut,
  type TeamMetricsRow,
  type TeamSlaSettingsIn,
  type TeamSlaSettingsOut,
  teamSlaSettingsIn,
} from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { timezoneOf } from '../leads/summary.js';
import { localDay } from '../metrics/window.js';

/** Orders that are a sale: paid, and what comes after paid (shipped, completed). */
export const SOLD_STATUSES = ['paid', 'shipped', 'done'] as const;
/** Days the report reads when not told: the last 30, to today. */
export const DEFAULT_DAYS = 30;

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

type SettingsRow = { first_response_minutes: number; resolution_hours: number; measure: TeamMeasure; updated_at: Date | string };

/** The company's targets (GET /metrics/team/settings): its saved ones, else the defaults (5 minutes, 24 hours, business hours). */
export async function slaSettingsOf(db: Db, companyId: string): Promise<TeamSlaSettingsOut> {
  const [row] = await rowsOf<SettingsRow>(db, sql`select first_response_minutes, resolution_hours, measure, updated_at from team_sla_settings where company_id = ${companyId}`);
  if (!row) return { ...TEAM_SLA_DEFAULTS, saved: false, updatedAt: null };
  return { firstResponseMinutes: row.first_response_minutes, resolutionHours: row.resolution_hours, measure: row.measure, saved: true, updatedAt: new Date(row.updated_at).toISOString() };
}

/** PUT /metrics/team/settings: saved and audited (nothing audited when nothing changed). */
export async function saveSlaSettings(db: Db, companyId: string, input: TeamSlaSettingsIn): Promise<TeamSlaSettingsOut> {
  const s = teamSlaSettingsIn.parse(input);
  await db.transaction(async (tx) => {
    const [before] = await rowsOf<SettingsRow>(tx, sql`select first_response_minutes, resolution_hours, measure from team_sla_settings where company_id = ${companyId} for update`);
    const [after] = await rowsOf<SettingsRow>(
      tx,
      sql`insert into team_sla_settings (company_id, first_response_minutes, resolution_hours, measure) values (${companyId}, ${s.firstResponseMinutes}, ${s.resolutionHours}, ${s.measure})
          on conflict (company_id) do update set first_response_minutes = excluded.first_response_minutes, resolution_hours = excluded.resolution_hours,
            measure = excluded.measure, updated_at = now()
          returning first_response_minutes, resolution_hours, measure`,
    );
    const audited = (r?: SettingsRow) => (r ? { first_response_minutes: r.first_response_minutes, resolution_hours: r.resolution_hours, measure: r.measure } : null);
    const changes = changesOf(audited(before), audited(after));
    if (before && !Object.keys(changes).length) return;
    await audit(tx, { companyId, action: before ? 'update' : 'create', entity: 'team_sla_settings', entityId: companyId, changes });
  });
  return slaSettingsOf(db, companyId);
}

/** The window: inclusive local days, `to` default today, `from` default 29 days before `to`. */
export function teamWindow(q: { from?: string; to?: string }, timezone: string, now = new Date()): { from: string; to: string } {
  const to = q.to ?? localDay(now, timezone);
  const from = q.from ?? dayOf(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * DAY_MS);
  if (from > to) throw new AppError('VALIDATION', 'La fecha inicial debe ser anterior o igual a la final', [{ path: 'from', msg: 'Debe ser anterior o igual a la fecha final' }]);
  if ((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1 > TEAM_METRICS_MAX_DAYS) {
    throw new AppError('VALIDATION', `El rango máximo es de ${TEAM_METRICS_MAX_DAYS} días`, [{ path: 'from', msg: 'Acorta el rango de fechas' }]);
  }
  return { from, to };
}

type ReportRow = {
  key: string | null;
  name: string | null;
  conversations: number;
  chats: number;
  answered: number;
  fr_p50: number | null;
  fr_p90: number | null;
  fr_within: number;
  next_n: number;
  next_s: string | number | null;
  resolved: number;
  res_p50: number | null;
  res_p90: number | null;
  res_within: number;
  reopenings: number;
  sales: number;
  revenue: Array<{ currency: string; amount: number }> | null;
};

/** Per grouping: its key and its Spanish name, over `conv` (the window's conversations). */
function grouping(groupBy: TeamGrouping, companyId: string): { from: SQL; key: SQL; name: SQL } {
  switch (groupBy) {
    case 'agent':
      return {
        from: sql`conv`,
        key: sql`conv.agent_user::text`,
        name: sql`(select coalesce((select a.name from agentes a where a.company_id = ${companyId} and a.user_id = g.key order by a.created_at limit 1),
                                  (select nullif(trim(u.first_name || ' ' || u.last_name), '') from users u where u.id::text = g.key), 'Usuario eliminado'))`,
      };
    case 'team':
      // the team of the agent (agentes.user_id) who answered first: one hash join, not a lookup per conversation
      return {
        from: sql`conv left join (select distinct on (a.user_id) a.user_id, a.equipo_de_ventas_id from agentes a where a.company_id = ${companyId} order by a.user_id, a.created_at) ag
                  on ag.user_id = conv.agent_user::text`,
        key: sql`ag.equipo_de_ventas_id::text`,
        name: sql`(select e.name from equipos_de_ventas e where e.company_id = ${companyId} and e.id::text = g.key)`,
      };
    case 'channel':
      return { from: sql`conv`, key: sql`conv.channel`, name: sql`null::text` };
    case 'label':
      // the company's labels on the conversation's lead (a label deleted is no label); a join the
      // planner can count, unlike a set-returning function over each lead's labels
      return {
        from: sql`conv left join leads l on l.company_id = ${companyId} and l.id = conv.lead_id
                  left join mostrador_labels lb on lb.company_id = ${companyId} and jsonb_typeof(l.mostrador_labels) = 'array' and l.mostrador_labels ? lb.id::text`,
        key: sql`lb.id::text`,
        name: sql`(select m.name from mostrador_labels m where m.company_id = ${companyId} and m.id::text = g.key)`,
      };
  }
}

/** The statement of GET /metrics/team (exported for the benchmark's pgbench floor). */
export function teamReportSql(p: { companyId: string; timezone: string; from: string; to: string; groupBy: TeamGrouping; measure: TeamMeasure; firstResponseMinutes: number; resolutionHours: number }): SQL {
  const g = grouping(p.groupBy, p.companyId);
  const biz = p.measure === 'business';
  const fr = biz ? sql`c.first_business_s` : sql`c.first_wall_s`;
  const res = biz ? sql`c.resolution_business_s` : sql`c.resolution_wall_s`;
  const nxt = biz ? sql`c.next_business_s` : sql`c.next_wall_s`;
  return sql`
    with conv as (
      select c.chat_id, c.started_at, c.until_at, c.channel, c.lead_id, c.agent_user, c.reopenings, c.next_responses,
             ${fr} as fr, ${res} as res, ${nxt} as nxt
        from team_conversations c
       where c.company_id = ${p.companyId}
         and c.started_at >= (${p.from}::date::timestamp at time zone ${p.timezone})
         and c.started_at < ((${p.to}::date + 1)::timestamp at time zone ${p.timezone})
    ),
    g as (select ${g.key} as key, conv.* from ${g.from}),
    sold as (
      select g.key, o.currency, count(*)::int as n, sum(o.total)::float8 as amount
        from g join orders o on o.company_id = ${p.companyId} and o.chat_id = g.chat_id
       where o.status in ('paid', 'shipped', 'done') and o.created_at >= g.started_at and (g.until_at is null or o.created_at < g.until_at)
       group by 1, 2
    ),
    agg as (
      select g.key, count(*)::int as conversations, count(distinct g.chat_id)::int as chats, count(g.fr)::int as answered,
             percentile_cont(0.5) within group (order by g.fr) as fr_p50, percentile_cont(0.9) within group (order by g.fr) as fr_p90,
             count(*) filter (where g.fr <= ${p.firstResponseMinutes * 60})::int as fr_within,
             sum(g.next_responses)::int as next_n, sum(g.nxt) as next_s,
             count(g.res)::int as resolved,
             percentile_cont(0.5) within group (order by g.res) as res_p50, percentile_cont(0.9) within group (order by g.res) as res_p90,
             count(*) filter (where g.res <= ${p.resolutionHours * 3600})::int as res_within,
             sum(g.reopenings)::int as reopenings
        from g group by g.key
    )
    select agg.*, (select ${g.name} from (select agg.key as key) g) as name,
           coalesce((select sum(s.n) from sold s where s.key is not distinct from agg.key), 0)::int as sales,
           (select jsonb_agg(jsonb_build_object('currency', s.currency, 'amount', round(s.amount::numeric, 2)) order by s.currency) from sold s where s.key is not distinct from agg.key) as revenue
      from agg
     order by agg.conversations desc, agg.key nulls last`;
}

const noneName: Record<TeamGrouping, string> = { agent: 'Sin responder', team: 'Sin equipo', channel: 'Sin canal', label: 'Sin etiqueta' };
const rounded = (v: number | null) => (v === null ? null : Math.round(Number(v)));
const share = (n: number, of: number) => (of ? Math.round((n / of) * 10_000) / 10_000 : null);

/** GET /metrics/team. */
export async function teamReport(db: Db, companyId: string, q: { from?: string; to?: string; groupBy: TeamGrouping }): Promise<TeamMetricsOut> {
  const [timezone, settings] = await Promise.all([timezoneOf(db, companyId), slaSettingsOf(db, companyId)]);
  const window = teamWindow(q, timezone);
  const rows = await rowsOf<ReportRow>(db, teamReportSql({ companyId, timezone, ...window, groupBy: q.groupBy, ...settings }));
  return {
    ...window,
    timezone,
    groupBy: q.groupBy,
    measure: settings.measure,
    firstResponseMinutes: settings.firstResponseMinutes,
    resolutionHours: settings.resolutionHours,
    rows: rows.map(
      (r): TeamMetricsRow => ({
        key: r.key,
        name: r.key === null ? noneName[q.groupBy] : q.groupBy === 'channel' ? (platformLabels[r.key as keyof typeof platformLabels] ?? r.key) : (r.name ?? 'Eliminado'),
        conversations: r.conversations,
        chats: r.chats,
        answered: r.answered,
        firstResponseMedian: rounded(r.fr_p50),
        firstResponseP90: rounded(r.fr_p90),
        firstResponseWithinTarget: share(r.fr_within, r.answered),
        nextResponses: r.next_n,
        nextResponseAverage: r.next_n ? Math.round(Number(r.next_s) / r.next_n) : null,
        resolved: r.resolved,
        resolutionMedian: rounded(r.res_p50),
        resolutionP90: rounded(r.res_p90),
        resolutionWithinTarget: share(r.res_within, r.resolved),
        reopenings: r.reopenings,
        salesClosed: r.sales,
        revenue: (r.revenue ?? []).map((x) => ({ currency: x.currency, amount: Number(x.amount) })),
      }),
    ),
  };
}
