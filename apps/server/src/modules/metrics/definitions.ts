import {
  aiCategories,
  consultationMotives,
  dissatisfactionOrigins,
  type MetricName,
  type MetricOutput,
  type MetricsFilter,
  metricChannels,
  metricChatChannels,
  metricLabels,
  orderStatuses,
  RECOVERY_INTENT_MOTIVES,
  RECOVERY_WINDOW_HOURS,
  sentiments,
} from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { type MetricWindow, splitByMonth } from './window.js';

/**
 * The 19 metric calls (decision 0045), each an answer composed from the rollups' grouped rows.
 * A call reads only the rollup tables of its company, over the window's local days; the route
 * (routes.ts) is the same for all of them.
 */
export interface MetricContext {
  db: Db;
  companyId: string;
  timezone: string;
  window: MetricWindow;
  filter: MetricsFilter;
  /** With agenteId: the agent's user (the sender of outbound messages); null when the agent has none. */
  agentUser?: string | null;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
/** a / b in 0–1, 4 decimals; null when b is 0. */
const share = (a: number, b: number) => (b ? round(a / b, 4) : null);
const sum = <T>(rows: T[], f: (r: T) => number) => rows.reduce((s, r) => s + f(r), 0);

// ---- the rollups, grouped by month (one query each, memoised per request) ----

const memo = new WeakMap<MetricContext, Map<string, Promise<unknown>>>();
function once<T>(ctx: MetricContext, key: string, load: () => Promise<T>): Promise<T> {
  let m = memo.get(ctx);
  if (!m) memo.set(ctx, (m = new Map()));
  if (!m.has(key)) m.set(key, load());
  return m.get(key) as Promise<T>;
}

const inWindow = (ctx: MetricContext) => sql`company_id = ${ctx.companyId} and day between ${ctx.window.from}::date and ${ctx.window.to}::date`;
const byChannel = (ctx: MetricContext): SQL => (ctx.filter.channel ? sql` and channel = ${ctx.filter.channel}` : sql``);

type MessageRow = { month: string; channel: string; direction: string; n: number };
const messageRows = (ctx: MetricContext) =>
  once(ctx, 'messages', () =>
    rowsOf<MessageRow>(
      ctx.db,
      sql`select to_char(day, 'YYYY-MM') as month, channel, direction, sum(messages)::int as n from metrics_messages_daily
           where ${inWindow(ctx)}${byChannel(ctx)}${ctx.agentUser === undefined ? sql`` : ctx.agentUser === null ? sql` and false` : sql` and user_id = ${ctx.agentUser}::uuid`}
           group by 1, 2, 3`,
    ),
  );

type EntityRow = { month: string; channel: string; n: number };
const entityRows = (ctx: MetricContext, kind: 'chat' | 'lead' | 'clean_lead' | 'user', filters: { channel?: boolean; agent?: boolean } = {}) =>
  once(ctx, `entities:${kind}:${filters.channel}:${filters.agent}`, () =>
    rowsOf<EntityRow>(
      ctx.db,
      sql`select to_char(day, 'YYYY-MM') as month, channel, sum(n)::int as n from metrics_entities_daily
           where ${inWindow(ctx)} and kind = ${kind}${filters.channel ? byChannel(ctx) : sql``}${filters.agent && ctx.filter.agenteId ? sql` and agente_id = ${ctx.filter.agenteId}::uuid` : sql``}
           group by 1, 2`,
    ),
  );

type CoverageRow = { month: string; active: number; answered: number };
/** Whole months: a chat is active in a month it wrote in, answered when the business wrote to it that month (metrics_coverage_monthly). */
const coverageRows = (ctx: MetricContext) =>
  once(ctx, 'coverage', () =>
    rowsOf<CoverageRow>(
      ctx.db,
      sql`select to_char(month, 'YYYY-MM') as month, sum(active)::int as active, sum(answered)::int as answered
            from metrics_coverage_monthly
           where company_id = ${ctx.companyId} and month between date_trunc('month', ${ctx.window.from}::date)::date and ${ctx.window.to}::date${byChannel(ctx)}
           group by 1`,
    ),
  );

type AnalysisRow = { month: string; dimension: string; label: string; n: number };
/** The window's whole months from metrics_analyses_monthly, its partial edge months from the daily rows. */
const analysisRows = (ctx: MetricContext) =>
  once(ctx, 'analyses', () => {
    const { months, days } = splitByMonth(ctx.window);
    const parts: SQL[] = [];
    if (months) {
      parts.push(sql`select to_char(month, 'YYYY-MM') as month, dimension, label, n from metrics_analyses_monthly
                      where company_id = ${ctx.companyId} and month between ${months[0]}::date and ${months[1]}::date${byChannel(ctx)}`);
    }
    for (const [from, to] of days) {
      parts.push(sql`select to_char(day, 'YYYY-MM') as month, dimension, label, n from metrics_analyses_daily
                      where company_id = ${ctx.companyId} and day between ${from}::date and ${to}::date${byChannel(ctx)}`);
    }
    return rowsOf<AnalysisRow>(ctx.db, sql`select month, dimension, label, sum(n)::int as n from (${sql.join(parts, sql` union all `)}) x group by 1, 2, 3`);
  });

type SalesRow = { month: string; status: string; currency: string; orders: number; amount: number };
const salesRows = (ctx: MetricContext) =>
  once(ctx, 'sales', () =>
    rowsOf<SalesRow>(
      ctx.db,
      sql`select to_char(day, 'YYYY-MM') as month, status, currency, sum(orders)::int as orders, sum(amount)::float8 as amount
            from metrics_sales_daily where ${inWindow(ctx)} group by 1, 2, 3`,
    ),
  );

type AdRow = { month: string; campaign_id: string; campaign_name: string; currency: string; spend: number; impressions: number; clicks: number };
const adRows = (ctx: MetricContext) =>
  rowsOf<AdRow>(
    ctx.db,
    sql`select to_char(day, 'YYYY-MM') as month, campaign_id, max(campaign_name) as campaign_name, currency, sum(spend)::float8 as spend,
               sum(impressions)::float8 as impressions, sum(clicks)::float8 as clicks
          from ad_spend_daily where ${inWindow(ctx)}${ctx.filter.campaignId ? sql` and campaign_id = ${ctx.filter.campaignId}` : sql``}
         group by 1, 2, 4`,
  );

/**
 * What each ad campaign brought in the window (decision 0047): leads whose first referral (the
 * ad their first message came from) is one of the campaign's ads and arrived in the window, their
 * chats, and their orders that were not cancelled. Read from the attribution rollup (migration
 * 0032: per ad and local day of the first referral; the window's whole months from the monthly
 * rows, its partial edge months from the daily ones), joined with the ad → campaign map of the
 * insights sync as it is now: a few thousand rows at most, whatever the number of leads.
 */
async function adAttribution(ctx: MetricContext): Promise<Map<string, { leads: number; chats: number; orders: number }>> {
  const { months, days } = splitByMonth(ctx.window);
  const parts: SQL[] = [];
  if (months) {
    parts.push(sql`select ad_id, leads, chats, orders from metrics_ads_monthly
                    where company_id = ${ctx.companyId} and month between ${months[0]}::date and ${months[1]}::date`);
  }
  for (const [from, to] of days) {
    parts.push(sql`select ad_id, leads, chats, orders from metrics_ads_daily
                    where company_id = ${ctx.companyId} and day between ${from}::date and ${to}::date`);
  }
  const rows = await rowsOf<{ campaign_id: string; leads: number; chats: number; orders: number }>(
    ctx.db,
    sql`select a.campaign_id, sum(x.leads)::int as leads, sum(x.chats)::int as chats, sum(x.orders)::int as orders
          from (${sql.join(parts, sql` union all `)}) x join meta_ads a on a.company_id = ${ctx.companyId} and a.ad_id = x.ad_id
         ${ctx.filter.campaignId ? sql`where a.campaign_id = ${ctx.filter.campaignId}` : sql``}
         group by a.campaign_id`,
  );
  return new Map(rows.map((r) => [r.campaign_id, { leads: Number(r.leads), chats: Number(r.chats), orders: Number(r.orders) }]));
}

// ---- shaping ----

const windowOf = (ctx: MetricContext) => ({ from: ctx.window.from, to: ctx.window.to, timezone: ctx.timezone });

/** The analysis rows' count of a dimension's label, optionally of one month. */
function tally(rows: AnalysisRow[], dimension: string, month?: string) {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.dimension === dimension && (month === undefined || r.month === month)) counts.set(r.label, (counts.get(r.label) ?? 0) + r.n);
  return (label: string) => counts.get(label) ?? 0;
}

