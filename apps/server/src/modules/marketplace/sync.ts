import { randomUUID } from 'node:crypto';
import { type MarketplaceSyncRunOut, marketplaceOrderStatusOf, resources } from '@mostrador/contract';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { marketplaceOrderItems, marketplaceSyncRuns } from '../../db/marketplace-tables.js';
import { marketplaceOrdersTable, marketplaceProductsTable, marketplaceVariationsTable } from '../../db/resource-tables.js';
import { type MarketplaceAdapter, MarketplaceError, type RemoteListing, type RemoteOrder, type RemoteOrderItem } from '../../integrations/marketplace.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { commitPage, endSet, finishedRun, mapLimit, type OnSyncFinished, type PageTally, pageTally, requestMeter, retryOrFail, runSyncRun, tallySet } from '../../lib/sync-run.js';
import {
  clip,
  cents,
  hashOf,
  type LinkRow,
  linksOf,
  products,
  refreshProductTotals,
  remoteVariationOf,
  saveLinks,
  variations,
} from './records.js';
import { emit, type NewEvent } from '../../spine/outbox.js';
import { adapterFor, adapterOfRun, type SourceCtx, sourceOfRun } from './sources.js';

/** The first sync of an account reads the orders placed in the last 90 days; later ones, what changed since the last one began (less 10 minutes). */
const FIRST_ORDERS_DAYS = 90;
const ORDERS_OVERLAP_MS = 10 * 60_000;
/** Orders whose items are fetched at once. */
const ITEMS_CONCURRENCY = 4;

const orders = marketplaceOrdersTable as unknown as Record<string, AnyPgColumn>;
type Row = Record<string, unknown> & { id: string };
type RunRow = typeof marketplaceSyncRuns.$inferSelect;

interface Cursor {
  phase?: 'products' | 'orders' | 'done';
  offset?: number;
  /** Orders read from this instant, by creation (first sync) or by update. */
  since?: string;
  by?: 'created' | 'updated';
  /** When the run began (the next run's orders start 10 minutes before it). */
  started?: string;
}


/** Marketplace orders that are invoiced: those not cancelled, failed or on their way back. */
const notInvoiced = new Set(['canceled', 'failed', 'returning', 'returned']);

async function insertRows(db: Db, table: typeof marketplaceProductsTable, rows: Row[]) {
  for (let i = 0; i < rows.length; i += 300) await db.insert(table).values(rows.slice(i, i + 300) as never);
}

/** Fields of a record without empty values, checked by the resource's own schema: a Spanish reason when not valid. */
function invalidReason(resource: (typeof resources)[keyof typeof resources], fields: Record<string, unknown>): string | undefined {
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined));
  const parsed = resource.input.safeParse(clean);
  return parsed.success ? undefined : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

const differs = (row: Row, fields: Record<string, unknown>) => Object.entries(fields).some(([k, v]) => (row[k] ?? null) !== (v ?? null));

/**
 * One page of the account's SKUs into products and variations (decision 0035). A SKU whose
 * marketplace form hashes as its link: nothing written. The marketplace's name, variation,
 * offer price and status always win; its price and stock win unless ours changed and were not
 * sent yet (pending) or were refused (failed): then ours is kept until it is sent.
 */
