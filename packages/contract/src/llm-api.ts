import { z } from 'zod';
import { zQueryDate } from './define-resource.js';
import { AMOUNT_MAX, zText, zUrl } from './fields.js';
import { formMessages } from './messages-es.js';
import { type LlmFeature, type LlmOutcome, llmFeatures } from './resources/llm-tracker.js';

/**
 * The OpenAI-compatible engine's settings and the model-call ledger's totals (issue 14, decision
 * 0046). All under /api:
 *
 *   GET  /llm/settings              the company's AI engine settings (the key never: only whether it is saved and its last 4)
 *   PUT  /llm/settings              saves them (the key kept when left out)
 *   POST /llm/settings/test         calls the endpoint once and says what to fix
 *   GET  /llm-tracker/summary?from&to   totals per day, month and feature, and this month's budget
 */

/** Reference prices in USD per million tokens (input, output) of known models; others are typed by hand. */
export const llmModelPrices: Readonly<Record<string, { input: number; output: number }>> = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
};

/** A call's cost in USD from its tokens and the prices per million tokens. */
export const llmCostUsd = (promptTokens: number, completionTokens: number, prices: { input: number; output: number }) =>
  (promptTokens * prices.input + completionTokens * prices.output) / 1_000_000;

const zPrice = () =>
  z.number({ error: formMessages.decimal }).min(0, formMessages.nonNegative).max(1000, 'Un precio por millón de tokens no pasa de 1000 USD');

export const llmSettingsInput = z
  .object({
    enabled: z.boolean({ error: formMessages.invalid }),
    baseUrl: zUrl(300),
    model: zText(120),
    /** Left out: the saved key stays. */
    apiKey: z.string({ error: formMessages.invalid }).trim().min(8, 'La API key es demasiado corta').max(400, formMessages.tooLong).optional(),
    /** USD per million input tokens; left out: the known model's price. */
    inputPriceUsd: zPrice().optional(),
    outputPriceUsd: zPrice().optional(),
    monthlyBudgetUsd: z.number({ error: formMessages.decimal }).min(0, formMessages.nonNegative).max(AMOUNT_MAX, formMessages.tooBig),
  })
  .strict();
export type LlmSettingsInput = z.infer<typeof llmSettingsInput>;

export const llmSettingsOut = z.object({
  /** Whether the company has saved settings at all. */
  configured: z.boolean(),
  enabled: z.boolean(),
  baseUrl: z.string(),
  model: z.string(),
  apiKeySet: z.boolean(),
  /** The key's last four characters, to tell keys apart. */
  apiKeyLast4: z.string().optional(),
  inputPriceUsd: z.number(),
  outputPriceUsd: z.number(),
  monthlyBudgetUsd: z.number(),
});
export type LlmSettingsOut = z.infer<typeof llmSettingsOut>;

export const llmTestOut = z.object({ ok: z.boolean(), msg: z.string(), latencyMs: z.number().optional() });
export type LlmTestOut = z.infer<typeof llmTestOut>;

export const llmSummaryQuery = z.object({ from: zQueryDate().optional(), to: zQueryDate().optional() }).strict();
export type LlmSummaryQuery = z.infer<typeof llmSummaryQuery>;

const totals = {
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  costUsd: z.number(),
  costLocal: z.number(),
};

export const llmSummaryOut = z.object({
  timezone: z.string(),
  /** The company's currency (costLocal's). */
  currency: z.string(),
  from: z.string(),
  to: z.string(),
  totals: z.object(totals),
  /** Every day of the window (YYYY-MM-DD in the company's zone), 0 where nothing happened. */
  days: z.array(z.object({ day: z.string(), ...totals })),
  months: z.array(z.object({ month: z.string(), ...totals })),
  features: z.array(z.object({ feature: z.enum(llmFeatures), ...totals })),
  /** The current month (the company's zone) against its budget. */
  month: z.object({
    month: z.string(),
    ...totals,
    /** What the budget counter holds this month (USD). */
    spentUsd: z.number(),
    budgetUsd: z.number().nullable(),
    /** spent / budget, 0–100+ (null without a budget). */
    percent: z.number().nullable(),
    /** The paid engine is paused until `resumesOn`. */
    paused: z.boolean(),
    /** The first day of next month (YYYY-MM-DD). */
    resumesOn: z.string(),
  }),
  /** Which engine analyses the company's chats now: `openai` (configured and on, budget left) or `embedded`. */
  engine: z.enum(['embedded', 'openai']),
  model: z.string().optional(),
});
export type LlmSummaryOut = z.infer<typeof llmSummaryOut>;

const monthNames = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
/** «1 de diciembre» of a YYYY-MM-DD. */
export const llmDayLabel = (day: string) => `${Number(day.slice(8, 10))} de ${monthNames[Number(day.slice(5, 7)) - 1] ?? ''}`;

export const llmMessages = {
  budgetReached: (resumesOn: string) => `Se alcanzó el presupuesto mensual de IA: el análisis sigue con el motor integrado hasta el ${llmDayLabel(resumesOn)}`,
  budgetSkipped: 'Presupuesto mensual alcanzado: no se llamó al modelo',
} as const;

export type { LlmFeature, LlmOutcome };
