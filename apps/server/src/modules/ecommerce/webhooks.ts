import { createHash } from 'node:crypto';
import { zId } from '@mostrador/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { woocommerceLinks, woocommerceWebhookEvents } from '../../db/ecommerce-tables.js';
import { ecommercesTable, ecommercesVariationsTable, woocommercesTable } from '../../db/resource-tables.js';
import { type WooClient, WooError } from '../../integrations/woocommerce/client.js';
import { isValidWooSignature } from '../../integrations/woocommerce/signature.js';
import type { WooCustomer, WooOrder, WooProduct } from '../../integrations/woocommerce/types.js';
import { AppError } from '../../lib/errors.js';
import { sanitizeJson } from '../../lib/third-party-text.js';
import { errorText } from '../../lib/error-text.js';
import { clientFor, loadStore, type StoreCtx, storeColumns, storeOf } from './store.js';
import type { Tally } from './links.js';
import { pullCustomers, pullOrders, pullProducts, variationsOfPage } from './pull.js';

export const WOO_WEBHOOK_QUEUE = 'woocommerce.webhook';
const topics = /^(product|order|customer)\.(created|updated|deleted|restored)$/;

async function termMapsOf(db: Db, store: StoreCtx) {
  const rows = await db
    .select()
    .from(woocommerceLinks)
    .where(and(eq(woocommerceLinks.storeId, store.id), inArray(woocommerceLinks.kind, ['category', 'tag'])));
  const maps = { local: new Map<string, number>(), remote: { category: new Map<number, string>(), tag: new Map<number, string>() } };
  for (const r of rows) {
    maps.local.set(r.recordId, r.remoteId);
    maps.remote[r.kind as 'category' | 'tag'].set(r.remoteId, r.recordId);
  }
  return maps;
}

/** The address a store's webhooks deliver to (the store's webhook says it; ours ends so). */
export const wooWebhookPath = (storeId: string) => `/api/webhooks/woocommerce/${storeId}`;

/** What the store says its webhooks are, for a few minutes (a burst of edits asks once). */
const HOOK_TTL_MS = 5 * 60_000;
const hooks = new Map<string, { topic: string | undefined; at: number }>();

/**
 * The topic of the store's webhook `webhookId` as the store's own API says it (GET /webhooks/{id},
 * with the store's keys): only a webhook of that store, active, delivering to this store's address.
 * X-WC-Webhook-Topic is not signed — the signature covers the body only — so it is never trusted:
 * a captured product.updated body sent as product.deleted stays an update (decision 0061).
 * Undefined when the store has no such webhook.
 */
async function registeredTopic(client: WooClient, store: StoreCtx, webhookId: number): Promise<string | undefined> {
  const key = `${store.id}:${webhookId}`;
  const cached = hooks.get(key);
  if (cached && Date.now() - cached.at < HOOK_TTL_MS) return cached.topic;
  let topic: string | undefined;
  try {
    const { data } = await client.get<{ topic?: unknown; status?: unknown; delivery_url?: unknown }>(`/webhooks/${webhookId}`);
    const ours = typeof data?.delivery_url === 'string' && data.delivery_url.replace(/\/+$/, '').endsWith(wooWebhookPath(store.id));
    topic = ours && data.status === 'active' && typeof data.topic === 'string' ? data.topic : undefined;
  } catch (error) {
    if (!(error instanceof WooError && error.kind === 'not-found')) throw error;
  }
  hooks.set(key, { topic, at: Date.now() });
  return topic;
}

/** Whether the store no longer has the product: its API answers 404, or it is in the trash. */
async function goneFromStore(client: WooClient, productId: number): Promise<boolean> {
  try {
    const { data } = await client.get<{ status?: unknown }>(`/products/${productId}`);
    return data?.status === 'trash';
  } catch (error) {
    if (error instanceof WooError && error.kind === 'not-found') return true;
    throw error;
  }
}

/** A store answer that retrying will not change (keys, permissions, URL): the delivery fails with it. */
const permanent = (error: unknown) => error instanceof WooError && !['network', 'rate-limited', 'server'].includes(error.kind);

