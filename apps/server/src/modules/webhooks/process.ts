import type { CountryCode } from '@mostrador/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { channels, webhookEvents } from '../../db/join-tables.js';
import { companies } from '../../db/schema.js';
import type { InboundMessage, ProviderEvent, ReadReceipt, StatusUpdate } from '../../integrations/meta/events.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { publishChatEffect } from '../chats/events.js';
import { createInbound, type Outcome } from './inbound.js';

export const WEBHOOK_QUEUE = 'webhook.process';

/**
 * Stores verified provider events once: `(provider, event_id)` is unique, so a replayed
 * delivery inserts nothing. Answers the ids of the new rows, to be queued.
 */
export async function storeEvents(db: Db, events: ProviderEvent[]): Promise<string[]> {
  const unique = [...new Map(events.map((e) => [`${e.provider}:${e.eventId}`, e])).values()];
  if (unique.length === 0) return [];
  const rows = await db
    .insert(webhookEvents)
    .values(unique.map((e) => ({ provider: e.provider, eventId: e.eventId, type: e.type, accountId: e.accountId, payload: e.data })))
    .onConflictDoNothing({ target: [webhookEvents.provider, webhookEvents.eventId] })
    .returning({ id: webhookEvents.id });
  return rows.map((r) => r.id);
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
  secrets: Pick<SecretBox, 'seal'>,
  realtime?: Pick<Realtime, 'publish'>,
  log?: { warn: (obj: unknown, msg?: string) => void },
) {
  const inbound = createInbound(secrets);

  async function run(id: string): Promise<{ status: 'processed' | 'ignored' | 'skipped'; companyId?: string; outcome?: Outcome }> {
    return db.transaction(async (tx) => {
      const [event] = await tx.select().from(webhookEvents).where(eq(webhookEvents.id, id)).for('update');
      if (!event || event.status !== 'pending') return { status: 'skipped' };
      const [channel] = await tx
        .select({ companyId: channels.companyId, country: companies.country })
        .from(channels)
        .innerJoin(companies, eq(companies.id, channels.companyId))
        .where(and(eq(channels.kind, event.provider), eq(channels.providerId, event.accountId)));
      let outcome: Outcome;
      if (!channel) outcome = { status: 'ignored', reason: 'ningún canal tiene ese identificador' };
      else if (event.type === 'message') {
        outcome = await inbound.message(tx, channel.companyId, channel.country as CountryCode, event.provider as ProviderEvent['provider'], event.payload as InboundMessage);
      } else if (event.type === 'status') outcome = await inbound.status(tx, channel.companyId, event.payload as StatusUpdate);
      else if (event.type === 'read') outcome = await inbound.read(tx, channel.companyId, event.provider as ProviderEvent['provider'], event.payload as ReadReceipt);
      else outcome = { status: 'ignored', reason: 'evento sin efecto' };
      await tx
        .update(webhookEvents)
        .set({
          status: outcome.status,
          reason: outcome.status === 'ignored' ? outcome.reason : null,
          companyId: channel?.companyId ?? null,
          processedAt: new Date(),
          attempts: sql`${webhookEvents.attempts} + 1`,
        })
        .where(eq(webhookEvents.id, id));
      return { status: outcome.status, companyId: channel?.companyId, outcome };
    });
  }

  return {
    async process(id: string): Promise<'processed' | 'ignored' | 'skipped'> {
      let result: Awaited<ReturnType<typeof run>>;
      try {
        result = await run(id);
      } catch (error) {
        // the queue retries; the event stays pending with what went wrong
        await db
          .update(webhookEvents)
          .set({ attempts: sql`${webhookEvents.attempts} + 1`, lastError: String(error).slice(0, 2000) })
          .where(eq(webhookEvents.id, id))
          .catch(() => {});
        throw error;
      }
      // committed: now the browsers may read it
      const { outcome, companyId } = result;
      if (realtime && companyId && outcome?.status === 'processed') {
        for (const effect of outcome.effects ?? []) await publishChatEffect(db, realtime, companyId, effect, log);
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