function messageTotals(rows: MessageRow[]) {
  const inbound = sum(rows, (r) => (r.direction === 'in' ? r.n : 0));
  const outbound = sum(rows, (r) => (r.direction === 'out' ? r.n : 0));
  return { inbound, outbound, total: inbound + outbound };
}

function sentimentOf(rows: AnalysisRow[], month?: string) {
  const of = tally(rows, 'sentiment', month);
  const analysed = tally(rows, 'total', month)('all');
  return {
    analysed,
    positiveShare: share(of('positive'), analysed),
    negativeShare: share(of('negative'), analysed),
    counts: sentiments.map((sentiment) => ({ sentiment, label: metricLabels.sentiment[sentiment], count: of(sentiment) })),
  };
}

function crossSellOf(rows: AnalysisRow[], month?: string) {
  const offered = tally(rows, 'cross_sell_offered', month)('yes');
  const taken = tally(rows, 'cross_sell_taken', month)('yes');
  return { crossSellOffered: offered, crossSellTaken: taken, crossSellEffectiveness: share(taken, offered), personalisedPromotions: tally(rows, 'promotion', month)('yes') };
}

function qualityOf(rows: AnalysisRow[], month?: string) {
  const of = tally(rows, 'quality', month);
  const distribution = [1, 2, 3, 4, 5].map((quality) => ({ quality, count: of(String(quality)) }));
  const analysed = sum(distribution, (d) => d.count);
  return { analysed, average: analysed ? round(sum(distribution, (d) => d.quality * d.count) / analysed) : null, distribution };
}

