import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { gravityFormEntries } from '../../db/gravity-forms-tables.js';
import { webhookEvents } from '../../db/join-tables.js';
import type { GravityEntry } from '../../integrations/gravity-forms/client.js';
import type { ProviderEvent } from '../../integrations/meta/events.js';
import { type FormCtx, GRAVITY_PROVIDER, submittedAtOf } from '../forms/entries.js';
import { storeEvents } from '../webhooks/process.js';

// Storing an entry uses the provider inbox (webhooks/), so it lives here, above it; what an entry
// becomes once dispatched is modules/forms, below it (decision 0070).

/**
 * Keeps an entry once per (form, entry id): its `webhook_events` row (provider gravity-forms,
 * event id `{form}:{entry}`; one the database refuses is kept as a dead letter, decision 0020)
 * and its line on the screen. Answers the event to process, or `duplicate` when it was already
 * kept (a replayed webhook, or a pull meeting what the webhook brought).
 */
export async function storeEntry(db: Db, form: Pick<FormCtx, 'id' | 'companyId'>, entry: GravityEntry, source: 'webhook' | 'pull'): Promise<{ id?: string; duplicate: boolean }> {
  const entryId = Number(entry.id);
  const eventId = `${form.id}:${entryId}`;
  // not a Meta event: the shared store keeps it once and turns a refused one into a dead letter
  const event = { provider: GRAVITY_PROVIDER, eventId, accountId: form.id, type: 'entry', data: entry } as unknown as ProviderEvent;
  const stored = await storeEvents(db, [event]);
  const [row] = await db
    .update(webhookEvents)
    .set({ companyId: form.companyId })
    .where(and(eq(webhookEvents.provider, GRAVITY_PROVIDER), eq(webhookEvents.eventId, eventId)))
    .returning({ id: webhookEvents.id });
  const inserted = await db
    .insert(gravityFormEntries)
    .values({ companyId: form.companyId, formId: form.id, entryId, eventId: row?.id ?? null, source, submittedAt: submittedAtOf(entry) ?? null })
    .onConflictDoNothing({ target: [gravityFormEntries.formId, gravityFormEntries.entryId] })
    .returning({ id: gravityFormEntries.id });
  if (stored.deadLetters && inserted.length) {
    await db
      .update(gravityFormEntries)
      .set({ status: 'rejected', reason: 'La entrada no se pudo guardar tal como llegó: está en Eventos fallidos', updatedAt: new Date() })
      .where(eq(gravityFormEntries.id, inserted[0].id));
  }
  return { id: stored.ids[0], duplicate: stored.ids.length === 0 && stored.deadLetters === 0 };
}
