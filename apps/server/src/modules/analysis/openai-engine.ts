import {
  aiCategories,
  aiCategoryLabels,
  type ChatAnalysis,
  consultationMotiveLabels,
  consultationMotives,
  dissatisfactionOriginLabels,
  dissatisfactionOrigins,
  sentiments,
} from '@mostrador/contract';
import OpenAI from 'openai';
import { z } from 'zod';
import type { Conversation } from './types.js';
import { outboundFetch, refusalOf } from '../../integrations/outbound.js';

/**
 * The OpenAI-compatible engine (issue 14, decision 0046): one chat completion per conversation
 * against any endpoint that speaks OpenAI's chat completions (OpenAI, Azure's compatible
 * endpoint, OpenRouter, a local vLLM / Ollama / LM Studio), asked for structured output with a
 * JSON schema built from the zod schema below, and the answer validated by the same zod schema.
 * It never falls back by itself: it throws an `LlmCallError` saying what failed (and the tokens
 * a failed answer still cost), and the company's analyzer (modules/llm/analyzer.ts) lets the
 * embedded engine answer and writes the ledger.
 */

/** `ChatAnalysis` as zod: what the model must answer. The origin is null unless negative. */
export const chatAnalysisSchema = z
  .object({
    sentiment: z.enum(sentiments),
    motive: z.enum(consultationMotives),
    dissatisfactionOrigin: z.enum(dissatisfactionOrigins).nullable(),
    crossSellOffered: z.boolean(),
    crossSellTaken: z.boolean(),
    personalisedPromotion: z.boolean(),
    quality: z.int().min(1).max(5),
    category: z.enum(aiCategories),
  })
  .strict();

/** The JSON schema of the answer, for `response_format: { type: 'json_schema', strict: true }`. */
export const chatAnalysisJsonSchema: Record<string, unknown> = (() => {
  const { $schema: _drop, ...schema } = z.toJSONSchema(chatAnalysisSchema, { target: 'draft-7' }) as Record<string, unknown>;
  return schema;
})();

