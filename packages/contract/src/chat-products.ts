import { z } from 'zod';
import { zId } from './fields.js';

/**
 * Products sent in a conversation (issue 30 "Sell inside the chat", decision 0085): the
 * composer's «Productos» picker, the message that carries them and how the thread draws it.
 * Meta's limits: a WhatsApp product list holds at most 30 products in at most 10 sections; a
 * Messenger/Instagram generic template at most 10 cards.
 */
export const CHAT_PRODUCTS_MAX = 30;
export const WHATSAPP_PRODUCT_SECTIONS_MAX = 10;
export const MESSENGER_CARDS_MAX = 10;

export const chatProductMessages = {
  none: 'Elige al menos un producto',
  tooMany: `Puedes enviar hasta ${CHAT_PRODUCTS_MAX} productos por mensaje (el límite de WhatsApp)`,
  textTooLong: 'El texto admite hasta 1024 caracteres',
  notFound: 'Alguno de los productos no existe en tu empresa',
  windowClosed:
    'Pasaron más de 24 horas desde el último mensaje del cliente: los productos solo se envían dentro de la ventana de 24 horas. Envía una plantilla aprobada para retomar la conversación',
  noCatalog: 'La línea de WhatsApp no tiene un catálogo de Meta: agrégalo en Catálogo de Meta y sincroniza los productos',
  notAccepted: (names: string) => `Meta aún no aceptó en el catálogo de la línea: ${names}. Sincroniza el catálogo o revisa sus errores`,
  tooManyCards: `Messenger e Instagram muestran hasta ${MESSENGER_CARDS_MAX} productos por mensaje: elige 10 o menos`,
  both: 'Envía los productos en productIds o en items, no en los dos',
  notVariant: (sku: string, product: string) => `La variante ${sku} no es del producto «${product}»: elige una de sus variantes`,
  variantOutOfStock: (names: string) => `Sin stock: ${names}. Elige otra variante`,
} as const;

/** One product chosen to send, or one of its variants (by its SKU). */
export const chatProductChoice = z
  .object({
    productId: zId(),
    variantSku: z.string().trim().min(1, 'Escribe el SKU de la variante').max(60, 'El SKU admite hasta 60 caracteres').toUpperCase().optional(),
  })
  .strict();
export type ChatProductChoice = z.infer<typeof chatProductChoice>;

/**
 * POST /api/chats/{id}/products: the products as `productIds` (as issue 30 defined it), or as
 * `items` when a variant is chosen (decision 0091) — one of the two, 1 to 30 entries.
 */
export const chatProductsInput = z
  .object({
    productIds: z.array(zId(), { error: chatProductMessages.none }).min(1, chatProductMessages.none).max(CHAT_PRODUCTS_MAX, chatProductMessages.tooMany).optional(),
    items: z.array(chatProductChoice, { error: chatProductMessages.none }).min(1, chatProductMessages.none).max(CHAT_PRODUCTS_MAX, chatProductMessages.tooMany).optional(),
    text: z.string().trim().max(1024, chatProductMessages.textTooLong).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.productIds && v.items) ctx.addIssue({ code: 'custom', path: ['items'], message: chatProductMessages.both });
    else if (!v.productIds && !v.items) ctx.addIssue({ code: 'custom', path: ['productIds'], message: chatProductMessages.none });
  });
export type ChatProductsInput = z.infer<typeof chatProductsInput>;

/** One product as a message keeps it: what the thread draws even after the product changes. */
export const chatProductItem = z.object({
  id: z.string(),
  sku: z.string(),
  name: z.string(),
  price: z.number(),
  currency: z.string(),
  image: z.string().optional(),
  /** What the thread shows under the name: the variant chosen («Talla M · Rojo»), else «N variantes». */
  variant: z.string().optional(),
  /** A variant chosen (decision 0091): its SKU, size and colour; `price` is then the variant's. */
  variantSku: z.string().optional(),
  size: z.string().optional(),
  color: z.string().optional(),
  /** Units in stock when sent (the variant's when one was chosen). */
  stock: z.number().optional(),
  /** The product's description, short (Telegram's caption). */
  description: z.string().optional(),
  category: z.string().optional(),
  /** The product on the company's public catalogue. */
  link: z.string().optional(),
});
export type ChatProductItem = z.infer<typeof chatProductItem>;