export async function pullListings(db: Db, source: SourceCtx, listings: RemoteListing[], t: PageTally) {
  const { companyId } = source;
  const byParent = new Map<string, RemoteListing[]>();
  for (const l of listings) byParent.set(l.parentSku, [...(byParent.get(l.parentSku) ?? []), l]);
  const parents = [...byParent.keys()];
  const skus = listings.map((l) => l.sku);

  // products: found by their link, else (made before the link, like the demo's examples) by the parent SKU in this account
  const pLinks = await linksOf(db, companyId, source.id, 'product', parents);
  const pIds = [...pLinks.values()].map((l) => l.recordId);
  const pRows = (await db
    .select()
    .from(marketplaceProductsTable)
    .where(
      and(
        eq(products.companyId, companyId),
        or(pIds.length ? inArray(products.id, pIds) : undefined, and(eq(products.sourceId, source.id), inArray(products.parentSku, parents))),
      ),
    )) as Row[];
  const pById = new Map(pRows.map((r) => [r.id, r]));
  const productOf = new Map<string, string>();
  const productInserts: Row[] = [];
  const productLinks: Array<{ remoteId: string; recordId: string; hash: string; remote: unknown }> = [];
  for (const [parentSku, group] of byParent) {
    // the product shows what its first SKU (by SKU) shows; a later page's SKUs of the same product leave it as it is
    const rep = [...group].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0))[0];
    const fields = {
      name: clip(rep.name, 200) ?? parentSku,
      parentSku,
      brand: clip(rep.brand, 120) ?? null,
      category: clip(rep.category, 120) ?? null,
      imageUrl: clip(rep.imageUrl, 500) ?? null,
      url: clip(rep.url, 500) ?? null,
      country: source.country,
      sourceId: source.id,
    };
    const hash = hashOf(fields);
    const link = pLinks.get(parentSku);
    const row = link ? pById.get(link.recordId) : pRows.find((r) => r.sourceId === source.id && r.parentSku === parentSku);
    if (row) {
      productOf.set(parentSku, row.id);
      const linkedRep = (link?.remote as { rep?: string } | null | undefined)?.rep;
      if (link && (link.hash === hash || (linkedRep !== undefined && linkedRep < rep.sku))) continue;
      if (differs(row, fields)) {
        await db
          .update(marketplaceProductsTable)
          .set({ ...fields, updatedAt: new Date() } as never)
          .where(and(eq(products.companyId, companyId), eq(products.id, row.id)));
        t.updated++;
      }
      productLinks.push({ remoteId: parentSku, recordId: row.id, hash, remote: { rep: rep.sku } });
    } else {
      const id = randomUUID();
      productOf.set(parentSku, id);
      productInserts.push({ id, companyId, ...fields, status: rep.status, variations: 0, stock: 0, price: 0 } as Row);
      productLinks.push({ remoteId: parentSku, recordId: id, hash, remote: { rep: rep.sku } });
      t.created++;
    }
  }
  await insertRows(db, marketplaceProductsTable, productInserts);
  await saveLinks(db, companyId, source.id, 'product', productLinks);

  // variations
  const vLinks = await linksOf(db, companyId, source.id, 'variation', skus);
  const vIds = [...vLinks.values()].map((l) => l.recordId);
  const vRows = (await db
    .select()
    .from(marketplaceVariationsTable)
    .where(
      and(
        eq(variations.companyId, companyId),
        or(vIds.length ? inArray(variations.id, vIds) : undefined, and(eq(variations.sourceId, source.id), inArray(variations.sellerSku, skus))),
      ),
    )) as Row[];
  const vById = new Map(vRows.map((r) => [r.id, r]));
  const touched = new Set<string>();
  const inserts: Row[] = [];
  const newLinks: Array<{ remoteId: string; recordId: string; hash: string; remote: unknown }> = [];
  for (const listing of listings) {
    t.done++;
    const rv = remoteVariationOf(listing);
    const hash = hashOf(rv);
    const productId = productOf.get(listing.parentSku) as string;
    const label = `SKU ${listing.sku}`;
    const base = { productId, sourceId: source.id, country: source.country, name: rv.name, variation: rv.variation, shopSku: rv.shopSku, salePrice: rv.salePrice, status: rv.status };
    const reason = invalidReason(resources['marketplace-variations'], { ...base, sellerSku: rv.sku, price: rv.price, stock: rv.stock, syncStatus: 'synced' });
    if (reason) {
      t.errors.push({ item: label, msg: `Datos del marketplace no válidos: ${reason}` });
      continue;
    }
    const link: LinkRow | undefined = vLinks.get(listing.sku);
    const row = link ? vById.get(link.recordId) : vRows.find((r) => r.sourceId === source.id && r.sellerSku === listing.sku);
    if (row) {
      if (link && link.hash === hash && row.productId === productId) {
        t.unchanged++;
        continue;
      }
      const ours = row.syncStatus === 'pending' || row.syncStatus === 'failed';
      const sameOffer = Number(row.price) === rv.price && Number(row.stock) === rv.stock;
      const fields: Record<string, unknown> = { ...base };
      if (!ours) Object.assign(fields, { price: rv.price, stock: rv.stock });
      else if (sameOffer) Object.assign(fields, { syncStatus: 'synced', syncMessage: null });
      if (differs(row, fields)) {
        await db
          .update(marketplaceVariationsTable)
          .set({ ...fields, updatedAt: new Date() } as never)
          .where(and(eq(variations.companyId, companyId), eq(variations.id, row.id)));
        t.updated++;
        touched.add(productId);
        if (row.productId && row.productId !== productId) touched.add(row.productId as string);
      } else t.unchanged++;
      newLinks.push({ remoteId: listing.sku, recordId: row.id, hash, remote: rv });
    } else {
      const id = randomUUID();
      inserts.push({ id, companyId, sellerSku: rv.sku, price: rv.price, stock: rv.stock, syncStatus: 'synced', ...base } as Row);
      newLinks.push({ remoteId: listing.sku, recordId: id, hash, remote: rv });
      touched.add(productId);
      t.created++;
    }
  }
  await insertRows(db, marketplaceVariationsTable as never, inserts);
  await saveLinks(db, companyId, source.id, 'variation', newLinks);
  await refreshProductTotals(db, companyId, [...touched]);
}

