import { z } from 'zod';
import {
  type AiCategory,
  aiCategories,
  aiCategoryLabels,
  type ConsultationMotive,
  consultationMotiveLabels,
  consultationMotives,
  type DissatisfactionOrigin,
  dissatisfactionOriginLabels,
  dissatisfactionOrigins,
  type Sentiment,
  sentimentLabels,
  sentiments,
} from './analysis.js';
import { platforms } from './constants.js';
import { zId } from './fields.js';
import { orderStatuses } from './order-labels.js';
import { leadPlatforms } from './resources/leads.js';

/**
 * Metrics (SPEC §2 Metrics views, §7 Metrics; issue 14, decision 0045): 19 calls, each
 * `POST /api/metrics/<name>` with the filter body below, answered from rollup tables. Days and
 * months are the company's time zone's (the answer says which zone); a by-month answer lists
 * every month of the window, with 0 where nothing happened; a by-label answer lists every label
 * of the contract, in its order, with its Spanish label.
 */
export const metricNames = [
  'messages_by_channel_by_month',
  'cleanleads_by_month',
  'chats_coverage_by_month',
  'total_messages',
  'new_chats',
  'new_users',
  'consultation_motives_counts',
  'consultation_motives_by_month',
  'sentiment_analysis_counts',
  'sentiment_analysis_by_month',
  'conversation_quality',
  'sales_analysis_counts',
  'sales_analysis_by_month',
  'ai_categories',
  'ceo_dashboard',
  'leads_by_month',
  'sentiment_analysis',
  'sales_by_month',
  'meta_ad_spend',
  'recovered_sales',
] as const;
export type MetricName = (typeof metricNames)[number];

/** The longest window a call answers: ten years of days (the screens' "todo el tiempo"). */
export const METRICS_MAX_DAYS = 3660;

/** Channels a metric splits or filters by: the chats' platforms (messages, chats, analyses) and the leads' (plus web). */
export const metricChatChannels = platforms;
export const metricChannels = leadPlatforms;
export type MetricChannel = (typeof metricChannels)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A day 'YYYY-MM-DD' in the company's time zone, or an ISO 8601 instant (read as its day in that zone). */
const zMetricDay = () =>
  z
    .string({ error: 'Debe ser una fecha (AAAA-MM-DD)' })
    .trim()
    .refine((v) => (DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)) || z.iso.datetime({ offset: true }).safeParse(v).success, {
      message: 'Debe ser una fecha (AAAA-MM-DD) o una fecha y hora ISO 8601',
    });

/**
 * The filter body of every metric call. Window: `from`–`to` (inclusive days; either may be
 * missing), or `days` (the last N days up to today); nothing: the current month and the five
 * before it. `channel`, `agenteId` and `campaignId` narrow the calls that say they can
 * (`metricFilters`); on another call they are a 400, never silently ignored.
 */
export const metricsFilter = z
  .object({
    from: zMetricDay().optional(),
    to: zMetricDay().optional(),
    days: z.number({ error: 'Debe ser un número de días' }).int('Debe ser un número entero de días').min(1, 'Debe ser al menos 1 día').max(METRICS_MAX_DAYS, `Debe ser como máximo ${METRICS_MAX_DAYS} días`).optional(),
    channel: z.enum(metricChannels, { error: 'Canal desconocido' }).optional(),
    agenteId: zId().optional(),
    /** A Meta ads campaign id (meta_ad_spend). */
    campaignId: z.string({ error: 'Debe ser un texto' }).trim().min(1, 'Este campo es requerido').max(64, 'Debe tener como máximo 64 caracteres').regex(/^[\w-]+$/, 'Solo letras, números, guiones y guiones bajos').optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    if (f.days !== undefined && (f.from !== undefined || f.to !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['days'], message: 'Usa días o un rango de fechas, no ambos' });
    }
    if (f.from && f.to) {
      const from = Date.parse(DAY.test(f.from) ? `${f.from}T00:00:00Z` : f.from);
      const to = Date.parse(DAY.test(f.to) ? `${f.to}T00:00:00Z` : f.to);
      if (from > to + 86_400_000) ctx.addIssue({ code: 'custom', path: ['from'], message: 'La fecha inicial debe ser anterior o igual a la final' });
      else if (to - from > METRICS_MAX_DAYS * 86_400_000) ctx.addIssue({ code: 'custom', path: ['from'], message: `El rango máximo es de ${METRICS_MAX_DAYS} días` });
    }
  });
export type MetricsFilter = z.infer<typeof metricsFilter>;
export type MetricFilterKey = 'channel' | 'agenteId' | 'campaignId';