/** The `content.products` of a product message: its products and, on WhatsApp, the Meta catalogue and list header. */
export const chatProductsContent = z.object({
  catalogId: z.string().optional(),
  header: z.string().optional(),
  items: z.array(chatProductItem),
});
export type ChatProductsContent = z.infer<typeof chatProductsContent>;

/** GET /api/chats/{id}/products: the company's products the picker offers. */
export const chatProductsQuery = z
  .object({
    q: z.string().trim().max(200).optional(),
    inStock: z
      .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'Debe ser true o false' })
      .transform((v) => v === true || v === 'true' || v === '1')
      .optional(),
  })
  .strict();
export const chatProductOption = z.object({
  id: z.string(),
  sku: z.string(),
  name: z.string(),
  price: z.number(),
  currency: z.string(),
  stock: z.number(),
  imageUrl: z.string().optional(),
  category: z.string().optional(),
  /** WhatsApp: Meta accepted it in the line's catalogue (only those can be sent there). */
  inCatalog: z.boolean(),
  /** Its sizes and colours, each with its own SKU, stock and price (decision 0091). */
  variants: z.array(z.object({ sku: z.string(), size: z.string().optional(), color: z.string().optional(), stock: z.number(), price: z.number() })).optional(),
});
export type ChatProductOption = z.infer<typeof chatProductOption>;
export const chatProductsOut = z.object({
  payload: z.array(chatProductOption),
  /** WhatsApp lines need the product in their Meta catalogue. */
  needsCatalog: z.boolean(),
  max: z.number(),
});
export type ChatProductsOut = z.infer<typeof chatProductsOut>;

/** "S/ 7.50" as the cards and texts show a price. */
export function productPrice(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('es-PE', { style: 'currency', currency: currency || 'PEN' }).format(amount);
  } catch {
    return `${currency} ${amount.toFixed(2)}`.trim();
  }
}

/** How a variant is named on cards and texts: «Talla M · Rojo». */
export function variantLabel(v: { size?: string | null; color?: string | null; sku?: string }): string {
  const parts = [v.size ? `Talla ${v.size}` : '', v.color ?? ''].filter(Boolean);
  return parts.length ? parts.join(' · ') : (v.sku ?? '');
}

/** The thread's one-line preview of a product message. */
export function productsPreview(p: ChatProductsContent): string {
  const [first] = p.items;
  if (!first) return '🛍️ Productos';
  // a variant chosen is named with its product (decision 0091)
  const named = (i: ChatProductItem) => (i.variantSku && i.variant ? `${i.name} (${i.variant})` : i.name);
  return p.items.length === 1 ? `🛍️ Producto: ${named(first)}` : `🛍️ ${p.items.length} productos: ${p.items.map(named).join(', ')}`;
}

/* ---- Meta catalogue sync (decision 0086) ---- */

export const metaCatalogInput = z
  .object({
    catalogId: z
      .string()
      .trim()
      .regex(/^\d{5,30}$/, 'El id del catálogo de Meta son solo números (Administrador de comercio → Configuración del catálogo)'),
  })
  .strict();
export const metaCatalogItemError = z.object({ productId: z.string().optional(), sku: z.string(), name: z.string().optional(), error: z.string() });
export const metaCatalogOut = z.object({
  /** The WhatsApp line's Meta commerce catalogue, when set. */
  catalogId: z.string().optional(),
  hasLine: z.boolean(),
  sync: z
    .object({
      status: z.enum(['idle', 'running', 'done', 'failed']),
      total: z.number(),
      processed: z.number(),
      sent: z.number(),
      failed: z.number(),
      message: z.string().optional(),
      startedAt: z.string().optional(),
      finishedAt: z.string().optional(),
    })
    .optional(),
  accepted: z.number(),
  errors: z.array(metaCatalogItemError),
});
export type MetaCatalogOut = z.infer<typeof metaCatalogOut>;
