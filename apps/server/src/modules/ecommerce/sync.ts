import type { SyncRunOut } from '@mostrador/contract';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { audit } from '../../db/audit.js';
import type { Db } from '../../db/database.js';
import { ecommerceSyncRuns } from '../../db/ecommerce-tables.js';
import { ecommercesTable } from '../../db/resource-tables.js';
import { type WooClient, WooError } from '../../integrations/woocommerce/client.js';
import type { WooCustomer, WooOrder, WooProduct } from '../../integrations/woocommerce/types.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { commitPage, endSet, finishedRun, type OnSyncFinished, requestMeter, retryOrFail, runSyncRun, SyncFailed, tallySet } from '../../lib/sync-run.js';
import { products, storeProducts, type Tally, tally, termMaps } from './links.js';
import type { ProductRow } from './mapping.js';
import { fetchAttributes, pathOf, pullAttributes, pullCustomers, pullOrders, pullPhases, pullProducts, pullTerms, variationsOfPage } from './pull.js';
import { pushProducts } from './push.js';
import { clientFor, loadStore, type StoreCtx } from './store.js';

/** Local products checked per push page. */
const PUSH_PAGE = 100;

type RunRow = typeof ecommerceSyncRuns.$inferSelect;
type Phase = (typeof pullPhases)[number] | 'push';
interface Cursor {
  phase?: Phase;
  /** Next page of the phase (pull) … */
  page?: number;
  /** … or the last local product id pushed (push). */
  after?: string;
  totals?: boolean;
}

