import {
  ATTRIBUTION_NO_AGENT_KEY,
  ATTRIBUTION_ORGANIC_KEY,
  ATTRIBUTION_UNKNOWN_CAMPAIGN_KEY,
  type AttributionChatsOut,
  type AttributionGrouping,
  type AttributionOut,
  type AttributionRow,
  attributionCsvColumns,
  attributionNoAgentLabel,
  attributionOrganicLabel,
  attributionUnknownCampaignLabel,
  usdTo,
} from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { csvLine, UTF8_BOM } from '../leads/csv.js';
import type { AttributionSetting } from './attribute.js';

/**
 * The attribution funnel (decision 0097), read from the attribution rows (one per conversation and
 * per order, kept by the spine listener) and the ad spend rollups: never from the messages. The
 * window is local days in the company's zone, turned into instants in SQL, so the rows need no
 * rebuild when the zone changes.
 */

export interface FunnelWindow {
  from: string;
  to: string;
  timezone: string;
  currency: string;
}

/** Each grouping's key over a row aliased `r` (conversation or order attribution) and its ad `ma`. */
const keyOf: Record<AttributionGrouping, SQL> = {
  ad_campaign: sql.raw(`case when r.touch = 'ad' then coalesce(ma.campaign_id, '${ATTRIBUTION_UNKNOWN_CAMPAIGN_KEY}') else '${ATTRIBUTION_ORGANIC_KEY}' end`),
  ad: sql.raw(`case when r.touch = 'ad' then r.ad_id else '${ATTRIBUTION_ORGANIC_KEY}' end`),
  send: sql.raw(`case when r.touch = 'send' then r.send_id::text else '${ATTRIBUTION_ORGANIC_KEY}' end`),
  agent: sql.raw(`coalesce(r.agente_id::text, '${ATTRIBUTION_NO_AGENT_KEY}')`),
};

/** Per-USD rates of the currencies the product knows (`usdTo`), as a relation `fx(currency, rate)`. */
const rates = () => sql.raw(`(values ${Object.entries(usdTo).map(([c, r]) => `('${c}', ${r}::numeric)`).join(', ')}) as fx(currency, rate)`);
/** An amount in the row's currency (`fx.currency`) in the company's: null when the row's rate is unknown. */
const converted = (amount: string, company: string) => sql.raw(`${amount} / fx.rate * ${Number(usdTo[company] ?? 1)}::numeric`);

const bounds = (w: FunnelWindow) => ({
  start: sql`(${w.from}::date::timestamp at time zone ${w.timezone})`,
  end: sql`((${w.to}::date + 1)::timestamp at time zone ${w.timezone})`,
});

const round2 = (n: number) => Math.round(n * 100) / 100;
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const ratio = (a: number, b: number | null) => (b ? round2(a / b) : null);

interface Group {
  key: string;
  spend: number | null;
  conversations: number;
  answeredIn5: number;
  qualified: number;
  analysed: number;
  negative: number;
  orders: number;
  paidOrders: number;
  revenue: number;
  median: number | null;
}

function rowOf(g: Group): Omit<AttributionRow, 'key' | 'label' | 'campaign'> {
  const spend = g.spend === null ? null : round2(g.spend);
  return {
    spend,
    conversations: g.conversations,
    answeredIn5: g.answeredIn5,
    qualified: g.qualified,
    orders: g.orders,
    paidOrders: g.paidOrders,
    revenue: round2(g.revenue),
    costPerConversation: spend === null ? null : ratio(spend, g.conversations),
    costPerSale: spend === null ? null : ratio(spend, g.paidOrders),
    roas: spend ? round2(g.revenue / spend) : null,
    medianMinutesToSale: g.median === null ? null : Math.round(g.median),
    negativeShare: g.analysed ? Math.round((g.negative / g.analysed) * 10_000) / 10_000 : null,
  };
}

