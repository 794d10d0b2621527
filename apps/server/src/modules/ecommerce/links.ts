import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { woocommerceLinks } from '../../db/ecommerce-tables.js';
import { ecommercesTable, ecommercesVariationsTable } from '../../db/resource-tables.js';
import type { PageTally } from '../../lib/sync-run.js';
import type { ResourceTable } from '../../db/table-for.js';
import type { StoreCtx } from './store.js';

/**
 * What the store's pull and our push both stand on (decision 0034): the links between the store's
 * ids and our records (with the hash both sides last agreed on), the category and tag maps of a
 * run, and what one page counts.
 */
export type LinkKind = 'product' | 'variation' | 'category' | 'tag' | 'attribute' | 'order' | 'customer';
export type Row = Record<string, unknown> & { id: string };
export const C = (table: ResourceTable) => table as unknown as Record<string, AnyPgColumn>;
export const products = C(ecommercesTable);
export const variationsT = C(ecommercesVariationsTable);

/** Our products of the store's country (in its company), with any more conditions. */
export const storeProducts = (db: Db, store: StoreCtx, ...more: Array<SQL | undefined>) =>
  db
    .select()
    .from(ecommercesTable)
    .where(and(eq(products.companyId, store.companyId), eq(products.country, store.country), ...more));

/** What one page did: added to the run when its transaction commits. */
export interface Tally extends PageTally {
  storeWrites: number;
}
export const tally = (): Tally => ({ done: 0, created: 0, updated: 0, unchanged: 0, storeWrites: 0, errors: [] });

export async function linksOf(db: Db, storeId: string, kind: LinkKind, remoteIds: number[]) {
  const out = new Map<number, { recordId: string; hash: string }>();
  if (!remoteIds.length) return out;
  const rows = await db
    .select()
    .from(woocommerceLinks)
    .where(and(eq(woocommerceLinks.storeId, storeId), eq(woocommerceLinks.kind, kind), inArray(woocommerceLinks.remoteId, remoteIds)));
  for (const r of rows) out.set(r.remoteId, { recordId: r.recordId, hash: r.hash });
  return out;
}

export async function linksByRecord(db: Db, storeId: string, kind: LinkKind, recordIds: string[]) {
  const out = new Map<string, { remoteId: number; hash: string }>();
  if (!recordIds.length) return out;
  const rows = await db
    .select()
    .from(woocommerceLinks)
    .where(and(eq(woocommerceLinks.storeId, storeId), eq(woocommerceLinks.kind, kind), inArray(woocommerceLinks.recordId, recordIds)));
  for (const r of rows) out.set(r.recordId, { remoteId: r.remoteId, hash: r.hash });
  return out;
}

export async function saveLinks(db: Db, store: StoreCtx, kind: LinkKind, links: Array<{ remoteId: number; recordId: string; hash: string }>) {
  for (let i = 0; i < links.length; i += 500) {
    await db
      .insert(woocommerceLinks)
      .values(links.slice(i, i + 500).map((l) => ({ ...l, companyId: store.companyId, storeId: store.id, kind })))
      .onConflictDoUpdate({
        target: [woocommerceLinks.storeId, woocommerceLinks.kind, woocommerceLinks.remoteId],
        set: { recordId: sql`excluded.record_id`, hash: sql`excluded.hash`, updatedAt: sql`now()` },
      });
  }
}

/** Maps between the store's category/tag ids and ours, kept for a run. */
export interface TermMaps {
  local: Map<string, number>;
  remote: { category: Map<number, string>; tag: Map<number, string> };
}

export async function termMaps(db: Db, store: StoreCtx): Promise<TermMaps> {
  const rows = await db
    .select()
    .from(woocommerceLinks)
    .where(and(eq(woocommerceLinks.storeId, store.id), inArray(woocommerceLinks.kind, ['category', 'tag'])));
  const maps: TermMaps = { local: new Map(), remote: { category: new Map(), tag: new Map() } };
  for (const r of rows) {
    maps.local.set(r.recordId, r.remoteId);
    maps.remote[r.kind as 'category' | 'tag'].set(r.remoteId, r.recordId);
  }
  return maps;
}

export const productLabel = (sku: string, id?: number) => `Producto ${sku}${id ? ` (#${id})` : ''}`;
