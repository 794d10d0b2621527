import {
  bulkApplyOut,
  bulkCsvQuery,
  bulkPreviewBody,
  bulkRunOut as bulkRunSchema,
  bulkRunQuery,
  marketplaceCountryParams,
  marketplaceCrossoverOut,
  marketplaceCrossoverQuery,
  marketplaceDocumentQuery,
  marketplaceDocumentTypeLabels,
  marketplaceOrderItemsOut,
  marketplaceOrderStatusOf,
  marketplacePushOut,
  marketplaceReadyToShipOut,
  marketplaceSyncRunOut,
  marketplaceSyncRunsOut,
  marketplaceSyncRunsQuery,
  marketplaceSyncStarted,
  marketplaceTestOut,
  marketplaceVariationPatch,
  pageOf,
  resources,
  zId,
} from '@mostrador/contract';
import { and, asc, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { marketplaceOrderItems, marketplaceSyncRuns } from '../../db/marketplace-tables.js';
import { marketplaceOrdersTable, marketplaceProductsTable } from '../../db/resource-tables.js';
import { MarketplaceError, type RemoteOrderItem } from '../../integrations/marketplace.js';
import { assertTargetUrl, rethrowRefusalAs400 } from '../../integrations/outbound.js';
import { AppError } from '../../lib/errors.js';
import { containsPattern, trustedPage } from '../../lib/list.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { onWrite, repositoryOf } from '../../resources/crud.js';
import { bulkRunOut, createBulkEngine, loadBulk, preview, rowsOfCsv, rowsOfInput, rowsOfTable } from './bulk.js';
import { MARKETPLACE_BULK_QUEUE, MARKETPLACE_SYNC_QUEUE, marketplaceJobs } from './jobs.js';
import { pushOne, type VariationRow, variationRows } from './push.js';
import { linksByRecord, products, refreshProductTotals, remotePriceStock } from './records.js';
import { adapterFor, httpErrorOf, loadSource, sourceLabel, sourcesOf } from './sources.js';
import { createMarketplaceSync, runOut, writeOrderItems } from './sync.js';

const idParams = z.object({ id: zId() });
const perm = (action: 'list' | 'read' | 'update') => ({ permission: { module: 'marketplace' as const, action } });
const orders = marketplaceOrdersTable as unknown as Record<string, AnyPgColumn>;
/** A CSV upload of a bulk update: 20,000 rows fit well below this. */
const CSV_BODY_LIMIT = 5 * 1024 * 1024;

type ItemRow = typeof marketplaceOrderItems.$inferSelect;
const itemOut = (i: ItemRow) => ({
  _id: i.id,
  externalId: i.externalId,
  sellerSku: i.sellerSku,
  ...(i.shopSku ? { shopSku: i.shopSku } : {}),
  name: i.name,
  ...(i.variation ? { variation: i.variation } : {}),
  status: i.status as z.infer<typeof marketplaceOrderItemsOut>['payload'][number]['status'],
  price: i.price,
  paidPrice: i.paidPrice,
  shippingAmount: i.shippingAmount,
  currency: i.currency,
  ...(i.packageId ? { packageId: i.packageId } : {}),
  ...(i.trackingCode ? { trackingCode: i.trackingCode } : {}),
  ...(i.shipmentProvider ? { shipmentProvider: i.shipmentProvider } : {}),
  ...(i.variationId ? { variationId: i.variationId } : {}),
});

// an account's API URL written as an internal address is refused on save; what its name resolves to, on every call
onWrite('marketplace-sources', (source) => assertTargetUrl(source.apiUrl as string | undefined, 'apiUrl', { base: true }));

/**
 * Every call of SPEC §7 "Marketplace" (but genial-retry) and what the screens need around them
 * (issue 12, decision 0035): the accounts' connection test and sync jobs, the variations' reads,
 * edits and sends, the crossover by country, the bulk update of prices and stock, and the orders'
 * items, documents and readiness to ship. Everything is scoped to the caller's company through
 * `tenantOf` and the repositories; an account's API key is opened only to call it.
 */
export const marketplaceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const sync = createMarketplaceSync({ db, secrets: app.secrets, realtime: app.realtime });
  const bulk = createBulkEngine({ db, secrets: app.secrets, realtime: app.realtime });
  const variationRepo = repositoryOf(resources['marketplace-variations'], app.secrets);
  const orderRepo = repositoryOf(resources['marketplace-orders'], app.secrets);
  const tags = ['marketplace-products'];
  // no test reaches the internet, whatever address a generated request gives an account

  await marketplaceJobs(app);

  const sourceOfTenant = (tenant: Tenant, id: string) => loadSource(db, app.secrets, tenant.companyId, id);
  const sourceNames = async (tenant: Tenant) => new Map((await sourcesOf(db, app.secrets, tenant.companyId)).map((s) => [s.id, s]));

  // ---- accounts: connection test and sync --------------------------------------------------
  app.post(
    '/marketplace-sources/:id/test',
    { config: perm('read'), schema: { tags: ['marketplace-sources'], params: idParams, response: { 200: marketplaceTestOut } } },
    async (request) => {
      const source = await sourceOfTenant(tenantOf(request), request.params.id);
      try {
        const { orders: count } = await adapterFor(source, { test: true }).test();
        const ordersNote = count !== undefined ? ` (${count} ${count === 1 ? 'orden' : 'órdenes'} en los últimos 30 días)` : '';
        return { ok: true, msg: `Conexión correcta con ${sourceLabel(source)}: lee productos y órdenes${ordersNote}`, ...(count !== undefined ? { orders: count } : {}) };
      } catch (error) {
        rethrowRefusalAs400(error, 'apiUrl');
        if (error instanceof MarketplaceError) return { ok: false, msg: error.msg };
        throw error;
      }
    },
  );

  app.post(
    '/marketplace-sources/:id/sync',
    { config: perm('update'), schema: { tags: ['marketplace-sources'], params: idParams, response: { 202: marketplaceSyncStarted } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const source = await sourceOfTenant(tenant, request.params.id);
      try {
        adapterFor(source);
      } catch (error) {
        rethrowRefusalAs400(error, 'apiUrl');
        throw httpErrorOf(error);
      }
      const { row, fresh } = await sync.start(source);
      if (fresh) await app.jobs.send(MARKETPLACE_SYNC_QUEUE, { runId: row.id, companyId: tenant.companyId }, { singletonKey: row.id });
      return reply.status(202).send({ msg: fresh ? `Sincronización de ${source.name} iniciada` : `${source.name} ya se está sincronizando`, run: runOut(row, source) });
    },
  );

  app.get(
    '/marketplace-sync-runs',
    { config: perm('list'), schema: { tags: ['marketplace-sources'], querystring: marketplaceSyncRunsQuery, response: { 200: marketplaceSyncRunsOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const sources = await sourceNames(tenant);
      const rows = await db
        .select()
        .from(marketplaceSyncRuns)
        .where(and(eq(marketplaceSyncRuns.companyId, tenant.companyId), request.query.sourceId ? eq(marketplaceSyncRuns.sourceId, request.query.sourceId) : undefined))
        .orderBy(desc(marketplaceSyncRuns.createdAt))
        .limit(20);
      return { payload: rows.filter((r) => sources.has(r.sourceId)).map((r) => runOut(r, sources.get(r.sourceId) as { name: string; country: string })) };
    },
  );
  app.get(
    '/marketplace-sync-runs/:id',
    { config: perm('read'), schema: { tags: ['marketplace-sources'], params: idParams, response: { 200: marketplaceSyncRunOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const [row] = await db
        .select()
        .from(marketplaceSyncRuns)
        .where(and(eq(marketplaceSyncRuns.companyId, tenant.companyId), eq(marketplaceSyncRuns.id, request.params.id)));
      const source = row && (await sourceNames(tenant)).get(row.sourceId);
      if (!row || !source) throw new AppError('NOT_FOUND', 'La sincronización no existe');
      return runOut(row, source);
    },
  );

  // ---- variations ----------------------------------------------------------------------------
  const variationsPage = pageOf(resources['marketplace-variations'].entity.partial());
  app.get(
    '/marketplace-products/variations',
    { config: perm('list'), schema: { tags, querystring: resources['marketplace-variations'].listQuery, response: { 200: variationsPage } }, ...trustedPage },
    (request) => variationRepo.list(db, tenantOf(request), request.query),
  );

  app.get(
    '/marketplace-products/:id/variations',
    { config: perm('list'), schema: { tags, params: idParams, querystring: resources['marketplace-variations'].listQuery, response: { 200: variationsPage } }, ...trustedPage },
    async (request) => {
      const tenant = tenantOf(request);
      const [product] = await db
        .select({ id: products.id })
        .from(marketplaceProductsTable)
        .where(and(eq(products.companyId, tenant.companyId), eq(products.id, request.params.id)));
      if (!product) throw new AppError('NOT_FOUND', 'El producto no existe');
      return variationRepo.list(db, tenant, { ...request.query, productId: request.params.id });
    },
  );

  async function variationOf(tenant: Tenant, id: string): Promise<VariationRow> {
    const [row] = await variationRows(db, tenant.companyId, [id]);
    if (!row) throw new AppError('NOT_FOUND', 'La variación no existe');
    return row;
  }

  app.patch(
    '/marketplace-products/variations/:id',
    { config: perm('update'), schema: { tags, params: idParams, body: marketplaceVariationPatch, response: { 200: resources['marketplace-variations'].entity } } },
    async (request) => {
      const tenant = tenantOf(request);
      const row = await variationOf(tenant, request.params.id);
      const { price, stock } = request.body;
      const source = row.sourceId ? await loadSource(db, app.secrets, tenant.companyId, row.sourceId).catch(() => undefined) : undefined;
      const currency = source?.currency ?? '';
      if (price !== undefined && (currency === 'CLP' || currency === 'COP') && !Number.isInteger(price)) {
        throw new AppError('VALIDATION', `En ${currency} el precio no lleva decimales`, [{ path: 'price', msg: `En ${currency} el precio no lleva decimales` }]);
      }
      if (price !== undefined && Math.round(price * 100) / 100 !== price) {
        throw new AppError('VALIDATION', 'El precio lleva como máximo 2 decimales', [{ path: 'price', msg: 'Como máximo 2 decimales' }]);
      }
      const next = { price: price ?? Number(row.price), stock: stock ?? Number(row.stock) };
      const remote = remotePriceStock((await linksByRecord(db, tenant.companyId, 'variation', [row.id])).get(row.id));
      const same = remote ? remote.price === next.price && remote.stock === next.stock : false;
      const saved = await db.transaction(async (tx) => {
        const out = await variationRepo.update(tx as unknown as Db, tenant, row.id, { ...next, syncStatus: same ? 'synced' : 'pending', syncMessage: null });
        if (row.productId) await refreshProductTotals(tx as unknown as Db, tenant.companyId, [row.productId]);
        return out;
      });
      return saved as z.infer<(typeof resources)['marketplace-variations']['entity']>;
    },
  );

  app.post(
    '/marketplace-products/variations/:id/sync',
    { config: perm('update'), schema: { tags, params: idParams, response: { 200: marketplacePushOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const row = await variationOf(tenant, request.params.id);
      if (!row.sourceId) throw new AppError('CONFLICT', 'La variación ya no tiene fuente de marketplace: no hay a dónde enviarla');
      const source = await loadSource(db, app.secrets, tenant.companyId, row.sourceId);
      let result: Awaited<ReturnType<typeof pushOne>>;
      try {
        result = await pushOne(db, source, adapterFor(source, { interactive: true }), row);
      } catch (error) {
        if (error instanceof MarketplaceError && (error.kind === 'unsupported' || error.kind === 'config')) throw httpErrorOf(error);
        if (!(error instanceof MarketplaceError)) throw error;
        // the marketplace did not take it (limits, network, keys): the variation keeps its change, to send later
        result = { status: 'failed', msg: `No se pudo enviar a ${sourceLabel(source)}: ${error.msg}` };
      }
      return { ...result, variation: (await variationRepo.get(db, tenant, row.id)) as z.infer<(typeof resources)['marketplace-variations']['entity']> };
    },
  );

  // ---- crossover -------------------------------------------------------------------------------
  app.get(
    '/marketplace-products/crossover/country/:country',
    { config: perm('list'), schema: { tags, params: marketplaceCountryParams, querystring: marketplaceCrossoverQuery, response: { 200: marketplaceCrossoverOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const { companyId } = tenant;
      const { country } = request.params;
      const q = request.query;
      const search = q.filter ? or(ilike(products.name, containsPattern(q.filter)), ilike(products.parentSku, containsPattern(q.filter))) : undefined;
      const where = and(eq(products.companyId, companyId), eq(products.country, country), search);
      type P = Record<string, unknown> & { id: string; parentSku: string; country: string; sourceId: string | null };
      const sources = await sourceNames(tenant);
      const side = (r: P) => {
        const s = r.sourceId ? sources.get(r.sourceId) : undefined;
        return {
          _id: r.id,
          ...(r.sourceId ? { sourceId: r.sourceId } : {}),
          ...(s ? { sourceName: s.name } : {}),
          country: r.country,
          name: String(r.name),
          price: Number(r.price),
          stock: Number(r.stock),
          status: r.status as 'active' | 'inactive' | 'deleted',
          variations: Number(r.variations),
        };
      };
      const compare = async (rows: P[]) => {
        const skus = rows.map((r) => r.parentSku);
        const others = skus.length
          ? ((await db
              .select()
              .from(marketplaceProductsTable)
              .where(and(eq(products.companyId, companyId), ne(products.country, country), inArray(products.parentSku, skus)))) as P[])
          : [];
        const countries = [...new Set([...sources.values()].map((s) => s.country))].filter((c) => c !== country);
        return rows.map((r) => {
          const product = side(r);
          const mine = others.filter((o) => o.parentSku === r.parentSku).map(side);
          const differences = (['name', 'price', 'stock', 'status', 'variations'] as const).filter((f) => mine.some((o) => o[f] !== product[f]));
          const missingIn = countries.filter((c) => !mine.some((o) => o.country === c));
          return { parentSku: r.parentSku, product, others: mine, missingIn, differences: missingIn.length ? [...differences, 'cuentas'] : differences };
        });
      };
      if (q.onlyDifferent === 'true') {
        // every product of the country is compared, then the page is cut from those that differ
        const all = (await db.select().from(marketplaceProductsTable).where(where).orderBy(asc(products.name), asc(products.id)).limit(5000)) as P[];
        const rows = (await compare(all)).filter((r) => r.differences.length);
        return { payload: rows.slice((q.page - 1) * q.limit, q.page * q.limit), totalDocs: rows.length, totalPages: Math.max(1, Math.ceil(rows.length / q.limit)), page: q.page, limit: q.limit };
      }
      const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(marketplaceProductsTable).where(where)) as Array<{ n: number }>;
      const rows = (await db
        .select()
        .from(marketplaceProductsTable)
        .where(where)
        .orderBy(asc(products.name), asc(products.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)) as P[];
      return { payload: await compare(rows), totalDocs: Number(n), totalPages: Math.max(1, Math.ceil(Number(n) / q.limit)), page: q.page, limit: q.limit };
    },
  );

  // ---- bulk update of prices and stock -----------------------------------------------------------
  app.post(
    '/marketplace-products/bulk/preview',
    { config: perm('update'), schema: { tags, body: bulkPreviewBody, response: { 200: bulkRunSchema } } },
    async (request) => {
      const tenant = tenantOf(request);
      const source = await sourceOfTenant(tenant, request.body.sourceId);
      const rows = request.body.rows ? rowsOfInput(request.body.rows) : rowsOfTable(request.body.text ?? '');
      return preview(db, source, rows);
    },
  );

  // a CSV file as it is (any encoding and separator spreadsheets write): read as bytes, this plugin only
  app.addContentTypeParser(
    ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'],
    { parseAs: 'buffer', bodyLimit: CSV_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post(
    '/marketplace-products/bulk/csv',
    { config: perm('update'), bodyLimit: CSV_BODY_LIMIT, schema: { tags, querystring: bulkCsvQuery, response: { 200: bulkRunSchema } } },
    async (request) => {
      const body = request.body;
      if (body !== undefined && body !== null && !Buffer.isBuffer(body)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Envía el archivo como CSV (Content-Type: text/csv)');
      if (!body || body.length === 0) throw new AppError('VALIDATION', 'El archivo está vacío');
      const source = await sourceOfTenant(tenantOf(request), request.query.sourceId);
      return preview(db, source, rowsOfCsv(body));
    },
  );

  app.post(
    '/marketplace-products/bulk/:id/apply',
    { config: perm('update'), schema: { tags, params: idParams, response: { 202: bulkApplyOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { source } = await loadBulk(db, app.secrets, tenant.companyId, request.params.id, { rows: false });
      try {
        adapterFor(source);
      } catch (error) {
        rethrowRefusalAs400(error, 'apiUrl');
        throw httpErrorOf(error);
      }
      const run = await bulk.queue(tenant.companyId, request.params.id);
      await app.jobs.send(MARKETPLACE_BULK_QUEUE, { runId: run.id, companyId: tenant.companyId }, { singletonKey: run.id });
      return reply.status(202).send({ msg: `Envío de ${run.changes} ${run.changes === 1 ? 'cambio' : 'cambios'} a ${source.name} iniciado`, run: bulkRunOut(run, source) });
    },
  );

  app.get(
    '/marketplace-products/bulk/:id',
    { config: perm('read'), schema: { tags, params: idParams, querystring: bulkRunQuery, response: { 200: bulkRunSchema } } },
    async (request) => {
      const tenant = tenantOf(request);
      const { run, source, rows } = await loadBulk(db, app.secrets, tenant.companyId, request.params.id, { status: request.query.status });
      return bulkRunOut(run, source, rows);
    },
  );

  // ---- orders: items, documents, ready to ship ----------------------------------------------------
  async function orderOf(tenant: Tenant, id: string) {
    const [row] = (await db
      .select()
      .from(marketplaceOrdersTable)
      .where(and(eq(orders.companyId, tenant.companyId), eq(orders.id, id)))) as Array<Record<string, unknown> & { id: string; sourceId: string | null; externalId: string; orderNumber: string; itemsCount: number }>;
    if (!row) throw new AppError('NOT_FOUND', 'La orden no existe');
    return row;
  }
  const storedItems = (tenant: Tenant, orderId: string) =>
    db
      .select()
      .from(marketplaceOrderItems)
      .where(and(eq(marketplaceOrderItems.companyId, tenant.companyId), eq(marketplaceOrderItems.orderId, orderId)))
      .orderBy(asc(marketplaceOrderItems.position));

  /** The order's items: those the sync stored, else (an order made before its items were read) asked to the marketplace and stored. */
  async function itemsOf(tenant: Tenant, order: Awaited<ReturnType<typeof orderOf>>, refresh = false) {
    const stored = refresh ? [] : await storedItems(tenant, order.id);
    if (stored.length) return stored;
    if (!order.sourceId) return [];
    const source = await loadSource(db, app.secrets, tenant.companyId, order.sourceId);
    let remote: RemoteOrderItem[];
    try {
      remote = await adapterFor(source, { interactive: true }).orderItems(order.externalId);
    } catch (error) {
      throw httpErrorOf(error);
    }
    await db.transaction(async (tx) => {
      await writeOrderItems(tx as unknown as Db, source, order.id, remote);
      if (remote.length) {
        await tx
          .update(marketplaceOrdersTable)
          .set({ status: marketplaceOrderStatusOf(remote.map((i) => i.status)), itemsCount: remote.length, updatedAt: new Date() } as never)
          .where(and(eq(orders.companyId, tenant.companyId), eq(orders.id, order.id)));
      }
    });
    return storedItems(tenant, order.id);
  }

  app.get(
    '/marketplace-orders/:id/items',
    { config: perm('read'), schema: { tags: ['marketplace-orders'], params: idParams, response: { 200: marketplaceOrderItemsOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const order = await orderOf(tenant, request.params.id);
      return { payload: (await itemsOf(tenant, order)).map(itemOut) };
    },
  );

  app.get(
    '/marketplace-orders/:id/documents',
    { config: perm('read'), schema: { tags: ['marketplace-orders'], params: idParams, querystring: marketplaceDocumentQuery } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const order = await orderOf(tenant, request.params.id);
      const type = request.query.DocumentType;
      if (!order.sourceId) throw new AppError('CONFLICT', 'La orden ya no tiene fuente de marketplace');
      const items = await itemsOf(tenant, order);
      if (!items.length) throw new AppError('NOT_FOUND', 'La orden no tiene artículos en el marketplace');
      const source = await loadSource(db, app.secrets, tenant.companyId, order.sourceId);
      let doc: Awaited<ReturnType<ReturnType<typeof adapterFor>['document']>>;
      try {
        doc = await adapterFor(source, { interactive: true }).document(type, items.map((i) => i.externalId));
      } catch (error) {
        throw httpErrorOf(error);
      }
      const ext = doc.mimeType === 'application/pdf' ? 'pdf' : doc.mimeType.startsWith('text/html') ? 'html' : doc.mimeType.startsWith('text/') ? 'txt' : 'bin';
      const label = marketplaceDocumentTypeLabels[type].normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const name = `${label}-${String(order.orderNumber).replace(/[^\w.-]/g, '')}.${ext}`;
      return reply
        .type(doc.mimeType)
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(doc.file);
    },
  );

  app.post(
    '/marketplace-orders/:id/ready-to-ship',
    { config: perm('update'), schema: { tags: ['marketplace-orders'], params: idParams, response: { 200: marketplaceReadyToShipOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const order = await orderOf(tenant, request.params.id);
      if (!order.sourceId) throw new AppError('CONFLICT', 'La orden ya no tiene fuente de marketplace');
      const items = await itemsOf(tenant, order);
      const pending = items.filter((i) => i.status === 'pending');
      if (!pending.length) throw new AppError('CONFLICT', 'La orden no tiene artículos pendientes: ya está lista para enviar, enviada o cerrada');
      const source = await loadSource(db, app.secrets, tenant.companyId, order.sourceId);
      try {
        await adapterFor(source, { interactive: true }).readyToShip(
          pending.map((i) => i.externalId),
          pending.find((i) => i.packageId)?.packageId ?? undefined,
        );
      } catch (error) {
        throw httpErrorOf(error);
      }
      await itemsOf(tenant, order, true);
      const saved = await orderRepo.get(db, tenant, order.id);
      return { msg: `Orden ${order.orderNumber} lista para enviar en ${source.name}`, order: saved as z.infer<(typeof resources)['marketplace-orders']['entity']> };
    },
  );

};
