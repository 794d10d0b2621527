import {
  type Channel,
  type ChannelKind,
  type ChannelWebhooks,
  channelKindParams,
  channelList,
  channelOut,
  metaChannelInput,
  pageTestOut,
  whatsappChannelInput,
} from '@mostrador/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditSettings } from '../../db/audit.js';
import type { Db } from '../../db/database.js';
import { demoWebhookSecrets } from '../../config.js';
import { channels } from '../../db/join-tables.js';
import { pageTestMessages, testPageToken } from '../../integrations/meta/page-check.js';
import { AppError } from '../../lib/errors.js';
import { safeEqual } from '../../lib/safe-equal.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';

type Row = typeof channels.$inferSelect;

const kindOrder: Record<ChannelKind, number> = { whatsapp: 0, messenger: 1, instagram: 2 };

/** A channel as the browser sees it: never the token, only whether one is kept and its last 4 characters. */
function toWire(row: Row): Channel {
  const optional = (v: string | null) => v ?? undefined;
  return {
    _id: row.id,
    kind: row.kind as ChannelKind,
    providerId: row.providerId,
    businessAccountId: optional(row.businessAccountId),
    displayPhoneNumber: optional(row.displayPhoneNumber),
    name: optional(row.name),
    pageId: optional(row.pageId),
    accessTokenSet: Boolean(row.accessToken),
    accessTokenLast4: optional(row.accessTokenLast4),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const alreadyTaken: Record<ChannelKind, string> = {
  whatsapp: 'Ese número de WhatsApp (phone number id) ya está conectado a otra compañía',
  messenger: 'Esa página de Facebook ya está conectada a otra compañía',
  instagram: 'Esa cuenta de Instagram ya está conectada a otra compañía',
};
/** What the audit log masks of a channel, and leaves out (the token's last 4 say nothing the masked token does not). */
const CHANNEL_SECRETS = ['accessToken'];
const CHANNEL_HINTS = ['accessTokenLast4'];

const fieldOf: Record<ChannelKind, string> = { whatsapp: 'phoneNumberId', messenger: 'pageId', instagram: 'instagramAccountId' };

/**
 * Channel settings of the current company (the /whatsapp screen): its WhatsApp line and its
 * page with the linked Instagram account. A provider id belongs to one company only (the
 * webhooks route events by it); the access token is sealed at rest (lib/secret-box.ts).
 */
export const channelRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tags = ['channels'];

  /** The callback URLs to paste in Meta and whether the server is set up for them (the verify token only when it is the known demo one). */
  function webhooks(): ChannelWebhooks {
    const { publicUrl, webhookVerifyToken, metaAppSecret, env } = app.settings;
    const demo = env !== 'production' && safeEqual(webhookVerifyToken, demoWebhookSecrets.webhookVerifyToken);
    return {
      whatsappUrl: `${publicUrl}/api/webhooks/whatsapp`,
      metaUrl: `${publicUrl}/api/webhooks/meta`,
      configured: Boolean(webhookVerifyToken && metaAppSecret),
      ...(demo ? { demoVerifyToken: webhookVerifyToken } : {}),
    };
  }

  async function list(database: Db, tenant: Tenant): Promise<Channel[]> {
    const rows = await database.select().from(channels).where(eq(channels.companyId, tenant.companyId)).orderBy(asc(channels.createdAt));
    return rows.map(toWire).sort((a, b) => kindOrder[a.kind] - kindOrder[b.kind]);
  }

  /** Creates or replaces the company's channel of one kind; a token left out keeps the stored one. */
  async function upsert(
    tx: Db,
    tenant: Tenant,
    kind: ChannelKind,
    values: { providerId: string; businessAccountId?: string; displayPhoneNumber?: string; name?: string; pageId?: string; accessToken?: string },
  ) {
    const [taken] = await tx
      .select({ companyId: channels.companyId })
      .from(channels)
      .where(and(eq(channels.kind, kind), eq(channels.providerId, values.providerId)));
    if (taken && taken.companyId !== tenant.companyId) {
      throw new AppError('CONFLICT', alreadyTaken[kind], [{ path: fieldOf[kind], msg: 'Ya está en uso' }]);
    }
    const [before] = await tx
      .select()
      .from(channels)
      .where(and(eq(channels.companyId, tenant.companyId), eq(channels.kind, kind)))
      .for('update');
    const { accessToken, ...rest } = values;
    const set = {
      ...rest,
      businessAccountId: rest.businessAccountId ?? null,
      displayPhoneNumber: rest.displayPhoneNumber ?? null,
      name: rest.name ?? null,
      pageId: rest.pageId ?? null,
      ...(accessToken ? { accessToken: app.secrets.seal(accessToken), accessTokenLast4: accessToken.slice(-4) } : {}),
      updatedAt: new Date(),
    };
    try {
      const [after] = await tx
        .insert(channels)
        .values({ ...set, companyId: tenant.companyId, kind })
        .onConflictDoUpdate({ target: [channels.companyId, channels.kind], set })
        .returning();
      // in the change's transaction, the token masked (decision 0072)
      await auditSettings(tx, { companyId: tenant.companyId, entity: 'channels', entityId: after.id, before, after, secrets: CHANNEL_SECRETS, skip: CHANNEL_HINTS });
    } catch (error) {
      const e = error as { code?: string; cause?: { code?: string } };
      // another company took the id between the check and the write
      if ((e.code ?? e.cause?.code) === '23505') throw new AppError('CONFLICT', alreadyTaken[kind]);
      throw error;
    }
  }

  app.get(
    '/channels',
    { config: { permission: { module: 'integrations', action: 'list' } }, schema: { tags, response: { 200: channelList } } },
    async (request) => ({ payload: await list(db, tenantOf(request)), webhooks: webhooks() }),
  );

  app.put(
    '/channels/whatsapp',
    {
      config: { permission: { module: 'integrations', action: 'update' } },
      schema: { tags, body: whatsappChannelInput, response: { 200: channelOut } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const { phoneNumberId, ...rest } = request.body;
      return db.transaction(async (tx) => {
        await upsert(tx, tenant, 'whatsapp', { providerId: phoneNumberId, ...rest });
        return (await list(tx, tenant)).find((c) => c.kind === 'whatsapp') as Channel;
      });
    },
  );

  app.put(
    '/channels/meta',
    {
      config: { permission: { module: 'integrations', action: 'update' } },
      schema: { tags, body: metaChannelInput, response: { 200: channelList } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const { pageId, pageName, instagramAccountId, accessToken } = request.body;
      const payload = await db.transaction(async (tx) => {
        await upsert(tx, tenant, 'messenger', { providerId: pageId, name: pageName, accessToken });
        if (instagramAccountId) {
          await upsert(tx, tenant, 'instagram', { providerId: instagramAccountId, name: pageName, pageId, accessToken });
        } else if (instagramAccountId === null) {
          const gone = await tx.delete(channels).where(and(eq(channels.companyId, tenant.companyId), eq(channels.kind, 'instagram'))).returning();
          for (const before of gone) await auditSettings(tx, { companyId: tenant.companyId, entity: 'channels', entityId: before.id, before, after: null, secrets: CHANNEL_SECRETS, skip: CHANNEL_HINTS });
        }
        return (await list(tx, tenant)).filter((c) => c.kind !== 'whatsapp');
      });
      return { payload };
    },
  );

  // «Probar conexión» of the Facebook page: its stored token asked to Graph (decision 0061)
  app.post(
    '/channels/meta/test',
    { config: { permission: { module: 'integrations', action: 'read' } }, schema: { tags, response: { 200: pageTestOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const [page] = await db
        .select()
        .from(channels)
        .where(and(eq(channels.companyId, tenant.companyId), eq(channels.kind, 'messenger')));
      if (!page) throw new AppError('NOT_FOUND', 'La compañía no tiene una página de Facebook conectada: guarda primero su id y su token');
      const name = page.name ?? page.providerId;
      if (!page.accessToken) return { ok: false, problem: 'token' as const, msg: 'La página no tiene token de acceso: pega el token de la página y guárdalo' };
      if (app.settings.sendProvider === 'sandbox') return { ok: true, msg: pageTestMessages.sandbox(name), page: { id: page.providerId, name } };
      return testPageToken(app.settings.graphApiUrl, page.providerId, app.secrets.open<string>(page.accessToken));
    },
  );

  app.delete(
    '/channels/:kind',
    {
      config: { permission: { module: 'integrations', action: 'delete' } },
      schema: { tags, params: channelKindParams, response: { 200: z.object({ status: z.number(), kind: z.string() }) } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const deleted = await db.transaction(async (tx) => {
        const gone = await tx
          .delete(channels)
          .where(and(eq(channels.companyId, tenant.companyId), eq(channels.kind, request.params.kind)))
          .returning();
        for (const before of gone) await auditSettings(tx, { companyId: tenant.companyId, entity: 'channels', entityId: before.id, before, after: null, secrets: CHANNEL_SECRETS, skip: CHANNEL_HINTS });
        return gone;
      });
      if (deleted.length === 0) throw new AppError('NOT_FOUND', 'Ese canal no está configurado');
      return { status: 200, kind: request.params.kind };
    },
  );
};