/** One stored delivery into our records, like a sync of that one item (the same hashes: a repeat writes nothing). */
export async function processWooEvent(
  db: Db,
  secrets: Parameters<typeof loadStore>[1],
  id: string,
): Promise<void> {
  const [event] = await db.select().from(woocommerceWebhookEvents).where(eq(woocommerceWebhookEvents.id, id));
  if (event?.status !== 'pending') return;
  const store = await loadStore(db, secrets, event.companyId, event.storeId);
  const client = clientFor(store);
  const payload = event.payload as { id?: number };
  const t: Tally = { done: 0, created: 0, updated: 0, unchanged: 0, storeWrites: 0, errors: [] };
  const settle = (status: 'processed' | 'failed', lastError: string | null, topic = event.topic) =>
    db
      .update(woocommerceWebhookEvents)
      .set({ status, lastError, topic, processedAt: new Date(), attempts: event.attempts + 1 })
      .where(eq(woocommerceWebhookEvents.id, id));
  try {
    // a delivery stored before 0049 has no webhook id: its topic as it came (its deletion is still confirmed below)
    const registered = event.webhookId == null ? event.topic : await registeredTopic(client, store, event.webhookId);
    if (!registered) {
      await settle('failed', `La tienda no tiene el webhook ${event.webhookId} activo hacia esta dirección: la entrega no se procesó`);
      return;
    }
    const topic = registered.replace('.restored', '.updated');
    if (!topics.test(topic)) {
      await settle('processed', `El webhook ${event.webhookId} es de «${registered.slice(0, 80)}», que Mostrador no procesa`, registered.slice(0, 80));
      return;
    }
    const [kind, action] = topic.split('.');
    if (action === 'deleted') {
      if (kind === 'product' && typeof payload.id === 'number') {
        // nothing is removed here unless the store says the product is gone (a 404 or the trash)
        if (!(await goneFromStore(client, payload.id))) {
          await settle('failed', `La tienda todavía tiene el producto ${payload.id}: no se borró nada`, topic);
          return;
        }
        await db.transaction(async (tx) => {
          const [link] = await tx
            .select()
            .from(woocommerceLinks)
            .where(and(eq(woocommerceLinks.storeId, store.id), eq(woocommerceLinks.kind, 'product'), eq(woocommerceLinks.remoteId, payload.id as number)));
          if (!link) return;
          const p = ecommercesTable as unknown as Record<string, AnyPgColumn>;
          const v = ecommercesVariationsTable as unknown as Record<string, AnyPgColumn>;
          await tx.delete(ecommercesVariationsTable).where(and(eq(v.companyId, store.companyId), eq(v.ecommerceId, link.recordId)));
          await tx.delete(ecommercesTable).where(and(eq(p.companyId, store.companyId), eq(p.id, link.recordId)));
          await tx.delete(woocommerceLinks).where(and(eq(woocommerceLinks.storeId, store.id), eq(woocommerceLinks.kind, 'product'), eq(woocommerceLinks.remoteId, payload.id as number)));
        });
      }
    } else if (kind === 'product') {
      const product = payload as WooProduct;
      const variations = await variationsOfPage(client, [product]);
      const maps = await termMapsOf(db, store);
      await db.transaction(async (tx) => pullProducts(tx as unknown as Db, store, maps, [product], variations, t));
    } else if (kind === 'order') {
      await db.transaction(async (tx) => pullOrders(tx as unknown as Db, store, [payload as WooOrder], t));
    } else if (kind === 'customer') {
      await db.transaction(async (tx) => pullCustomers(tx as unknown as Db, store, [payload as WooCustomer], t));
    }
    await settle(t.errors.length ? 'failed' : 'processed', t.errors.length ? t.errors.map((e) => `${e.item}: ${e.msg}`).join('; ').slice(0, 2000) : null, topic);
  } catch (error) {
    if (permanent(error)) {
      await settle('failed', `No se pudo comprobar la entrega con la tienda: ${(error as WooError).msg}`);
      return;
    }
    const attempts = event.attempts + 1;
    await db
      .update(woocommerceWebhookEvents)
      .set({ attempts, lastError: errorText(error), ...(attempts >= 6 ? { status: 'failed' } : {}) })
      .where(eq(woocommerceWebhookEvents.id, id));
    throw error;
  }
}

