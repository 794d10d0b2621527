import {
  type Platform,
  type ScheduledMessageIn,
  type ScheduledMessageOut,
  type ScheduledMessageStatus,
  scheduledMessageIn,
  scheduledMessageList,
  scheduledMessageOut,
  scheduledMessageParams,
  scheduledMessageTexts,
  type TemplateSendInput,
  zId,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import type { OutboundContent } from '../../integrations/meta/send.js';
import { stableId } from '../../lib/stable-id.js';
import { AppError } from '../../lib/errors.js';
import type { Realtime } from '../../lib/realtime.js';
import { tenantOf } from '../../plugins/auth.js';
import type { TemplateService } from '../whatsapp-templates/service.js';
import { publishChatEffect } from './events.js';
import { notFound } from './queries.js';
import { type ChatService, channelKindOf, lengthProblem } from './service.js';

/** Every minute (and when a worker starts): the scheduled messages whose minute came go (decision 0079). */
export const CHAT_SCHEDULED_SEND_QUEUE = 'chat.scheduled-send';
/** A claim older than this is a dead process's: taken again (the message id keeps the send single). */
export const SCHEDULED_LEASE_SECONDS = 90;
const BATCH = 50;

interface Row extends Record<string, unknown> {
  id: string;
  company_id: string;
  chat_id: string;
  kind: ScheduledMessageOut['kind'];
  text: string | null;
  template: { templateId: string; bodyValues: string[]; headerValue?: string } | null;
  media: string | null;
  send_at: Date | string;
  status: ScheduledMessageStatus;
  error: string | null;
  message_id: string | null;
  created_by: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  sent_at: Date | string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();
const toOut = (r: Row): ScheduledMessageOut => ({
  _id: r.id,
  chatId: r.chat_id,
  kind: r.kind,
  text: r.text,
  mediaUrl: r.media,
  template: r.template,
  sendAt: iso(r.send_at),
  status: r.status,
  error: r.error,
  messageId: r.message_id,
  createdBy: r.created_by,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  sentAt: r.sent_at ? iso(r.sent_at) : null,
});
const columns = sql.raw(
  'id::text, company_id::text, chat_id::text, kind, text, template, media, send_at, status, error, message_id::text, created_by::text, created_at, updated_at, sent_at',
);

/** The chat message a scheduled message becomes: a UUID named by its id, so a retried job finds it instead of sending again. */
export const scheduledMessageId = (scheduledId: string): string => stableId('scheduled-message', scheduledId);

/** What is audited of a scheduled message (decision 0072). */
const audited = (r: Pick<Row, 'kind' | 'text' | 'media' | 'template' | 'send_at' | 'status'>) => ({
  kind: r.kind,
  text: r.text?.slice(0, 500) ?? null,
  mediaUrl: r.media,
  templateId: r.template?.templateId ?? null,
  sendAt: iso(r.send_at),
  status: r.status,
});

export interface ScheduledDeps {
  db: Db;
  chats: Pick<ChatService, 'send'>;
  templates: Pick<TemplateService, 'prepareSend'>;
  realtime: Pick<Realtime, 'publish'>;
  log: { warn: (obj: unknown, msg?: string) => void; error: (obj: unknown, msg?: string) => void };
}

/**
 * «Enviar más tarde» (issue 29, decision 0079): the composer's messages kept for later, each
 * sent once at its minute through the chat's one send path.
 */
export function createScheduledMessages({ db, chats, templates, realtime, log }: ScheduledDeps) {
  /** The chat's platform, or 404 (another company's chat is as unknown as none). */
  async function platformOf(companyId: string, chatId: string): Promise<Platform> {
    const [chat] = await rowsOf<{ platform: Platform }>(db, sql`select platform from chats where company_id = ${companyId} and id = ${chatId}`);
    if (!chat) throw notFound.chat();
    return chat.platform;
  }

  /** The input checked as a send would be, now: the channel's length limit, a template approved and complete. */
  async function checked(companyId: string, chatId: string, raw: ScheduledMessageIn) {
    const input = scheduledMessageIn.parse(raw);
    const platform = await platformOf(companyId, chatId);
    if (input.kind === 'template') {
      await templates.prepareSend(companyId, input.template as TemplateSendInput);
      return { kind: input.kind, text: null, media: null, template: input.template as TemplateSendInput, sendAt: input.sendAt };
    }
    const text = input.text || null;
    const tooLong = lengthProblem(channelKindOf(platform), { kind: input.kind, text: text ?? undefined });
    if (tooLong) throw new AppError('VALIDATION', tooLong, [{ path: 'text', msg: tooLong }]);
    return { kind: input.kind, text, media: input.kind === 'text' ? null : (input.mediaUrl ?? null), template: null, sendAt: input.sendAt };
  }

  async function one(companyId: string, chatId: string, id: string): Promise<Row> {
    const [row] = await rowsOf<Row>(db, sql`select ${columns} from scheduled_messages where company_id = ${companyId} and chat_id = ${chatId} and id = ${id}`);
    if (!row) throw new AppError('NOT_FOUND', scheduledMessageTexts.notFound);
    return row;
  }

  /** Changes a pending one in a transaction with its audit row; gone on, a 409 that says why. */
  async function change(companyId: string, chatId: string, id: string, action: 'update' | 'cancel', values?: Awaited<ReturnType<typeof checked>>) {
    const before = await one(companyId, chatId, id);
    const after = await db.transaction(async (tx) => {
      const [row] = await rowsOf<Row>(
        tx,
        values
          ? sql`update scheduled_messages set kind = ${values.kind}, text = ${values.text}, media = ${values.media},
                  template = ${values.template ? JSON.stringify(values.template) : null}::jsonb, send_at = ${values.sendAt}, error = null, updated_at = now()
                where company_id = ${companyId} and chat_id = ${chatId} and id = ${id} and status = 'pending' returning ${columns}`
          : sql`update scheduled_messages set status = 'cancelled', updated_at = now()
                where company_id = ${companyId} and chat_id = ${chatId} and id = ${id} and status = 'pending' returning ${columns}`,
      );
      if (!row) return undefined;
      await audit(tx, { companyId, action, entity: 'scheduled_messages', entityId: id, changes: changesOf(audited(before), audited(row)) });
      return row;
    });
    if (!after) {
      const now = await one(companyId, chatId, id);
      throw new AppError('CONFLICT', scheduledMessageTexts.notPending[now.status as Exclude<ScheduledMessageStatus, 'pending'>] ?? scheduledMessageTexts.notPending.sent);
    }
    return toOut(after);
  }

  /** A scheduled message's outcome, and the chat's screens told (the strip above the composer refetches). */
  async function finish(row: Row, outcome: { messageId: string } | { error: string }) {
    await db.execute(
      'messageId' in outcome
        ? sql`update scheduled_messages set status = 'sent', message_id = ${outcome.messageId}, error = null, sent_at = now(), claimed_at = null, updated_at = now()
              where id = ${row.id} and status = 'sending'`
        : sql`update scheduled_messages set status = 'failed', error = ${outcome.error.slice(0, 2000)}, claimed_at = null, updated_at = now()
              where id = ${row.id} and status = 'sending'`,
    );
    await publishChatEffect(db, realtime, row.company_id, { type: 'chat.updated', chatId: row.chat_id }, log);
  }

  /** Sends one claimed message through the chat's send; its message id names it, so a second try is the first's answer. */
  async function sendOne(row: Row): Promise<void> {
    const messageId = scheduledMessageId(row.id);
    try {
      let content: OutboundContent;
      if (row.kind === 'template') {
        const prepared = await templates.prepareSend(row.company_id, row.template as TemplateSendInput);
        content = { kind: 'text', text: prepared.text, template: prepared.payload };
      } else {
        content = { kind: row.kind, text: row.text ?? undefined, mediaUrl: row.media ?? undefined };
      }
      const message = await chats.send(row.company_id, row.chat_id, content, { sentBy: row.created_by ?? undefined, messageId });
      if (message.status === 'failed') await finish(row, { error: message.statusError ?? 'El proveedor rechazó el mensaje' });
      else await finish(row, { messageId: message._id });
    } catch (error) {
      // a refusal (the window closed, no channel, a template no longer approved) or the provider's reason: kept, shown on the chat
      if (error instanceof AppError) await finish(row, { error: error.message });
      else {
        // anything else (the database, a bug): the claim stays, taken again after the lease; the message id keeps it single
        log.error({ err: error, scheduledId: row.id }, 'no se pudo enviar un mensaje programado');
      }
    }
  }

  return {
    async list(companyId: string, chatId: string): Promise<ScheduledMessageOut[]> {
      await platformOf(companyId, chatId);
      const rows = await rowsOf<Row>(
        db,
        sql`select ${columns} from scheduled_messages where company_id = ${companyId} and chat_id = ${chatId}
              and (status in ('pending', 'sending') or updated_at > now() - interval '7 days')
            order by send_at, created_at limit 200`,
      );
      return rows.map(toOut);
    },

    async create(companyId: string, chatId: string, raw: ScheduledMessageIn, userId?: string): Promise<ScheduledMessageOut> {
      const v = await checked(companyId, chatId, raw);
      const row = await db.transaction(async (tx) => {
        const [created] = await rowsOf<Row>(
          tx,
          sql`insert into scheduled_messages (company_id, chat_id, kind, text, media, template, send_at, created_by)
              values (${companyId}, ${chatId}, ${v.kind}, ${v.text}, ${v.media}, ${v.template ? JSON.stringify(v.template) : null}::jsonb, ${v.sendAt}, ${userId ?? null})
              returning ${columns}`,
        );
        await audit(tx, { companyId, action: 'create', entity: 'scheduled_messages', entityId: created.id, changes: changesOf(null, audited(created)) });
        return created;
      });
      return toOut(row);
    },

    async update(companyId: string, chatId: string, id: string, raw: ScheduledMessageIn): Promise<ScheduledMessageOut> {
      await one(companyId, chatId, id);
      return change(companyId, chatId, id, 'update', await checked(companyId, chatId, raw));
    },

    cancel: (companyId: string, chatId: string, id: string) => change(companyId, chatId, id, 'cancel'),

    /**
     * The job: claims the due ones (pending whose minute came, or a dead process's claim older
     * than the lease) with `for update skip locked`, so two runs at once never take the same
     * one, and sends each. Returns how many it took.
     */
    async runDue(): Promise<number> {
      let taken = 0;
      for (;;) {
        const claimed = await rowsOf<Row>(
          db,
          sql`update scheduled_messages s set status = 'sending', claimed_at = now(), updated_at = now()
              where s.id in (select id from scheduled_messages
                              where (status = 'pending' and send_at <= now())
                                 or (status = 'sending' and claimed_at < now() - make_interval(secs => ${SCHEDULED_LEASE_SECONDS}))
                              order by send_at limit ${BATCH} for update skip locked)
              returning ${columns}`,
        );
        for (const row of claimed) await sendOne(row);
        taken += claimed.length;
        if (claimed.length < BATCH) return taken;
      }
    },
  };
}
export type ScheduledMessages = ReturnType<typeof createScheduledMessages>;

const chatParams = z.object({ id: zId() }).strict();

/**
 * The calls of «Enviar más tarde», under /api/chats and the chats module's permissions: scheduling
 * is a send (create), changing or cancelling one is an update; the job that sends them.
 */
export async function scheduledMessageRoutes(parent: FastifyInstance, service: ScheduledMessages): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const tags = ['chats'];
  const may = (action: 'read' | 'create' | 'update') => ({ permission: { module: 'chats' as const, action } });

  app.jobs.define(CHAT_SCHEDULED_SEND_QUEUE, async () => {
    const sent = await service.runDue();
    if (sent) app.log.info({ sent }, 'mensajes programados enviados');
  });
  app.jobs.every(CHAT_SCHEDULED_SEND_QUEUE);

  app.get('/chats/:id/scheduled-messages', { config: may('read'), schema: { tags, params: chatParams, response: { 200: scheduledMessageList } } }, async (request) => ({
    payload: await service.list(tenantOf(request).companyId, request.params.id),
  }));
  app.post(
    '/chats/:id/scheduled-messages',
    { config: may('create'), schema: { tags, params: chatParams, body: scheduledMessageIn, response: { 201: scheduledMessageOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      return reply.status(201).send(await service.create(tenant.companyId, request.params.id, request.body, tenant.userId || undefined));
    },
  );
  app.put(
    '/chats/:id/scheduled-messages/:scheduledId',
    { config: may('update'), schema: { tags, params: scheduledMessageParams, body: scheduledMessageIn, response: { 200: scheduledMessageOut } } },
    (request) => service.update(tenantOf(request).companyId, request.params.id, request.params.scheduledId, request.body),
  );
  app.delete(
    '/chats/:id/scheduled-messages/:scheduledId',
    { config: may('update'), schema: { tags, params: scheduledMessageParams, response: { 200: scheduledMessageOut } } },
    (request) => service.cancel(tenantOf(request).companyId, request.params.id, request.params.scheduledId),
  );
}