/** An order's fields as the resource keeps them (third-party text cleaned, a bad e-mail left out). */
function orderFields(o: RemoteOrder, source: SourceCtx, items: RemoteOrderItem[]) {
  const email = clip(o.customerEmail, 254)?.toLowerCase();
  const fields: Record<string, unknown> = {
    orderNumber: clip(o.number, 40) ?? o.externalId,
    externalId: o.externalId.slice(0, 40),
    status: items.length ? marketplaceOrderStatusOf(items.map((i) => i.status)) : o.status,
    customerName: clip(o.customerName, 160) ?? 'Cliente del marketplace',
    customerEmail: email && resources['marketplace-orders'].fields.customerEmail.safeParse(email).success ? email : null,
    customerPhone: clip(o.customerPhone, 40) ?? null,
    address: clip(o.address, 300) ?? null,
    city: clip(o.city, 120) ?? null,
    region: clip(o.region, 120) ?? null,
    total: cents(o.total || items.reduce((s, i) => s + i.paidPrice + i.shippingAmount, 0)),
    currency: source.currency,
    country: source.country,
    sourceId: source.id,
    itemsCount: items.length || o.itemsCount,
    paymentMethod: clip(o.paymentMethod, 60) ?? null,
    shippingType: clip(o.shippingType, 60) ?? null,
    promisedShippingAt: o.promisedShippingAt ?? null,
    marketplaceUpdatedAt: o.updatedAt ?? null,
  };
  return fields;
}

/** Replaces an order's items with the marketplace's (each linked to our variation of its SKU, when there is one). */
export async function writeOrderItems(db: Db, source: SourceCtx, orderId: string, items: RemoteOrderItem[]) {
  const { companyId } = source;
  await db.delete(marketplaceOrderItems).where(and(eq(marketplaceOrderItems.companyId, companyId), eq(marketplaceOrderItems.orderId, orderId)));
  if (!items.length) return;
  const skus = [...new Set(items.map((i) => i.sku))];
  const found = (await db
    .select({ id: variations.id, sku: variations.sellerSku })
    .from(marketplaceVariationsTable)
    .where(and(eq(variations.companyId, companyId), eq(variations.sourceId, source.id), inArray(variations.sellerSku, skus)))) as Array<{ id: string; sku: string }>;
  const variationOf = new Map(found.map((f) => [f.sku, f.id]));
  await db.insert(marketplaceOrderItems).values(
    items.map((i, position) => ({
      companyId,
      orderId,
      position,
      externalId: i.externalId.slice(0, 40),
      sellerSku: clip(i.sku, 80) ?? i.externalId,
      shopSku: clip(i.shopSku, 80) ?? null,
      name: clip(i.name, 200) ?? i.sku,
      variation: clip(i.variation, 120) ?? null,
      status: i.status,
      price: cents(i.price),
      paidPrice: cents(i.paidPrice),
      shippingAmount: cents(i.shippingAmount),
      currency: clip(i.currency, 3) ?? source.currency,
      packageId: clip(i.packageId, 60) ?? null,
      trackingCode: clip(i.trackingCode, 80) ?? null,
      shipmentProvider: clip(i.shipmentProvider, 80) ?? null,
      variationId: variationOf.get(i.sku) ?? null,
    })),
  );
}

