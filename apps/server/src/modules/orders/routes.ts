import {
  chatOrderDraftOut,
  chatOrderInput,
  chatOrderOut,
  ORDERS_ALL_MAX,
  orderPlaceInput,
  orderPlaceOut,
  orderStatusInput,
  orderTokenParams,
  publicCatalogOut,
  publicCatalogQuery,
  publicOrder,
  publicProductsOut,
  publicProductsQuery,
  resources,
  zId,
} from '@mostrador/contract';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { onRemoval, repositoryOf } from '../../resources/crud.js';
import { productImageSvg } from './product-images.js';
import { createPublicCatalog } from './public-catalog.js';
import { idempotencyKeyOf } from '../../lib/idempotency.js';
import { createOrders, ORDER_RATE_WINDOW_MINUTES } from './service.js';

const idParams = z.object({ id: zId() });

// an order deleted from /ordenes (decision 0032): open lists drop it without a reload
onRemoval('orders', {
  after: (app, companyId, order) =>
    app.realtime.publish(companyId, { type: 'order.updated', orderId: String(order._id), code: String(order.code ?? ''), status: 'deleted', created: false }),
});

/** The repository answers records as the resource's wire shape (its entity). */
type CatalogOut = z.infer<typeof resources.catalogs.entity>;
type OrderOut = z.infer<typeof resources.orders.entity>;