function coverageOf(rows: CoverageRow[]) {
  const active = sum(rows, (r) => r.active);
  const answered = sum(rows, (r) => r.answered);
  return { activeChats: active, answeredChats: answered, coverage: share(answered, active) };
}

const monthly = (rows: Array<{ month: string; n: number }>) => (month: string) => sum(rows, (r) => (r.month === month ? r.n : 0));

const notCancelled = (r: SalesRow) => r.status !== 'cancelled';
function byCurrency(rows: SalesRow[]) {
  const out = new Map<string, { currency: string; orders: number; amount: number }>();
  for (const r of rows) {
    const c = out.get(r.currency) ?? { currency: r.currency, orders: 0, amount: 0 };
    c.orders += r.orders;
    c.amount += r.amount;
    out.set(r.currency, c);
  }
  return [...out.values()].map((c) => ({ ...c, amount: round(c.amount) })).sort((a, b) => a.currency.localeCompare(b.currency));
}

// ---- the calls ----

type Answer<N extends MetricName> = (ctx: MetricContext) => Promise<MetricOutput<N>>;

/** The Monday (YYYY-MM-DD) of a local day's week. */
function weekOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/**
 * The sales follow-ups sent in the window with the first order (not cancelled) of their chat or lead
 * within RECOVERY_WINDOW_HOURS, and the window's chats with purchase intent that got none with theirs
 * (after their last analysed message). Read from `sales_followups`, `chat_analyses` and `orders` —
 * a company's follow-ups are few (one per conversation at most), so no rollup.
 */
type RecoveryRow = { day: string; kind: 'followup' | 'none'; total: number | null; currency: string | null };
const recoveryRows = (ctx: MetricContext) =>
  rowsOf<RecoveryRow>(
    ctx.db,
    sql`select to_char((f.created_at at time zone ${ctx.timezone})::date, 'YYYY-MM-DD') as day, 'followup' as kind, o.total, o.currency
          from sales_followups f
          left join lateral (select o.total, o.currency from orders o
                              where o.company_id = f.company_id and o.status <> 'cancelled'
                                and (o.chat_id = f.chat_id or (f.lead_id is not null and o.lead_id = f.lead_id))
                                and o.created_at between f.created_at and f.created_at + make_interval(hours => ${RECOVERY_WINDOW_HOURS})
                              order by o.created_at limit 1) o on true
         where f.company_id = ${ctx.companyId} and f.status = 'sent'
           and (f.created_at at time zone ${ctx.timezone})::date between ${ctx.window.from}::date and ${ctx.window.to}::date
        union all
        select to_char((a.last_message_at at time zone ${ctx.timezone})::date, 'YYYY-MM-DD'), 'none', o.total, o.currency
          from chat_analyses a
          join chats c on c.company_id = a.company_id and c.id = a.chat_id
          left join lateral (select o.total, o.currency from orders o
                              where o.company_id = a.company_id and o.status <> 'cancelled'
                                and (o.chat_id = c.id or (c.lead_id is not null and o.lead_id = c.lead_id))
                                and o.created_at between a.last_message_at and a.last_message_at + make_interval(hours => ${RECOVERY_WINDOW_HOURS})
                              order by o.created_at limit 1) o on true
         where a.company_id = ${ctx.companyId} and a.last_message_at is not null
           and a.motive in (${sql.join(
             RECOVERY_INTENT_MOTIVES.map((m) => sql`${m}`),
             sql`, `,
           )})
           and (a.last_message_at at time zone ${ctx.timezone})::date between ${ctx.window.from}::date and ${ctx.window.to}::date
           and not exists (select 1 from sales_followups f where f.company_id = a.company_id and f.chat_id = a.chat_id and f.status = 'sent')`,
  );

