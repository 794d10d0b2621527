import { z } from 'zod';
import { zIdsText } from './define-resource.js';
import { formMessages } from './messages-es.js';
import { zEmail, zOptionalText, zText } from './fields.js';
import { MAX_LINE_QUANTITY, orderStatuses } from './order-labels.js';
import { orderItem, orderShippment } from './resources/orders.js';

/**
 * The orders module (SPEC §7 Orders, §3 Order placement) and the public digital catalogue
 * (/catalogo-digital): the calls beyond the standard list and get of `orders`. Decisions 0031
 * (public catalogue, company by catalogue id) and 0032 (placement, statuses, idempotency).
 */


/**
 * POST /orders/place (public, with an Idempotency-Key header): what the browser sends. Only
 * what the customer chose: products, variants and quantities; prices, names and stock are the
 * server's (never trusted from the browser). The company is the catalogue's.
 */
/** The lines a client asks for: products, their variants and quantities (prices and stock are the server's). */
const orderLines = z
    .array(
      z.object({
        productId: z.uuid({ error: 'El producto no es válido' }),
        /** The variant's SKU, for a product sold in variants. */
        variantSku: z.string().trim().max(60, formMessages.tooLong).optional(),
        quantity: z
          .int({ error: 'La cantidad debe ser un número entero' })
          .min(1, 'La cantidad debe ser al menos 1')
          .max(MAX_LINE_QUANTITY, `La cantidad no puede pasar de ${MAX_LINE_QUANTITY}`),
      }),
      { error: 'El carrito no es válido' },
    )
    .min(1, 'El carrito está vacío')
    .max(100, 'Demasiados productos en un pedido');

/** A delivery needs its address and city; a pickup, nothing more. */
const deliveryNeedsAddress = (s: z.infer<typeof orderShippment>, ctx: z.RefinementCtx) => {
  if (s.method !== 'delivery') return;
  if (!s.address) ctx.addIssue({ code: 'custom', path: ['address'], message: formMessages.required });
  if (!s.city) ctx.addIssue({ code: 'custom', path: ['city'], message: formMessages.required });
};

export const orderPlaceInput = z.object({
  catalog: z.uuid({ error: 'El catálogo no es válido' }),
  items: orderLines,
  customer: z.object(
    {
      name: zText(120),
      /** As the customer typed it; normalised with the company's country (SPEC §5). */
      telefono: z.string({ error: formMessages.required }).trim().min(1, formMessages.required).max(30, 'Escribe un teléfono válido'),
      email: z.union([z.literal(''), zEmail()]).optional(),
      document: zOptionalText(20).optional(),
    },
    { error: formMessages.required },
  ),
  shippment: orderShippment.superRefine(deliveryNeedsAddress),
});
export type OrderPlaceInput = z.input<typeof orderPlaceInput>;

/**
 * POST /chats/{id}/orders (issue 30, decision 0088): an order an agent builds for the person of a
 * chat — lines from the company's products (any of them, not one catalogue's), the customer's
 * data prefilled from the person (GET /chats/{id}/order-draft) and editable, and, when it confirms a
 * WhatsApp cart, the cart's message (an order per cart, once).
 */
export const chatOrderInput = z
  .object({
    items: orderLines,
    customer: z
      .object({
        name: zText(120),
        /** As the agent typed it; normalised with the company's country. */
        telefono: z.string({ error: formMessages.required }).trim().min(1, 'Escribe el teléfono del cliente').max(30, 'Escribe un teléfono válido'),
        email: z.union([z.literal(''), zEmail()]).optional(),
        document: zOptionalText(20).optional(),
      })
      .strict(),
    shippment: orderShippment.superRefine(deliveryNeedsAddress).optional(),
    /** The WhatsApp cart (an inbound `order` message of this chat) this order confirms. */
    cartMessageId: z.uuid({ error: 'El carrito no es válido' }).optional(),
  })
  .strict();
export type ChatOrderInput = z.input<typeof chatOrderInput>;

/** A line of the chat's latest WhatsApp cart, matched to the company's products by SKU. */
export const cartLineOut = z.object({
  sku: z.string(),
  quantity: z.number().int(),
  /** Matched: the product (and variant) it is, at the company's price, and what is left. */
  productId: z.string().optional(),
  variantSku: z.string().optional(),
  name: z.string().optional(),
  unitPrice: z.number().optional(),
  stock: z.number().optional(),
});