/** The orders of a page that changed since their link, with their items fetched (outside any transaction). */
export async function changedOrders(db: Db, source: SourceCtx, adapter: MarketplaceAdapter, page: RemoteOrder[]) {
  const links = await linksOf(db, source.companyId, source.id, 'order', page.map((o) => o.externalId));
  const rows = links.size
    ? ((await db
        .select({ id: orders.id })
        .from(marketplaceOrdersTable)
        .where(and(eq(orders.companyId, source.companyId), inArray(orders.id, [...links.values()].map((l) => l.recordId))))) as Array<{ id: string }>)
    : [];
  const existing = new Set(rows.map((r) => r.id));
  const changed = page.filter((o) => {
    const link = links.get(o.externalId);
    return !link || link.hash !== hashOf(o) || !existing.has(link.recordId);
  });
  const items = await mapLimit(changed, ITEMS_CONCURRENCY, (o) => adapter.orderItems(o.externalId));
  return { links, changed: changed.map((o, i) => ({ order: o, items: items[i] })), unchanged: page.length - changed.length };
}

/** One page of changed orders into our records, with their items. */
export async function pullOrders(db: Db, source: SourceCtx, changed: Array<{ order: RemoteOrder; items: RemoteOrderItem[] }>, links: Map<string, LinkRow>, t: PageTally) {
  const { companyId } = source;
  const unlinked = changed.filter((c) => !links.has(c.order.externalId)).map((c) => c.order.externalId);
  const byExternal = new Map<string, Row>();
  if (unlinked.length) {
    const found = (await db
      .select()
      .from(marketplaceOrdersTable)
      .where(and(eq(orders.companyId, companyId), eq(orders.sourceId, source.id), inArray(orders.externalId, unlinked)))) as Row[];
    for (const r of found) byExternal.set(String(r.externalId), r);
  }
  const linkedIds = changed.map((c) => links.get(c.order.externalId)?.recordId).filter((x): x is string => !!x);
  const linkedRows = linkedIds.length
    ? ((await db.select().from(marketplaceOrdersTable).where(and(eq(orders.companyId, companyId), inArray(orders.id, linkedIds)))) as Row[])
    : [];
  const byId = new Map(linkedRows.map((r) => [r.id, r]));
  const newLinks: Array<{ remoteId: string; recordId: string; hash: string }> = [];
  const arrivals: NewEvent<'store_order.arrived'>[] = [];
  for (const { order, items } of changed) {
    const fields = orderFields(order, source, items);
    const reason = invalidReason(resources['marketplace-orders'], fields);
    if (reason) {
      t.errors.push({ item: `Orden ${order.number}`, msg: `Datos del marketplace no válidos: ${reason}` });
      continue;
    }
    const link = links.get(order.externalId);
    const row = (link ? byId.get(link.recordId) : undefined) ?? byExternal.get(order.externalId);
    let id: string;
    if (row) {
      id = row.id;
      await db
        .update(marketplaceOrdersTable)
        .set({ ...fields, updatedAt: new Date() } as never)
        .where(and(eq(orders.companyId, companyId), eq(orders.id, id)));
      t.updated++;
    } else {
      id = randomUUID();
      // createdAt: when the customer placed it at the marketplace (the list's default order)
      await db.insert(marketplaceOrdersTable).values({ id, companyId, ...fields, createdAt: new Date(order.createdAt) } as never);
      t.created++;
    }
    await writeOrderItems(db, source, id, items);
    newLinks.push({ remoteId: order.externalId, recordId: id, hash: hashOf(order) });
    const status = String(fields.status);
    arrivals.push({
      type: 'store_order.arrived',
      companyId,
      aggregateId: id,
      actor: { type: 'provider', id: source.platform },
      payload: { kind: 'marketplace', orderId: id, status, country: source.country, invoiceable: !notInvoiced.has(status), customerTaxId: order.customerTaxId?.slice(0, 40) || null },
    });
  }
  await saveLinks(db, companyId, source.id, 'order', newLinks);
  // Genial's listener invoices the paid ones (decision 0037)
  await emit(db, arrivals);
}

