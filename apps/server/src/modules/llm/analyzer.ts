import { llmCostUsd, llmMessages } from '@mostrador/contract';
import type { Db } from '../../db/database.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { embeddedAnalyzer } from '../analysis/embedded.js';
import { analyzeWithOpenAi, ESTIMATED_COMPLETION_TOKENS, estimatePromptTokens, llmErrorOf } from '../analysis/openai-engine.js';
import type { Analyzer } from '../analysis/types.js';
import { timezoneOf } from '../leads/summary.js';
import { currencyOf } from '../../db/company-currency.js';
import { llmSettingsOf, monthOf, recordCall, reserveBudget, settleBudget } from './ledger.js';

/**
 * Calls in flight at once to a company's paid model from one analysis batch: well under the
 * requests per minute of any provider's first tier (OpenAI's: 500), so a burst of chats is
 * analysed in a quarter of the time without tripping 429s; a 429 still falls back per chat.
 */
export const PAID_CONCURRENCY = 4;

/**
 * The engine a company's analysis job uses (decision 0046): the embedded one unless the company
 * configured and turned on an OpenAI-compatible endpoint with a key. With it, each chat: the
 * budget reserves the call's estimate (refused: a `budget` row and the embedded engine answers);
 * the model is called; a valid answer is an `ok` row with its tokens and cost; any failure
 * (HTTP error, timeout, network, an answer that is not the schema) is a `fallback` row saying
 * why, with what it still cost, and the embedded engine answers.
 */
export function companyAnalyzers({
  db,
  secrets,
  embedded = embeddedAnalyzer,
  timeoutMs = 30_000,
  concurrency = PAID_CONCURRENCY,
}: {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  embedded?: Analyzer;
  timeoutMs?: number;
  /** Paid calls in flight at once per batch (PAID_CONCURRENCY). */
  concurrency?: number;
}) {
  return async function analyzerFor(companyId: string): Promise<Analyzer> {
    const settings = await llmSettingsOf(db, companyId);
    if (!settings?.enabled || !settings.apiKey) return embedded;
    const [timezone, currency] = await Promise.all([timezoneOf(db, companyId), currencyOf(db, companyId)]);
    const apiKey = secrets.open<string>(settings.apiKey);
    const prices = { input: settings.inputPriceUsd, output: settings.outputPriceUsd };
    const fallback = async (...args: Parameters<Analyzer['analyze']>) => ({ ...(await embedded.analyze(...args)), engine: embedded.name });
    return {
      name: 'openai',
      concurrency,
      async analyze(conversation, context) {
        const month = monthOf(timezone);
        const estimate = llmCostUsd(estimatePromptTokens(conversation), ESTIMATED_COMPLETION_TOKENS, prices);
        const base = { companyId, name: `Análisis del chat con ${context?.chatName?.trim() || 'un cliente'}`, model: settings.model, feature: 'analysis' as const, currency };
        if (!(await reserveBudget(db, companyId, month, settings.monthlyBudgetUsd, estimate))) {
          await recordCall(db, { ...base, promptTokens: 0, completionTokens: 0, costUsd: 0, latencyMs: 0, outcome: 'budget', error: llmMessages.budgetSkipped });
          return fallback(conversation, context);
        }
        const started = performance.now();
        try {
          const answer = await analyzeWithOpenAi({ baseUrl: settings.baseUrl, model: settings.model, apiKey, timeoutMs }, conversation);
          const costUsd = llmCostUsd(answer.promptTokens, answer.completionTokens, prices);
          await settleBudget(db, companyId, month, estimate, costUsd);
          await recordCall(db, { ...base, promptTokens: answer.promptTokens, completionTokens: answer.completionTokens, costUsd, latencyMs: answer.latencyMs, outcome: 'ok' });
          return { ...answer.analysis, engine: 'openai' };
        } catch (error) {
          const failure = llmErrorOf(error, timeoutMs);
          const costUsd = llmCostUsd(failure.usage.promptTokens, failure.usage.completionTokens, prices);
          await settleBudget(db, companyId, month, estimate, costUsd);
          await recordCall(db, {
            ...base,
            ...failure.usage,
            costUsd,
            latencyMs: performance.now() - started,
            outcome: 'fallback',
            error: failure.message,
          });
          return fallback(conversation, context);
        }
      },
    };
  };
}
