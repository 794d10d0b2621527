import { createHash, randomBytes } from 'node:crypto';
import {
  type ChatOrderDraft,
  type CartLine,
  type ChatOrderOut,
  type chatOrderInput,
  companyCurrency,
  type CountryCode,
  currencyOfCountry,
  MAX_LINE_QUANTITY,
  type OrderSource,
  normalisePhone,
  type OrderItem,
  type OrderPlaceOut,
  type orderPlaceInput,
  type OrderStatus,
  orderStatusLabels,
  orderTransitions,
  type ProductVariant,
  type PublicOrder,
  shippingMethodLabels,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { InboundMessage } from '../../integrations/meta/events.js';
import { createInbound } from '../conversations/inbound.js';

type Row = Record<string, unknown>;
type PlaceInput = z.output<typeof orderPlaceInput>;
type ChatOrderIn = z.output<typeof chatOrderInput>;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A short reference the customer says aloud: P- and six letters or digits without look-alikes. */
function orderCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(6);
  return `P-${[...bytes].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

/** The same payload, whatever the order of its keys: what a replay is compared by. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Row)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Row)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** What the audit log keeps of an order it records created (decision 0072): who ordered what, not the lines. */
const auditedOrder = (o: { code: string; status: string; source: string; catalogId?: string | null; customerName: string; total: number; currency: string }) => ({
  code: o.code,
  status: o.status,
  source: o.source,
  catalogId: o.catalogId ?? null,
  customerName: o.customerName,
  total: o.total,
  currency: o.currency,
});

export interface OrderRow {
  id: string;
  company_id: string;
  code: string;
  status: OrderStatus;
  catalog_id: string | null;
  customer_name: string;
  telefono: string;
  shippment: PublicOrder['shippment'] | null;
  items: OrderItem[];
  subtotal: number;
  shipping_cost: number | null;
  total: number;
  currency: string;
  lead_id: string | null;
  chat_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function publicOrderOf(row: OrderRow, company: string): PublicOrder {
  return {
    code: row.code,
    status: row.status,
    statusLabel: orderStatusLabels[row.status],
    company,
    ...(row.catalog_id ? { catalogId: row.catalog_id } : {}),
    customerName: row.customer_name,
    ...(row.shippment ? { shippment: row.shippment } : {}),
    items: row.items,
    subtotal: Number(row.subtotal),
    ...(row.shipping_cost !== null && row.shipping_cost !== undefined ? { shippingCost: Number(row.shipping_cost) } : {}),
    total: Number(row.total),
    currency: row.currency,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** Money as a Spanish reader expects it in the chat summary (S/ 23.50, $ 4.990, 12,00 €). */
export function moneyText(amount: number, currency: string): string {
  const locale = { PEN: 'es-PE', CLP: 'es-CL', COP: 'es-CO', EUR: 'es-ES' }[currency] ?? 'es-PE';
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
}

/** The order as a readable message in the customer's chat (the agent sees it in /chat). */
export function orderSummary(o: { code: string; items: OrderItem[]; total: number; currency: string; shippment?: PublicOrder['shippment'] | null; source: OrderSource; notes?: string[] }): string {
  const lines = o.items.map((i) => {
    const variant = [i.size, i.color].filter(Boolean).join(' · ');
    return `• ${i.quantity} × ${i.name}${variant ? ` (${variant})` : ''} — ${moneyText(i.total, o.currency)}`;
  });
  const ship = o.shippment
    ? o.shippment.method === 'delivery'
      ? `${shippingMethodLabels.delivery}: ${[o.shippment.address, o.shippment.city].filter(Boolean).join(', ')}${o.shippment.reference ? ` (${o.shippment.reference})` : ''}`
      : shippingMethodLabels.pickup
    : undefined;
  return [
    o.source === 'chat' ? `🛒 Pedido ${o.code} creado en el chat` : `🛒 Nuevo pedido ${o.code} desde ${o.source === 'whatsapp' ? 'el catálogo de WhatsApp' : 'el catálogo digital'}`,
    ...lines,
    `Total: ${moneyText(o.total, o.currency)}`,
    ...(ship ? [ship] : []),
    ...(o.shippment?.notes ? [`Nota: ${o.shippment.notes}`] : []),
    ...(o.notes ?? []),
  ]
    .join('\n')
    .slice(0, 4000);
}

interface ProductRow {
  id: string;
  name: string;
  sku: string;
  price: number;
  stock: number;
  image_url: string | null;
  variants: ProductVariant[] | null;
}

/** Locks the products (in id order, so two orders never wait on each other crosswise) and reads them. */
async function lockProducts(tx: Db, companyId: string, ids: string[]): Promise<Map<string, ProductRow>> {
  if (ids.length === 0) return new Map();
  const rows = await rowsOf<ProductRow & Row>(
    tx,
    sql`select id, name, sku, price, stock, image_url, variants from products
        where company_id = ${companyId} and id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) order by id for update`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Colour names of a company, for variant lines. */
async function colorNames(tx: Db, companyId: string): Promise<Map<string, string>> {
  const rows = await rowsOf<{ id: string; name: string }>(tx, sql`select id, name from colors where company_id = ${companyId}`);
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Stock of a product after taking `taken` units of each variant SKU ('' = the product itself). */
async function writeStock(tx: Db, companyId: string, p: ProductRow, taken: Map<string, number>) {
  const own = taken.get('') ?? 0;
  const variants = p.variants?.map((v) => ({ ...v, stock: v.stock - (taken.get(v.sku) ?? 0) }));
  await tx.execute(sql`update products set stock = stock - ${own},
      variants = ${variants ? JSON.stringify(variants) : null}::jsonb, updated_at = now()
    where company_id = ${companyId} and id = ${p.id}`);
}

/** A line as a client asks for it: a product, its variant when it has them, how many. */
export interface LineRequest {
  productId: string;
  variantSku?: string;
  quantity: number;
}

/**
 * The lines of a new order at the company's prices, under the products' row locks (id order), and
 * their units taken from stock: every line must fit what is left, re-read under the lock (never the
 * browser's word). `inCatalog`: the public catalogue's products, when the order comes from one.
 * Throws VALIDATION (a product or variant that is not there) or CONFLICT (not enough stock), with a
 * detail per line (`items.N.…`), before anything is written.
 */
export async function takeLines(tx: Db, companyId: string, items: LineRequest[], inCatalog?: Set<string>): Promise<OrderItem[]> {
  const details: Array<{ path: string; msg: string }> = [];
  if (inCatalog) {
    items.forEach((item, i) => {
      if (!inCatalog.has(item.productId)) details.push({ path: `items.${i}.productId`, msg: 'Este producto ya no está en el catálogo' });
    });
  }
  const ids = [...new Set(items.map((i) => i.productId))].sort();
  const products = await lockProducts(tx, companyId, ids);
  const colors = await colorNames(tx, companyId);
  const taken = new Map<string, Map<string, number>>();
  const lines: OrderItem[] = [];
  items.forEach((item, i) => {
    const p = products.get(item.productId);
    if (!p) {
      if (!inCatalog || inCatalog.has(item.productId)) details.push({ path: `items.${i}.productId`, msg: 'Este producto ya no existe' });
      return;
    }
    const variants = p.variants ?? [];
    let variant: ProductVariant | undefined;
    if (variants.length > 0) {
      variant = variants.find((v) => v.sku === item.variantSku?.toUpperCase());
      if (!variant) {
        details.push({ path: `items.${i}.variantSku`, msg: item.variantSku ? 'Esa talla o color ya no existe' : 'Elige una talla o color' });
        return;
      }
    } else if (item.variantSku) {
      details.push({ path: `items.${i}.variantSku`, msg: 'Este producto no tiene tallas ni colores' });
      return;
    }
    const unitPrice = Number(variant?.price ?? p.price);
    lines.push({
      productId: p.id,
      sku: variant?.sku ?? p.sku,
      name: p.name,
      ...(variant?.size ? { size: variant.size } : {}),
      ...(variant?.colorId && colors.get(variant.colorId) ? { color: colors.get(variant.colorId) } : {}),
      ...(p.image_url ? { imageUrl: p.image_url } : {}),
      quantity: item.quantity,
      unitPrice,
      total: round2(unitPrice * item.quantity),
    });
    const per = taken.get(p.id) ?? new Map<string, number>();
    per.set(variant?.sku ?? '', (per.get(variant?.sku ?? '') ?? 0) + item.quantity);
    taken.set(p.id, per);
  });
  if (details.length) throw new AppError('VALIDATION', details[0].msg, details);

  const short: Array<{ path: string; msg: string }> = [];
  items.forEach((item, i) => {
    const p = products.get(item.productId) as ProductRow;
    const sku = (p.variants?.length ? item.variantSku?.toUpperCase() : '') ?? '';
    const left = sku ? (p.variants?.find((v) => v.sku === sku)?.stock ?? 0) : Number(p.stock);
    const wanted = taken.get(p.id)?.get(sku) ?? 0;
    if (wanted > left) short.push({ path: `items.${i}.quantity`, msg: left > 0 ? `Solo quedan ${left} unidades de ${p.name}` : `${p.name} está agotado` });
  });
  if (short.length) throw new AppError('CONFLICT', short[0].msg, short);
  for (const [id, per] of taken) await writeStock(tx, companyId, products.get(id) as ProductRow, per);
  return lines;
}

/** A chat of the company with what an order of its person needs, or a 404. */
async function chatOf(db: Db, companyId: string, chatId: string) {
  const [chat] = await rowsOf<{ lead_id: string | null; name: string; telefono: string | null; email: string | null; country: CountryCode; currency: string }>(
    db,
    sql`select c.lead_id, coalesce(nullif(p.name, ''), nullif(l.name, ''), c.contact_name, '') as name,
               coalesce(p.telefono, l.telefono, (select i.platform_user_id from lead_identities i
                 where i.company_id = c.company_id and i.chat_id = c.id and i.platform = 'whatsapp' limit 1)) as telefono,
               coalesce(p.email, l.email) as email, co.country,
               coalesce(co.settings->>'currency', '') as currency
        from chats c join companies co on co.id = c.company_id
        left join leads l on l.company_id = c.company_id and l.id = c.lead_id
        left join clean_leads p on p.company_id = c.company_id and p.id = l.clean_lead_id
        where c.company_id = ${companyId} and c.id = ${chatId}`,
  );
  if (!chat) throw new AppError('NOT_FOUND', 'No encontramos ese chat');
  return { ...chat, currency: companyCurrency(chat.currency || null, chat.country) };
}

/** A cart's lines matched to the company's products and variants by SKU, at the company's price, with what is left. */
async function cartLines(db: Db, companyId: string, items: Array<{ productRetailerId: string; quantity: number }>): Promise<CartLine[]> {
  const skus = [...new Set(items.map((i) => i.productRetailerId.trim().toUpperCase()))];
  const products = skus.length
    ? await rowsOf<ProductRow & Row>(
        db,
        sql`select id, name, sku, price, stock, image_url, variants from products where company_id = ${companyId} and (sku in (${sql.join(
          skus.map((x) => sql`${x}`),
          sql`, `,
        )}) or exists (select 1 from jsonb_array_elements(coalesce(variants, '[]'::jsonb)) v where v->>'sku' in (${sql.join(
          skus.map((x) => sql`${x}`),
          sql`, `,
        )})))`,
      )
    : [];
  return items.map((item) => {
    const sku = item.productRetailerId.trim().toUpperCase();
    const quantity = Math.min(MAX_LINE_QUANTITY, Math.max(1, Math.floor(item.quantity)));
    for (const p of products) {
      const v = p.variants?.find((x) => x.sku === sku);
      if (v) return { sku, quantity, productId: p.id, variantSku: v.sku, name: p.name, unitPrice: Number(v.price ?? p.price), stock: Number(v.stock) };
      if (p.sku === sku && !p.variants?.length) return { sku, quantity, productId: p.id, name: p.name, unitPrice: Number(p.price), stock: Number(p.stock) };
    }
    return { sku, quantity };
  });
}

/** A WhatsApp cart as Mostrador's note in the thread: what the customer put in it, what is short. */
function cartSummary(o: { items: OrderItem[]; total: number; currency: string; notes: string[] }): string {
  return [
    '🛒 Carrito desde el catálogo de WhatsApp',
    ...o.items.map((i) => `• ${i.quantity} × ${i.name} — ${moneyText(i.total, o.currency)}`),
    `Total: ${moneyText(o.total, o.currency)}`,
    ...o.notes,
    'Confírmalo con «Crear pedido» en el chat.',
  ]
    .join('\n')
    .slice(0, 4000);
}

/**
 * The answer an Idempotency-Key already got (sealed in `order_requests`), or undefined for a new
 * key; the same key with another body is a 409. Both ways of placing an order answer replays so.
 */
async function replayOf<T>(tx: Db, secrets: Pick<SecretBox, 'open'>, companyId: string, key: string, hash: string): Promise<T | undefined> {
  const [known] = await rowsOf<{ request_hash: string; response: string }>(tx, sql`select request_hash, response from order_requests where company_id = ${companyId} and key = ${key}`);
  if (!known) return undefined;
  if (known.request_hash !== hash) {
    throw new AppError('CONFLICT', 'Esta clave de idempotencia ya se usó con otro pedido', [{ path: 'Idempotency-Key', msg: 'Ya se usó con otro pedido' }]);
  }
  return secrets.open<T>(known.response);
}

/** The order's customer as kept: the name, the normalised phone, and the e-mail and document when given. */
const customerOf = (c: { name: string; email?: string; document?: string }, telefono: string) => ({
  name: c.name,
  telefono,
  ...(c.email ? { email: c.email } : {}),
  ...(c.document ? { document: c.document } : {}),
});

export interface PlaceContext {
  key: string;
}

/** ORDER_RATE_LIMIT counts the placements of one client address over this window (the route's rateLimit). */
export const ORDER_RATE_WINDOW_MINUTES = 10;

export function createOrders(secrets: Pick<SecretBox, 'seal' | 'open'>) {
  const inbound = createInbound(secrets);

  /**
   * Opens or updates the customer's lead, clean lead and WhatsApp chat (by the normalised phone)
   * and writes the order's summary in the thread as Mostrador's own note (kind system, it does
   * not open WhatsApp's 24-hour window), through the same path as an inbound message. The public
   * catalogue asks no one to prove the phone is theirs, so the note is marked `unverified`: the
   * thread says it came from the public catalogue with an unverified phone (decision 0061).
   */
  async function noteInChat(tx: Db, companyId: string, country: CountryCode, orderId: string, telefono: string, name: string, text: string) {
    const m: InboundMessage = {
      from: telefono,
      phone: telefono,
      name,
      messageId: `mostrador-order:${orderId}`,
      timestamp: new Date().toISOString(),
      kind: 'system',
      text,
      content: { system: { type: 'order', body: text, unverified: true } },
      internal: true,
    };
    await inbound.message(tx, companyId, country, 'whatsapp', m);
    const [identity] = await rowsOf<{ lead_id: string; chat_id: string | null }>(
      tx,
      sql`select lead_id, chat_id from lead_identities where company_id = ${companyId} and platform = 'whatsapp' and platform_user_id = ${telefono}`,
    );
    if (identity) {
      await tx.execute(sql`update orders set lead_id = ${identity.lead_id}, chat_id = ${identity.chat_id} where company_id = ${companyId} and id = ${orderId}`);
    }
  }

  return {
    /**
     * POST /orders/place: the catalogue names the company; products, variants, prices and stock
     * are read and locked here, the stock taken and the order written in one transaction, under
     * the Idempotency-Key (decision 0032). Answers the order, whether it was new, and the chat
     * effects to publish once committed.
     */
    async place(db: Db, raw: PlaceInput, ctx: PlaceContext): Promise<{ out: OrderPlaceOut; companyId: string; created: boolean }> {
      const input = raw;
      const [catalog] = await rowsOf<{ id: string; company_id: string; product_ids: string[] | null; country: CountryCode; company: string }>(
        db,
        sql`select k.id, k.company_id, k.product_ids, co.country, co.name as company
            from catalogs k join companies co on co.id = k.company_id where k.id = ${input.catalog}`,
      );
      if (!catalog) throw new AppError('NOT_FOUND', 'El catálogo no existe o ya no está publicado');
      const companyId = catalog.company_id;
      const telefono = normalisePhone(input.customer.telefono, catalog.country);
      if (!telefono) {
        throw new AppError('VALIDATION', 'Teléfono: escribe un teléfono válido', [{ path: 'customer.telefono', msg: 'Escribe un teléfono válido' }]);
      }
      const hash = sha256(canonical(input));
      const replay = (tx: Db) => replayOf<OrderPlaceOut>(tx, secrets, companyId, ctx.key, hash);
      // a replay answers before anything else (the per-address limit, plugins/rate-limit.ts, counted it as a request)
      const early = await replay(db);
      if (early) return { out: early, companyId, created: false };

      return db.transaction(async (tx) => {
        // one placement per key at a time: the others wait here, then replay its answer
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`order-key:${companyId}:${ctx.key}`}, 0))`);
        const again = await replay(tx);
        if (again) return { out: again, companyId, created: false };

        const lines = await takeLines(tx, companyId, input.items, new Set(catalog.product_ids ?? []));

        const subtotal = round2(lines.reduce((n, l) => n + l.total, 0));
        const currency = currencyOfCountry[catalog.country];
        const customer = customerOf(input.customer, telefono);
        const code = orderCode();
        const [order] = await rowsOf<OrderRow & Row>(
          tx,
          sql`insert into orders (company_id, code, status, source, catalog_id, customer_name, telefono, customer, shippment, items, subtotal, total, currency)
              values (${companyId}, ${code}, 'created', 'catalogo', ${catalog.id}, ${customer.name}, ${telefono}, ${JSON.stringify(customer)}::jsonb,
                      ${JSON.stringify(input.shippment)}::jsonb, ${JSON.stringify(lines)}::jsonb, ${subtotal}, ${subtotal}, ${currency})
              returning *`,
        );
        await noteInChat(
          tx,
          companyId,
          catalog.country,
          order.id,
          telefono,
          customer.name,
          orderSummary({ code, items: lines, total: subtotal, currency, shippment: input.shippment, source: 'catalogo' }),
        );
        const token = randomBytes(24).toString('base64url');
        await tx.execute(sql`insert into order_links (token_hash, company_id, order_id) values (${sha256(token)}, ${companyId}, ${order.id})`);
        const out: OrderPlaceOut = { _id: order.id, token, order: publicOrderOf(order, catalog.company) };
        await tx.execute(sql`insert into order_requests (company_id, key, request_hash, order_id, response)
            values (${companyId}, ${ctx.key}, ${hash}, ${order.id}, ${secrets.seal(out)})`);
        // the public catalogue signs nobody in: the system placed it, in the order's transaction (decision 0072)
        await audit(tx, {
          companyId,
          action: 'create',
          entity: 'orders',
          entityId: order.id,
          actor: { type: 'system' },
          changes: changesOf(null, auditedOrder({ code, status: 'created', source: 'catalogo', catalogId: catalog.id, customerName: customer.name, total: subtotal, currency })),
        });
        return { out, companyId, created: true };
      });
    },

    /** GET /orders/public/:token: the customer's own order page. */
    async byToken(db: Db, token: string): Promise<PublicOrder> {
      const [row] = await rowsOf<OrderRow & Row & { company: string }>(
        db,
        sql`select o.*, co.name as company from order_links l join orders o on o.id = l.order_id and o.company_id = l.company_id
            join companies co on co.id = o.company_id where l.token_hash = ${sha256(token)}`,
      );
      if (!row) throw new AppError('NOT_FOUND', 'No encontramos ese pedido: revisa el enlace');
      return publicOrderOf(row, row.company);
    },

    /** POST /orders/:id/status: one of decision 0032's moves; cancelling gives the stock back. */
    async move(db: Db, companyId: string, id: string, to: OrderStatus): Promise<OrderRow> {
      return db.transaction(async (tx) => {
        const [order] = await rowsOf<OrderRow & Row>(tx, sql`select * from orders where company_id = ${companyId} and id = ${id} for update`);
        if (!order) throw new AppError('NOT_FOUND');
        if (order.status === to) return order;
        if (!orderTransitions[order.status].includes(to)) {
          throw new AppError('VALIDATION', `Una orden ${orderStatusLabels[order.status].toLowerCase()} no puede pasar a ${orderStatusLabels[to].toLowerCase()}`, [
            { path: 'status', msg: 'Cambio de estado no permitido' },
          ]);
        }
        if (to === 'cancelled') {
          const ids = [...new Set(order.items.map((i) => i.productId).filter((x): x is string => Boolean(x)))].sort();
          const products = await lockProducts(tx, companyId, ids);
          const back = new Map<string, Map<string, number>>();
          for (const item of order.items) {
            const p = item.productId ? products.get(item.productId) : undefined;
            if (!p) continue;
            const sku = p.variants?.some((v) => v.sku === item.sku) ? item.sku : '';
            const per = back.get(p.id) ?? new Map<string, number>();
            // given back: a negative take
            per.set(sku, (per.get(sku) ?? 0) - item.quantity);
            back.set(p.id, per);
          }
          for (const [pid, per] of back) await writeStock(tx, companyId, products.get(pid) as ProductRow, per);
        }
        const [moved] = await rowsOf<OrderRow & Row>(
          tx,
          sql`update orders set status = ${to}, updated_at = now() where company_id = ${companyId} and id = ${id} returning *`,
        );
        await audit(tx, { companyId, action: 'update', entity: 'orders', entityId: id, changes: { status: { from: order.status, to } } });
        return moved;
      });
    },

    /**
     * A WhatsApp cart (the Cloud API's `order` message, decision 0020) is a draft the agent confirms
     * (decision 0088): nothing is taken from stock and no order exists until «Crear pedido» confirms
     * it (`fromChat` with its `cartMessageId`). The thread gets its summary — the lines matched to
     * the company's products by SKU (product_retailer_id), at the company's price, what is short —
     * as Mostrador's note. Runs in the webhook's transaction, after the message was stored.
     */
    async fromWhatsApp(tx: Db, companyId: string, country: CountryCode, m: InboundMessage): Promise<void> {
      const order = m.content?.order;
      if (m.kind !== 'order' || !order?.items.length) return;
      const [identity] = await rowsOf<{ chat_id: string | null }>(
        tx,
        sql`select i.chat_id from lead_identities i where i.company_id = ${companyId} and i.platform = 'whatsapp' and i.platform_user_id = ${m.from}`,
      );
      if (!identity?.chat_id) return;
      const lines = await cartLines(tx, companyId, order.items);
      const currency = currencyOfCountry[country];
      const notes: string[] = [];
      const items: OrderItem[] = [];
      for (const l of lines) {
        if (!l.productId) {
          notes.push(`⚠️ ${l.sku} no está en los productos de la compañía`);
          continue;
        }
        if ((l.stock ?? 0) < l.quantity) notes.push(`⚠️ ${l.name}: hay ${Math.max(0, l.stock ?? 0)} en stock de ${l.quantity} pedidas`);
        const unitPrice = l.unitPrice ?? 0;
        items.push({ productId: l.productId, sku: l.variantSku ?? l.sku, name: l.name ?? l.sku, quantity: l.quantity, unitPrice, total: round2(unitPrice * l.quantity) });
      }
      const total = round2(items.reduce((n, i) => n + i.total, 0));
      const text = cartSummary({ items, total, currency, notes });
      await tx.execute(sql`insert into chat_messages (company_id, chat_id, direction, kind, text, content, provider_message_id, status, sent_at)
          values (${companyId}, ${identity.chat_id}, 'in', 'system', ${text}, ${JSON.stringify({ system: { type: 'cart', body: text } })}::jsonb,
                  ${`mostrador-cart:${m.messageId}`}, 'received', now())
          on conflict (company_id, provider_message_id) do nothing`);
    },

    /**
     * GET /chats/{id}/order-draft: what «Crear pedido» starts from — the person's name, phone and
     * e-mail, their last delivery, and the chat's latest WhatsApp cart not yet an order.
     */
    async draftForChat(db: Db, companyId: string, chatId: string): Promise<ChatOrderDraft> {
      const chat = await chatOf(db, companyId, chatId);
      const [last] = await rowsOf<{ shippment: PublicOrder['shippment'] | null }>(
        db,
        sql`select shippment from orders where company_id = ${companyId} and shippment is not null
              and (chat_id = ${chatId} or (${chat.lead_id}::uuid is not null and lead_id = ${chat.lead_id}) or (${chat.telefono}::text is not null and telefono = ${chat.telefono}))
            order by created_at desc limit 1`,
      );
      const [cart] = await rowsOf<{ id: string; text: string | null; content: { order?: { items: Array<{ productRetailerId: string; quantity: number }> } }; sent_at: Date | string }>(
        db,
        sql`select m.id, m.text, m.content, m.sent_at from chat_messages m
            where m.company_id = ${companyId} and m.chat_id = ${chatId} and m.direction = 'in' and m.kind = 'order'
              and not exists (select 1 from orders o where o.company_id = m.company_id and o.cart_message_id = m.id)
            order by m.sent_at desc limit 1`,
      );
      const lines = cart?.content?.order?.items.length ? await cartLines(db, companyId, cart.content.order.items) : [];
      return {
        customer: { name: chat.name, ...(chat.telefono ? { telefono: chat.telefono } : {}), ...(chat.email ? { email: chat.email } : {}) },
        ...(last?.shippment ? { shippment: last.shippment } : {}),
        currency: chat.currency,
        ...(cart && lines.length ? { cart: { messageId: cart.id, receivedAt: iso(cart.sent_at), ...(cart.text ? { text: cart.text } : {}), lines } } : {}),
      };
    },

    /**
     * POST /chats/{id}/orders: the order an agent builds for the person of a chat (decision 0088).
     * Lines at the company's prices and stock under the same locks as a public placement
     * (`takeLines`); the order belongs to the chat and its lead; its summary goes in the thread as
     * Mostrador's note (the customer gets it when the agent sends it). Under the Idempotency-Key
     * the dialog sends, a double click is one order; a cart is confirmed once.
     */
    async fromChat(db: Db, companyId: string, userId: string | undefined, chatId: string, input: ChatOrderIn, key: string): Promise<{ out: ChatOrderOut; created: boolean }> {
      const chat = await chatOf(db, companyId, chatId);
      const telefono = normalisePhone(input.customer.telefono, chat.country);
      if (!telefono) {
        throw new AppError('VALIDATION', 'Teléfono: escribe un teléfono válido', [{ path: 'customer.telefono', msg: 'Escribe un teléfono válido' }]);
      }
      const hash = sha256(canonical({ chatId, input }));
      const replay = (tx: Db) => replayOf<ChatOrderOut>(tx, secrets, companyId, key, hash);
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`order-key:${companyId}:${key}`}, 0))`);
        const again = await replay(tx);
        if (again) return { out: again, created: false };
        if (input.cartMessageId) {
          const [cart] = await rowsOf<{ id: string }>(
            tx,
            sql`select id from chat_messages where company_id = ${companyId} and chat_id = ${chatId} and id = ${input.cartMessageId} and direction = 'in' and kind = 'order' for update`,
          );
          if (!cart) throw new AppError('VALIDATION', 'Ese carrito no es de este chat', [{ path: 'cartMessageId', msg: 'No es un carrito de este chat' }]);
          const [done] = await rowsOf<{ code: string }>(tx, sql`select code from orders where company_id = ${companyId} and cart_message_id = ${cart.id}`);
          if (done) throw new AppError('CONFLICT', `Este carrito ya es el pedido ${done.code}`, [{ path: 'cartMessageId', msg: `Ya es el pedido ${done.code}` }]);
        }
        const lines = await takeLines(tx, companyId, input.items);
        const subtotal = round2(lines.reduce((n, l) => n + l.total, 0));
        const customer = customerOf(input.customer, telefono);
        const code = orderCode();
        const [order] = await rowsOf<{ id: string }>(
          tx,
          sql`insert into orders (company_id, code, status, source, customer_name, telefono, customer, shippment, items, subtotal, total, currency, lead_id, chat_id, cart_message_id, created_by)
              values (${companyId}, ${code}, 'created', 'chat', ${customer.name}, ${telefono}, ${JSON.stringify(customer)}::jsonb,
                      ${input.shippment ? JSON.stringify(input.shippment) : null}::jsonb, ${JSON.stringify(lines)}::jsonb, ${subtotal}, ${subtotal}, ${chat.currency},
                      ${chat.lead_id}, ${chatId}, ${input.cartMessageId ?? null}, ${userId ?? null})
              returning id`,
        );
        const text = orderSummary({ code, items: lines, total: subtotal, currency: chat.currency, shippment: input.shippment ?? null, source: 'chat' });
        await tx.execute(sql`insert into chat_messages (company_id, chat_id, direction, kind, text, content, provider_message_id, status, sent_at)
            values (${companyId}, ${chatId}, 'in', 'system', ${text}, ${JSON.stringify({ system: { type: 'order', body: text } })}::jsonb,
                    ${`mostrador-order:${order.id}`}, 'received', now())
            on conflict (company_id, provider_message_id) do nothing`);
        const out: ChatOrderOut = { _id: order.id, code, total: subtotal, currency: chat.currency, status: 'created' };
        await tx.execute(sql`insert into order_requests (company_id, key, request_hash, order_id, response)
            values (${companyId}, ${key}, ${hash}, ${order.id}, ${secrets.seal(out)})`);
        await audit(tx, {
          companyId,
          action: 'create',
          entity: 'orders',
          entityId: order.id,
          changes: changesOf(null, auditedOrder({ code, status: 'created', source: 'chat', customerName: customer.name, total: subtotal, currency: chat.currency })),
        });
        return { out, created: true };
      });
    },
  };
}
export type Orders = ReturnType<typeof createOrders>;