/** A run row as the screens see it. */
export function runOut(row: RunRow, source: { name: string; country: string }): MarketplaceSyncRunOut {
  return {
    _id: row.id,
    sourceId: row.sourceId,
    sourceName: source.name,
    country: source.country,
    status: row.status as MarketplaceSyncRunOut['status'],
    total: Math.max(row.total, row.done),
    done: row.done,
    created: row.created,
    updated: row.updated,
    unchanged: row.unchanged,
    requests: row.requests,
    failedItems: row.failedItems,
    errors: row.errors as MarketplaceSyncRunOut['errors'],
    ...(row.message ? { message: row.message } : {}),
    ...(row.startedAt ? { startedAt: row.startedAt.toISOString() } : {}),
    ...(row.finishedAt ? { finishedAt: row.finishedAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The counts a finished run carries to its `sync.finished` event. */
const tallyOf = (row: RunRow) => ({ total: row.total, done: row.done, created: row.created, updated: row.updated, unchanged: row.unchanged, requests: row.requests, failedItems: row.failedItems });

/**
 * Marketplace sync jobs (decision 0035) on the sync-run engine (lib/sync-run.ts): a run reads the
 * account's SKUs page by page (Offset and Limit), then its orders created (first run) or changed
 * since the last run began, page by page; each page commits its records, its counts and the
 * cursor of the next page in one transaction, so a job resumed after a crash starts where the
 * last commit left off.
 */
export function createMarketplaceSync(deps: {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  realtime?: Realtime;
  adapter?: (source: SourceCtx) => MarketplaceAdapter;
  now?: () => number;
  onFinished?: OnSyncFinished;
}) {
  const { db } = deps;
  const makeAdapter = deps.adapter ?? ((s: SourceCtx) => adapterFor(s));
  const now = deps.now ?? Date.now;
  const byId = (runId: string) => eq(marketplaceSyncRuns.id, runId);

  async function publish(runId: string, source: SourceCtx) {
    if (!deps.realtime) return;
    const [row] = await db.select().from(marketplaceSyncRuns).where(and(eq(marketplaceSyncRuns.companyId, source.companyId), byId(runId)));
    if (row) await deps.realtime.publish(source.companyId, { type: 'marketplace.sync', run: runOut(row, source) });
  }

  /** Commits one page: its writes, its counts, the next cursor and how many more items are known to come. */
  async function commit(runId: string, source: SourceCtx, cursor: Cursor, requests: number, ahead: number, work: (tx: Db, t: PageTally) => Promise<void>) {
    const t = await commitPage(db, pageTally(), work, async (tx, t) => {
      const r = marketplaceSyncRuns;
      await tx
        .update(r)
        .set({ cursor, ...tallySet(r, t, requests), total: sql`${r.done} + ${t.done} + ${ahead}`, message: null })
        .where(and(eq(r.companyId, source.companyId), byId(runId)));
    });
    await publish(runId, source);
    return t;
  }

  /** Where this run reads orders from: the start of the last finished run (less 10 minutes), else 90 days back. */
  async function ordersSince(source: SourceCtx): Promise<Pick<Cursor, 'since' | 'by'>> {
    const [last] = await db
      .select({ cursor: marketplaceSyncRuns.cursor })
      .from(marketplaceSyncRuns)
      .where(and(eq(marketplaceSyncRuns.companyId, source.companyId), eq(marketplaceSyncRuns.sourceId, source.id), eq(marketplaceSyncRuns.status, 'done')))
      .orderBy(desc(marketplaceSyncRuns.createdAt))
      .limit(1);
    const started = (last?.cursor as Cursor | undefined)?.started;
    if (started) return { since: new Date(Date.parse(started) - ORDERS_OVERLAP_MS).toISOString(), by: 'updated' };
    return { since: new Date(now() - FIRST_ORDERS_DAYS * 86_400_000).toISOString(), by: 'created' };
  }

  /** The run's pages from its cursor: the SKUs, then the orders. */
  async function pages(row: RunRow, source: SourceCtx, adapter: MarketplaceAdapter, used: () => number) {
    const runId = row.id;
    let cursor = (row.cursor ?? {}) as Cursor;
    while (cursor.phase === 'products') {
      const page = await adapter.listings(cursor.offset ?? 0);
      const next: Cursor = page.next !== undefined ? { ...cursor, offset: page.next } : { ...cursor, phase: 'orders', offset: 0 };
      await commit(runId, source, next, used(), page.next !== undefined ? page.items.length : 0, (tx, t) => pullListings(tx, source, page.items, t));
      cursor = next;
    }
    while (cursor.phase === 'orders') {
      const page = await adapter.orders(cursor.since as string, cursor.offset ?? 0, cursor.by ?? 'updated');
      const { links, changed, unchanged } = await changedOrders(db, source, adapter, page.items);
      const next: Cursor = page.next !== undefined ? { ...cursor, offset: page.next } : { ...cursor, phase: 'done', offset: 0 };
      const ahead = page.total !== undefined ? Math.max(0, page.total - (cursor.offset ?? 0) - page.items.length) : 0;
      await commit(runId, source, next, used(), ahead, async (tx, t) => {
        t.done += page.items.length;
        t.unchanged += unchanged;
        await pullOrders(tx, source, changed, links, t);
      });
      cursor = next;
    }
  }

  async function run(runId: string, companyId?: string): Promise<void> {
    let source: SourceCtx | undefined;
    let used = () => 0;
    let where = byId(runId);
    await runSyncRun<RunRow>({
      db,
      onFinished: deps.onFinished,
      async claim() {
        const [row] = await db
          .select()
          .from(marketplaceSyncRuns)
          .where(companyId ? and(eq(marketplaceSyncRuns.companyId, companyId), byId(runId)) : byId(runId));
        if (!row || row.status === 'done' || row.status === 'failed') return 'gone';
        where = and(eq(marketplaceSyncRuns.companyId, row.companyId), byId(runId)) ?? where;
        return row;
      },
      async pages(row) {
        source = await sourceOfRun(db, deps.secrets, row.companyId, row.sourceId);
        const adapter = adapterOfRun(source, makeAdapter);
        used = requestMeter(adapter.stats);
        let cursor = (row.cursor ?? {}) as Cursor;
        if (!cursor.phase) cursor = { phase: 'products', offset: 0, started: new Date(now()).toISOString(), ...(await ordersSince(source)) };
        await db.update(marketplaceSyncRuns).set({ status: 'running', startedAt: row.startedAt ?? new Date(), cursor }).where(where);
        await publish(runId, source);
        await pages({ ...row, cursor }, source, adapter, used);
      },
      onError: (_row, error) =>
        // transient (or unexpected): the run stays running at its cursor; the queue retries it and it resumes there
        retryOrFail(error, error instanceof MarketplaceError ? { permanent: !error.transient, msg: error.msg } : undefined, async (message) => {
          await db
            .update(marketplaceSyncRuns)
            .set({ message, requests: sql`${marketplaceSyncRuns.requests} + ${used()}` })
            .where(where);
          if (source) await publish(runId, source);
        }),
      async finish(tx, _row, outcome) {
        const [end] = await tx
          .update(marketplaceSyncRuns)
          .set({ ...endSet(outcome), requests: sql`${marketplaceSyncRuns.requests} + ${used()}`, ...(outcome.status === 'done' ? { total: sql`${marketplaceSyncRuns.done}` } : {}) })
          .where(where)
          .returning();
        return finishedRun('marketplace', outcome, end, tallyOf(end));
      },
      async published() {
        if (source) await publish(runId, source);
      },
    });
  }

  /** A run for an account, or the one already queued or running for it (a second click changes nothing). */
  async function start(source: SourceCtx) {
    const [active] = await db
      .select()
      .from(marketplaceSyncRuns)
      .where(
        and(eq(marketplaceSyncRuns.companyId, source.companyId), eq(marketplaceSyncRuns.sourceId, source.id), inArray(marketplaceSyncRuns.status, ['queued', 'running'])),
      );
    if (active) return { row: active, fresh: false };
    const [row] = await db.insert(marketplaceSyncRuns).values({ companyId: source.companyId, sourceId: source.id }).returning();
    return { row, fresh: true };
  }

  return { run, start, publish };
}
export type MarketplaceSync = ReturnType<typeof createMarketplaceSync>;
