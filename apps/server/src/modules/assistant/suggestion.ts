import { llmCostUsd, type ReplySuggestionOut } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Tenant } from '../../plugins/auth.js';
import { llmErrorOf } from '../analysis/openai-engine.js';
import { currencyOf } from '../../db/company-currency.js';
import { timezoneOf } from '../leads/summary.js';
import { llmSettingsOf, monthOf, recordCall, reserveBudget, settleBudget } from '../llm/ledger.js';
import { catalogueIndex } from './catalogue-index.js';
import { embeddedDraft, fittingQuickReplies, firstName, type QuickReply } from './draft.js';
import { type DraftContext, draftWithOpenAi, ESTIMATED_DRAFT_COMPLETION_TOKENS, estimateDraftPromptTokens } from './llm-draft.js';
import { matchIndex, type ProductMatch } from './matcher.js';
import { problemText, validateDraft } from './validator.js';

/**
 * «Sugerir respuesta» on one inbound message (decision 0087): its products matched in the
 * catalogue, the embedded draft always written, and — when the company turned on its
 * OpenAI-compatible model (as the analysis chooses, decision 0046) — the model's draft instead,
 * if the validator finds nothing invented in it. Every model call is a row of the LLM ledger
 * (feature `chat`): `ok` when its draft is shown; `fallback` with the reason when the call failed
 * or its draft named a SKU, price or stock the catalogue does not have; `budget` when the month's
 * budget was spent. Nothing is sent.
 */
