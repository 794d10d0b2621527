import type { TemplateCategory } from './resources/imagina-template-messages.js';

/**
 * What a WhatsApp send costs and how many people it may reach (issue 13's pre-send check,
 * decision 0043). Meta charges per delivered template message since 2025-07-01, by the
 * template's category and the recipient's country calling code; non-template messages (free
 * text inside the 24-hour customer-service window) and utility templates inside the window are
 * free. The rates are Meta's published card in USD; they change each quarter, so they are data,
 * kept here with the date they are from, and the estimate says so.
 */
export const WHATSAPP_RATES_AS_OF = '2025-07-01';

/** USD per delivered template message, by market (ISO country of the recipient's number). */
export interface MarketRate {
  label: string;
  MARKETING: number;
  UTILITY: number;
  AUTHENTICATION: number;
}
export const whatsappRates: Record<string, MarketRate> = {
  PE: { label: 'Perú', MARKETING: 0.0703, UTILITY: 0.02, AUTHENTICATION: 0.02 },
  CL: { label: 'Chile', MARKETING: 0.0889, UTILITY: 0.02, AUTHENTICATION: 0.02 },
  CO: { label: 'Colombia', MARKETING: 0.0125, UTILITY: 0.0008, AUTHENTICATION: 0.0008 },
  MX: { label: 'México', MARKETING: 0.0305, UTILITY: 0.0085, AUTHENTICATION: 0.0085 },
  AR: { label: 'Argentina', MARKETING: 0.0618, UTILITY: 0.026, AUTHENTICATION: 0.026 },
  BR: { label: 'Brasil', MARKETING: 0.0625, UTILITY: 0.0068, AUTHENTICATION: 0.0068 },
  ES: { label: 'España', MARKETING: 0.0615, UTILITY: 0.02, AUTHENTICATION: 0.02 },
  US: { label: 'Norteamérica', MARKETING: 0.025, UTILITY: 0.0034, AUTHENTICATION: 0.0034 },
  LATAM: { label: 'Resto de Latinoamérica', MARKETING: 0.074, UTILITY: 0.0113, AUTHENTICATION: 0.0113 },
  OTHER: { label: 'Otros países', MARKETING: 0.0604, UTILITY: 0.0077, AUTHENTICATION: 0.0077 },
};
/** Countries Meta prices as «Rest of Latin America». */
const restOfLatinAmerica = new Set(['BO', 'CR', 'DO', 'EC', 'SV', 'GT', 'HT', 'HN', 'JM', 'NI', 'PA', 'PY', 'PR', 'UY', 'VE']);
export function marketOf(country: string | undefined): string {
  if (!country) return 'OTHER';
  if (country in whatsappRates) return country;
  if (country === 'CA') return 'US';
  return restOfLatinAmerica.has(country) ? 'LATAM' : 'OTHER';
}

/**
 * Reference exchange rates (units of the currency per USD) to show the estimate in the
 * company's currency; Meta bills in the currency of the business's payment method, so the
 * figure is an estimate and says so.
 */
export const USD_RATES_AS_OF = '2026-11-01';
export const usdTo: Record<string, number> = { USD: 1, PEN: 3.75, CLP: 940, COP: 3900, EUR: 0.87, MXN: 18.4 };

/** Meta's messaging limit of the business portfolio: unique people reached outside the window in a moving 24 h. */
export const messagingTiers = ['TIER_250', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'] as const;
export type MessagingTier = (typeof messagingTiers)[number];
export const messagingTierLimits: Record<MessagingTier, number | null> = {
  TIER_250: 250,
  TIER_2K: 2000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
};

/** What one template message to a person of `country` costs, in USD (0 when free inside the window). */
export function templateCostUsd(category: TemplateCategory, country: string | undefined, windowOpen: boolean): number {
  if (windowOpen && category === 'UTILITY') return 0;
  return whatsappRates[marketOf(country)][category];
}