export type CartLine = z.infer<typeof cartLineOut>;

/** GET /chats/{id}/order-draft: what «Crear pedido» starts from. */
export const chatOrderDraftOut = z.object({
  customer: z.object({ name: z.string(), telefono: z.string().optional(), email: z.string().optional() }),
  /** The person's last delivery, to reuse. */
  shippment: orderShippment.optional(),
  currency: z.string(),
  /** The chat's latest WhatsApp cart not yet confirmed as an order. */
  cart: z.object({ messageId: z.string(), receivedAt: z.string(), text: z.string().optional(), lines: z.array(cartLineOut) }).optional(),
});
export type ChatOrderDraft = z.infer<typeof chatOrderDraftOut>;

/** What POST /chats/{id}/orders answers: the order, to open or to send. */
export const chatOrderOut = z.object({ _id: z.string(), code: z.string(), total: z.number(), currency: z.string(), status: z.enum(orderStatuses) });
export type ChatOrderOut = z.infer<typeof chatOrderOut>;

/** An order as its customer sees it on /ordenes/{token} (and in the placement's answer). */
export const publicOrder = z.object({
  code: z.string(),
  status: z.enum(orderStatuses),
  statusLabel: z.string(),
  company: z.string(),
  catalogId: z.string().optional(),
  customerName: z.string(),
  shippment: orderShippment.optional(),
  items: z.array(orderItem),
  subtotal: z.number(),
  shippingCost: z.number().optional(),
  total: z.number(),
  currency: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicOrder = z.infer<typeof publicOrder>;

/** The answer to a placement: the order, and the customer's own link to it (its token). */
export const orderPlaceOut = z.object({ _id: z.string(), token: z.string(), order: publicOrder });
export type OrderPlaceOut = z.infer<typeof orderPlaceOut>;

export const orderTokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'El enlace del pedido no es válido') });

/** POST /orders/{id}/status: moves an order (decision 0032's transitions). */
export const orderStatusInput = z.object({ status: z.enum(orderStatuses, { error: 'Elige un estado válido' }) });

/** GET /orders/all: every order of the filter (at most ORDERS_ALL_MAX). */
export const ORDERS_ALL_MAX = 5000;


/** The public catalogue (GET /catalogo-digital/{id}, or ?company= for its default). */
export const publicCatalogOut = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  company: z.object({ name: z.string(), country: z.string(), currency: z.string() }),
  categories: z.array(z.object({ _id: z.string(), name: z.string() })),
  brands: z.array(z.object({ _id: z.string(), name: z.string() })),
  productCount: z.number(),
});
export type PublicCatalog = z.infer<typeof publicCatalogOut>;

export const publicCatalogQuery = z.object({ company: z.uuid({ error: 'La compañía no es válida' }).optional() }).strict();

/** A product as the shop shows it: no cost, no stock figures beyond what a customer may buy. */
export const publicVariant = z.object({
  sku: z.string(),
  size: z.string().optional(),
  color: z.object({ name: z.string(), hex: z.string() }).optional(),
  price: z.number(),
  /** Units a customer may buy now (0: agotado). */
  available: z.number(),
});
export const publicProduct = z.object({
  _id: z.string(),
  name: z.string(),
  sku: z.string(),
  price: z.number(),
  available: z.number(),
  description: z.string().optional(),
  imageUrl: z.string().optional(),
  brand: z.string().optional(),
  brandId: z.string().optional(),
  category: z.string().optional(),
  categoryId: z.string().optional(),
  color: z.object({ name: z.string(), hex: z.string() }).optional(),
  variants: z.array(publicVariant).optional(),
});
export type PublicProduct = z.infer<typeof publicProduct>;

export const publicProductsQuery = z
  .object({
    page: z.coerce.number({ error: 'La página debe ser un número' }).int('La página debe ser un número entero').min(1).max(10_000).default(1),
    limit: z.coerce.number({ error: 'El límite debe ser un número' }).int().min(1).max(60).default(24),
    filter: z.string().trim().max(100, formMessages.tooLong).optional(),
    categoryId: zIdsText('La categoría no es válida').optional(),
    brandId: zIdsText('La marca no es válida').optional(),
  })
  .strict();
export const publicProductsOut = z.object({
  payload: z.array(publicProduct),
  totalDocs: z.number(),
  totalPages: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type PublicProductsPage = z.infer<typeof publicProductsOut>;