/** GET /metrics/attribution: the funnel of the window by `by`, with its total. */
export async function readFunnel(db: Db, companyId: string, by: AttributionGrouping, w: FunnelWindow, setting: AttributionSetting): Promise<AttributionOut> {
  const { start, end } = bounds(w);
  const key = keyOf[by];
  const adJoin = by === 'ad_campaign' ? sql`left join meta_ads ma on ma.company_id = r.company_id and ma.ad_id = r.ad_id` : sql``;
  const [conversations, orders, spend] = await Promise.all([
    rowsOf<{ key: string; n: string; answered: string; qualified: string; analysed: string; negative: string }>(
      db,
      sql`select ${key} as key, count(*) as n,
                 count(*) filter (where r.answered_at <= r.started_at + interval '5 minutes') as answered,
                 count(*) filter (where l.status in ('informado-al-agente', 'compra-realizada')) as qualified,
                 count(an.chat_id) as analysed, count(*) filter (where an.sentiment = 'negative') as negative
            from conversation_attributions r ${adJoin}
            left join leads l on l.company_id = r.company_id and l.id = r.lead_id
            left join chat_analyses an on an.company_id = r.company_id and an.chat_id = r.chat_id
           where r.company_id = ${companyId} and r.started_at >= ${start} and r.started_at < ${end}
           group by 1`,
    ),
    rowsOf<{ key: string; n: string; paid: string; revenue: string | null; median: number | null }>(
      db,
      sql`select ${key} as key, count(*) as n, count(*) filter (where r.paid) as paid,
                 sum(${converted('r.total::numeric', w.currency)}) filter (where r.paid) as revenue,
                 percentile_cont(0.5) within group (order by extract(epoch from r.ordered_at - r.conversation_started_at) / 60)
                   filter (where r.conversation_started_at <= r.ordered_at) as median
            from order_attributions r ${adJoin}
            left join ${rates()} on fx.currency = r.currency
           where r.company_id = ${companyId} and r.ordered_at >= ${start} and r.ordered_at < ${end} and r.status <> 'cancelled'
           group by 1`,
    ),
    by === 'ad_campaign'
      ? rowsOf<{ key: string; spend: string | null }>(
          db,
          sql`select s.campaign_id as key, sum(${converted('s.spend', w.currency)}) as spend
                from ad_spend_daily s left join ${rates()} on fx.currency = s.currency
               where s.company_id = ${companyId} and s.day between ${w.from}::date and ${w.to}::date group by 1`,
        )
      : by === 'ad'
        ? rowsOf<{ key: string; spend: string | null }>(
            db,
            sql`select s.ad_id as key, sum(${converted('s.spend', w.currency)}) as spend
                  from ad_spend_ads_daily s left join ${rates()} on fx.currency = s.currency
                 where s.company_id = ${companyId} and s.day between ${w.from}::date and ${w.to}::date group by 1`,
          )
        : Promise.resolve([]),
  ]);
  const hasSpend = by === 'ad_campaign' || by === 'ad';
  const groups = new Map<string, Group>();
  const group = (k: string) => {
    let g = groups.get(k);
    if (!g) {
      g = { key: k, spend: hasSpend && k !== ATTRIBUTION_ORGANIC_KEY && k !== ATTRIBUTION_UNKNOWN_CAMPAIGN_KEY ? 0 : null, conversations: 0, answeredIn5: 0, qualified: 0, analysed: 0, negative: 0, orders: 0, paidOrders: 0, revenue: 0, median: null };
      groups.set(k, g);
    }
    return g;
  };
  for (const c of conversations) {
    const g = group(c.key);
    g.conversations = num(c.n);
    g.answeredIn5 = num(c.answered);
    g.qualified = num(c.qualified);
    g.analysed = num(c.analysed);
    g.negative = num(c.negative);
  }
  for (const o of orders) {
    const g = group(o.key);
    g.orders = num(o.n);
    g.paidOrders = num(o.paid);
    g.revenue = num(o.revenue);
    g.median = o.median === null ? null : Number(o.median);
  }
  for (const s of spend) {
    const g = group(s.key);
    g.spend = (g.spend ?? 0) + num(s.spend);
  }
  const labels = await labelsOf(db, companyId, by, [...groups.keys()]);
  const rows: AttributionRow[] = [...groups.values()]
    .map((g) => ({ key: g.key, label: labels.get(g.key)?.label ?? g.key, campaign: labels.get(g.key)?.campaign ?? null, ...rowOf(g) }))
    .sort((a, b) => (b.spend ?? -1) - (a.spend ?? -1) || b.orders - a.orders || b.conversations - a.conversations || a.label.localeCompare(b.label, 'es'));
  const all = [...groups.values()];
  const sum = (f: (g: Group) => number) => all.reduce((n, g) => n + f(g), 0);
  const median = all.length ? await totalMedian(db, companyId, w) : null;
  const total = rowOf({
    key: '',
    spend: hasSpend ? sum((g) => g.spend ?? 0) : null,
    conversations: sum((g) => g.conversations),
    answeredIn5: sum((g) => g.answeredIn5),
    qualified: sum((g) => g.qualified),
    analysed: sum((g) => g.analysed),
    negative: sum((g) => g.negative),
    orders: sum((g) => g.orders),
    paidOrders: sum((g) => g.paidOrders),
    revenue: sum((g) => g.revenue),
    median,
  });
  return { from: w.from, to: w.to, timezone: w.timezone, currency: w.currency, by, model: setting.model, windowDays: setting.windowDays, rows, total };
}