export const metricDefinitions: { [N in MetricName]: Answer<N> } = {
  async messages_by_channel_by_month(ctx) {
    const rows = await messageRows(ctx);
    const at = (month: string, channel: string, direction: string) => sum(rows, (r) => (r.month === month && r.channel === channel && r.direction === direction ? r.n : 0));
    return {
      ...windowOf(ctx),
      total: messageTotals(rows).total,
      months: ctx.window.months.flatMap((month) =>
        metricChatChannels.map((channel) => {
          const inbound = at(month, channel, 'in');
          const outbound = at(month, channel, 'out');
          return { month, channel, inbound, outbound, total: inbound + outbound };
        }),
      ),
    };
  },

  async cleanleads_by_month(ctx) {
    const of = monthly(await entityRows(ctx, 'clean_lead', { agent: true }));
    const months = ctx.window.months.map((month) => ({ month, count: of(month) }));
    const total = sum(months, (m) => m.count);
    const best = months.reduce<(typeof months)[number] | null>((b, m) => (m.count > (b?.count ?? 0) ? m : b), null);
    return { ...windowOf(ctx), total, monthsAnalysed: months.length, monthlyAverage: round(total / months.length), bestMonth: best, months };
  },

  async chats_coverage_by_month(ctx) {
    const rows = await coverageRows(ctx);
    return {
      ...windowOf(ctx),
      ...coverageOf(rows),
      months: ctx.window.months.map((month) => ({ month, ...coverageOf(rows.filter((r) => r.month === month)) })),
    };
  },

  async total_messages(ctx) {
    const rows = await messageRows(ctx);
    const totals = messageTotals(rows);
    const byChannel = metricChatChannels.map((channel) => {
      const t = messageTotals(rows.filter((r) => r.channel === channel));
      return { channel, ...t, share: share(t.total, totals.total) };
    });
    const main = byChannel.reduce<(typeof byChannel)[number] | null>((b, c) => (c.total > (b?.total ?? 0) ? c : b), null);
    return { ...windowOf(ctx), ...totals, mainChannel: main?.channel ?? null, byChannel };
  },

  async new_chats(ctx) {
    const rows = await entityRows(ctx, 'chat', { channel: true });
    const of = monthly(rows);
    return {
      ...windowOf(ctx),
      total: sum(rows, (r) => r.n),
      byChannel: metricChatChannels.map((channel) => ({ channel, count: sum(rows, (r) => (r.channel === channel ? r.n : 0)) })),
      months: ctx.window.months.map((month) => ({ month, count: of(month) })),
    };
  },

  async new_users(ctx) {
    const rows = await entityRows(ctx, 'user');
    const of = monthly(rows);
    return { ...windowOf(ctx), total: sum(rows, (r) => r.n), months: ctx.window.months.map((month) => ({ month, count: of(month) })) };
  },

  async consultation_motives_counts(ctx) {
    const rows = await analysisRows(ctx);
    const of = tally(rows, 'motive');
    return {
      ...windowOf(ctx),
      analysed: tally(rows, 'total')('all'),
      counts: consultationMotives.map((motive) => ({ motive, label: metricLabels.motive[motive], count: of(motive) })),
    };
  },

  async consultation_motives_by_month(ctx) {
    const rows = await analysisRows(ctx);
    return {
      ...windowOf(ctx),
      months: ctx.window.months.map((month) => {
        const of = tally(rows, 'motive', month);
        return {
          month,
          analysed: tally(rows, 'total', month)('all'),
          counts: consultationMotives.map((motive) => ({ motive, label: metricLabels.motive[motive], count: of(motive) })),
        };
      }),
    };
  },

  async sentiment_analysis_counts(ctx) {
    return { ...windowOf(ctx), ...sentimentOf(await analysisRows(ctx)) };
  },

  async sentiment_analysis_by_month(ctx) {
    const rows = await analysisRows(ctx);
    return { ...windowOf(ctx), months: ctx.window.months.map((month) => ({ month, ...sentimentOf(rows, month) })) };
  },

  async conversation_quality(ctx) {
    const rows = await analysisRows(ctx);
    return {
      ...windowOf(ctx),
      ...qualityOf(rows),
      months: ctx.window.months.map((month) => {
        const q = qualityOf(rows, month);
        return { month, analysed: q.analysed, average: q.average };
      }),
    };
  },

  async sales_analysis_counts(ctx) {
    const rows = await analysisRows(ctx);
    return { ...windowOf(ctx), analysed: tally(rows, 'total')('all'), ...crossSellOf(rows) };
  },

  async sales_analysis_by_month(ctx) {
    const rows = await analysisRows(ctx);
    return { ...windowOf(ctx), months: ctx.window.months.map((month) => ({ month, analysed: tally(rows, 'total', month)('all'), ...crossSellOf(rows, month) })) };
  },

  async ai_categories(ctx) {
    const rows = await analysisRows(ctx);
    const of = tally(rows, 'category');
    return {
      ...windowOf(ctx),
      analysed: tally(rows, 'total')('all'),
      counts: aiCategories.map((category) => ({ category, label: metricLabels.category[category], count: of(category) })),
    };
  },

  async ceo_dashboard(ctx) {
    const [messages, chats, leads, cleanLeads, users, coverage, sales, analyses] = await Promise.all([
      messageRows(ctx),
      entityRows(ctx, 'chat'),
      entityRows(ctx, 'lead'),
      entityRows(ctx, 'clean_lead'),
      entityRows(ctx, 'user'),
      coverageRows(ctx),
      salesRows(ctx),
      analysisRows(ctx),
    ]);
    const sentiment = sentimentOf(analyses);
    const messagesOf = monthly(messages);
    const chatsOf = monthly(chats);
    const leadsOf = monthly(leads);
    const analysedOf = (month: string) => tally(analyses, 'total', month)('all');
    return {
      ...windowOf(ctx),
      messages: messageTotals(messages),
      newChats: sum(chats, (r) => r.n),
      newLeads: sum(leads, (r) => r.n),
      newCleanLeads: sum(cleanLeads, (r) => r.n),
      newUsers: sum(users, (r) => r.n),
      coverage: coverageOf(coverage).coverage,
      sales: byCurrency(sales.filter(notCancelled)),
      analysed: sentiment.analysed,
      positiveShare: sentiment.positiveShare,
      negativeShare: sentiment.negativeShare,
      averageQuality: qualityOf(analyses).average,
      months: ctx.window.months.map((month) => ({
        month,
        messages: messagesOf(month),
        newChats: chatsOf(month),
        newLeads: leadsOf(month),
        orders: sum(sales, (r) => (r.month === month && notCancelled(r) ? r.orders : 0)),
        analysed: analysedOf(month),
      })),
    };
  },

  async leads_by_month(ctx) {
    const rows = await entityRows(ctx, 'lead', { channel: true, agent: true });
    const at = (month: string, channel: string) => sum(rows, (r) => (r.month === month && r.channel === channel ? r.n : 0));
    return {
      ...windowOf(ctx),
      total: sum(rows, (r) => r.n),
      byChannel: metricChannels.map((channel) => ({ channel, count: sum(rows, (r) => (r.channel === channel ? r.n : 0)) })),
      months: ctx.window.months.flatMap((month) => metricChannels.map((channel) => ({ month, channel, count: at(month, channel) }))),
    };
  },

  async sentiment_analysis(ctx) {
    const rows = await analysisRows(ctx);
    const origin = tally(rows, 'origin');
    return {
      ...windowOf(ctx),
      ...sentimentOf(rows),
      origins: dissatisfactionOrigins.map((o) => ({ origin: o, label: metricLabels.origin[o], count: origin(o) })),
      ...crossSellOf(rows),
    };
  },

  async sales_by_month(ctx) {
    const rows = await salesRows(ctx);
    const sold = rows.filter(notCancelled);
    const currencies = [...new Set(sold.map((r) => r.currency))].sort();
    return {
      ...windowOf(ctx),
      totals: byCurrency(sold),
      byStatus: orderStatuses.map((status) => ({ status, orders: sum(rows, (r) => (r.status === status ? r.orders : 0)) })),
      months: ctx.window.months.flatMap((month) =>
        currencies.map((currency) => {
          const [c] = byCurrency(sold.filter((r) => r.month === month && r.currency === currency));
          return { month, currency, orders: c?.orders ?? 0, amount: c?.amount ?? 0 };
        }),
      ),
    };
  },

  async recovered_sales(ctx) {
    const rows = await recoveryRows(ctx);
    const followed = rows.filter((r) => r.kind === 'followup');
    const others = rows.filter((r) => r.kind === 'none');
    const ordered = (list: RecoveryRow[]) => list.filter((r) => r.currency !== null);
    const revenue = new Map<string, number>();
    for (const r of ordered(followed)) revenue.set(r.currency as string, (revenue.get(r.currency as string) ?? 0) + Number(r.total));
    const weeks = new Map<string, { week: string; followups: number; orders: number; withoutFollowup: number; ordersWithout: number }>();
    for (const r of rows) {
      const week = weekOf(r.day);
      const w = weeks.get(week) ?? { week, followups: 0, orders: 0, withoutFollowup: 0, ordersWithout: 0 };
      if (r.kind === 'followup') {
        w.followups++;
        if (r.currency !== null) w.orders++;
      } else {
        w.withoutFollowup++;
        if (r.currency !== null) w.ordersWithout++;
      }
      weeks.set(week, w);
    }
    return {
      ...windowOf(ctx),
      followups: followed.length,
      orders: ordered(followed).length,
      revenue: [...revenue].map(([currency, amount]) => ({ currency, amount: round(amount) })).sort((a, b) => a.currency.localeCompare(b.currency)),
      conversion: share(ordered(followed).length, followed.length),
      withoutFollowup: { chats: others.length, orders: ordered(others).length, conversion: share(ordered(others).length, others.length) },
      weeks: [...weeks.values()].sort((a, b) => a.week.localeCompare(b.week)),
    };
  },

  async meta_ad_spend(ctx) {
    const [rows, brought] = await Promise.all([adRows(ctx), adAttribution(ctx)]);
    const spend = new Map<string, number>();
    const campaigns = new Map<string, { campaignId: string; campaignName: string; currency: string; spend: number; impressions: number; clicks: number }>();
    for (const r of rows) {
      spend.set(r.currency, (spend.get(r.currency) ?? 0) + r.spend);
      const key = `${r.campaign_id}|${r.currency}`;
      const c = campaigns.get(key) ?? { campaignId: r.campaign_id, campaignName: r.campaign_name, currency: r.currency, spend: 0, impressions: 0, clicks: 0 };
      c.spend += r.spend;
      c.impressions += r.impressions;
      c.clicks += r.clicks;
      campaigns.set(key, c);
    }
    const currencies = [...spend.keys()].sort();
    return {
      ...windowOf(ctx),
      spend: currencies.map((currency) => ({ currency, amount: round(spend.get(currency) ?? 0) })),
      impressions: sum(rows, (r) => r.impressions),
      clicks: sum(rows, (r) => r.clicks),
      campaigns: [...campaigns.values()]
        .map((c) => {
          const b = brought.get(c.campaignId) ?? { leads: 0, chats: 0, orders: 0 };
          const per = (n: number) => (n ? round(c.spend / n) : null);
          return { ...c, spend: round(c.spend), ...b, costPerLead: per(b.leads), costPerChat: per(b.chats), costPerOrder: per(b.orders) };
        })
        .sort((a, b) => b.spend - a.spend || a.campaignId.localeCompare(b.campaignId)),
      months: ctx.window.months.flatMap((month) =>
        currencies.map((currency) => {
          const m = rows.filter((r) => r.month === month && r.currency === currency);
          return { month, currency, spend: round(sum(m, (r) => r.spend)), impressions: sum(m, (r) => r.impressions), clicks: sum(m, (r) => r.clicks) };
        }),
      ),
    };
  },
};
