import { z } from 'zod';
import { jsonCompletion, type OpenAiEngineConfig } from '../analysis/openai-engine.js';
import type { ProductMatch } from './matcher.js';

/**
 * The OpenAI-compatible engine's draft (decision 0087, the engine of decision 0046): one chat
 * completion asked for `{"draft": "…"}` from the customer's message, the matched products (the
 * only ones it may offer, with their prices and stock), the person's recent orders and the
 * company's notes (its quick replies). It throws `LlmCallError` on any failure; what it wrote is
 * then checked by the validator before anyone sees it.
 */
export const draftAnswerSchema = z.object({ draft: z.string().min(1).max(2000) }).strict();
const draftJsonSchema = { type: 'object', properties: { draft: { type: 'string' } }, required: ['draft'], additionalProperties: false };

export const DRAFT_PROMPT = `Eres un asistente de ventas de una tienda que atiende por WhatsApp en Perú.
Escribe un borrador breve y amable, en español, para responder al último mensaje del cliente. El agente lo revisará antes de enviarlo.
Reglas:
- Ofrece solo los productos de la lista PRODUCTOS, con su precio tal como aparece. No inventes productos, precios, tallas, colores ni stock.
- Un producto con available=false está agotado: dilo, sin ofrecerlo ni dar su precio.
- No escribas SKUs ni códigos internos.
- Si el cliente pregunta por pagos, envíos u horarios, usa las NOTAS DE LA EMPRESA.
- Responde solo con JSON: {"draft": "..."}.`;

export interface DraftContext {
  message: string;
  contactName?: string;
  products: ProductMatch[];
  orders: Array<{ code: string; status: string; total: number; currency: string; items: string[]; createdAt: string }>;
  notes: string[];
}

export function draftPrompt(ctx: DraftContext): string {
  const products = ctx.products.map((p) => ({
    name: p.name,
    ...(p.variant ? { size: p.variant.size, color: p.variant.color } : {}),
    price: p.price,
    currency: p.currency,
    stock: p.stock,
    available: p.available,
    ...(p.quantity ? { quantity: p.quantity } : {}),
    ...(p.options ? { inStock: p.options } : {}),
    ...(p.missing ? { notAvailableIn: p.missing } : {}),
  }));
  return [
    `CLIENTE: ${ctx.contactName || 'sin nombre'}`,
    `MENSAJE: ${ctx.message.slice(0, 2000)}`,
    `PRODUCTOS: ${JSON.stringify(products)}`,
    `PEDIDOS ANTERIORES: ${ctx.orders.length ? JSON.stringify(ctx.orders) : 'ninguno'}`,
    `NOTAS DE LA EMPRESA:\n${ctx.notes.map((n) => `- ${n.replace(/\s+/g, ' ').slice(0, 500)}`).join('\n') || '- (ninguna)'}`,
  ].join('\n');
}

export const estimateDraftPromptTokens = (ctx: DraftContext) => Math.ceil((DRAFT_PROMPT.length + draftPrompt(ctx).length) / 4) + 50;
export const ESTIMATED_DRAFT_COMPLETION_TOKENS = 250;

export async function draftWithOpenAi(config: OpenAiEngineConfig, ctx: DraftContext) {
  const { data, ...usage } = await jsonCompletion(config, {
    system: DRAFT_PROMPT,
    user: draftPrompt(ctx),
    temperature: 0.3,
    name: 'reply_draft',
    jsonSchema: draftJsonSchema,
    schema: draftAnswerSchema,
    invalid: 'La respuesta no trae un borrador («draft»)',
  });
  return { draft: data.draft.trim(), ...usage };
}
