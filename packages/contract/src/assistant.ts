import { z } from 'zod';

/**
 * «Sugerir respuesta» (issue 30, decision 0087): POST /chats/:id/messages/:messageId/suggestion
 * reads one inbound message, matches the products it mentions to the company's catalogue (name,
 * variant, size, colour, quantity; accent- and typo-tolerant) and drafts a reply the agent edits
 * and sends. Nothing is sent. Path parameters: `contactLeadParams` (id, messageId).
 */
export const suggestionEngines = ['embedded', 'llm'] as const;
export type SuggestionEngine = (typeof suggestionEngines)[number];

export const suggestedProduct = z.object({
  productId: z.string(),
  /** The variant's SKU when a variant was matched, else the product's. */
  sku: z.string(),
  name: z.string(),
  variant: z.object({ sku: z.string(), size: z.string().optional(), color: z.string().optional() }).optional(),
  price: z.number(),
  currency: z.string(),
  /** Units in stock (a product with variants and no variant asked: the sum of its variants). */
  stock: z.number().int(),
  /** In stock: offered. Out of stock: reported as such, never offered. */
  available: z.boolean(),
  /** How many the customer asked for («2 polos»), when they said. */
  quantity: z.number().int().positive().optional(),
  /** Sizes and colours in stock, when the customer did not say which (a product with variants). */
  options: z.object({ sizes: z.array(z.string()), colors: z.array(z.string()) }).optional(),
});
export type SuggestedProduct = z.infer<typeof suggestedProduct>;

export const replySuggestionOut = z.object({
  products: z.array(suggestedProduct),
  draft: z.string(),
  engine: z.enum(suggestionEngines),
  /** Why the company's model did not write the draft (its call failed, the budget, or the validator rejected it). */
  fallbackReason: z.string().optional(),
  /** The quick reply the draft used (its shortcut), when one fitted. */
  quickReply: z.string().optional(),
});
export type ReplySuggestionOut = z.infer<typeof replySuggestionOut>;
