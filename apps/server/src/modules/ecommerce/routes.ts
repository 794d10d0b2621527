import {
  type ConnectionProblem,
  connectionTestOut,
  copyMultimediaBody,
  copyMultimediaOut,
  countryCodes,
  crossoverOut,
  crossoverQuery,
  pushResult,
  resources,
  sizesOut,
  storeAttributesOut,
  storeCategoriesOut,
  syncAllBody,
  syncRunOut,
  syncRunsOut,
  syncSelectedBody,
  syncStarted,
  variationBatchBody,
  variationBatchOut,
  variationOut,
  variationPatch,
  zCountry,
  zId,
} from '@mostrador/contract';
import { and, asc, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { ecommerceSyncRuns, woocommerceLinks } from '../../db/ecommerce-tables.js';
import { ecommercesAttributesTable, ecommercesCategoriesTable, ecommercesTable, ecommercesVariationsTable, woocommercesTable } from '../../db/resource-tables.js';
import { assertTargetUrl, rethrowRefusalAs400 } from '../../integrations/outbound.js';
import { WooError } from '../../integrations/woocommerce/client.js';
import { isSandboxUrl, sandboxImageSvg } from '../../integrations/woocommerce/sandbox.js';
import { AppError } from '../../lib/errors.js';
import { containsPattern } from '../../lib/list.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { onWrite, repositoryOf } from '../../resources/crud.js';
import type { ResourceTable } from '../../db/table-for.js';
import { pushOne } from './push.js';
import { clientFor, loadStore, storesOf } from './store.js';
import { ecommerceJobs, SYNC_QUEUE } from './jobs.js';
import { createSyncEngine, runOut } from './sync.js';
import { woocommerceWebhookRoutes } from './webhooks.js';

const C = (t: ResourceTable) => t as unknown as Record<string, AnyPgColumn>;
const products = C(ecommercesTable);
const variations = C(ecommercesVariationsTable);
const idParams = z.object({ id: zId() });
const variationParams = z.object({ id: zId(), variationId: zId() });
// a store's address written as an internal one is refused on save; what its name resolves to, on every call
onWrite('woocommerces', (store) => assertTargetUrl(store.url as string | undefined, 'url', { base: true }));

/** Which part of a store's settings a failed call points at (the screen marks it). */
const problemOf = (error: WooError): ConnectionProblem =>
  error.kind === 'network' || error.kind === 'not-woocommerce' || error.kind === 'refused'
    ? 'url'
    : error.kind === 'auth'
      ? 'keys'
      : error.kind === 'read-only' || error.kind === 'permission'
        ? 'permissions'
        : 'store';
const perm = (module: 'ecommerce' | 'integrations', action: 'list' | 'read' | 'update' | 'create') => ({ permission: { module, action } });

/**
 * The store calls of SPEC §7 "Ecommerce products" and the store's connection test and sync jobs
 * (issue 12, decision 0034). Everything is scoped to the caller's company through `tenantOf`
 * and the repository; a store's keys are opened only here to call it.
 */
export const ecommerceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const engine = createSyncEngine({ db, secrets: app.secrets, realtime: app.realtime, log: app.log });
  const productRepo = repositoryOf(resources.ecommerces, app.secrets);
  const variationRepo = repositoryOf(resources['ecommerces-variations'], app.secrets);
  const tags = ['ecommerces'];

  await ecommerceJobs(app);

  await app.register(woocommerceWebhookRoutes);

  const storeNames = async (tenant: Tenant) => new Map((await storesOf(db, app.secrets, tenant.companyId)).map((s) => [s.id, s]));

  async function startRuns(tenant: Tenant, targets: Array<{ storeId: string; kind: 'all' | 'selected'; params?: Record<string, unknown> }>) {
    const stores = await storeNames(tenant);
    const out = [];
    for (const target of targets) {
      const store = stores.get(target.storeId);
      if (!store) throw new AppError('NOT_FOUND', 'La tienda no existe');
      // a store saved before its address was judged is refused here too (the job would fail on its first call)
      assertTargetUrl(store.url, 'url', { base: true });
      const { row, fresh } = await engine.start(store, target.kind, target.params);
      if (fresh) await app.jobs.send(SYNC_QUEUE, { runId: row.id }, { singletonKey: row.id });
      out.push(runOut(row, store));
    }
    return out;
  }

  // ---- stores: connection test ------------------------------------------------------------
  app.post(
    '/woocommerces/:id/test',
    { config: perm('integrations', 'read'), schema: { tags: ['woocommerces'], params: idParams, response: { 200: connectionTestOut } } },
    async (request) => {
      const store = await loadStore(db, app.secrets, tenantOf(request).companyId, request.params.id);
      const client = clientFor(store, { test: true });
      let products: number;
      try {
        products = (await client.page('/products', 1, {}, 1)).total;
      } catch (error) {
        // an address the outbound client refuses is a setting to fix: a 400 on the store's URL
        rethrowRefusalAs400(error, 'url');
        return error instanceof WooError ? { ok: false, msg: error.msg, problem: problemOf(error) } : { ok: false, msg: 'No se pudo probar la conexión', problem: 'store' as const };
      }
      try {
        // an empty batch writes nothing: it only tells whether the keys may write
        await client.post('/products/batch', {});
      } catch (error) {
        if (error instanceof WooError) return { ok: false, msg: error.msg, problem: problemOf(error), products, canWrite: false };
        throw error;
      }
      const sandbox = isSandboxUrl(store.url) ? ' (tienda de prueba)' : '';
      return { ok: true, msg: `Conexión correcta con ${store.name}${sandbox}: ${products} productos, claves con permiso de lectura y escritura`, products, canWrite: true };
    },
  );

  // ---- sync jobs -----------------------------------------------------------------------------
  app.post('/ecommerces/sync-all', { config: perm('ecommerce', 'update'), schema: { tags, body: syncAllBody, response: { 202: syncStarted } } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const stores = await storeNames(tenant);
    if (request.body.storeId && !stores.has(request.body.storeId)) throw new AppError('NOT_FOUND', 'La tienda no existe');
    const ids = request.body.storeId ? [request.body.storeId] : [...stores.keys()];
    if (!ids.length) throw new AppError('VALIDATION', 'No hay tiendas WooCommerce: conecta una en /woocommerce');
    const runs = await startRuns(tenant, ids.map((storeId) => ({ storeId, kind: 'all' as const })));
    return reply.status(202).send({ msg: runs.length === 1 ? 'Sincronización iniciada' : `${runs.length} sincronizaciones iniciadas`, runs });
  });

  app.post('/ecommerces/sync-selected', { config: perm('ecommerce', 'update'), schema: { tags, body: syncSelectedBody, response: { 202: syncStarted } } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const ids = [...new Set(request.body.ids)];
    const rows = await db
      .select({ id: products.id, country: products.country })
      .from(ecommercesTable)
      .where(and(eq(products.companyId, tenant.companyId), inArray(products.id, ids)));
    if (rows.length < ids.length) throw new AppError('VALIDATION', 'Algún producto no existe en esta compañía', [{ path: 'ids', msg: 'No existe en esta compañía' }]);
    const stores = [...(await storeNames(tenant)).values()];
    const targets: Array<{ storeId: string; kind: 'selected'; params: Record<string, unknown> }> = [];
    const missing = new Set<string>();
    for (const country of new Set(rows.map((r) => r.country as string))) {
      const store = stores.find((s) => s.country === country);
      if (!store) missing.add(country);
      else targets.push({ storeId: store.id, kind: 'selected', params: { ids: rows.filter((r) => r.country === country).map((r) => r.id) } });
    }
    if (!targets.length) throw new AppError('VALIDATION', `No hay tienda WooCommerce para ${[...missing].join(', ')}`);
    const runs = await startRuns(tenant, targets);
    const note = missing.size ? ` (sin tienda: ${[...missing].join(', ')})` : '';
    return reply.status(202).send({ msg: `Envío de ${rows.length} productos iniciado${note}`, runs });
  });

  app.get(
    '/ecommerces/sync-runs',
    { config: perm('ecommerce', 'list'), schema: { tags, querystring: z.object({ storeId: zId().optional() }).strict(), response: { 200: syncRunsOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const stores = await storeNames(tenant);
      const rows = await db
        .select()
        .from(ecommerceSyncRuns)
        .where(and(eq(ecommerceSyncRuns.companyId, tenant.companyId), request.query.storeId ? eq(ecommerceSyncRuns.storeId, request.query.storeId) : undefined))
        .orderBy(desc(ecommerceSyncRuns.createdAt))
        .limit(20);
      return { payload: rows.filter((r) => stores.has(r.storeId)).map((r) => runOut(r, stores.get(r.storeId) as { name: string; country: string })) };
    },
  );
  app.get('/ecommerces/sync-runs/:id', { config: perm('ecommerce', 'read'), schema: { tags, params: idParams, response: { 200: syncRunOut } } }, async (request) => {
    const tenant = tenantOf(request);
    const [row] = await db
      .select()
      .from(ecommerceSyncRuns)
      .where(and(eq(ecommerceSyncRuns.companyId, tenant.companyId), eq(ecommerceSyncRuns.id, request.params.id)));
    const store = row && (await storeNames(tenant)).get(row.storeId);
    if (!row || !store) throw new AppError('NOT_FOUND');
    return runOut(row, store);
  });

  // ---- reads ---------------------------------------------------------------------------------
  app.get('/ecommerces/sizes', { config: perm('ecommerce', 'list'), schema: { tags, response: { 200: sizesOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const { rows } = await db.execute<{ size: string }>(sql`
      select distinct size from (
        select jsonb_array_elements_text(coalesce(${products.sizes}, '[]'::jsonb)) as size from ${ecommercesTable} where ${products.companyId} = ${companyId}
        union
        select a->>'value' from ${ecommercesVariationsTable}, jsonb_array_elements(${variations.attributes}) a
          where ${variations.companyId} = ${companyId} and lower(a->>'nombre') in ('talla', 'tallas', 'size')
      ) s where size is not null order by size`);
    return { payload: rows.map((r) => r.size) };
  });

  app.get('/ecommerces/categories', { config: perm('ecommerce', 'list'), schema: { tags, response: { 200: storeCategoriesOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const { rows } = await db.execute<{
      id: string;
      name: string;
      slug: string;
      parent: number;
      external_id: number | null;
      country: string | null;
      foreign_label_id: string | null;
      products: number;
    }>(sql`
      select c.id, c.name, c.slug, c.parent, c.external_id, c.country, c.foreign_label_id,
        (select count(*)::int from ${ecommercesTable} p where p.company_id = ${companyId} and p.category_ids ? c.id::text) as products
      from ${ecommercesCategoriesTable} c where c.company_id = ${companyId} order by c.country nulls first, c.parent, c.name limit 5000`);
    return {
      payload: rows.map((r) => ({
        _id: r.id,
        name: r.name,
        slug: r.slug,
        parent: Number(r.parent),
        ...(r.external_id != null ? { id: Number(r.external_id) } : {}),
        ...(r.country ? { country: r.country } : {}),
        ...(r.foreign_label_id ? { foreignLabelId: r.foreign_label_id } : {}),
        products: Number(r.products),
      })),
    };
  });

  const attributes = async (companyId: string, withValues: boolean) => {
    const a = C(ecommercesAttributesTable);
    const rows = (await db.select().from(ecommercesAttributesTable).where(eq(a.companyId, companyId)).orderBy(asc(a.nombre)).limit(5000)) as unknown as Array<{
      id: string;
      nombre: string;
      woocommerceId: number;
      country: string;
      terms: Array<{ name: string }>;
    }>;
    return {
      payload: rows.map((r) => ({ _id: r.id, nombre: r.nombre, woocommerceId: r.woocommerceId, country: r.country, ...(withValues ? { values: (r.terms ?? []).map((t) => t.name) } : {}) })),
    };
  };
  app.get('/ecommerces/attributes', { config: perm('ecommerce', 'list'), schema: { tags, response: { 200: storeAttributesOut } } }, (request) =>
    attributes(tenantOf(request).companyId, false),
  );
  app.get('/ecommerces/attributes-with-values', { config: perm('ecommerce', 'list'), schema: { tags, response: { 200: storeAttributesOut } } }, (request) =>
    attributes(tenantOf(request).companyId, true),
  );

  app.get(
    '/ecommerces/crossover/country/:country',
    { config: perm('ecommerce', 'list'), schema: { tags, params: z.object({ country: zCountry() }), querystring: crossoverQuery, response: { 200: crossoverOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const { country } = request.params;
      const q = request.query;
      const search = q.filter ? or(ilike(products.name, containsPattern(q.filter)), ilike(products.sku, containsPattern(q.filter))) : undefined;
      const where = and(eq(products.companyId, companyId), eq(products.country, country), search);
      const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(ecommercesTable).where(where)) as Array<{ n: number }>;
      const rows = (await db
        .select()
        .from(ecommercesTable)
        .where(where)
        .orderBy(desc(products.createdAt), desc(products.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)) as unknown as Array<Record<string, unknown> & { id: string; sku: string }>;
      const skus = rows.map((r) => r.sku);
      const others = skus.length
        ? ((await db
            .select()
            .from(ecommercesTable)
            .where(and(eq(products.companyId, companyId), ne(products.country, country), inArray(products.sku, skus)))) as unknown as Array<Record<string, unknown> & { id: string; sku: string }>)
        : [];
      const ids = [...rows, ...others].map((r) => r.id);
      const counts = new Map<string, number>();
      if (ids.length) {
        const vc = await db
          .select({ id: variations.ecommerceId, n: sql<number>`count(*)::int` })
          .from(ecommercesVariationsTable)
          .where(and(eq(variations.companyId, companyId), inArray(variations.ecommerceId, ids)))
          .groupBy(variations.ecommerceId);
        for (const r of vc) counts.set(r.id as string, Number(r.n));
      }
      const storeCountries = [...new Set((await storesOf(db, app.secrets, companyId)).map((s) => s.country))].filter((c) => c !== country);
      const side = (r: Record<string, unknown> & { id: string }) => ({
        _id: r.id,
        country: String(r.country),
        name: String(r.name),
        price: Number(r.price),
        ...(r.regularPrice != null ? { regularPrice: Number(r.regularPrice) } : {}),
        stock: Number(r.stock),
        status: r.status as 'publish' | 'draft' | 'private',
        variations: counts.get(r.id) ?? 0,
      });
      let payload = rows.map((r) => {
        const product = side(r);
        const mine = others.filter((o) => o.sku === r.sku).map(side);
        const differences = (['name', 'price', 'stock', 'status', 'variations'] as const).filter((f) => mine.some((o) => o[f] !== product[f]));
        const missingIn = storeCountries.filter((c) => !mine.some((o) => o.country === c));
        return { sku: r.sku, product, others: mine, missingIn, differences: missingIn.length ? [...differences, 'tiendas'] : differences };
      });
      if (q.onlyDifferent === 'true') payload = payload.filter((p) => p.differences.length);
      return { payload, totalDocs: Number(n), totalPages: Math.max(1, Math.ceil(Number(n) / q.limit)), page: q.page, limit: q.limit };
    },
  );

  // ---- writes --------------------------------------------------------------------------------
  app.patch(
    '/ecommerces/v2/:id',
    {
      config: perm('ecommerce', 'update'),
      schema: { tags, params: idParams, body: resources.ecommerces.patch, response: { 200: z.object({ product: resources.ecommerces.entity, sync: pushResult }) } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const product = await productRepo.update(db, tenant, request.params.id, request.body as Record<string, unknown>);
      const sync = await pushOne(db, app.secrets, tenant.companyId, product._id);
      return { product: (await productRepo.get(db, tenant, product._id)) as z.infer<typeof resources.ecommerces.entity>, sync };
    },
  );

  async function variationOf(tenant: Tenant, productId: string, variationId: string) {
    await productRepo.get(db, tenant, productId);
    const v = await variationRepo.get(db, tenant, variationId);
    if (v.ecommerceId !== productId) throw new AppError('NOT_FOUND', 'La variación no es de este producto');
    return v;
  }

  app.put(
    '/ecommerces/:id/variations/:variationId',
    { config: perm('ecommerce', 'update'), schema: { tags, params: variationParams, body: variationPatch, response: { 200: variationOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      await variationOf(tenant, request.params.id, request.params.variationId);
      return (await variationRepo.update(db, tenant, request.params.variationId, request.body)) as z.infer<typeof variationOut>;
    },
  );

  app.post(
    '/ecommerces/:id/variations/:variationId',
    { config: perm('ecommerce', 'update'), schema: { tags, params: variationParams, response: { 200: pushResult } } },
    async (request) => {
      const tenant = tenantOf(request);
      await variationOf(tenant, request.params.id, request.params.variationId);
      return pushOne(db, app.secrets, tenant.companyId, request.params.id);
    },
  );

  app.post(
    '/ecommerces/:id/variations/batch',
    { config: perm('ecommerce', 'update'), schema: { tags, params: idParams, body: variationBatchBody, response: { 200: variationBatchOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const product = await productRepo.get(db, tenant, request.params.id);
      const body = request.body;
      const mine = async (ids: string[]) => {
        if (!ids.length) return;
        const found = await db
          .select({ id: variations.id })
          .from(ecommercesVariationsTable)
          .where(and(eq(variations.companyId, tenant.companyId), eq(variations.ecommerceId, product._id), inArray(variations.id, ids)));
        if (found.length < new Set(ids).size) throw new AppError('VALIDATION', 'Alguna variación no es de este producto', [{ path: 'update', msg: 'No es de este producto' }]);
      };
      await mine([...(body.update ?? []).map((u) => u._id), ...(body.delete ?? [])]);
      const out = { create: [] as unknown[], update: [] as unknown[], delete: [] as Array<{ _id: string }> };
      // removed ones are deleted in the store too, in the same batch as the rest is pushed
      const removedRemote: number[] = [];
      await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        for (const c of body.create ?? []) out.create.push(await variationRepo.create(t, tenant, { ...c, ecommerceId: product._id }));
        for (const { _id, ...patch } of body.update ?? []) out.update.push(await variationRepo.update(t, tenant, _id, patch));
        for (const id of body.delete ?? []) {
          const [link] = await t
            .select()
            .from(woocommerceLinks)
            .where(and(eq(woocommerceLinks.companyId, tenant.companyId), eq(woocommerceLinks.kind, 'variation'), eq(woocommerceLinks.recordId, id)));
          if (link) {
            removedRemote.push(link.remoteId);
            await t.delete(woocommerceLinks).where(and(eq(woocommerceLinks.storeId, link.storeId), eq(woocommerceLinks.kind, 'variation'), eq(woocommerceLinks.remoteId, link.remoteId)));
          }
          await variationRepo.remove(t, tenant, id);
          out.delete.push({ _id: id });
        }
      });
      let sync = await pushOne(db, app.secrets, tenant.companyId, product._id);
      if (removedRemote.length && sync.status !== 'no-store' && typeof product.woocommerceId === 'number') {
        const stores = await storesOf(db, app.secrets, tenant.companyId);
        const store = stores.find((s) => s.country === product.country);
        if (store) {
          try {
            await clientFor(store).batch(`/products/${product.woocommerceId}/variations`, { delete: removedRemote });
            if (sync.status === 'unchanged') sync = { status: 'synced', msg: `Guardado y enviado a ${store.name}` };
          } catch (error) {
            sync = { status: 'failed', msg: `Guardado, pero no se pudieron borrar en ${store.name}: ${error instanceof WooError ? error.msg : 'error interno'}` };
          }
        }
      }
      return { ...(out as z.infer<typeof variationBatchOut>), sync };
    },
  );

  app.post(
    '/ecommerces/copy-multimedia-ref-copys',
    { config: perm('ecommerce', 'update'), schema: { tags, body: copyMultimediaBody, response: { 200: copyMultimediaOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const ref = await productRepo.get(db, tenant, request.body.referenceId);
      const countries = request.body.countries?.filter((c) => c !== ref.country) ?? countryCodes.filter((c) => c !== ref.country);
      if (!countries.length) throw new AppError('VALIDATION', 'Elige al menos un país distinto al del producto de referencia', [{ path: 'countries', msg: 'Distinto al del producto de referencia' }]);
      const targets = (await db
        .select({ id: products.id, country: products.country })
        .from(ecommercesTable)
        .where(and(eq(products.companyId, tenant.companyId), eq(products.sku, String(ref.sku)), ne(products.id, ref._id), inArray(products.country, countries)))) as Array<{
        id: string;
        country: string;
      }>;
      if (!targets.length) {
        return { msg: `Ningún otro país tiene el SKU ${String(ref.sku)}: no se copió nada`, updated: [], runs: [] };
      }
      // the reference's pictures and its texts (description); name, prices and stock stay each store's own
      await db
        .update(ecommercesTable)
        .set({ imageUrl: ref.imageUrl ?? null, description: ref.description ?? null, updatedAt: new Date() } as never)
        .where(and(eq(products.companyId, tenant.companyId), inArray(products.id, targets.map((t) => t.id))));
      const stores = await storesOf(db, app.secrets, tenant.companyId);
      const runs = await startRuns(
        tenant,
        [...new Set(targets.map((t) => t.country))]
          .map((c) => stores.find((s) => s.country === c))
          .filter((s): s is NonNullable<typeof s> => !!s)
          .map((s) => ({ storeId: s.id, kind: 'selected' as const, params: { ids: targets.filter((t) => t.country === s.country).map((t) => t.id) } })),
      );
      return { msg: `Imágenes y textos copiados a ${targets.length} productos`, updated: targets.map((t) => ({ _id: t.id, country: t.country })), runs };
    },
  );

  // the sandbox stores' product pictures, served by the product itself (no internet in the demo)
  app.get(
    '/woocommerce-sandbox/media/:file',
    { config: { public: true }, schema: { tags: ['woocommerces'], params: z.object({ file: z.string().regex(/^[a-z0-9-]{1,60}\.svg$/, 'Archivo no válido') }) } },
    async (request, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(sandboxImageSvg(request.params.file)),
  );

  void woocommercesTable;
};