async function totalMedian(db: Db, companyId: string, w: FunnelWindow): Promise<number | null> {
  const { start, end } = bounds(w);
  const [row] = await rowsOf<{ median: number | null }>(
    db,
    sql`select percentile_cont(0.5) within group (order by extract(epoch from r.ordered_at - r.conversation_started_at) / 60)
               filter (where r.conversation_started_at <= r.ordered_at) as median
          from order_attributions r where r.company_id = ${companyId} and r.ordered_at >= ${start} and r.ordered_at < ${end} and r.status <> 'cancelled'`,
  );
  return row?.median === null || row?.median === undefined ? null : Number(row.median);
}

/** The Spanish name of each key (and, by ad, its campaign's). */
async function labelsOf(db: Db, companyId: string, by: AttributionGrouping, keys: string[]): Promise<Map<string, { label: string; campaign: string | null }>> {
  const out = new Map<string, { label: string; campaign: string | null }>();
  out.set(ATTRIBUTION_ORGANIC_KEY, { label: attributionOrganicLabel, campaign: null });
  out.set(ATTRIBUTION_UNKNOWN_CAMPAIGN_KEY, { label: attributionUnknownCampaignLabel, campaign: null });
  out.set(ATTRIBUTION_NO_AGENT_KEY, { label: attributionNoAgentLabel, campaign: null });
  const ids = keys.filter((k) => !out.has(k));
  if (!ids.length) return out;
  const list = `{${ids.map((k) => `"${k.replace(/["\\]/g, '')}"`).join(',')}}`;
  const rows =
    by === 'ad_campaign'
      ? await rowsOf<{ key: string; label: string; campaign: null }>(
          db,
          sql`select k as key, coalesce((select campaign_name from meta_ads where company_id = ${companyId} and campaign_id = k limit 1),
                                        (select campaign_name from ad_spend_daily where company_id = ${companyId} and campaign_id = k order by day desc limit 1), k) as label, null as campaign
                from unnest(${list}::text[]) as k`,
        )
      : by === 'ad'
        ? await rowsOf<{ key: string; label: string; campaign: string | null }>(
            db,
            sql`select k as key, 'Anuncio ' || k as label, (select campaign_name from meta_ads where company_id = ${companyId} and ad_id = k) as campaign
                  from unnest(${list}::text[]) as k`,
          )
        : by === 'send'
          ? await rowsOf<{ key: string; label: string; campaign: null }>(
              db,
              sql`select s.id::text as key, s.name as label, null as campaign from sends s where s.company_id = ${companyId} and s.id::text = any(${list}::text[])`,
            )
          : await rowsOf<{ key: string; label: string; campaign: null }>(
              db,
              sql`select a.id::text as key, a.name as label, null as campaign from agentes a where a.company_id = ${companyId} and a.id::text = any(${list}::text[])`,
            );
  for (const r of rows) out.set(r.key, { label: r.label, campaign: r.campaign });
  return out;
}