/** Which narrowing filters each call takes (the window is every call's). */
export const metricFilters: Record<MetricName, readonly MetricFilterKey[]> = {
  messages_by_channel_by_month: ['channel', 'agenteId'],
  cleanleads_by_month: ['agenteId'],
  chats_coverage_by_month: ['channel'],
  total_messages: ['channel', 'agenteId'],
  new_chats: ['channel'],
  new_users: [],
  consultation_motives_counts: ['channel'],
  consultation_motives_by_month: ['channel'],
  sentiment_analysis_counts: ['channel'],
  sentiment_analysis_by_month: ['channel'],
  conversation_quality: ['channel'],
  sales_analysis_counts: ['channel'],
  sales_analysis_by_month: ['channel'],
  ai_categories: ['channel'],
  ceo_dashboard: [],
  leads_by_month: ['channel', 'agenteId'],
  sentiment_analysis: ['channel'],
  sales_by_month: [],
  meta_ad_spend: ['campaignId'],
  recovered_sales: [],
};

const count = () => z.number().int();
/** A share 0–1 (4 decimals); null when there is nothing to divide by. */
const share = () => z.number().min(0).max(1).nullable();
const month = () => z.string().regex(/^\d{4}-\d{2}$/);
const chatChannel = () => z.enum(metricChatChannels);

/** What every answer carries: its window (inclusive local days) and the zone its days are in. */
const windowOut = { from: z.string(), to: z.string(), timezone: z.string() };
const withWindow = <T extends z.ZodRawShape>(shape: T) => z.object({ ...windowOut, ...shape });

const sentimentCount = z.object({ sentiment: z.enum(sentiments), label: z.string(), count: count() });
const motiveCount = z.object({ motive: z.enum(consultationMotives), label: z.string(), count: count() });
const originCount = z.object({ origin: z.enum(dissatisfactionOrigins), label: z.string(), count: count() });
const categoryCount = z.object({ category: z.enum(aiCategories), label: z.string(), count: count() });

const messageCounts = { inbound: count(), outbound: count(), total: count() };
const crossSell = {
  /** Analysed chats where the business offered something more, and where the customer took it. */
  crossSellOffered: count(),
  crossSellTaken: count(),
  /** taken / offered. */
  crossSellEffectiveness: share(),
  personalisedPromotions: count(),
};
const sentimentShares = { positiveShare: share(), negativeShare: share() };
const moneyByCurrency = z.object({ currency: z.string(), orders: count(), amount: z.number() });