const list = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k} (${v})`)
    .join(', ');

export const SYSTEM_PROMPT = `Eres un analista de conversaciones de WhatsApp entre clientes y un negocio de Latinoamérica o España.
Lee la conversación (C: cliente, N: negocio) y responde solo con JSON según el esquema:
- sentiment: el sentimiento del cliente en la conversación: positive, neutral o negative.
- motive: por qué escribió el cliente: ${list(consultationMotiveLabels)}.
- dissatisfactionOrigin: solo si sentiment es negative, de dónde viene el descontento: ${list(dissatisfactionOriginLabels)}; si no, null.
- crossSellOffered: el negocio ofreció otro producto además del pedido. crossSellTaken: el cliente lo aceptó.
- personalisedPromotion: el negocio ofreció una promoción o descuento dirigido a este cliente.
- quality: calidad de la atención del negocio de 1 (mala) a 5 (excelente): rapidez, amabilidad, si resolvió.
- category: ${list(aiCategoryLabels)}.`;

/** The conversation as the prompt's text: one line per message, oldest first. */
export function conversationText(conversation: Conversation): string {
  return conversation.messages
    .filter((m) => m.text?.trim())
    .map((m) => `${m.direction === 'in' ? 'C' : 'N'}: ${(m.text ?? '').replace(/\s+/g, ' ').trim().slice(0, 1000)}`)
    .join('\n');
}

export interface OpenAiEngineConfig {
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Milliseconds before the call is given up (default 30 s). */
  timeoutMs?: number;
}

export type LlmFailure = 'http' | 'auth' | 'rate_limit' | 'timeout' | 'network' | 'invalid';

/** A failed call: what failed, in Spanish, and the tokens it still used (an answer that was not the schema). */
export class LlmCallError extends Error {
  constructor(
    readonly kind: LlmFailure,
    message: string,
    readonly usage: { promptTokens: number; completionTokens: number } = { promptTokens: 0, completionTokens: 0 },
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface OpenAiAnswer {
  analysis: ChatAnalysis;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
}

/** A rough count of a call's input tokens (4 characters a token), for the budget's estimate before the call. */
export const estimatePromptTokens = (conversation: Conversation) => Math.ceil((SYSTEM_PROMPT.length + conversationText(conversation).length) / 4) + 200;
/** The answer is a small JSON object. */
export const ESTIMATED_COMPLETION_TOKENS = 120;

/**
 * The client of a company's endpoint, over the outbound client (decision 0060): the base URL is a
 * tenant's, so every connection is judged on its resolved address and no redirect is followed
 * (OUTBOUND_ALLOW_PRIVATE_URLS=1 lets a model on the server's own network be reached).
 */
const clientFor = (config: OpenAiEngineConfig) => {
  const baseURL = config.baseUrl.replace(/\/+$/, '');
  return new OpenAI({ apiKey: config.apiKey, baseURL, timeout: config.timeoutMs ?? 30_000, maxRetries: 0, fetch: outboundFetch({ base: baseURL }) as never });
};

/** Says what an error of the openai client means, in Spanish, for the ledger and «Probar conexión». */
export function llmErrorOf(error: unknown, timeoutMs: number): LlmCallError {
  if (error instanceof LlmCallError) return error;
  const refusal = refusalOf(error);
  // the refusal kept as the cause: «Probar conexión» answers it as the 400 of the base URL
  if (refusal) return Object.assign(new LlmCallError('network', refusal.msg.replace('La URL apunta', 'La URL base apunta')), { cause: refusal });
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new LlmCallError('timeout', `Tiempo de espera agotado (${Math.round(timeoutMs / 1000)} s)`);
  if (error instanceof OpenAI.APIConnectionError) return new LlmCallError('network', 'No se pudo conectar con la URL base: revisa la dirección y que el servicio esté en línea');
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    if (status === 401 || status === 403) return new LlmCallError('auth', `La API key no es válida o no tiene permiso (${status})`, undefined, status);
    if (status === 404) return new LlmCallError('http', `El servicio respondió 404: revisa la URL base (suele terminar en /v1) y el nombre del modelo`, undefined, status);
    if (status === 429) return new LlmCallError('rate_limit', `El proveedor limitó las llamadas o la cuenta no tiene saldo (429)`, undefined, status);
    // the service's own text is not repeated (decision 0060): the status and what to check
    return new LlmCallError('http', `El servicio respondió ${status || 'con un error'}: revisa la URL base, el modelo y la API key`, undefined, status || undefined);
  }
  return new LlmCallError('network', error instanceof Error ? error.message.slice(0, 200) : 'Error desconocido');
}

/**
 * One call of a company's model that must answer a JSON object of `schema` (its JSON Schema sent as
 * the `response_format`): the object, the tokens and the latency; `LlmCallError` on any failure —
 * the call's, an empty or non-JSON answer, or one the schema refuses (`invalid`, with what is wrong).
 * The analysis and the reply assistant's draft both ask through here.
 */
export async function jsonCompletion<S extends z.ZodType>(
  config: OpenAiEngineConfig,
  request: { system: string; user: string; temperature: number; name: string; jsonSchema: Record<string, unknown>; schema: S; invalid?: string },
): Promise<{ data: z.output<S>; promptTokens: number; completionTokens: number; latencyMs: number }> {
  const timeoutMs = config.timeoutMs ?? 30_000;
  const started = performance.now();
  let completion: OpenAI.Chat.Completions.ChatCompletion;
  try {
    completion = await clientFor(config).chat.completions.create({
      model: config.model,
      temperature: request.temperature,
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.user },
      ],
      response_format: { type: 'json_schema', json_schema: { name: request.name, strict: true, schema: request.jsonSchema } },
    });
  } catch (error) {
    throw llmErrorOf(error, timeoutMs);
  }
  const latencyMs = Math.round(performance.now() - started);
  const usage = { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 };
  const content = completion.choices?.[0]?.message?.content;
  if (!content) throw new LlmCallError('invalid', 'La respuesta no trae contenido', usage);
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    throw new LlmCallError('invalid', 'La respuesta no es JSON válido', usage);
  }
  const parsed = request.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LlmCallError('invalid', request.invalid ?? `La respuesta no cumple el esquema (${issue?.path.join('.') || 'raíz'}: ${issue?.message ?? 'inválida'})`, usage);
  }
  return { data: parsed.data, ...usage, latencyMs };
}

/** Analyses one conversation with the model; throws `LlmCallError` on any failure. */
export async function analyzeWithOpenAi(config: OpenAiEngineConfig, conversation: Conversation): Promise<OpenAiAnswer> {
  const { data, ...usage } = await jsonCompletion(config, {
    system: SYSTEM_PROMPT,
    user: conversationText(conversation) || '(sin mensajes de texto)',
    temperature: 0,
    name: 'chat_analysis',
    jsonSchema: chatAnalysisJsonSchema,
    schema: chatAnalysisSchema,
  });
  const { dissatisfactionOrigin, quality, ...rest } = data;
  const analysis: ChatAnalysis = {
    ...rest,
    quality: quality as ChatAnalysis['quality'],
    ...(rest.sentiment === 'negative' && dissatisfactionOrigin ? { dissatisfactionOrigin } : {}),
  };
  return { analysis, ...usage };
}

/** «Probar conexión»: one small call with the same schema; what it answered, or what to fix. */
export async function testOpenAiConnection(config: OpenAiEngineConfig) {
  return analyzeWithOpenAi(config, { messages: [{ direction: 'in', text: 'hola, ¿cuánto cuesta el envío a Miraflores?' }] });
}
