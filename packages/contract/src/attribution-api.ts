import { z } from 'zod';

/**
 * Order attribution and its funnel (issue 31, decisions 0096 and 0097). Every order is attributed
 * once per event by a spine listener to the conversation before it and, through it, to the Meta
 * ad that brought the person (a click-to-WhatsApp / Messenger referral), the massive send that
 * wrote to them, or «Orgánico». The funnel groups conversations and orders by ad campaign, ad,
 * send or agent, in the company's currency and time zone.
 */

/** Last touch (the latest ad or send in the window) or first touch (the earliest). */
export const attributionModels = ['last', 'first'] as const;
export type AttributionModel = (typeof attributionModels)[number];
export const attributionModelLabels: Record<AttributionModel, string> = { last: 'Último contacto', first: 'Primer contacto' };

export const ATTRIBUTION_DEFAULT_WINDOW_DAYS = 7;
export const ATTRIBUTION_MAX_WINDOW_DAYS = 90;

/** What an order or a conversation is attributed to. */
export const attributionTouchKinds = ['ad', 'send', 'organic'] as const;
export type AttributionTouchKind = (typeof attributionTouchKinds)[number];
export const attributionTouchLabels: Record<AttributionTouchKind, string> = { ad: 'Anuncio', send: 'Envío masivo', organic: 'Orgánico' };

/** The groupings of the funnel. */
export const attributionGroupings = ['ad_campaign', 'ad', 'send', 'agent'] as const;
export type AttributionGrouping = (typeof attributionGroupings)[number];
export const attributionGroupingLabels: Record<AttributionGrouping, string> = {
  ad_campaign: 'Campaña de anuncios',
  ad: 'Anuncio',
  send: 'Envío masivo',
  agent: 'Agente',
};
/** The key of the row of everything not attributed to an ad (or a send, by send; no agent, by agent). */
export const ATTRIBUTION_ORGANIC_KEY = 'organico';
export const attributionOrganicLabel = 'Orgánico';
/** By agent: the row of the conversations and orders no agent had. */
export const ATTRIBUTION_NO_AGENT_KEY = 'sin-agente';
export const attributionNoAgentLabel = 'Sin agente';
/** By ad campaign: an ad the ad account's sync has not named a campaign for yet. */
export const ATTRIBUTION_UNKNOWN_CAMPAIGN_KEY = 'sin-campana';
export const attributionUnknownCampaignLabel = 'Campaña sin identificar';

export const attributionSettings = z
  .object({
    windowDays: z
      .number({ error: 'Debe ser un número de días' })
      .int('Debe ser un número entero de días')
      .min(1, 'Debe ser al menos 1 día')
      .max(ATTRIBUTION_MAX_WINDOW_DAYS, `Debe ser como máximo ${ATTRIBUTION_MAX_WINDOW_DAYS} días`),
    model: z.enum(attributionModels, { error: 'Elige último o primer contacto' }),
  })
  .strict();
export type AttributionSettings = z.infer<typeof attributionSettings>;

export const attributionSettingsOut = attributionSettings.extend({
  /** When the orders were last attributed again after a change of the settings (null: never changed). */
  reattributedAt: z.string().nullable(),
  /** True while the company's orders are being attributed again under new settings. */
  reattributing: z.boolean(),
});
export type AttributionSettingsOut = z.infer<typeof attributionSettingsOut>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const zDay = () =>
  z
    .string({ error: 'Debe ser una fecha (AAAA-MM-DD)' })
    .trim()
    .refine((v) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      message: 'Debe ser una fecha (AAAA-MM-DD)',
    });

/** The window and grouping of the funnel: local days, both inclusive (default: the last 30 days). */
export const attributionQuery = z
  .object({
    from: zDay().optional(),
    to: zDay().optional(),
    by: z.enum(attributionGroupings, { error: 'Agrupa por campaña de anuncios, anuncio, envío masivo o agente' }).default('ad_campaign'),
  })
  .strict();
export type AttributionQuery = z.infer<typeof attributionQuery>;

export const attributionChatsQuery = attributionQuery.extend({
  key: z.string({ error: 'Este campo es requerido' }).trim().min(1, 'Este campo es requerido').max(200, 'Debe tener como máximo 200 caracteres'),
  page: z.coerce.number({ error: 'Debe ser un número' }).int('Debe ser un número entero').min(1, 'Debe ser al menos 1').default(1),
  limit: z.coerce.number({ error: 'Debe ser un número' }).int('Debe ser un número entero').min(1, 'Debe ser al menos 1').max(100, 'Debe ser como máximo 100').default(20),
});
export type AttributionChatsQuery = z.infer<typeof attributionChatsQuery>;

/** One row of the funnel. Money in the company's currency (2 decimals); null when there is nothing to divide by or no spend is known. */
export const attributionRow = z.object({
  key: z.string(),
  label: z.string(),
  /** The ad's campaign (by ad). */
  campaign: z.string().nullable(),
  spend: z.number().nullable(),
  conversations: z.number().int(),
  answeredIn5: z.number().int(),
  qualified: z.number().int(),
  orders: z.number().int(),
  paidOrders: z.number().int(),
  revenue: z.number(),
  costPerConversation: z.number().nullable(),
  costPerSale: z.number().nullable(),
  roas: z.number().nullable(),
  /** Median minutes from the conversation's start to the order. */
  medianMinutesToSale: z.number().nullable(),
  /** Share 0–1 (4 decimals) of the analysed conversations whose sentiment is negative. */
  negativeShare: z.number().nullable(),
});
export type AttributionRow = z.infer<typeof attributionRow>;

export const attributionOut = z.object({
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  currency: z.string(),
  by: z.enum(attributionGroupings),
  model: z.enum(attributionModels),
  windowDays: z.number().int(),
  rows: z.array(attributionRow),
  total: attributionRow.omit({ key: true, label: true, campaign: true }),
});
export type AttributionOut = z.infer<typeof attributionOut>;

export const attributionChat = z.object({
  chatId: z.string(),
  contactName: z.string(),
  platform: z.string(),
  startedAt: z.string(),
  answeredIn5: z.boolean(),
  orders: z.number().int(),
  revenue: z.number(),
});
export type AttributionChat = z.infer<typeof attributionChat>;

export const attributionChatsOut = z.object({
  payload: z.array(attributionChat),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type AttributionChatsOut = z.infer<typeof attributionChatsOut>;

/** The CSV's columns, in order. */
export const attributionCsvColumns = [
  'Grupo',
  'Campaña',
  'Inversión',
  'Conversaciones',
  'Respondidas en 5 min',
  'Calificadas',
  'Órdenes',
  'Órdenes pagadas',
  'Ingresos pagados',
  'Costo por conversación',
  'Costo por venta',
  'ROAS',
  'Mediana hasta la venta (min)',
  'Sentimiento negativo',
] as const;

export const attributionMessages = {
  unknownKey: 'Esa fila no existe en esta agrupación',
} as const;