export const metricOutputs = {
  /** Messages (failed sends excluded) by month × chat channel, every month × channel. */
  messages_by_channel_by_month: withWindow({
    total: count(),
    months: z.array(z.object({ month: month(), channel: chatChannel(), ...messageCounts })),
  }),
  /** Clean leads (people) created per month: the "Leads limpios por mes" view. */
  cleanleads_by_month: withWindow({
    total: count(),
    monthsAnalysed: count(),
    monthlyAverage: z.number(),
    bestMonth: z.object({ month: month(), count: count() }).nullable(),
    months: z.array(z.object({ month: month(), count: count() })),
  }),
  /** Chats the customer wrote in during the month, and how many of them the business answered that month. */
  chats_coverage_by_month: withWindow({
    activeChats: count(),
    answeredChats: count(),
    coverage: share(),
    months: z.array(z.object({ month: month(), activeChats: count(), answeredChats: count(), coverage: share() })),
  }),
  /** Messages of the window, by channel, with the main channel (most messages; null without messages). */
  total_messages: withWindow({
    ...messageCounts,
    mainChannel: chatChannel().nullable(),
    byChannel: z.array(z.object({ channel: chatChannel(), ...messageCounts, share: share() })),
  }),
  /** Chats (conversations) opened. */
  new_chats: withWindow({
    total: count(),
    byChannel: z.array(z.object({ channel: chatChannel(), count: count() })),
    months: z.array(z.object({ month: month(), count: count() })),
  }),
  /** Users (team members) who joined the company. */
  new_users: withWindow({ total: count(), months: z.array(z.object({ month: month(), count: count() })) }),
  consultation_motives_counts: withWindow({ analysed: count(), counts: z.array(motiveCount) }),
  consultation_motives_by_month: withWindow({
    months: z.array(z.object({ month: month(), analysed: count(), counts: z.array(motiveCount) })),
  }),
  sentiment_analysis_counts: withWindow({ analysed: count(), ...sentimentShares, counts: z.array(sentimentCount) }),
  sentiment_analysis_by_month: withWindow({
    months: z.array(z.object({ month: month(), analysed: count(), ...sentimentShares, counts: z.array(sentimentCount) })),
  }),
  /** The business's side of the conversation, 1 (poor) – 5 (excellent): average and distribution. */
  conversation_quality: withWindow({
    analysed: count(),
    average: z.number().nullable(),
    distribution: z.array(z.object({ quality: z.number().int().min(1).max(5), count: count() })),
    months: z.array(z.object({ month: month(), analysed: count(), average: z.number().nullable() })),
  }),
  /** Cross-selling and personalised promotions in the analysed chats. */
  sales_analysis_counts: withWindow({ analysed: count(), ...crossSell }),
  sales_analysis_by_month: withWindow({ months: z.array(z.object({ month: month(), analysed: count(), ...crossSell })) }),
  ai_categories: withWindow({ analysed: count(), counts: z.array(categoryCount) }),
  /** One screen of everything: messages, chats, leads, people, sales, analyses. */
  ceo_dashboard: withWindow({
    messages: z.object(messageCounts),
    newChats: count(),
    newLeads: count(),
    newCleanLeads: count(),
    newUsers: count(),
    coverage: share(),
    /** Orders not cancelled, by currency. */
    sales: z.array(moneyByCurrency),
    analysed: count(),
    ...sentimentShares,
    averageQuality: z.number().nullable(),
    months: z.array(
      z.object({ month: month(), messages: count(), newChats: count(), newLeads: count(), orders: count(), analysed: count() }),
    ),
  }),
  /** Leads created per month × channel (leads' platforms, web included). */
  leads_by_month: withWindow({
    total: count(),
    byChannel: z.array(z.object({ channel: z.enum(metricChannels), count: count() })),
    months: z.array(z.object({ month: month(), channel: z.enum(metricChannels), count: count() })),
  }),
  /** The "Análisis de sentimiento" view: shares, distribution, origins of dissatisfaction, cross-selling, promotions. */
  sentiment_analysis: withWindow({
    analysed: count(),
    ...sentimentShares,
    counts: z.array(sentimentCount),
    origins: z.array(originCount),
    ...crossSell,
  }),
  /** Orders by month and currency (cancelled ones apart), and the window's orders by status. */
  sales_by_month: withWindow({
    totals: z.array(moneyByCurrency),
    byStatus: z.array(z.object({ status: z.enum(orderStatuses), orders: count() })),
    months: z.array(z.object({ month: month(), currency: z.string(), orders: count(), amount: z.number() })),
  }),
  /**
   * Meta ads spend (Marketing API insights, per campaign and day; decision 0047), and what each
   * campaign brought: the leads whose first message came from one of its ads in the window (their
   * click-to-WhatsApp / click-to-Messenger referral), their chats and their orders (not
   * cancelled), and the spend per lead, chat and order (null when none).
   */
  meta_ad_spend: withWindow({
    spend: z.array(z.object({ currency: z.string(), amount: z.number() })),
    impressions: count(),
    clicks: count(),
    campaigns: z.array(
      z.object({
        campaignId: z.string(),
        campaignName: z.string(),
        currency: z.string(),
        spend: z.number(),
        impressions: count(),
        clicks: count(),
        leads: count(),
        chats: count(),
        orders: count(),
        costPerLead: z.number().nullable(),
        costPerChat: z.number().nullable(),
        costPerOrder: z.number().nullable(),
      }),
    ),
    months: z.array(z.object({ month: month(), currency: z.string(), spend: z.number(), impressions: count(), clicks: count() })),
  }),
  /**
   * «Ventas recuperadas» (issue 30, decision 0089): the sales follow-ups sent in the window, the
   * orders (not cancelled) their people placed within 72 h of one and what those sold; beside them
   * the same window's chats with purchase intent that got none and the orders those brought in the
   * 72 h after their last analysed message — by week (Monday, company time) and in all.
   */
  recovered_sales: withWindow({
    followups: count(),
    orders: count(),
    revenue: z.array(z.object({ currency: z.string(), amount: z.number() })),
    conversion: share(),
    withoutFollowup: z.object({ chats: count(), orders: count(), conversion: share() }),
    weeks: z.array(z.object({ week: z.string(), followups: count(), orders: count(), withoutFollowup: count(), ordersWithout: count() })),
  }),
} as const satisfies Record<MetricName, z.ZodType>;
export type MetricOutput<N extends MetricName> = z.infer<(typeof metricOutputs)[N]>;

/** The labelled counts, every label in the contract's order (helpers for the server and the screens). */
export const metricLabels = {
  sentiment: sentimentLabels as Record<Sentiment, string>,
  motive: consultationMotiveLabels as Record<ConsultationMotive, string>,
  origin: dissatisfactionOriginLabels as Record<DissatisfactionOrigin, string>,
  category: aiCategoryLabels as Record<AiCategory, string>,
};

/** The metrics screens' failure message (SPEC §8). */
export const METRICS_LOAD_ERROR = 'Error al cargar los datos. Por favor, intente nuevamente.';