/** The funnel as CSV: a line per row, then the total (numbers as figures, no thousands separators). */
export function funnelCsv(f: AttributionOut): string {
  const figures = (r: Omit<AttributionRow, 'key' | 'label' | 'campaign'>) => [
    r.spend?.toFixed(2),
    String(r.conversations),
    String(r.answeredIn5),
    String(r.qualified),
    String(r.orders),
    String(r.paidOrders),
    r.revenue.toFixed(2),
    r.costPerConversation?.toFixed(2),
    r.costPerSale?.toFixed(2),
    r.roas?.toFixed(2),
    r.medianMinutesToSale === null ? null : String(r.medianMinutesToSale),
    r.negativeShare === null ? null : r.negativeShare.toFixed(4),
  ];
  return (
    UTF8_BOM +
    csvLine(attributionCsvColumns) +
    f.rows.map((r) => csvLine([r.label, r.campaign, ...figures(r)])).join('') +
    csvLine(['Total', null, ...figures(f.total)])
  );
}

/** GET /metrics/attribution/chats: the conversations behind a row — started in the window or with an order in it — newest first. */
export async function readFunnelChats(
  db: Db,
  companyId: string,
  by: AttributionGrouping,
  key: string,
  w: FunnelWindow,
  page: number,
  limit: number,
): Promise<AttributionChatsOut> {
  const { start, end } = bounds(w);
  const k = keyOf[by];
  const adJoin = by === 'ad_campaign' ? sql`left join meta_ads ma on ma.company_id = r.company_id and ma.ad_id = r.ad_id` : sql``;
  const rows = await rowsOf<{ chat_id: string; contact_name: string; platform: string; started_at: Date | string; answered: boolean; orders: string; revenue: string | null; total: string }>(
    db,
    sql`with ids as (
          select r.chat_id from conversation_attributions r ${adJoin}
           where r.company_id = ${companyId} and r.started_at >= ${start} and r.started_at < ${end} and ${k} = ${key}
          union
          select r.chat_id from order_attributions r ${adJoin}
           where r.company_id = ${companyId} and r.ordered_at >= ${start} and r.ordered_at < ${end} and r.status <> 'cancelled' and r.chat_id is not null and ${k} = ${key}
        )
        select c.id::text as chat_id, c.contact_name, c.platform, coalesce(ca.started_at, c.created_at) as started_at,
               coalesce(ca.answered_at <= ca.started_at + interval '5 minutes', false) as answered,
               (select count(*) from order_attributions o where o.company_id = c.company_id and o.chat_id = c.id and o.ordered_at >= ${start} and o.ordered_at < ${end} and o.status <> 'cancelled') as orders,
               (select sum(${converted('o.total::numeric', w.currency)}) from order_attributions o left join ${rates()} on fx.currency = o.currency
                 where o.company_id = c.company_id and o.chat_id = c.id and o.ordered_at >= ${start} and o.ordered_at < ${end} and o.paid and o.status <> 'cancelled') as revenue,
               count(*) over () as total
          from ids join chats c on c.company_id = ${companyId} and c.id = ids.chat_id
          left join conversation_attributions ca on ca.company_id = c.company_id and ca.chat_id = c.id
         order by 4 desc, 1 desc
         limit ${limit} offset ${(page - 1) * limit}`,
  );
  let total = rows.length ? num(rows[0].total) : 0;
  if (!rows.length && page > 1) {
    const [count] = await rowsOf<{ n: string }>(
      db,
      sql`select count(*) as n from (select r.chat_id from conversation_attributions r ${adJoin}
             where r.company_id = ${companyId} and r.started_at >= ${start} and r.started_at < ${end} and ${k} = ${key}
            union select r.chat_id from order_attributions r ${adJoin}
             where r.company_id = ${companyId} and r.ordered_at >= ${start} and r.ordered_at < ${end} and r.status <> 'cancelled' and r.chat_id is not null and ${k} = ${key}) x`,
    );
    total = num(count?.n);
  }
  return {
    payload: rows.map((r) => ({
      chatId: r.chat_id,
      contactName: r.contact_name,
      platform: r.platform,
      startedAt: new Date(r.started_at).toISOString(),
      answeredIn5: r.answered,
      orders: num(r.orders),
      revenue: round2(num(r.revenue)),
    })),
    total,
    page,
    limit,
  };
}
