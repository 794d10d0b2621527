import {
  markPaidIn,
  markPaidOut,
  mercadoPagoSettingsIn,
  mercadoPagoSettingsOut,
  mercadoPagoTestOut,
  paymentLinkOut,
  paymentsOut,
  proofImagesOut,
  sendOrderIn,
  sendOrderOut,
  zId,
} from '@mostrador/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditSettings } from '../../db/audit.js';
import { paymentSettings } from '../../db/payment-tables.js';
import { MercadoPagoError } from '../../integrations/mercadopago/client.js';
import { verifySignature } from '../../integrations/mercadopago/signature.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { randomUUID } from 'node:crypto';
import { createChatService } from '../chats/service.js';
import { createPayments, type Settings, settingsOf } from './service.js';

const idParams = z.object({ id: zId() });
const companyParams = z.object({ companyId: zId() });
const notificationQuery = z
  .object({
    'data.id': z.string().max(100).optional(),
    type: z.string().max(100).optional(),
    topic: z.string().max(100).optional(),
  })
  .loose();

/**
 * Payments of the company's own orders (issue 30, decisions 0083 and 0084): the company's
 * Mercado Pago credentials and their test, an order's Checkout Pro link, its manual payment and
 * its payments; Mercado Pago's notification (public: its x-signature is the proof).
 */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const payments = createPayments({ secrets: app.secrets, apiUrl: app.settings.mercadoPagoApiUrl, publicUrl: app.settings.publicUrl });
  const tags = ['payments'];
  const notificationUrl = (companyId: string) => `${app.settings.publicUrl}/api/webhooks/mercadopago/${companyId}`;
  const settingsOut = (companyId: string, s: Settings | undefined) => ({
    configured: !!s,
    accessTokenSet: !!s?.accessToken,
    webhookSecretSet: !!s?.webhookSecret,
    ...(s?.publicKey ? { publicKey: s.publicKey } : {}),
    sandbox: s?.sandbox ?? false,
    notificationUrl: notificationUrl(companyId),
    ...(s ? { updatedAt: s.updatedAt.toISOString() } : {}),
  });

  // ---- settings -----------------------------------------------------------------------------------
  app.get(
    '/payments/mercadopago/settings',
    { config: { permission: { module: 'integrations', action: 'read' } }, schema: { tags, response: { 200: mercadoPagoSettingsOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      return settingsOut(companyId, await settingsOf(db, companyId));
    },
  );

  app.put(
    '/payments/mercadopago/settings',
    { config: { permission: { module: 'integrations', action: 'update' } }, schema: { tags, body: mercadoPagoSettingsIn, response: { 200: mercadoPagoSettingsOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const { accessToken, webhookSecret, publicKey, sandbox } = request.body;
      const current = await settingsOf(db, companyId);
      if (!accessToken && !current) throw new AppError('VALIDATION', 'Escribe el access token de Mercado Pago', [{ path: 'accessToken', msg: 'Escribe el access token' }]);
      if (!webhookSecret && !current) {
        throw new AppError('VALIDATION', 'Escribe la clave secreta de las notificaciones', [{ path: 'webhookSecret', msg: 'Escribe la clave secreta (Webhooks → Configurar notificaciones)' }]);
      }
      if (sandbox && accessToken && !accessToken.startsWith('sandbox')) {
        throw new AppError('VALIDATION', 'El access token del sandbox empieza con «sandbox»', [{ path: 'accessToken', msg: 'El access token del sandbox empieza con «sandbox»' }]);
      }
      const values = {
        accessToken: accessToken ? app.secrets.seal(accessToken) : (current?.accessToken as string),
        webhookSecret: webhookSecret ? app.secrets.seal(webhookSecret) : (current?.webhookSecret as string),
        publicKey: publicKey?.trim() || null,
        sandbox,
        updatedAt: new Date(),
      };
      await db.transaction(async (tx) => {
        const where = and(eq(paymentSettings.companyId, companyId), eq(paymentSettings.provider, 'mercadopago'));
        const [before] = await tx.select().from(paymentSettings).where(where).for('update');
        const [after] = await tx
          .insert(paymentSettings)
          .values({ companyId, provider: 'mercadopago', ...values })
          .onConflictDoUpdate({ target: [paymentSettings.companyId, paymentSettings.provider], set: values })
          .returning();
        await auditSettings(tx, { companyId, entity: 'payment_settings', entityId: 'mercadopago', before, after, secrets: ['accessToken', 'webhookSecret'] });
      });
      return settingsOut(companyId, await settingsOf(db, companyId));
    },
  );

  app.post(
    '/payments/mercadopago/test',
    { config: { permission: { module: 'integrations', action: 'read' } }, schema: { tags, response: { 200: mercadoPagoTestOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const settings = await settingsOf(db, companyId);
      if (!settings) throw new AppError('NOT_FOUND', 'No hay credenciales de Mercado Pago: guárdalas primero');
      try {
        const me = await payments.clientFor(settings).me();
        const sandbox = settings.sandbox ? ' (sandbox: los pagos son simulados, no se cobra a nadie)' : '';
        return { ok: true, msg: `Conexión correcta con Mercado Pago: cuenta ${me.nickname}${sandbox}` };
      } catch (error) {
        if (error instanceof MercadoPagoError) return { ok: false, msg: error.msg };
        throw error;
      }
    },
  );

  // ---- an order's payments -----------------------------------------------------------------------
  const orderTags = ['orders'];
  app.post(
    '/orders/:id/payment-link',
    { config: { permission: { module: 'catalog', action: 'update' } }, schema: { tags: orderTags, params: idParams, response: { 200: paymentLinkOut } } },
    async (request) => {
      try {
        return await payments.paymentLink(db, tenantOf(request).companyId, request.params.id);
      } catch (error) {
        if (error instanceof MercadoPagoError) throw new AppError(error.kind === 'auth' ? 'CONFLICT' : 'PROVIDER_ERROR', error.msg);
        throw error;
      }
    },
  );

  // the order's summary, with its link when asked, to the customer in its chat — one action
  // (row-scoped by the chat: an agent sends in the chats they see; plugins/row-scope.ts)
  let chats: ReturnType<typeof createChatService> | undefined;
  app.post(
    '/chats/:id/orders/:orderId/send',
    {
      config: { permission: { module: 'chats', action: 'create' } },
      schema: { tags: orderTags, params: z.object({ id: zId(), orderId: zId() }), body: sendOrderIn, response: { 200: sendOrderOut } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const { id: chatId, orderId } = request.params;
      // the order must be this chat's before any link is made
      await payments.customerSummary(db, tenant.companyId, orderId, chatId);
      let url: string | undefined;
      if (request.body.paymentLink) {
        try {
          url = (await payments.paymentLink(db, tenant.companyId, orderId)).url;
        } catch (error) {
          if (error instanceof MercadoPagoError) throw new AppError(error.kind === 'auth' ? 'CONFLICT' : 'PROVIDER_ERROR', error.msg);
          throw error;
        }
      }
      const text = await payments.customerSummary(db, tenant.companyId, orderId, chatId, url);
      chats ??= createChatService({ db, secrets: app.secrets, realtime: app.realtime, jobs: app.jobs, config: app.settings, log: app.log });
      const message = await chats.send(tenant.companyId, chatId, { kind: 'text', text }, { sentBy: tenant.userId, messageId: randomUUID() });
      return { messageId: message._id, text, ...(url ? { url } : {}) };
    },
  );

  app.post(
    '/orders/:id/mark-paid',
    { config: { permission: { module: 'catalog', action: 'update' } }, schema: { tags: orderTags, params: idParams, body: markPaidIn, response: { 200: markPaidOut } } },
    async (request) => {
      const payment = await payments.markPaid(db, tenantOf(request), request.params.id, request.body);
      return { msg: 'Orden marcada como pagada', payment };
    },
  );

  app.get(
    '/orders/:id/payments',
    { config: { permission: { module: 'catalog', action: 'read' } }, schema: { tags: orderTags, params: idParams, response: { 200: paymentsOut } } },
    async (request) => ({ payload: await payments.list(db, tenantOf(request).companyId, request.params.id) }),
  );

  app.get(
    '/orders/:id/proof-images',
    { config: { permission: { module: 'catalog', action: 'read' } }, schema: { tags: orderTags, params: idParams, response: { 200: proofImagesOut } } },
    async (request) => ({ payload: await payments.proofImages(db, tenantOf(request).companyId, request.params.id) }),
  );

  // ---- Mercado Pago's notification ---------------------------------------------------------------
  app.post(
    '/webhooks/mercadopago/:companyId',
    { config: { public: true }, schema: { tags: ['webhooks'], params: companyParams, querystring: notificationQuery } },
    async (request, reply) => {
      const { companyId } = request.params;
      const dataId = request.query['data.id'];
      const header = (h: string) => {
        const v = request.headers[h];
        return Array.isArray(v) ? v[0] : v;
      };
      const requestId = header('x-request-id');
      const settings = await settingsOf(db, companyId);
      // a company without credentials has no secret to check with: refused like a bad signature, nothing written
      const secret = settings ? app.secrets.open<string>(settings.webhookSecret) : '';
      if (!settings || !dataId || !verifySignature(secret, header('x-signature'), dataId, requestId)) {
        throw new AppError('FORBIDDEN', 'La firma de la notificación de Mercado Pago no es válida');
      }
      const body = (request.body ?? {}) as { type?: unknown };
      const type = request.query.type ?? request.query.topic ?? (typeof body.type === 'string' ? body.type : undefined);
      if (type && type !== 'payment') return { received: true, result: 'ignored' };
      if (await payments.known(db, companyId, dataId, requestId)) return { received: true, result: 'unchanged' };
      try {
        const result = await payments.notified(db, settings, dataId, requestId);
        return { received: true, result };
      } catch (error) {
        if (error instanceof MercadoPagoError) {
          // a payment Mercado Pago does not know is no news; anything else is tried again by Mercado Pago
          if (error.kind === 'not-found') return { received: true, result: 'ignored' };
          request.log.warn({ companyId, paymentId: dataId, kind: error.kind }, 'mercadopago notification: payment not read');
          return reply.status(502).send({ errors: { code: 'PROVIDER_ERROR', msg: error.msg } });
        }
        throw error;
      }
    },
  );
};
