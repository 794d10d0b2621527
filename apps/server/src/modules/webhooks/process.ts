import type { CountryCode, RealtimeEvent } from '@mostrador/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { channels, webhookEvents } from '../../db/join-tables.js';
import { companies } from '../../db/schema.js';
import type { InboundMessage, PageComment, ProviderEvent, ReadReceipt, StatusUpdate, TemplateStatusUpdate } from '../../integrations/meta/events.js';
import type { CommentService } from '../facebook-comments/service.js';
import { applyTemplateStatus } from '../whatsapp-templates/status.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Spine } from '../../spine/dispatcher.js';
import { errorText } from '../../lib/error-text.js';
import { sanitizeJson, sanitizeText } from '../../lib/third-party-text.js';
import { assignOnArrival } from '../assignment/auto.js';
import { createInbound, type Outcome } from '../conversations/inbound.js';
import { createOrders } from '../orders/service.js';

export const WEBHOOK_QUEUE = 'webhook.process';

/**
 * A non-channel provider's processing of one stored event (see createWebhookProcessor's `providers`).
 * `publish`: what the company's open screens are told once the event has committed.
 */
export type ProviderHandler = (
  tx: Db,
  event: { id: string; accountId: string; companyId: string | null; payload: unknown },
) => Promise<({ status: 'processed' } | { status: 'ignored' | 'failed'; reason: string }) & { publish?: RealtimeEvent[] }>;

/** Tries per event before it becomes a dead letter: the first run and the queue's 5 retries (jobs/queue.ts). */
export const MAX_ATTEMPTS = 6;

/** What a delivery's events became: the ids to queue, and how many could only be kept as dead letters. */
export interface Stored {
  ids: string[];
  /** Kept as failed (could not be stored as they came). */
  deadLetters: number;
  /** Could not be stored at all (the database refused even the dead letter). */
  lost: number;
}

/**
 * Stores verified provider events once: `(provider, event_id)` is unique, so a replayed
 * delivery inserts nothing. Each event is stored on its own, so one that the database refuses
 * does not take the others with it: it is kept instead as a dead letter (status failed, its
 * raw JSON as text and the error) for an admin to see and replay (decision 0020).
 */
export async function storeEvents(db: Db, events: ProviderEvent[], log?: { error: (obj: unknown, msg?: string) => void }): Promise<Stored> {
  const unique = [...new Map(events.map((e) => [`${e.provider}:${e.eventId}`, e])).values()];
  const stored: Stored = { ids: [], deadLetters: 0, lost: 0 };
  for (const e of unique) {
    const row = { provider: e.provider, eventId: e.eventId, type: e.type, accountId: e.accountId };
    try {
      const rows = await db
        .insert(webhookEvents)
        .values({ ...row, payload: e.data })
        .onConflictDoNothing({ target: [webhookEvents.provider, webhookEvents.eventId] })
        .returning({ id: webhookEvents.id });
      stored.ids.push(...rows.map((r) => r.id));
    } catch (error) {
      log?.error({ err: error, eventId: e.eventId }, 'evento de webhook no guardado: se guarda como fallido');
      try {
        await db
          .insert(webhookEvents)
          .values({
            ...row,
            // the ids cleaned too: a dead letter must be storable whatever made the event not
            eventId: sanitizeText(e.eventId).slice(0, 500),
            accountId: sanitizeText(e.accountId).slice(0, 200),
            payload: { unstored: JSON.stringify(sanitizeJson(e.data)).slice(0, 100_000) },
            status: 'failed',
            lastError: `No se pudo guardar: ${errorText(error)}`.slice(0, 2000),
          })
          .onConflictDoNothing({ target: [webhookEvents.provider, webhookEvents.eventId] });
        stored.deadLetters++;
      } catch (again) {
        log?.error({ err: again, eventId: e.eventId }, 'evento de webhook perdido: ni como fallido se pudo guardar');
        stored.lost++;
      }
    }
  }
  return stored;
}

/**
 * The webhook job: one stored event, in one transaction. The company comes from the channel
 * the event was addressed to (phone number id, page id, Instagram account id), never from the
 * payload; an event for no known channel is kept as ignored. Idempotent: only a pending event
 * is processed, under a row lock, and its effects are keyed by provider ids. With `realtime`,
 * a new message or a status that moved is published to the company's browsers after the
 * transaction commits (message.created, message.updated).
 */