/**
 * POST /api/webhooks/woocommerce/{storeId}: the store's webhooks (product, order and customer
 * topics). No token: the store proves itself with `X-WC-Webhook-Signature`, base64 of the
 * HMAC-SHA256 of the raw body with the webhook secret kept (sealed) on the store. The signature
 * covers the body only, so nothing else is believed (decision 0061): a delivery is stored once per
 * `X-WC-Webhook-Delivery-ID` and once per body (its SHA-256) — a repeat, or the same body under
 * another delivery id, is answered 200 and changes nothing — with its `X-WC-Webhook-ID`, whose
 * topic the queue asks the store for; queued and answered at once. Encapsulated: its parser keeps
 * the raw body only here.
 */
export async function woocommerceWebhookRoutes(app: FastifyInstance) {
  const { db } = app.database;
  // its job and the requeue of pending deliveries are in jobs.ts
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/webhooks/woocommerce/:storeId',
    { config: { public: true }, schema: { tags: ['webhooks'], params: z.object({ storeId: zId() }) } },
    async (request, reply) => {
      const { storeId } = request.params as { storeId: string };
      const [row] = await db.select().from(woocommercesTable).where(eq(storeColumns.id, storeId));
      if (!row) throw new AppError('NOT_FOUND', 'La tienda no existe');
      const store = storeOf(row as never, app.secrets);
      const raw = request.body;
      const topic = request.headers['x-wc-webhook-topic'];
      // WooCommerce's ping on creating a webhook: `webhook_id=…`, no topic
      if (!topic && Buffer.isBuffer(raw) && /^webhook_id=\d+$/.test(raw.toString('utf8').trim())) return reply.status(200).send({ received: 0 });
      if (!store.webhookSecret) throw new AppError('TOKEN_INVALID', 'La tienda no tiene secreto de webhook: guárdalo en /woocommerce');
      if (!Buffer.isBuffer(raw) || !isValidWooSignature(raw, request.headers['x-wc-webhook-signature'], store.webhookSecret)) {
        throw new AppError('TOKEN_INVALID', 'Firma del webhook ausente o no válida (X-WC-Webhook-Signature)');
      }
      if (typeof topic !== 'string' || !topics.test(topic)) return reply.status(200).send({ received: 0, ignored: true });
      let payload: unknown;
      try {
        payload = sanitizeJson(JSON.parse(raw.toString('utf8')));
      } catch {
        throw new AppError('BAD_REQUEST', 'El cuerpo del webhook no es un JSON válido');
      }
      if (typeof payload !== 'object' || payload === null || typeof (payload as { id?: unknown }).id !== 'number') {
        throw new AppError('BAD_REQUEST', 'El webhook no trae el id del registro');
      }
      const hook = request.headers['x-wc-webhook-id'];
      if (typeof hook !== 'string' || !/^\d{1,15}$/.test(hook)) {
        throw new AppError('BAD_REQUEST', 'Falta X-WC-Webhook-ID: la entrega no viene de un webhook de WooCommerce');
      }
      const bodyHash = createHash('sha256').update(raw).digest('hex');
      const header = request.headers['x-wc-webhook-delivery-id'];
      const deliveryId = typeof header === 'string' && header ? header.slice(0, 200) : `sha256:${bodyHash}`;
      // either unique index (delivery id, body) makes it a duplicate
      const inserted = await db
        .insert(woocommerceWebhookEvents)
        .values({ companyId: store.companyId, storeId: store.id, deliveryId, webhookId: Number(hook), bodyHash, topic, payload })
        .onConflictDoNothing()
        .returning({ id: woocommerceWebhookEvents.id });
      for (const { id } of inserted) {
        await app.jobs.send(WOO_WEBHOOK_QUEUE, { id }, { singletonKey: id }).catch((error: unknown) => request.log.error({ err: error, id }, 'no se pudo encolar el webhook'));
      }
      return reply.status(200).send({ received: 1, stored: inserted.length, duplicate: inserted.length === 0 });
    },
  );
}
