import {
  CHAT_PRODUCTS_MAX,
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
  category: string | null;
  variants: Array<{ sku?: string; size?: string | null; stock?: number }> | null;
  [key: string]: unknown;
}

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

  const productColumns = sql`p.id::text as id, p.sku, p.name, p.price, p.stock, p.image_url, c.name as category, p.variants`;

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
      const [currency, catalog] = await Promise.all([currencyOf(tenant.companyId), needsCatalog ? lineCatalog(db, tenant.companyId) : undefined]);
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

      const ids = [...new Set(request.body.productIds)];
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
      if (rows.length !== ids.length) throw new AppError('NOT_FOUND', chatProductMessages.notFound, [{ path: 'productIds', msg: chatProductMessages.notFound }]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const ordered = ids.map((id) => byId.get(id) as ProductRow);

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
      } else if (ordered.length > MESSENGER_CARDS_MAX) {
        throw new AppError('VALIDATION', chatProductMessages.tooManyCards, [{ path: 'productIds', msg: chatProductMessages.tooManyCards }]);
      }

      const [currency, link] = await Promise.all([currencyOf(companyId), shopLink(companyId)]);
      const items: ChatProductItem[] = ordered.map((p) => ({
        id: p.id,
        // WhatsApp names a product by the retailer id Meta keeps it under (its SKU when it was synced)
        sku: retailerIds.get(p.id) ?? p.sku,
        name: p.name,
        price: Number(p.price),
        currency,
        ...(p.image_url ? { image: p.image_url } : {}),
        ...(p.category ? { category: p.category } : {}),
        ...(p.variants?.length ? { variant: `${p.variants.length} variantes` } : {}),
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