/**
 * The company's own catalogue and orders (issue 12; decisions 0031, 0032):
 * - GET /catalogs/default, POST /catalogs/{id}/default (the spec's catalogue calls; GET
 *   /catalogs/{id} is the standard resource's);
 * - the public digital catalogue: GET /catalogo-digital/{id} (or ?company= for its default),
 *   GET /catalogo-digital/{id}/products, and the product pictures of the demo;
 * - POST /orders/place (public, Idempotency-Key, rate-limited per client address), GET
 *   /orders/all, POST /orders/{id}/status, GET /orders/public/{token} (the customer's page).
 *   GET /orders and GET /orders/{id} are the standard resource's.
 */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const orders = createOrders(app.secrets);
  const catalogs = repositoryOf(resources.catalogs, app.secrets);
  const orderRepo = repositoryOf(resources.orders, app.secrets);
  const shop = createPublicCatalog();
  const tags = ['orders'];

  app.get(
    '/catalogs/default',
    { config: { permission: { module: 'catalog', action: 'read' } }, schema: { tags: ['catalogs'], response: { 200: resources.catalogs.entity } } },
    async (request) => {
      const tenant = tenantOf(request);
      const [found] = (await db.execute(sql`select id from catalogs where company_id = ${tenant.companyId} and is_default`)).rows as Array<{ id: string }>;
      if (!found) throw new AppError('NOT_FOUND', 'La compañía no tiene un catálogo predeterminado');
      return (await catalogs.get(db, tenant, found.id)) as CatalogOut;
    },
  );

  app.post(
    '/catalogs/:id/default',
    {
      config: { permission: { module: 'catalog', action: 'update' } },
      schema: { tags: ['catalogs'], params: idParams, response: { 200: resources.catalogs.entity } },
    },
    // the flag moves in one transaction (the repository's onlyOne): never two defaults, never none in between
    async (request) => (await catalogs.update(db, tenantOf(request), request.params.id, { isDefault: true })) as CatalogOut,
  );

  // ── the public digital catalogue ──
  app.get(
    '/catalogo-digital',
    { config: { public: true }, schema: { tags: ['catalogo-digital'], querystring: publicCatalogQuery, response: { 200: publicCatalogOut } } },
    async (request) => {
      if (!request.query.company) throw new AppError('NOT_FOUND', 'Abre el catálogo con el enlace que te compartió la tienda');
      return shop.catalog(app.database.pool, { company: request.query.company });
    },
  );
  app.get(
    '/catalogo-digital/:id',
    { config: { public: true }, schema: { tags: ['catalogo-digital'], params: idParams, response: { 200: publicCatalogOut } } },
    async (request) => shop.catalog(app.database.pool, { id: request.params.id }),
  );
  app.get(
    '/catalogo-digital/:id/products',
    {
      config: { public: true },
      schema: { tags: ['catalogo-digital'], params: idParams, querystring: publicProductsQuery, response: { 200: publicProductsOut } },
    },
    async (request) => shop.products(app.database.pool, request.params.id, request.query),
  );
  app.get(
    '/product-images/:name',
    { config: { public: true }, schema: { tags: ['catalogo-digital'], params: z.object({ name: z.string().regex(/^[a-z0-9-]{1,80}\.svg$/, 'Imagen no válida') }) } },
    async (request, reply) =>
      reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .send(productImageSvg(request.params.name.replace(/\.svg$/, ''))),
  );

  // ── orders ──
  app.post(
    '/orders/place',
    {
      // ORDER_RATE_LIMIT placements per client address per 10 minutes, counted with the request (decision 0004)
      config: {
        public: true,
        rateLimit: {
          name: 'orders.place',
          points: app.settings.orderRateLimit,
          windowSeconds: ORDER_RATE_WINDOW_MINUTES * 60,
          msg: 'Demasiados pedidos desde esta conexión: espera {wait} e inténtalo de nuevo',
        },
      },
      schema: {
        tags,
        body: orderPlaceInput,
        headers: z.object({ 'idempotency-key': z.string().optional() }).passthrough(),
        response: { 200: orderPlaceOut, 201: orderPlaceOut },
      },
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request, { required: true }) as string;
      // committed: the open /ordenes hear of the order, and its chat of its summary, from their events (spine/listeners.ts)
      const { out, created } = await orders.place(db, request.body, { key });
      return reply.status(created ? 201 : 200).send(out);
    },
  );

  app.get(
    '/orders/public/:token',
    { config: { public: true }, schema: { tags, params: orderTokenParams, response: { 200: publicOrder } } },
    async (request) => orders.byToken(db, request.params.token),
  );

  app.get(
    '/orders/all',
    {
      config: { permission: { module: 'catalog', action: 'list' } },
      schema: { tags, querystring: resources.orders.listQuery, response: { 200: z.object({ payload: z.array(resources.orders.entity.partial()) }) } },
    },
    async (request) => orderRepo.all(db, tenantOf(request), request.query, ORDERS_ALL_MAX),
  );

  app.post(
    '/orders/:id/status',
    {
      config: { permission: { module: 'catalog', action: 'update' } },
      schema: { tags, params: idParams, body: orderStatusInput, response: { 200: resources.orders.entity } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const moved = await orders.move(db, tenant.companyId, request.params.id, request.body.status);
      // the open screens hear of it from its event (order.status_changed, spine/listeners.ts)
      return (await orderRepo.get(db, tenant, moved.id)) as OrderOut;
    },
  );
  // ── orders built in a chat (issue 30, decision 0088): selling is the chat's work, so the chats
  // module's permission (an agent who answers the chat builds its order), row-scoped by the chat (plugins/row-scope.ts) ──
  app.get(
    '/chats/:id/order-draft',
    { config: { permission: { module: 'chats', action: 'read' } }, schema: { tags, params: idParams, response: { 200: chatOrderDraftOut } } },
    async (request) => orders.draftForChat(db, tenantOf(request).companyId, request.params.id),
  );

  app.post(
    '/chats/:id/orders',
    {
      config: { permission: { module: 'chats', action: 'create' } },
      schema: {
        tags,
        params: idParams,
        body: chatOrderInput,
        headers: z.object({ 'idempotency-key': z.string().optional() }).passthrough(),
        response: { 200: chatOrderOut, 201: chatOrderOut },
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      // without a key every call is a new order; the dialog sends one, so a double click is one
      const key = `chat:${idempotencyKeyOf(request) ?? randomUUID()}`;
      const { out, created } = await orders.fromChat(db, tenant.companyId, tenant.userId, request.params.id, request.body, key);
      return reply.status(created ? 201 : 200).send(out);
    },
  );
};