export function createWebhookProcessor(
  db: Db,
  secrets: Pick<SecretBox, 'seal' | 'open'>,
  realtime?: Pick<Realtime, 'publish'>,
  log?: { warn: (obj: unknown, msg?: string) => void },
  {
    maxAttempts = MAX_ATTEMPTS,
    providers = {},
    comments,
    bots,
    spine,
  }: {
    maxAttempts?: number;
    /**
     * Facebook comments of the page's feed (decision 0049): `receive` in the event's transaction,
     * `sendReply` for a private reply it recorded, after the commit. Without it comments are kept
     * and matched, and their replies wait for the webhook queue's processor (routes.ts).
     */
    comments?: Pick<CommentService, 'receive' | 'sendReply'>;
    /**
     * Events of providers that are not channels (Gravity Forms entries, decision 0050): processed
     * by their own handler in the event's transaction; `failed` makes the event a dead letter at
     * once (nothing a retry alone would change).
     */
    providers?: Record<string, ProviderHandler>;
    /** Dialogflow bots (decision 0053): `holds` keeps a chat a bot answers out of the automatic assignment. */
    bots?: { holds: (tx: Db, companyId: string, chatId: string) => Promise<boolean> };
    /**
     * The event spine (decision 0068): what follows a message (the browsers, the analysis, the
     * bots) listens to the events its rows emitted; the spine is woken once the event commits.
     */
    spine?: Pick<Spine, 'wake'>;
  } = {},
) {
  const inbound = createInbound(secrets);
  const orders = createOrders(secrets);

  async function run(
    id: string,
  ): Promise<{
    status: 'processed' | 'ignored' | 'skipped' | 'failed';
    companyId?: string;
    outcome?: Outcome;
    replyId?: string;
    publish?: RealtimeEvent[];
  }> {
    return db.transaction(async (tx) => {
      // the event, locked, with the channel it was addressed to (phone number id, page id, Instagram
      // account id; a template's status names the WhatsApp Business Account, decision 0038) and its company
      // the events this transaction's rows emit name the provider as their actor (the emitters read
      // it, decision 0068): set in the statement that locks the event, so it costs no statement of its own
      const [row] = await tx
        .select({
          event: webhookEvents,
          channel: { companyId: channels.companyId, country: companies.country },
          actor: sql<string>`set_config('mostrador.actor', json_build_object('type', 'provider', 'id', ${webhookEvents.provider})::text, true)`,
        })
        .from(webhookEvents)
        .leftJoin(
          channels,
          and(
            eq(channels.kind, webhookEvents.provider),
            sql`case when ${webhookEvents.type} = 'template_status' then ${channels.businessAccountId} = ${webhookEvents.accountId} else ${channels.providerId} = ${webhookEvents.accountId} end`,
          ),
        )
        .leftJoin(companies, eq(companies.id, channels.companyId))
        .where(eq(webhookEvents.id, id))
        .limit(1)
        .for('update', { of: webhookEvents });
      const event = row?.event;
      if (event?.status !== 'pending') return { status: 'skipped' };
      const handler = providers[event.provider];
      if (handler) {
        const done = await handler(tx as unknown as Db, event);
        await tx
          .update(webhookEvents)
          .set({
            status: done.status,
            reason: done.status === 'ignored' ? done.reason : null,
            lastError: done.status === 'failed' ? done.reason.slice(0, 2000) : null,
            processedAt: new Date(),
            attempts: sql`${webhookEvents.attempts} + 1`,
          })
          .where(eq(webhookEvents.id, id));
        return { status: done.status, companyId: event.companyId ?? undefined, publish: done.publish };
      }
      const channel = row.channel?.companyId && row.channel.country ? { companyId: row.channel.companyId, country: row.channel.country } : undefined;
      // an event a company already received (a dead letter replayed after its line was disconnected
      // or changed) is still that company's: the company its channel had when it failed
      const [owner] = channel
        ? [channel]
        : event.companyId
          ? await tx.select({ companyId: companies.id, country: companies.country }).from(companies).where(eq(companies.id, event.companyId))
          : [];
      let outcome: Outcome;
      let replyId: string | undefined;
      if (!owner) outcome = { status: 'ignored', reason: 'ningún canal tiene ese identificador' };
      else if (event.type === 'message') {
        const m = event.payload as InboundMessage;
        outcome = await inbound.message(tx, owner.companyId, owner.country as CountryCode, event.provider as ProviderEvent['provider'], m);
        // a WhatsApp catalogue order becomes an order of the company too (modules/orders)
        if (outcome.status === 'processed' && m.kind === 'order') await orders.fromWhatsApp(tx, owner.companyId, owner.country as CountryCode, m);
      } else if (event.type === 'status') outcome = await inbound.status(tx, owner.companyId, event.payload as StatusUpdate);
      else if (event.type === 'template_status') outcome = await applyTemplateStatus(tx, event.accountId, event.payload as TemplateStatusUpdate);
      else if (event.type === 'comment') {
        // a processor built without the comment service (the seed's, for form entries) cannot take
        // one: the event fails and waits as a dead letter, never answered by a stand-in
        if (!comments) throw new Error('Este procesador no atiende comentarios de Facebook');
        const received = await comments.receive(tx as unknown as Db, owner.companyId, event.payload as PageComment);
        replyId = received.replyId;
        outcome = received.status === 'processed' ? { status: 'processed', effects: received.effects } : { status: 'ignored', reason: received.reason };
      } else if (event.type === 'read') outcome = await inbound.read(tx, owner.companyId, event.provider as ProviderEvent['provider'], event.payload as ReadReceipt);
      else outcome = { status: 'ignored', reason: 'evento sin efecto' };
      // automatic assignment of the chat's unassigned lead, when the company has it on (decision 0025)
      if (owner) await assignOnArrival(tx, owner.companyId, outcome, bots?.holds);
      await tx
        .update(webhookEvents)
        .set({
          status: outcome.status,
          reason: outcome.status === 'ignored' ? outcome.reason : null,
          companyId: owner?.companyId ?? null,
          processedAt: new Date(),
          attempts: sql`${webhookEvents.attempts} + 1`,
        })
        .where(eq(webhookEvents.id, id));
      return { status: outcome.status, companyId: owner?.companyId, outcome, replyId };
    });
  }

  return {
    async process(id: string): Promise<'processed' | 'ignored' | 'skipped' | 'failed'> {
      let result: Awaited<ReturnType<typeof run>>;
      try {
        result = await run(id);
      } catch (error) {
        // the queue retries while the event stays pending with what went wrong; after the last
        // try it is a dead letter (failed), kept for an admin with its error and its company
        const attempts = sql`${webhookEvents.attempts} + 1`;
        const [row] = await db
          .update(webhookEvents)
          .set({
            attempts,
            lastError: errorText(error),
            status: sql`case when ${attempts} >= ${maxAttempts} then 'failed' else ${webhookEvents.status} end`,
            companyId: sql`coalesce(${webhookEvents.companyId}, (select ${channels.companyId} from ${channels}
              where ${channels.kind} = ${webhookEvents.provider} and ${channels.providerId} = ${webhookEvents.accountId}))`,
          })
          .where(and(eq(webhookEvents.id, id), eq(webhookEvents.status, 'pending')))
          .returning({ status: webhookEvents.status })
          .catch(() => []);
        if (row?.status === 'failed') {
          log?.warn({ err: error, id }, 'evento de webhook fallido tras sus reintentos: queda en la lista de fallidos');
          return 'failed';
        }
        throw error;
      }
      // committed: the spine hands its events to their listeners (spine/listeners.ts)
      const { companyId, replyId } = result;
      if (result.status === 'processed') spine?.wake();
      // a rule's private reply goes to Facebook now that the comment is committed; it records its
      // own outcome (sent, or failed with the reason) and never throws
      if (replyId && comments) {
        await comments.sendReply(replyId).catch((error: unknown) => log?.warn({ err: error, replyId }, 'respuesta privada no enviada: queda pendiente'));
      }
      // what a non-channel provider's event changed (a form entry that became a lead, or was rejected)
      if (realtime && companyId) {
        for (const event of result.publish ?? []) {
          await realtime.publish(companyId, event).catch((error: unknown) => log?.warn({ err: error, id }, 'aviso en vivo no enviado'));
        }
      }
      return result.status;
    },
    /** Events a crash left unqueued or unprocessed (re-queued on start). */
    async pendingIds(limit = 1000): Promise<string[]> {
      const rows = await db
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(eq(webhookEvents.status, 'pending'))
        .orderBy(webhookEvents.receivedAt)
        .limit(limit);
      return rows.map((r) => r.id);
    },
  };
}
export type WebhookProcessor = ReturnType<typeof createWebhookProcessor>;