/** A run row as the screens see it. */
export function runOut(row: RunRow, store: { name: string; country: string }): SyncRunOut {
  return {
    _id: row.id,
    storeId: row.storeId,
    storeName: store.name,
    country: store.country,
    kind: row.kind as SyncRunOut['kind'],
    status: row.status as SyncRunOut['status'],
    total: row.total,
    done: Math.min(row.done, Math.max(row.total, row.done)),
    created: row.created,
    updated: row.updated,
    unchanged: row.unchanged,
    storeWrites: row.storeWrites,
    requests: row.requests,
    failedItems: row.failedItems,
    errors: row.errors as SyncRunOut['errors'],
    ...(row.message ? { message: row.message } : {}),
    ...(row.startedAt ? { startedAt: row.startedAt.toISOString() } : {}),
    ...(row.finishedAt ? { finishedAt: row.finishedAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The counts a finished run carries to its `sync.finished` event. */
const tallyOf = (row: RunRow) => ({ total: row.total, done: row.done, created: row.created, updated: row.updated, unchanged: row.unchanged, storeWrites: row.storeWrites, requests: row.requests, failedItems: row.failedItems });

/**
 * Store sync jobs (decision 0034) on the sync-run engine (lib/sync-run.ts). A run pulls the store
 * page by page (categories, tags, attributes, products with their variations, orders, customers;
 * pull.ts), then pushes our changed products (push.ts); each page commits its records, its counts
 * and the cursor of the next page in one transaction, so a job resumed after a crash starts where
 * the last commit left off.
 */
export function createSyncEngine(deps: {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  realtime?: Realtime;
  log?: { warn: (o: unknown, m?: string) => void };
  client?: (store: StoreCtx) => WooClient;
  onFinished?: OnSyncFinished;
}) {
  const { db } = deps;
  const makeClient = deps.client ?? clientFor;

  async function publish(runId: string, store: StoreCtx) {
    if (!deps.realtime) return;
    const [row] = await db.select().from(ecommerceSyncRuns).where(eq(ecommerceSyncRuns.id, runId));
    if (row) await deps.realtime.publish(store.companyId, { type: 'sync.progress', run: runOut(row, store) });
  }

  /** Commits one page: its writes (done in `work` on the transaction), counts and the next cursor. */
  function commit(runId: string, cursor: Cursor, requests: number, work: (tx: Db, t: Tally) => Promise<void>) {
    return commitPage(db, tally(), work, async (tx, t) => {
      await tx
        .update(ecommerceSyncRuns)
        .set({ cursor, ...tallySet(ecommerceSyncRuns, t, requests), storeWrites: sql`${ecommerceSyncRuns.storeWrites} + ${t.storeWrites}` })
        .where(eq(ecommerceSyncRuns.id, runId));
    });
  }

  /** The run's pages from its cursor: the pull's phases (a full sync), then the push. */
  async function pages(row: RunRow, store: StoreCtx, client: WooClient, used: () => number) {
    const runId = row.id;
    let cursor = (row.cursor ?? {}) as Cursor;
    if (row.kind === 'all') {
      if (!cursor.totals) {
        // how much there is to look at: one small request per list, and our products
        let total = 0;
        for (const path of ['/products/categories', '/products/tags', '/products', '/orders', '/customers']) total += (await client.page(path, 1, {}, 1)).total;
        const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(ecommercesTable).where(and(eq(products.companyId, store.companyId), eq(products.country, store.country)))) as Array<{ n: number }>;
        total += Number(n);
        cursor = { phase: 'categories', page: 1, totals: true };
        await db.update(ecommerceSyncRuns).set({ total, cursor, requests: sql`${ecommerceSyncRuns.requests} + ${used()}` }).where(eq(ecommerceSyncRuns.id, runId));
        await publish(runId, store);
      }
      let maps = await termMaps(db, store);
      for (let p = pullPhases.indexOf(cursor.phase as (typeof pullPhases)[number]); p >= 0 && p < pullPhases.length; p++) {
        const phase = pullPhases[p];
        if (phase === 'attributes') {
          const attributes = await fetchAttributes(client);
          const next: Cursor = { phase: pullPhases[p + 1], page: 1, totals: true };
          await commit(runId, next, used(), (tx, t) => pullAttributes(tx, store, attributes, t));
          cursor = next;
          await publish(runId, store);
          continue;
        }
        for (let page = cursor.phase === phase ? (cursor.page ?? 1) : 1; ; page++) {
          const { items, totalPages } = await client.page<Record<string, unknown>>(pathOf(phase), page, { orderby: 'id', order: 'asc' });
          const last = page >= totalPages || items.length === 0;
          const next: Cursor = last ? { phase: pullPhases[p + 1] ?? 'push', page: 1, totals: true } : { phase, page: page + 1, totals: true };
          if (phase === 'products') {
            const variations = await variationsOfPage(client, items as unknown as WooProduct[]);
            await commit(runId, next, used(), (tx, t) => pullProducts(tx, store, maps, items as unknown as WooProduct[], variations, t));
          } else if (phase === 'orders') {
            await commit(runId, next, used(), (tx, t) => pullOrders(tx, store, items as unknown as WooOrder[], t));
          } else if (phase === 'customers') {
            await commit(runId, next, used(), (tx, t) => pullCustomers(tx, store, items as unknown as WooCustomer[], t));
          } else {
            await commit(runId, next, used(), (tx, t) => pullTerms(tx, store, phase, items as never[], t));
          }
          cursor = next;
          await publish(runId, store);
          if (last) break;
        }
        if (phase === 'tags') maps = await termMaps(db, store);
      }
      cursor = { phase: 'push', after: cursor.after, totals: true };
    }
    // push: our products of the store's country (all) or the chosen ones (selected), by id
    const ids = row.kind === 'selected' ? ((row.params as { ids?: string[] }).ids ?? []) : undefined;
    if (row.kind === 'selected' && !cursor.totals) {
      cursor = { phase: 'push', totals: true };
      await db.update(ecommerceSyncRuns).set({ total: ids?.length ?? 0, cursor }).where(eq(ecommerceSyncRuns.id, runId));
    }
    const maps = await termMaps(db, store);
    for (;;) {
      const page = (await storeProducts(
        db,
        store,
        ids ? inArray(products.id, ids.length ? ids : ['00000000-0000-0000-0000-000000000000']) : undefined,
        cursor.after ? gt(products.id, cursor.after) : undefined,
      )
        .orderBy(asc(products.id))
        .limit(PUSH_PAGE)) as unknown as ProductRow[];
      if (!page.length) break;
      const next: Cursor = { phase: 'push', after: page[page.length - 1].id, totals: true };
      await commit(runId, next, 0, async (tx, t) => {
        await pushProducts(tx, store, client, page, t, maps);
      });
      await db.update(ecommerceSyncRuns).set({ requests: sql`${ecommerceSyncRuns.requests} + ${used()}` }).where(eq(ecommerceSyncRuns.id, runId));
      cursor = next;
      await publish(runId, store);
    }
  }

  async function run(runId: string): Promise<void> {
    let store: StoreCtx | undefined;
    let used = () => 0;
    await runSyncRun<RunRow>({
      db,
      onFinished: deps.onFinished,
      async claim() {
        const [row] = await db.select().from(ecommerceSyncRuns).where(eq(ecommerceSyncRuns.id, runId));
        return !row || row.status === 'done' || row.status === 'failed' ? 'gone' : row;
      },
      async pages(row) {
        store = await loadStore(db, deps.secrets, row.companyId, row.storeId).catch(() => undefined);
        if (!store) throw new SyncFailed('La tienda ya no existe');
        const client = makeClient(store);
        used = requestMeter(client.stats);
        await db.update(ecommerceSyncRuns).set({ status: 'running', startedAt: row.startedAt ?? new Date() }).where(eq(ecommerceSyncRuns.id, runId));
        await pages(row, store, client, used);
      },
      onError: (_row, error) =>
        // transient: the run stays running with its cursor; the queue retries and it resumes there
        retryOrFail(error, error instanceof WooError ? { permanent: !['network', 'server', 'rate-limited'].includes(error.kind), msg: error.msg } : undefined, async (message) => {
          await db
            .update(ecommerceSyncRuns)
            .set({ message, requests: sql`${ecommerceSyncRuns.requests} + ${used()}` })
            .where(eq(ecommerceSyncRuns.id, runId));
          if (store) await publish(runId, store);
        }),
      async finish(tx, _row, outcome) {
        const [end] = await tx
          .update(ecommerceSyncRuns)
          .set({
            ...endSet(outcome),
            requests: sql`${ecommerceSyncRuns.requests} + ${used()}`,
            ...(outcome.status === 'done' ? { total: sql`greatest(${ecommerceSyncRuns.total}, ${ecommerceSyncRuns.done})` } : {}),
          })
          .where(eq(ecommerceSyncRuns.id, runId))
          .returning();
        return finishedRun('ecommerce', outcome, end, tallyOf(end));
      },
      async published() {
        if (store) await publish(runId, store);
      },
    });
  }

  /** A run for a store, or the one already queued or running for it (a second click changes nothing). */
  async function start(store: StoreCtx, kind: 'all' | 'selected', params: Record<string, unknown> = {}) {
    const [active] = await db
      .select()
      .from(ecommerceSyncRuns)
      .where(and(eq(ecommerceSyncRuns.storeId, store.id), inArray(ecommerceSyncRuns.status, ['queued', 'running']), eq(ecommerceSyncRuns.kind, kind)));
    if (active && kind === 'all') return { row: active, fresh: false };
    // the run and its audit entry in one transaction (decision 0072): who started which sync of the store
    const row = await db.transaction(async (tx) => {
      const [made] = await tx.insert(ecommerceSyncRuns).values({ companyId: store.companyId, storeId: store.id, kind, params }).returning();
      await audit(tx, { companyId: store.companyId, action: 'sync', entity: 'woocommerces', entityId: store.id, changes: { run: { from: null, to: made.id }, kind: { from: null, to: kind } } });
      return made;
    });
    return { row, fresh: true };
  }

  return { run, start, publish };
}
export type SyncEngine = ReturnType<typeof createSyncEngine>;