export async function suggestReply(
  db: Db,
  secrets: Pick<SecretBox, 'open'>,
  tenant: Tenant,
  chatId: string,
  messageId: string,
  { timeoutMs = 20_000 }: { timeoutMs?: number } = {},
): Promise<ReplySuggestionOut> {
  const { companyId } = tenant;
  const [message] = await rowsOf<{ text: string | null; contact_name: string | null; lead_id: string | null; agent: string | null }>(
    db,
    sql`select m.text, c.contact_name, c.lead_id, (select u.first_name from users u where u.id = ${tenant.userId}) as agent
        from chat_messages m join chats c on c.id = m.chat_id and c.company_id = m.company_id
        where m.company_id = ${companyId} and m.chat_id = ${chatId} and m.id = ${messageId} and m.direction = 'in' and m.is_active`,
  );
  if (!message) throw new AppError('NOT_FOUND', 'El mensaje no existe en este chat o no es un mensaje del cliente');
  const text = message.text?.trim() ?? '';
  const [index, currency, replies] = await Promise.all([
    catalogueIndex(db, companyId),
    currencyOf(db, companyId),
    rowsOf<QuickReply>(db, sql`select atajo, texto from respuestas_rapidas where company_id = ${companyId} order by atajo`),
  ]);
  const products: ProductMatch[] = text ? matchIndex(index, text, currency) : [];
  const fitting = fittingQuickReplies(text, replies);
  const who = { nombre: firstName(message.contact_name), agente: message.agent?.split(/\s+/)[0] ?? '' };
  const embedded = embeddedDraft(products, fitting, who);
  const wire = products.map(({ missing: _missing, ...p }) => p);
  const base = { products: wire, ...(fitting[0] ? { quickReply: fitting[0].atajo } : {}) };

  const settings = await llmSettingsOf(db, companyId);
  if (!settings?.enabled || !settings.apiKey || !text) return { ...base, draft: embedded, engine: 'embedded' };

  const orders = message.lead_id
    ? await rowsOf<{ code: string; status: string; total: number; currency: string; items: Array<{ name: string; quantity: number }>; created_at: string }>(
        db,
        sql`select o.code, o.status, o.total, o.currency, o.items, o.created_at::text from orders o
            where o.company_id = ${companyId} and o.telefono = (select l.telefono from leads l where l.id = ${message.lead_id} and l.company_id = ${companyId})
            order by o.created_at desc limit 5`,
      )
    : [];
  const ctx: DraftContext = {
    message: text,
    contactName: message.contact_name ?? undefined,
    products,
    orders: orders.map((o) => ({
      code: o.code,
      status: o.status,
      total: Number(o.total),
      currency: o.currency,
      items: (o.items ?? []).map((i) => `${i.quantity} × ${i.name}`),
      createdAt: o.created_at,
    })),
    notes: replies.map((r) => r.texto),
  };
  const timezone = await timezoneOf(db, companyId);
  const month = monthOf(timezone);
  const prices = { input: settings.inputPriceUsd, output: settings.outputPriceUsd };
  const estimate = llmCostUsd(estimateDraftPromptTokens(ctx), ESTIMATED_DRAFT_COMPLETION_TOKENS, prices);
  const ledger = { companyId, name: `Sugerencia de respuesta a ${message.contact_name?.trim() || 'un cliente'}`, model: settings.model, feature: 'chat' as const, currency };
  const fallback = (fallbackReason: string): ReplySuggestionOut => ({ ...base, draft: embedded, engine: 'embedded', fallbackReason });
  if (!(await reserveBudget(db, companyId, month, settings.monthlyBudgetUsd, estimate))) {
    const reason = 'Se alcanzó el presupuesto mensual del modelo: se muestra el borrador del motor integrado';
    await recordCall(db, { ...ledger, promptTokens: 0, completionTokens: 0, costUsd: 0, latencyMs: 0, outcome: 'budget', error: reason });
    return fallback(reason);
  }
  const started = performance.now();
  try {
    const answer = await draftWithOpenAi({ baseUrl: settings.baseUrl, model: settings.model, apiKey: secrets.open<string>(settings.apiKey), timeoutMs }, ctx);
    const costUsd = llmCostUsd(answer.promptTokens, answer.completionTokens, prices);
    await settleBudget(db, companyId, month, estimate, costUsd);
    const problems = validateDraft(answer.draft, { index, products, quickReplyTexts: replies.map((r) => r.texto) });
    const call = { ...ledger, promptTokens: answer.promptTokens, completionTokens: answer.completionTokens, costUsd, latencyMs: answer.latencyMs };
    if (problems.length) {
      const reason = problemText(problems);
      await recordCall(db, { ...call, outcome: 'fallback', error: reason });
      return fallback(reason);
    }
    await recordCall(db, { ...call, outcome: 'ok' });
    return { ...base, draft: answer.draft, engine: 'llm' };
  } catch (error) {
    const failure = llmErrorOf(error, timeoutMs);
    const costUsd = llmCostUsd(failure.usage.promptTokens, failure.usage.completionTokens, prices);
    await settleBudget(db, companyId, month, estimate, costUsd);
    await recordCall(db, { ...ledger, ...failure.usage, costUsd, latencyMs: performance.now() - started, outcome: 'fallback', error: failure.message });
    return fallback(`El modelo no respondió (${failure.message}): se muestra el borrador del motor integrado`);
  }
}

/**
 * The reply an automation rule may send by itself («Responder con productos del catálogo»,
 * decision 0087): the embedded engine's draft of a customer's words — the matched products with
 * their real price and stock, the quick reply that fits — never the model's (a model's draft waits
 * for a person). Undefined when no product of the catalogue is in the words, or none is in stock.
 */
export async function autoReply(db: Db, companyId: string, text: string, contactName: string | null): Promise<{ draft: string; products: ProductMatch[] } | undefined> {
  const words = text.trim();
  if (!words) return undefined;
  const [index, currency, replies] = await Promise.all([
    catalogueIndex(db, companyId),
    currencyOf(db, companyId),
    rowsOf<QuickReply>(db, sql`select atajo, texto from respuestas_rapidas where company_id = ${companyId} order by atajo`),
  ]);
  const products = matchIndex(index, words, currency);
  if (!products.some((p) => p.available)) return undefined;
  return { draft: embeddedDraft(products, fittingQuickReplies(words, replies), { nombre: firstName(contactName), agente: '' }), products };
}
