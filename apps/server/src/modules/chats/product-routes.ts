import {
  CHAT_PRODUCTS_MAX,
  type ChatProductChoice,
  type ChatProductItem,
  type ChatProductOption,
  type ChatProductsContent,
  chatMessageOut,
  chatProductMessages,
  chatProductsInput,
  chatProductsOut,
  chatProductsQuery,
  companyCurrency,
  MESSENGER_CARDS_MAX,
  variantLabel,
  zId,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { idempotencyKeyOf } from '../../lib/idempotency.js';
import { stableId } from '../../lib/stable-id.js';
import { tenantOf } from '../../plugins/auth.js';
import type { ChatService } from './service.js';

const chatParams = z.object({ id: zId() }).strict();
const PICKER_LIMIT = 60;

interface ProductRow {
  id: string;
  sku: string;
  name: string;
  price: string | number;
  stock: number;
  image_url: string | null;
  description: string | null;
  category: string | null;
  variants: Variant[] | null;
  [key: string]: unknown;
}
interface Variant {
  sku?: string;
  size?: string | null;
  colorId?: string | null;
  stock?: number;
  price?: number | string | null;
}
/** A short description as a card or caption carries it. */
const DESCRIPTION_MAX = 200;
const shortText = (text: string | null | undefined, max: number) => {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
};

/** The WhatsApp line's Meta catalogue (decision 0086) and what Meta accepted in it: product id → retailer id, and the refusals' reasons. */
async function lineCatalog(db: Db, companyId: string) {
  const [catalog] = await rowsOf<{ id: string; catalog_id: string }>(
    db,
    sql`select mc.id, mc.catalog_id from meta_catalogs mc join channels ch on ch.id = mc.channel_id
        where mc.company_id = ${companyId} and ch.kind = 'whatsapp' limit 1`,
  );
  if (!catalog) return undefined;
  const items = await rowsOf<{ product_id: string; retailer_id: string; status: string; error: string | null }>(
    db,
    sql`select product_id, retailer_id, status, error from meta_catalog_items where meta_catalog_id = ${catalog.id} and product_id is not null`,
  );
  return {
    catalogId: catalog.catalog_id,
    accepted: new Map(items.filter((i) => i.status === 'accepted').map((i) => [i.product_id, i.retailer_id])),
    refused: new Map(items.filter((i) => i.status === 'error').map((i) => [i.product_id, i.error ?? ''])),
  };
}

const stockOf = (p: ProductRow) => (p.variants?.length ? p.variants.reduce((n, v) => n + (v.stock ?? 0), 0) : Number(p.stock));

/**
 * Products in the conversation (issue 30 "Sell inside the chat", decision 0085), under
 * /api/chats and the chats module's permissions: the picker's search of the company's products,
 * and the products sent — through the chat service's one send/deliver/outcome path, as a WhatsApp
 * product or product list, a Messenger/Instagram carousel. Only inside the 24-hour window; on
 * WhatsApp only products Meta accepted in the line's catalogue.
 */
export async function chatProductRoutes(parent: FastifyInstance, chats: ChatService): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const chatTags = ['chats'];
  const publicUrl = app.settings.publicUrl;

  async function currencyOf(companyId: string): Promise<string> {
    const [c] = await rowsOf<{ country: string; currency: string | null }>(db, sql`select country, settings->>'currency' as currency from companies where id = ${companyId}`);
    return companyCurrency(c?.currency, c?.country ?? 'PE');
  }

  async function shopLink(companyId: string): Promise<string> {
    const [k] = await rowsOf<{ id: string }>(db, sql`select id from catalogs where company_id = ${companyId} and is_default limit 1`);
    return k ? `${publicUrl}/catalogo-digital/${k.id}` : `${publicUrl}/catalogo-digital?company=${companyId}`;
  }

  const productColumns = sql`p.id::text as id, p.sku, p.name, p.price, p.stock, p.image_url, p.description, c.name as category, p.variants`;

  /** The company's colour names by id (variants name theirs by id). */
  async function colorsOf(companyId: string): Promise<Map<string, string>> {
    const rows = await rowsOf<{ id: string; name: string }>(db, sql`select id::text as id, name from colors where company_id = ${companyId}`);
    return new Map(rows.map((r) => [r.id, r.name]));
  }
  const variantOf = (p: ProductRow, v: Variant, colors: Map<string, string>) => ({
    sku: String(v.sku ?? ''),
    ...(v.size ? { size: v.size } : {}),
    ...(v.colorId && colors.get(v.colorId) ? { color: colors.get(v.colorId) } : {}),
    stock: Number(v.stock ?? 0),
    // a variant without its own price sells at the product's
    price: Number(v.price ?? p.price),
  });

  app.get(
    '/chats/:id/products',
    { config: { permission: { module: 'chats' as const, action: 'read' as const } }, schema: { tags: chatTags, params: chatParams, querystring: chatProductsQuery, response: { 200: chatProductsOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const state = await chats.state(tenant.companyId, request.params.id);
      const q = request.query.q ? `%${request.query.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : undefined;
      const rows = await rowsOf<ProductRow>(
        db,
        sql`select ${productColumns} from products p
            left join categories c on c.company_id = p.company_id and c.id = p.category_id
            where p.company_id = ${tenant.companyId}
              ${q ? sql`and (p.name ilike ${q} or p.sku ilike ${q} or c.name ilike ${q})` : sql``}
            order by p.name, p.id limit ${PICKER_LIMIT * 4}`,
      );
      const needsCatalog = state.channel === 'whatsapp';
      const [currency, catalog, colors] = await Promise.all([
        currencyOf(tenant.companyId),
        needsCatalog ? lineCatalog(db, tenant.companyId) : undefined,
        rows.some((p) => p.variants?.length) ? colorsOf(tenant.companyId) : new Map<string, string>(),
      ]);
      const payload: ChatProductOption[] = rows
        .filter((p) => !request.query.inStock || stockOf(p) > 0)
        .slice(0, PICKER_LIMIT)
        .map((p) => ({
          id: p.id,
          sku: p.sku,
          name: p.name,
          price: Number(p.price),
          currency,
          stock: stockOf(p),
          imageUrl: p.image_url ?? undefined,
          category: p.category ?? undefined,
          inCatalog: needsCatalog ? Boolean(catalog?.accepted.has(p.id)) : true,
          ...(p.variants?.length ? { variants: p.variants.map((v) => variantOf(p, v, colors)) } : {}),
        }));
      return { payload, needsCatalog, max: CHAT_PRODUCTS_MAX };
    },
  );

  app.post(
    '/chats/:id/products',
    { config: { permission: { module: 'chats' as const, action: 'create' as const } }, schema: { tags: chatTags, params: chatParams, body: chatProductsInput, response: { 201: chatMessageOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { companyId } = tenant;
      const chatId = request.params.id;
      const key = idempotencyKeyOf(request);
      const state = await chats.state(companyId, chatId);
      if (state.state === 'window_closed') throw new AppError('CONFLICT', chatProductMessages.windowClosed);
      if (!state.canSend) throw new AppError('CONFLICT', state.reason);

      // productIds as issue 30 defined them, or items naming a variant (decision 0091); each choice once
      const asked: ChatProductChoice[] = request.body.items ?? (request.body.productIds ?? []).map((productId) => ({ productId }));
      const choices = [...new Map(asked.map((c) => [`${c.productId}|${c.variantSku ?? ''}`, c])).values()];
      const field = request.body.items ? 'items' : 'productIds';
      const ids = [...new Set(choices.map((c) => c.productId))];
      const rows = await rowsOf<ProductRow>(
        db,
        sql`select ${productColumns} from products p
            left join categories c on c.company_id = p.company_id and c.id = p.category_id
            where p.company_id = ${companyId} and p.id in (${sql.join(
              ids.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`,
      );
      // another company's product, or one removed: nothing is sent, nothing stored
      if (rows.length !== ids.length) throw new AppError('NOT_FOUND', chatProductMessages.notFound, [{ path: field, msg: chatProductMessages.notFound }]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const colors = choices.some((c) => c.variantSku) ? await colorsOf(companyId) : new Map<string, string>();
      // a variant is looked for among its own product's: another product's or another company's SKU is refused
      const chosen = choices.map((c, i) => {
        const p = byId.get(c.productId) as ProductRow;
        if (!c.variantSku) return { p, v: undefined };
        const found = p.variants?.find((v) => String(v.sku ?? '').toUpperCase() === c.variantSku);
        if (!found) {
          const msg = chatProductMessages.notVariant(c.variantSku, p.name);
          throw new AppError('VALIDATION', msg, [{ path: `items.${i}.variantSku`, msg }]);
        }
        return { p, v: variantOf(p, found, colors) };
      });
      const soldOut = chosen.filter((c) => c.v && c.v.stock <= 0);
      if (soldOut.length) throw new AppError('CONFLICT', chatProductMessages.variantOutOfStock(soldOut.map((c) => `${c.p.name} (${variantLabel(c.v ?? {})})`).join('; ')));
      const ordered = [...new Map(chosen.map((c) => [c.p.id, c.p])).values()];

      let catalogId: string | undefined;
      let retailerIds = new Map<string, string>();
      if (state.channel === 'whatsapp') {
        const catalog = await lineCatalog(db, companyId);
        if (!catalog) throw new AppError('CONFLICT', chatProductMessages.noCatalog);
        const missing = ordered.filter((p) => !catalog.accepted.has(p.id));
        if (missing.length) {
          const names = missing.map((p) => `${p.name} (${catalog.refused.get(p.id) || 'no sincronizado'})`).join('; ');
          throw new AppError('CONFLICT', chatProductMessages.notAccepted(names));
        }
        catalogId = catalog.catalogId;
        retailerIds = catalog.accepted;
      } else if (chosen.length > MESSENGER_CARDS_MAX) {
        throw new AppError('VALIDATION', chatProductMessages.tooManyCards, [{ path: field, msg: chatProductMessages.tooManyCards }]);
      }

      const [currency, link] = await Promise.all([currencyOf(companyId), shopLink(companyId)]);
      const description = (p: ProductRow) => shortText(p.description, DESCRIPTION_MAX);
      const items: ChatProductItem[] = chosen.map(({ p, v }) => ({
        id: p.id,
        // WhatsApp names a product by the retailer id Meta keeps it under (its SKU when it was synced);
        // the catalogue holds products, not variants (decision 0086), so a variant goes as its product
        sku: retailerIds.get(p.id) ?? p.sku,
        name: p.name,
        price: v ? v.price : Number(p.price),
        currency,
        ...(p.image_url ? { image: p.image_url } : {}),
        ...(p.category ? { category: p.category } : {}),
        ...(v
          ? { variant: variantLabel(v), variantSku: v.sku, ...(v.size ? { size: v.size } : {}), ...(v.color ? { color: v.color } : {}), stock: v.stock }
          : { ...(p.variants?.length ? { variant: `${p.variants.length} variantes` } : {}), stock: stockOf(p) }),
        ...(description(p) ? { description: description(p) } : {}),
        link,
      }));
      const products: ChatProductsContent = { ...(catalogId ? { catalogId } : {}), items };
      const text = request.body.text?.trim() || undefined;
      const messageId = typeof key === 'string' ? stableId(companyId, chatId, `products:${key}`) : undefined;
      const message = await chats.send(companyId, chatId, { kind: 'text', text, products }, { sentBy: tenant.userId, messageId, content: { products } });
      return reply.status(201).send(message);
    },
  );
}
