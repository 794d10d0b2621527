import { randomUUID } from 'node:crypto';
import {
  type ChannelKind,
  type ChatChannelState,
  type ChatMessage,
  type ChatState,
  type ChatStatusInput,
  type ChatStatus,
  chatMessages_es,
  chatStateReasons,
  type MassiveMessageResult,
  type MessageContent,
  type Platform,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { actAs, requestActor } from '../../db/actor.js';
import { audit, changesOf, changesSql, originSql } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { createGraphClient, type MessageClient, type OutboundContent, ProviderError, type SendTarget } from '../../integrations/meta/send.js';
import { createSandboxClient } from '../../integrations/sandbox/send.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Tenant } from '../../plugins/auth.js';
import { ownerCondition } from '../../resources/owned-rows.js';
import { createInbound } from '../conversations/inbound.js';
import { SEND_QUEUE } from '../../jobs/sending-queues.js';
import { type ChatEffect, previewOf } from '../conversations/effects.js';
import { providerLinks } from '../drive/provider-links.js';
import { storageOf } from '../drive/storage-of.js';
import { publishChatEffect } from './events.js';
import { CHAT_WAKE_QUEUE, type ChatSendJob, type ChatWakeJob, SANDBOX_STATUS_QUEUE, type SandboxStatusJob } from './jobs.js';
import { chatMessage, messageColumns, notFound, toMessage, windowUntil } from './queries.js';

// the sending module reports sandbox statuses on this queue, imported from here
export { SANDBOX_STATUS_QUEUE, type SandboxStatusJob } from './jobs.js';

/** Leads and chats name Messenger's platform 'facebook' (SPEC §9); channels name it 'messenger'. */
export const channelKindOf = (platform: Platform): ChannelKind => (platform === 'facebook' ? 'messenger' : platform);


/**
 * What the platform would refuse for its length, checked before anything is stored: WhatsApp
 * captions up to 1024 characters (texts up to 4096, the contract's limit), Messenger texts up
 * to 2000 characters, Instagram texts up to 1000 bytes.
 */
export function lengthProblem(channel: ChannelKind, content: Pick<OutboundContent, 'kind' | 'text'>): string | undefined {
  const text = content.text ?? '';
  if (channel === 'whatsapp' && content.kind !== 'text' && content.kind !== 'audio' && text.length > 1024) {
    return 'WhatsApp admite hasta 1024 caracteres en el texto de un archivo';
  }
  if (channel === 'messenger' && text.length > 2000) return 'Messenger admite hasta 2000 caracteres por mensaje';
  if (channel === 'instagram' && Buffer.byteLength(text) > 1000) return 'Instagram admite hasta 1000 bytes por mensaje (unos 1000 caracteres sin emojis ni tildes)';
  return undefined;
}

type Row = Record<string, unknown>;

/** What the audit log records of a chat's status change (decision 0072): its fields and columns. */
const CHAT_STATUS_FIELDS = { status: 'status', snoozedUntil: 'snoozed_until' };
/**
 * The audit rows of a chat status statement, in the statement itself: `before` (the rows as the
 * statement's snapshot saw them) and `after` (the update's returning) joined by id, one row per
 * chat whose status or pause really changed, with who calls (`actor`: the request's, or the system).
 */
const auditChatStatus = (actor?: { type: 'system' }) =>
  sql`insert into audit_log (company_id, actor, ip, user_agent, action, entity, entity_id, changes)
      select after.company_id, ${originSql(actor)}, 'update', 'chats', after.id::text, ${changesSql(CHAT_STATUS_FIELDS, 'before', 'after')}
      from after join before on before.id = after.id
      where before.status is distinct from after.status or before.snoozed_until is distinct from after.snoozed_until`;

/** A send is taken as interrupted when it is still pending this long after it was stored. */
export const INTERRUPTED_AFTER_MS = 2 * 60_000;
export const INTERRUPTED_REASON = 'El envío se interrumpió (el servidor se reinició): vuelve a enviarlo';

const OPTED_OUT = 'La persona pidió no recibir mensajes (/dias-frecuencia)';
const NO_PERSON = 'Este chat aún no tiene una persona (lead limpio) asociada';
const SAME_PERSON = 'Ya lo recibe por otro de sus chats en este envío';

interface ChatTarget extends Row {
  id: string;
  platform: Platform;
  status: ChatStatus;
  snoozed_until: string | null;
  contact_name: string;
  last_inbound_at: Date | null;
  recipient: string | null;
  /** The person asked at /dias-frecuencia not to receive messages (mass sends skip them; decision 0017). */
  opt_out: boolean | null;
  /** The person (clean lead) behind the chat: a massive message goes once per person (decision 0041). */
  clean_lead_id: string | null;
}
interface ChannelRow extends Row {
  kind: ChannelKind;
  provider_id: string;
  page_id: string | null;
  access_token: string | null;
}

export interface ChatServiceDeps {
  db: Db;
  secrets: Pick<SecretBox, 'open' | 'seal'>;
  realtime: Pick<Realtime, 'publish'>;
  jobs: Pick<JobQueue, 'send'>;
  config: Pick<Config, 'sendProvider' | 'graphApiUrl' | 'sandboxStatusSeconds'> & Partial<Pick<Config, 'storage' | 'dataDir' | 'publicUrl'>>;
  log: { warn: (obj: unknown, msg?: string) => void; error: (obj: unknown, msg?: string) => void };
}

/**
 * Sending (issue 4 "Chat", decision 0014): one function for a message typed in the inbox and
 * for each chat of a massive message. It checks the channel and the 24-hour window first
 * (nothing is stored when it refuses), stores the message pending, sends it through the
 * company's channel client (the Graph API or the sandbox), and stores sent with the
 * provider's id, or failed with the provider's reason. Each change is published after it
 * commits. Later statuses arrive through the webhooks (or the sandbox's jobs) and the one
 * status path of the webhook job.
 */
export function createChatService({ db, secrets, realtime, jobs, config, log }: ChatServiceDeps) {
  const client: MessageClient =
    config.sendProvider === 'graph' ? createGraphClient(config.graphApiUrl) : createSandboxClient(config.sandboxStatusSeconds);
  const inbound = createInbound(secrets);
  // with Drive on S3 the provider downloads a Drive file from a signed link of the bucket (decision 0105)
  // (the storage of these settings: the one the app's routes use)
  const links =
    config.storage?.kind === 's3' && config.publicUrl ? providerLinks(db, storageOf(config as Pick<Config, 'storage' | 'dataDir'>, log), config.publicUrl, log) : undefined;
  const publish = (companyId: string, effect: ChatEffect) => publishChatEffect(db, realtime, companyId, effect, log);

  /** The chats to write to: platform, window and the person's id on the platform. */
  async function targets(companyId: string, chatIds: string[]): Promise<Map<string, ChatTarget>> {
    if (chatIds.length === 0) return new Map();
    const ids = sql.join(chatIds.map((id) => sql`${id}`), sql`, `);
    const rows = await rowsOf<ChatTarget>(
      db,
      sql`select c.id, c.platform, c.status, c.snoozed_until, c.contact_name, w.last_inbound_at,
            coalesce(
              (select i.platform_user_id from lead_identities i
                where i.company_id = c.company_id and i.lead_id = c.lead_id and i.platform = c.platform
                order by (i.chat_id = c.id) desc nulls last limit 1),
              case when l.platform = c.platform then l.platform_user_id end,
              case when c.platform = 'whatsapp' then l.telefono end) as recipient,
            cl.opt_out, l.clean_lead_id
          from chats c
          left join leads l on l.company_id = c.company_id and l.id = c.lead_id
          left join clean_leads cl on cl.company_id = c.company_id and cl.id = l.clean_lead_id
          left join chat_windows w on w.chat_id = c.id
          where c.company_id = ${companyId} and c.id in (${ids})`,
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  async function channelsOf(companyId: string): Promise<Map<ChannelKind, ChannelRow>> {
    const rows = await rowsOf<ChannelRow>(db, sql`select kind, provider_id, page_id, access_token from channels where company_id = ${companyId}`);
    return new Map(rows.map((r) => [r.kind, r]));
  }

  /**
   * What the chat's channel allows now (decision 0027): its state and, when a free-form
   * message cannot go out, why (Spanish; the composer shows it, a send is refused with it).
   */
  function assess(target: ChatTarget, channels: Map<ChannelKind, ChannelRow>, now = Date.now()) {
    const kind = channelKindOf(target.platform);
    const until = windowUntil(target.last_inbound_at);
    const no = (state: Exclude<ChatChannelState, 'open'>, reason: string) => ({ state, reason, kind, until, channel: undefined, recipient: undefined });
    const channel = channels.get(kind);
    if (!channel) return no('not_connected', chatStateReasons.notConnected(kind));
    if (client.name === 'graph' && !channel.access_token) return no('not_connected', chatStateReasons.noToken(kind));
    if (!until) return no('window_closed', chatStateReasons.neverWrote(kind));
    if (now >= until.getTime()) return no('window_closed', chatStateReasons.windowClosed(kind));
    if (!target.recipient) return no('no_recipient', chatStateReasons.noRecipient);
    return { state: 'open' as const, reason: undefined, kind, until, channel, recipient: target.recipient };
  }

  /** Why a chat cannot be written to now (Spanish), or its channel and recipient. */
  function check(target: ChatTarget | undefined, channels: Map<ChannelKind, ChannelRow>, now = Date.now()) {
    if (!target) return { ok: false as const, refused: notFound.chat().msg as string, status: 404 as const };
    const a = assess(target, channels, now);
    if (a.state !== 'open') return { ok: false as const, refused: a.reason, status: 409 as const };
    return { ok: true as const, channel: a.channel, recipient: a.recipient };
  }

  /**
   * Whether an approved template may go out to the chat (decision 0038): the 24-hour window does
   * not matter, the WhatsApp line and the person's number do.
   */
  function checkTemplate(target: ChatTarget | undefined, channels: Map<ChannelKind, ChannelRow>) {
    if (!target) return { ok: false as const, refused: notFound.chat().msg as string, status: 404 as const };
    const a = assess(target, channels);
    if (a.kind !== 'whatsapp') return { ok: false as const, refused: 'Las plantillas de WhatsApp solo se envían en chats de WhatsApp', status: 409 as const };
    if (a.state === 'not_connected') return { ok: false as const, refused: a.reason, status: 409 as const };
    const channel = channels.get('whatsapp');
    if (!channel || !target.recipient) return { ok: false as const, refused: chatStateReasons.noRecipient, status: 409 as const };
    return { ok: true as const, channel, recipient: target.recipient };
  }

  /** The channel's token, opened (a token sealed with another SECRETS_KEY cannot be: say so, send nothing). */
  function openToken(channel: ChannelRow): string | undefined {
    if (!channel.access_token) return undefined;
    try {
      return secrets.open<string>(channel.access_token);
    } catch {
      throw new AppError('CONFLICT', chatStateReasons.badToken(channel.kind));
    }
  }

  async function setOutcome(companyId: string, messageId: string, outcome: { providerId?: string; error?: string }) {
    const [row] = await rowsOf<Row>(
      db,
      outcome.error === undefined
        ? // a status webhook may already have moved it past sent
          sql`update chat_messages m set provider_message_id = ${outcome.providerId ?? null},
              status = case when m.status = 'pending' then 'sent' else m.status end, updated_at = now()
              where m.company_id = ${companyId} and m.id = ${messageId} returning ${messageColumns}`
        : sql`update chat_messages m set provider_message_id = coalesce(${outcome.providerId ?? null}, m.provider_message_id),
              status = 'failed', status_error = ${outcome.error.slice(0, 2000)}, updated_at = now()
              where m.company_id = ${companyId} and m.id = ${messageId} returning ${messageColumns}`,
    );
    return toMessage(row as never);
  }

  /**
   * Sends one message to a chat. Refusals (unknown chat, no channel, outside the window, no
   * recipient) throw before anything is stored; a provider failure stores the message failed
   * and throws PROVIDER_ERROR (502, with the provider's reason). `messageId`: a queued send's id, so a retry never sends twice.
   */
  async function send(
    companyId: string,
    chatId: string,
    content: OutboundContent,
    options: { sentBy?: string; messageId?: string; content?: MessageContent } = {},
  ): Promise<ChatMessage> {
    const [target, channels] = await Promise.all([targets(companyId, [chatId]), channelsOf(companyId)]);
    const checked = content.template ? checkTemplate(target.get(chatId), channels) : check(target.get(chatId), channels);
    if (!checked.ok) throw new AppError(checked.status === 404 ? 'NOT_FOUND' : 'CONFLICT', checked.refused);
    const { channel, recipient } = checked;
    const tooLong = content.template ? undefined : lengthProblem(channel.kind, content);
    if (tooLong) throw new AppError('VALIDATION', tooLong, [{ path: 'text', msg: tooLong }]);
    const accessToken = openToken(channel);
    const accountId = channel.kind === 'instagram' ? (channel.page_id ?? channel.provider_id) : channel.provider_id;

    const now = new Date();
    const stored = await db.transaction(async (tx) => {
      const [row] = await rowsOf<{ id: string }>(
        tx,
        sql`insert into chat_messages (id, company_id, chat_id, direction, kind, text, media_url, content, status, sent_by, sent_at)
            values (${options.messageId ?? randomUUID()}, ${companyId}, ${chatId}, 'out', ${content.products || content.choices ? 'interactive' : content.kind}, ${content.text ?? null},
                    ${content.mediaUrl ?? null}, ${content.template ? JSON.stringify({ template: { name: content.template.name, language: content.template.language.code, payload: content.template } }) : options.content ? JSON.stringify(options.content) : content.choices ? JSON.stringify({ choices: content.choices }) : null}::jsonb,
                    'pending', ${options.sentBy ?? null}, ${now})
            on conflict (id) do nothing returning id`,
      );
      if (!row) return undefined;
      // the chat shows its latest message; answering the customer reads what they wrote
      await tx.execute(sql`update chats set last_message_preview = ${previewOf(content.products ? { kind: 'interactive', text: content.text, content: { products: content.products } } : content)}, last_message_at = ${now.toISOString()},
          unread_count = 0, updated_at = now() where company_id = ${companyId} and id = ${chatId}`);
      return row.id;
    });
    // a retried job whose message exists: it was already sent (or failed), never twice
    if (!stored) {
      const { mediaId: _, ...existing } = await chatMessage(db, companyId, options.messageId as string);
      return existing;
    }
    // the company's screens hear of it from its event (message.sent, spine/listeners.ts), as of every change below
    return deliver(companyId, chatId, stored, { channel: channel.kind, accountId, accessToken, to: recipient }, content);
  }

  /**
   * Sends a stored (pending) message through the channel client and records the outcome:
   * sent with the provider's id, or failed with its reason (then PROVIDER_ERROR, 502).
   */
  async function deliver(companyId: string, chatId: string, messageId: string, target: SendTarget, content: OutboundContent): Promise<ChatMessage> {
    let result: Awaited<ReturnType<MessageClient['send']>>;
    try {
      result = await client.send(target, links ? await links.content(companyId, content) : content);
    } catch (error) {
      const reason = error instanceof ProviderError ? error.reason : 'Error interno al enviar el mensaje';
      if (!(error instanceof ProviderError)) log.error({ err: error, chatId }, 'error inesperado al enviar un mensaje');
      await setOutcome(companyId, messageId, { error: reason, providerId: error instanceof ProviderError ? error.details.messageId : undefined });
      if (error instanceof ProviderError) throw new AppError('PROVIDER_ERROR', `No se pudo enviar el mensaje: ${reason}`);
      throw error;
    }
    const message = await setOutcome(companyId, messageId, { providerId: result.messageId });
    for (const follow of result.followUps ?? []) {
      const job: SandboxStatusJob = { companyId, providerMessageId: result.messageId, status: follow.status, error: follow.error };
      await jobs.send(SANDBOX_STATUS_QUEUE, job, { startAfter: follow.afterSeconds }).catch((error: unknown) => {
        log.warn({ err: error }, 'no se pudo programar el estado del sandbox');
      });
    }
    return message;
  }

  /** A chat of the company as the composer needs it, or a 404. */
  async function targetOf(companyId: string, chatId: string): Promise<ChatTarget> {
    const target = (await targets(companyId, [chatId])).get(chatId);
    if (!target) throw notFound.chat();
    return target;
  }

  /**
   * Opens a snoozed chat whose time has come (one chat, or every due one of every company: the
   * minute sweep, on the partial index of snoozed chats); publishes each.
   */
  async function wake(companyId?: string, chatId?: string): Promise<number> {
    const one = companyId && chatId ? sql`and company_id = ${companyId} and id = ${chatId}` : sql``;
    // the system opens them: each audited in the same statement (decision 0072)
    const rows = await rowsOf<{ id: string; company_id: string }>(
      db,
      sql`with before as (select id, status, snoozed_until from chats
            where status = 'snoozed' and snoozed_until is not null and snoozed_until::timestamptz <= now() ${one}),
          after as (update chats c set status = 'open', snoozed_until = null, updated_at = now()
            from before where c.id = before.id and c.status = 'snoozed' and c.snoozed_until is not null and c.snoozed_until::timestamptz <= now()
            returning c.id, c.company_id, c.status, c.snoozed_until),
          audited as (${auditChatStatus({ type: 'system' })})
          select id, company_id from after`,
    );
    for (const r of rows) await publish(r.company_id, { type: 'chat.updated', chatId: r.id });
    return rows.length;
  }

  /** The composer's view of a chat (GET /chats/:id/state). */
  async function state(companyId: string, chatId: string): Promise<ChatState> {
    const [target, channels] = await Promise.all([targetOf(companyId, chatId), channelsOf(companyId)]);
    const a = assess(target, channels);
    return {
      chatId,
      platform: target.platform,
      channel: a.kind,
      state: a.state,
      canSend: a.state === 'open',
      reason: a.reason,
      windowOpenUntil: a.until?.toISOString(),
      status: target.status,
      snoozedUntil: target.status === 'snoozed' && target.snoozed_until ? new Date(target.snoozed_until).toISOString() : undefined,
    };
  }

  return {
    client,
    send,
    state,
    wake,

    /**
     * POST /chats/:id/messages/:messageId/retry: a failed outbound message is sent once more,
     * as it was. Idempotent: the message is claimed (failed → pending) in one conditional
     * update, so a second click, or a retry racing another, finds it no longer failed and
     * answers it as it is without sending again. A chat that cannot be written to now refuses
     * with the composer's reason (409) and the message stays failed.
     */
    async retry(companyId: string, chatId: string, messageId: string): Promise<ChatMessage> {
      const { mediaId: _, ...message } = await chatMessage(db, companyId, messageId);
      if (message.chatId !== chatId) throw notFound.message();
      if (message.kind === 'note') throw new AppError('CONFLICT', chatStateReasons.noteNotRetried);
      if (message.direction !== 'out') throw new AppError('CONFLICT', chatStateReasons.notFailed);
      if (message.status !== 'failed') return message;
      const [target, channels] = await Promise.all([targetOf(companyId, chatId), channelsOf(companyId)]);
      // a template (decision 0038) goes out again as the same template, window or not
      const template = (message.content as { template?: { payload?: OutboundContent['template'] } } | undefined)?.template?.payload;
      const checked = template ? checkTemplate(target, channels) : check(target, channels);
      if (!checked.ok) throw new AppError('CONFLICT', checked.refused);
      const { channel, recipient } = checked;
      const accessToken = openToken(channel);
      const [claimed] = await rowsOf<{ id: string }>(
        db,
        sql`update chat_messages set status = 'pending', status_error = null, updated_at = now()
            where company_id = ${companyId} and id = ${messageId} and status = 'failed' returning id`,
      );
      if (!claimed) {
        const { mediaId: __, ...current } = await chatMessage(db, companyId, messageId);
        return current;
      }
      const accountId = channel.kind === 'instagram' ? (channel.page_id ?? channel.provider_id) : channel.provider_id;
      // products (decision 0085) go out again as the same products
      const products = message.content?.products;
      // reply buttons or a list (a CSAT survey, decision 0100) go out again as the same options
      const choices = (message.content as { choices?: OutboundContent['choices'] } | undefined)?.choices;
      const content: OutboundContent = products
        ? { kind: 'text', text: message.text, products }
        : choices
          ? { kind: 'text', text: message.text, choices }
        : { kind: message.kind as OutboundContent['kind'], text: message.text, mediaUrl: message.mediaUrl, template };
      return deliver(companyId, chatId, messageId, { channel: channel.kind, accountId, accessToken, to: recipient }, content);
    },

    /**
     * POST /chats/:id/notes: an internal note, stored as a message of kind 'note' (decision
     * 0027). It never goes through a channel client, it leaves the chat's preview, order and
     * unread count alone, and it has no delivery status ('received': no status path moves it).
     */
    async addNote(companyId: string, chatId: string, text: string, userId: string): Promise<ChatMessage> {
      await targetOf(companyId, chatId);
      const [row] = await rowsOf<{ id: string }>(
        db,
        sql`insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_by, sent_at)
            values (${companyId}, ${chatId}, 'out', 'note', ${text}, 'received', ${userId}, now()) returning id`,
      );
      const { mediaId: _, ...note } = await chatMessage(db, companyId, row.id);
      return note;
    },

    /**
     * POST /chats/:id/status: open, closed (resolved) or snoozed until a date. A snoozed chat
     * opens again by itself when its time comes (a pg-boss job at that time, and the minute
     * sweep `chat.snooze-sweep` for a lost or late one; decision 0076) or when the customer
     * writes (the webhook job opens every chat a message arrives in). The chats' emitter says
     * `chat.resolved`, `chat.snoozed` or `chat.reopened` in the same statement (migration 0055).
     */
    async setStatus(companyId: string, chatId: string, input: ChatStatusInput, userId?: string): Promise<ChatState> {
      const until = input.status === 'snoozed' && input.snoozedUntil ? new Date(input.snoozedUntil) : undefined;
      // the person who clicked is the events' actor (an API key's request already named its key);
      // the change and its audit row in one statement (decision 0072)
      const rows = await db.transaction(async (tx) => {
        if (userId && !requestActor()) await actAs(tx, { type: 'user', id: userId });
        return rowsOf(
          tx,
          sql`with before as (select id, status, snoozed_until from chats where company_id = ${companyId} and id = ${chatId}),
              after as (update chats set status = ${input.status}, snoozed_until = ${until?.toISOString() ?? null}, updated_at = now()
                where company_id = ${companyId} and id = ${chatId} returning id, company_id, status, snoozed_until),
              audited as (${auditChatStatus()})
              select id from after`,
        );
      });
      if (rows.length === 0) throw notFound.chat();
      if (until) {
        const job: ChatWakeJob = { companyId, chatId };
        // pg-boss counts whole seconds: one more, so the job never runs before the time
        const startAfter = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000) + 1);
        await jobs.send(CHAT_WAKE_QUEUE, job, { startAfter }).catch((error: unknown) => {
          log.warn({ err: error, chatId }, 'no se pudo programar el fin de la pausa del chat');
        });
      }
      await publish(companyId, { type: 'chat.updated', chatId });
      return state(companyId, chatId);
    },

    /** GET /chats/unread_count: how many chats have messages nobody read (the tab title's number). */
    /** Chats with unread messages among those the caller may see (decision 0026: an agent, their own and the unassigned). */
    async unreadCount(tenant: Tenant): Promise<{ chats: number }> {
      const scope = ownerCondition('chats', tenant, (column) => sql.raw(`c.${column}`));
      const [row] = await rowsOf<{ n: number }>(
        db,
        sql`select count(*)::int as n from chats c where c.company_id = ${tenant.companyId} and c.unread_count > 0${scope ? sql` and ${scope}` : sql``}`,
      );
      return { chats: Number(row?.n ?? 0) };
    },
    /**
     * Outbound messages a crash left `pending` (stored, but the provider's answer never
     * recorded) become failed with a reason the agent can act on, instead of a clock icon
     * forever. Only those older than INTERRUPTED_AFTER_MS: another process may be sending now.
     */
    async failInterrupted(): Promise<number> {
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`update chat_messages set status = 'failed', status_error = ${INTERRUPTED_REASON}, updated_at = now()
            where direction = 'out' and status = 'pending' and provider_message_id is null
              and created_at < now() - make_interval(secs => ${INTERRUPTED_AFTER_MS / 1000})
              -- a campaign's messages are the sending engine's to reconcile (decision 0041)
              and not exists (select 1 from send_recipients r where r.id = chat_messages.id)
            returning id`,
      );
      return rows.length;
    },

    /** A status the provider reported (the sandbox's job): the webhooks' own status path, its event the provider's. */
    async applyStatus(job: SandboxStatusJob): Promise<void> {
      await db.transaction(async (tx) => {
        await actAs(tx, { type: 'provider', id: 'sandbox' });
        await inbound.status(tx, job.companyId, { messageId: job.providerMessageId, status: job.status, timestamp: new Date().toISOString(), error: job.error });
      });
    },

    /** POST /chats/:id/read: nothing unread. */
    async markRead(companyId: string, chatId: string): Promise<void> {
      const rows = await rowsOf(db, sql`update chats set unread_count = 0, updated_at = now() where company_id = ${companyId} and id = ${chatId} returning id`);
      if (rows.length === 0) throw notFound.chat();
      await publish(companyId, { type: 'chat.updated', chatId });
    },

    /** DELETE /chats/:id/messages/:messageId: the message stays, inactive (SPEC §4), shown as deleted. */
    async deleteMessage(companyId: string, chatId: string, messageId: string): Promise<void> {
      // the delete and its audit row in one statement (decision 0072); a message already deleted records nothing again
      const rows = await rowsOf(
        db,
        sql`with before as (select id, is_active from chat_messages where company_id = ${companyId} and chat_id = ${chatId} and id = ${messageId}),
            after as (update chat_messages set is_active = false, updated_at = now()
              where company_id = ${companyId} and chat_id = ${chatId} and id = ${messageId} returning id, company_id, is_active),
            audited as (insert into audit_log (company_id, actor, ip, user_agent, action, entity, entity_id, changes)
              select after.company_id, ${originSql()}, 'delete', 'chat_messages', after.id::text,
                     ${changesSql({ isActive: 'is_active' }, 'before', 'after')}
              from after join before on before.id = after.id where before.is_active is distinct from after.is_active)
            select id from after`,
      );
      if (rows.length === 0) throw notFound.message();
    },

    /** The channel a message's media is downloaded through, with its token opened. */
    async mediaChannel(companyId: string, platform: Platform): Promise<{ accessToken?: string } | undefined> {
      const channel = (await channelsOf(companyId)).get(channelKindOf(platform));
      if (!channel) return undefined;
      return { accessToken: openToken(channel) };
    },

    /**
     * POST /chats/send_massive_message: checks every chat now (skipped ones say why), records
     * the send in massive-messages-logs and writes one outbox row per person for the sending
     * engine (modules/sending, decision 0041), which sends each once, at the line's pace, as a
     * message typed in the inbox, and keeps the log's counts.
     */
    async sendMassive(companyId: string, sentBy: string, input: { chatIds: string[]; text: string }): Promise<MassiveMessageResult> {
      const chatIds = [...new Set(input.chatIds)];
      const [found, channels] = await Promise.all([targets(companyId, chatIds), channelsOf(companyId)]);
      const skipped: MassiveMessageResult['skipped'] = [];
      const ready: Array<{ chatId: string; target: ChatTarget }> = [];
      const people = new Set<string>();
      const now = Date.now();
      for (const chatId of chatIds) {
        const target = found.get(chatId);
        const checked = check(target, channels, now);
        const tooLong = checked.ok ? lengthProblem(checked.channel.kind, { kind: 'text', text: input.text }) : undefined;
        if (!checked.ok) skipped.push({ chatId, contactName: target?.contact_name, reason: checked.refused });
        else if (target?.opt_out) skipped.push({ chatId, contactName: target.contact_name, reason: OPTED_OUT });
        else if (tooLong) skipped.push({ chatId, contactName: target?.contact_name, reason: tooLong });
        else if (!target?.clean_lead_id) skipped.push({ chatId, contactName: target?.contact_name, reason: NO_PERSON });
        else if (people.has(target.clean_lead_id)) skipped.push({ chatId, contactName: target.contact_name, reason: SAME_PERSON });
        else {
          people.add(target.clean_lead_id);
          ready.push({ chatId, target });
        }
      }
      if (ready.length) {
        const name = `Chat · ${input.text.replace(/\s+/g, ' ').slice(0, 80)}`;
        await db.transaction(async (tx) => {
          const [logRow] = await rowsOf<{ id: string }>(
            tx,
            sql`insert into massive_messages_logs (company_id, name, message, total, sent, failed, status)
                values (${companyId}, ${name}, ${input.text}, ${ready.length}, 0, 0, 'processing') returning id`,
          );
          const [send] = await rowsOf<{ id: string }>(
            tx,
            sql`insert into sends (company_id, kind, name, status, content, planned, created_by)
                values (${companyId}, 'massive', ${name}, 'pending', ${JSON.stringify({ text: input.text, logId: logRow.id })}::jsonb, true, ${sentBy}) returning id`,
          );
          const rows = ready.map((r, i) => ({ position: i + 1, clean_lead_id: r.target.clean_lead_id, chat_id: r.chatId, name: r.target.contact_name || 'Sin nombre', phone: r.target.recipient }));
          await tx.execute(sql`insert into send_recipients (company_id, send_id, dedupe_key, position, clean_lead_id, chat_id, name, phone, status)
            select ${companyId}, ${send.id}, ${send.id}, x.position, x.clean_lead_id, x.chat_id, x.name, x.phone, 'queued'
              from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(position int, clean_lead_id uuid, chat_id uuid, name text, phone text)`);
          await audit(tx, {
            companyId,
            action: 'create',
            entity: 'sends',
            entityId: send.id,
            changes: changesOf(null, { kind: 'massive', name, status: 'pending', total: ready.length, message: input.text.slice(0, 500) }),
          });
        });
        // written: the engine picks it up now (and the minute sweep, should this call be lost)
        await jobs.send(SEND_QUEUE, { companyId }).catch((error: unknown) => log.warn({ err: error }, 'no se pudo despertar el envío masivo'));
      }
      return { msg: chatMessages_es.sent, queued: ready.length, skipped };
    },

    /** One queued send of a massive message. Refusals and provider failures are counted, not retried. */
    async runSendJob(job: ChatSendJob): Promise<void> {
      let ok: boolean;
      try {
        const message = await send(job.companyId, job.chatId, { kind: 'text', text: job.text }, { sentBy: job.sentBy, messageId: job.messageId });
        ok = message.status !== 'failed';
      } catch (error) {
        if (!(error instanceof AppError)) throw error; // the queue retries; the message id keeps it single
        ok = false;
      }
      if (!job.logId) return;
      await db.execute(sql`update massive_messages_logs set
          sent = sent + ${ok ? 1 : 0}, failed = failed + ${ok ? 0 : 1}, updated_at = now(),
          status = case when sent + failed + 1 < total then 'processing'
                        when failed + ${ok ? 0 : 1} = 0 then 'sent'
                        when sent + ${ok ? 1 : 0} = 0 then 'error'
                        else 'sent_with_some_errors' end
        where company_id = ${job.companyId} and id = ${job.logId}`);
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;
