import type { GravitySyncOut } from '@mostrador/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { gravityFormEntries, gravityFormStates } from '../../db/gravity-forms-tables.js';
import { GravityError } from '../../integrations/gravity-forms/client.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { sanitizeJson } from '../../lib/third-party-text.js';
import type { WebhookProcessor } from '../webhooks/process.js';
import { clientFor, type FormCtx, gravityDefaults, loadForm } from '../forms/entries.js';
import { storeEntry } from './store.js';

/** Pages one pull reads at most (50 entries each: 100,000 entries); the next pull goes on from there. */
const MAX_PAGES = 2000;

type StateRow = typeof gravityFormStates.$inferSelect;

export function syncOf(formId: string, s: StateRow | undefined): GravitySyncOut {
  return {
    formId,
    status: (s?.syncStatus ?? 'idle') as GravitySyncOut['status'],
    total: s?.syncTotal ?? 0,
    done: s?.syncDone ?? 0,
    created: s?.syncCreated ?? 0,
    merged: s?.syncMerged ?? 0,
    rejected: s?.syncRejected ?? 0,
    requests: s?.syncRequests ?? 0,
    lastEntryId: s?.lastEntryId ?? 0,
    ...(s?.syncError ? { error: s.syncError } : {}),
    ...(s?.syncStartedAt ? { startedAt: s.syncStartedAt.toISOString() } : {}),
    ...(s?.syncFinishedAt ? { finishedAt: s.syncFinishedAt.toISOString() } : {}),
  };
}

/** The form's state row, made when first needed. */
export async function stateOf(db: Db, form: Pick<FormCtx, 'id' | 'companyId'>): Promise<StateRow> {
  await db.insert(gravityFormStates).values({ formId: form.id, companyId: form.companyId }).onConflictDoNothing();
  const [row] = await db.select().from(gravityFormStates).where(eq(gravityFormStates.formId, form.id));
  return row;
}

export interface PullDeps {
  db: Db;
  secrets: Pick<SecretBox, 'open' | 'seal'>;
  processor: Pick<WebhookProcessor, 'process'>;
  realtime?: Pick<Realtime, 'publish'>;
  /** An entry whose processing threw (not one that failed for good) is handed to the webhook queue's retries. */
  retry?: (eventId: string) => Promise<unknown>;
  log?: { warn: (obj: unknown, msg?: string) => void };
}

/**
 * «Sincronizar entradas» (decision 0050): the form's active entries after the last one kept,
 * oldest first, a page at a time (`id > last`, sorted by id, `paging[page_size]`). Each entry is
 * stored once (an entry the webhook already brought is not processed again) and processed at
 * once like a webhook's; after each page the last id and the counts are committed and published
 * (`gravity.sync`), so a pull stopped by a network failure, a 429 or a restart goes on from the
 * last page it kept. A failure the site may get over (network, 429, 5xx) leaves the pull running
 * with «… (se reintentará)» and throws (the queue tries again); one that needs a settings change
 * (URL, keys, form id) ends it failed with the reason.
 */
export async function pullEntries(deps: PullDeps, companyId: string, formRecordId: string): Promise<GravitySyncOut> {
  const { db } = deps;
  const form = await loadForm(db, deps.secrets, companyId, formRecordId);
  let state = await stateOf(db, form);
  const publish = async () => {
    const [row] = await db.select().from(gravityFormStates).where(eq(gravityFormStates.formId, form.id));
    const out = syncOf(form.id, row);
    await deps.realtime?.publish(companyId, { type: 'gravity.sync', sync: out }).catch(() => undefined);
    return out;
  };
  const fresh = state.syncStatus !== 'running';
  await db
    .update(gravityFormStates)
    .set({
      syncStatus: 'running',
      syncError: null,
      ...(fresh ? { syncTotal: 0, syncDone: 0, syncCreated: 0, syncMerged: 0, syncRejected: 0, syncRequests: 0, syncStartedAt: new Date(), syncFinishedAt: null } : {}),
      updatedAt: new Date(),
    })
    .where(eq(gravityFormStates.formId, form.id));
  await publish();
  const client = clientFor(form);
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      [state] = await db.select().from(gravityFormStates).where(eq(gravityFormStates.formId, form.id));
      const requestsBefore = client.stats.requests;
      const { total, entries } = await client.entries(form.formId, { afterId: state.lastEntryId, pageSize: gravityDefaults.pageSize });
      const ids: number[] = [];
      for (const raw of entries) {
        const entry = sanitizeJson(raw) as typeof raw;
        const stored = await storeEntry(db, form, entry, 'pull');
        ids.push(Number(entry.id));
        if (!stored.id) continue;
        try {
          await deps.processor.process(stored.id);
        } catch (error) {
          // still pending with its error: the webhook queue's retries take it (a dead letter after the last)
          deps.log?.warn({ err: error, entry: entry.id }, 'entrada de Gravity Forms no procesada: se reintentará');
          await deps.retry?.(stored.id);
        }
      }
      const counts = ids.length
        ? await db
            .select({ status: gravityFormEntries.status, n: sql<number>`count(*)::int` })
            .from(gravityFormEntries)
            .where(and(eq(gravityFormEntries.formId, form.id), inArray(gravityFormEntries.entryId, ids)))
            .groupBy(gravityFormEntries.status)
        : [];
      const n = (s: string) => counts.find((c) => c.status === s)?.n ?? 0;
      await db
        .update(gravityFormStates)
        .set({
          lastEntryId: Math.max(state.lastEntryId, ...ids),
          // the first page says how many entries are left to read; the total is what was done plus that
          ...(page === 0 ? { syncTotal: sql`${gravityFormStates.syncDone} + ${total}` } : {}),
          syncDone: sql`${gravityFormStates.syncDone} + ${ids.length}`,
          syncCreated: sql`${gravityFormStates.syncCreated} + ${n('created')}`,
          syncMerged: sql`${gravityFormStates.syncMerged} + ${n('merged')}`,
          syncRejected: sql`${gravityFormStates.syncRejected} + ${n('rejected')}`,
          syncRequests: sql`${gravityFormStates.syncRequests} + ${client.stats.requests - requestsBefore}`,
          updatedAt: new Date(),
        })
        .where(eq(gravityFormStates.formId, form.id));
      await publish();
      if (entries.length < gravityDefaults.pageSize) break;
    }
    await db
      .update(gravityFormStates)
      .set({ syncStatus: 'done', syncError: null, syncFinishedAt: new Date(), syncTotal: sql`${gravityFormStates.syncDone}`, updatedAt: new Date() })
      .where(eq(gravityFormStates.formId, form.id));
    return await publish();
  } catch (error) {
    if (!(error instanceof GravityError)) {
      await db.update(gravityFormStates).set({ syncError: 'Error inesperado (se reintentará)', updatedAt: new Date() }).where(eq(gravityFormStates.formId, form.id));
      await publish();
      throw error;
    }
    if (error.transient) {
      await db.update(gravityFormStates).set({ syncError: `${error.msg} (se reintentará)`, updatedAt: new Date() }).where(eq(gravityFormStates.formId, form.id));
      await publish();
      throw error;
    }
    await db
      .update(gravityFormStates)
      .set({ syncStatus: 'failed', syncError: error.msg, syncFinishedAt: new Date(), updatedAt: new Date() })
      .where(eq(gravityFormStates.formId, form.id));
    return publish();
  }
}
