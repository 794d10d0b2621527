import { randomUUID } from 'node:crypto';
import { type Resource, resources, type SyncRunOut } from '@mostrador/contract';
import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { ecommerceSyncRuns, woocommerceLinks } from '../../db/ecommerce-tables.js';
import {
  ecommercesAttributesTable,
  ecommercesCategoriesTable,
  ecommercesContactsTable,
  ecommercesOrdersTable,
  ecommercesTable,
  ecommercesTagsTable,
  ecommercesVariationsTable,
} from '../../db/resource-tables.js';
import { providerReason } from '../../integrations/http.js';
import { type WooClient, WooError } from '../../integrations/woocommerce/client.js';
import {
  isBatchError,
  type WooAttribute,
  type WooCategory,
  type WooCustomer,
  type WooOrder,
  type WooProduct,
  type WooTag,
  type WooTerm,
  type WooVariation,
} from '../../integrations/woocommerce/types.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { ResourceTable } from '../../db/table-for.js';
import {
  canonicalLocalProduct,
  canonicalLocalVariation,
  canonicalRemoteProduct,
  canonicalRemoteVariation,
  comparable,
  contactFieldsOf,
  hashOf,
  invoicedWooStatuses,
  orderFieldsOf,
  type ProductRow,
  productFieldsOf,
  productPayloadOf,
  skuOf,
  type VariationRow,
  variationPayloadOf,
  taxIdOf,
} from './mapping.js';
import { type OrderArrival, recordArrivals } from '../genial/arrivals.js';
import { clientFor, loadStore, type StoreCtx } from './store.js';

export const SYNC_QUEUE = 'ecommerce.sync';
/** Errors kept per run (the count goes on). */
const MAX_ERRORS = 200;
/** Store items fetched at once (variations of a page's products). */
const FETCH_CONCURRENCY = 4;
/** Local products checked per push page. */
const PUSH_PAGE = 100;

type LinkKind = 'product' | 'variation' | 'category' | 'tag' | 'attribute' | 'order' | 'customer';
type Row = Record<string, unknown> & { id: string };
const C = (table: ResourceTable) => table as unknown as Record<string, AnyPgColumn>;
const products = C(ecommercesTable);
const variationsT = C(ecommercesVariationsTable);

/** The phases of a full sync, in order: what products point at comes first. */
export const pullPhases = ['categories', 'tags', 'attributes', 'products', 'orders', 'customers'] as const;
type Phase = (typeof pullPhases)[number] | 'push';
interface Cursor {
  phase?: Phase;
  /** Next page of the phase (pull) … */
  page?: number;
  /** … or the last local product id pushed (push). */
  after?: string;
  totals?: boolean;
}

/** What one page did: added to the run when its transaction commits. */
export interface Tally {
  done: number;
  created: number;
  updated: number;
  unchanged: number;
  storeWrites: number;
  errors: Array<{ item: string; msg: string }>;
  /** Orders whose invoice this page left pending for Genial (decision 0037). */
  invoices?: string[];
}
const tally = (): Tally => ({ done: 0, created: 0, updated: 0, unchanged: 0, storeWrites: 0, errors: [] });

/** Fields of a record without empty values, checked by the resource's own schema: a Spanish reason when not valid. */
function invalidReason(resource: Resource, fields: Record<string, unknown>): string | undefined {
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined));
  const parsed = resource.input.safeParse(clean);
  if (parsed.success) return undefined;
  return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

async function linksOf(db: Db, storeId: string, kind: LinkKind, remoteIds: number[]) {
  const out = new Map<number, { recordId: string; hash: string }>();
  if (!remoteIds.length) return out;
  const rows = await db
    .select()
    .from(woocommerceLinks)
    .where(and(eq(woocommerceLinks.storeId, storeId), eq(woocommerceLinks.kind, kind), inArray(woocommerceLinks.remoteId, remoteIds)));
  for (const r of rows) out.set(r.remoteId, { recordId: r.recordId, hash: r.hash });
  return out;
}

async function linksByRecord(db: Db, storeId: string, kind: LinkKind, recordIds: string[]) {
  const out = new Map<string, { remoteId: number; hash: string }>();
  if (!recordIds.length) return out;
  const rows = await db
    .select()
    .from(woocommerceLinks)
    .where(and(eq(woocommerceLinks.storeId, storeId), eq(woocommerceLinks.kind, kind), inArray(woocommerceLinks.recordId, recordIds)));
  for (const r of rows) out.set(r.recordId, { remoteId: r.remoteId, hash: r.hash });
  return out;
}

async function saveLinks(db: Db, store: StoreCtx, kind: LinkKind, links: Array<{ remoteId: number; recordId: string; hash: string }>) {
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

async function insertRows(db: Db, table: ResourceTable, rows: Row[]) {
  for (let i = 0; i < rows.length; i += 300) await db.insert(table).values(rows.slice(i, i + 300) as never);
}

/** Maps between the store's category/tag ids and ours, kept for a run. */
export interface TermMaps {
  local: Map<string, number>;
  remote: { category: Map<number, string>; tag: Map<number, string> };
}

async function termMaps(db: Db, store: StoreCtx): Promise<TermMaps> {
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

const slugOf = (s: string, fallback: string) =>
  s
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || fallback;

/**
 * A simple kind (category, tag, attribute, order, customer): the store's item sets our record.
 * Found by its link, else by the store's id in a record of the same country (a record made
 * before the link existed), else created. The same hash as the link: nothing is written.
 */
async function pullSimple(
  db: Db,
  store: StoreCtx,
  kind: LinkKind,
  resource: Resource,
  table: ResourceTable,
  idField: string,
  items: Array<{ remoteId: number; fields: Record<string, unknown>; label: string }>,
  t: Tally,
): Promise<Map<number, string>> {
  const cols = C(table);
  const written = new Map<number, string>();
  const links = await linksOf(db, store.id, kind, items.map((i) => i.remoteId));
  const linkedIds = [...links.values()].map((l) => l.recordId);
  const unlinked = items.filter((i) => !links.has(i.remoteId)).map((i) => i.remoteId);
  const existing = new Map<string, Row>();
  const byRemote = new Map<number, Row>();
  if (linkedIds.length || unlinked.length) {
    const conditions = [];
    if (linkedIds.length) conditions.push(inArray(cols.id, linkedIds));
    if (unlinked.length) conditions.push(and(eq(cols.country, store.country), inArray(cols[idField], unlinked)));
    const rows = (await db
      .select()
      .from(table)
      .where(and(eq(cols.companyId, store.companyId), or(...conditions)))) as Row[];
    for (const r of rows) {
      existing.set(r.id, r);
      if (r.country === store.country && typeof r[idField] === 'number') byRemote.set(r[idField] as number, r);
    }
  }
  const newLinks: Array<{ remoteId: number; recordId: string; hash: string }> = [];
  const inserts: Row[] = [];
  for (const item of items) {
    t.done++;
    const hash = comparable(item.fields);
    const reason = invalidReason(resource, item.fields);
    if (reason) {
      t.errors.push({ item: item.label, msg: `Datos de la tienda no válidos: ${reason}` });
      continue;
    }
    const link = links.get(item.remoteId);
    if (link && link.hash === hash && existing.has(link.recordId)) {
      t.unchanged++;
      continue;
    }
    const row = link && existing.has(link.recordId) ? existing.get(link.recordId) : byRemote.get(item.remoteId);
    if (row) {
      const current = comparable(Object.fromEntries(Object.keys(item.fields).map((k) => [k, row[k]])));
      if (current !== hash) {
        await db
          .update(table)
          .set({ ...item.fields, updatedAt: new Date() } as never)
          .where(and(eq(cols.companyId, store.companyId), eq(cols.id, row.id)));
        t.updated++;
        written.set(item.remoteId, row.id);
      } else t.unchanged++;
      newLinks.push({ remoteId: item.remoteId, recordId: row.id, hash });
    } else {
      const id = randomUUID();
      inserts.push({ id, companyId: store.companyId, ...item.fields } as Row);
      newLinks.push({ remoteId: item.remoteId, recordId: id, hash });
      written.set(item.remoteId, id);
      t.created++;
    }
  }
  await insertRows(db, table, inserts);
  await saveLinks(db, store, kind, newLinks);
  return written;
}

/** Runs `fn` over items, `limit` at a time, answers in order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

export const productLabel = (sku: string, id?: number) => `Producto ${sku}${id ? ` (#${id})` : ''}`;

/**
 * One page of store products and their variations into our records (decision 0034): the
 * store wins unless our record changed since the last agreement (then ours is pushed later).
 */
export async function pullProducts(db: Db, store: StoreCtx, maps: TermMaps, items: WooProduct[], variationsOf: Map<number, WooVariation[]>, t: Tally) {
  const links = await linksOf(db, store.id, 'product', items.map((p) => p.id));
  const linkedIds = [...links.values()].map((l) => l.recordId);
  const unlinked = items.filter((p) => !links.has(p.id));
  const rows = new Map<string, ProductRow>();
  const candidates: ProductRow[] = [];
  if (linkedIds.length) {
    for (const r of (await db.select().from(ecommercesTable).where(and(eq(products.companyId, store.companyId), inArray(products.id, linkedIds)))) as unknown as ProductRow[]) rows.set(r.id, r);
  }
  if (unlinked.length) {
    const found = (await db
      .select()
      .from(ecommercesTable)
      .where(
        and(
          eq(products.companyId, store.companyId),
          eq(products.country, store.country),
          or(inArray(products.woocommerceId, unlinked.map((p) => p.id)), inArray(products.sku, unlinked.map((p) => skuOf(p.sku, p.id)))),
        ),
      )) as unknown as ProductRow[];
    const taken = await linksByRecord(db, store.id, 'product', found.map((r) => r.id));
    candidates.push(...found.filter((r) => !taken.has(r.id)));
  }
  const localOf = (kind: 'category' | 'tag', id: number) => maps.remote[kind].get(id);
  const externalOf = (id: string) => maps.local.get(id);
  const newLinks: Array<{ remoteId: number; recordId: string; hash: string }> = [];
  const inserts: Row[] = [];
  const recordOf = new Map<number, string>();
  const used = new Set<string>();
  for (const p of items) {
    t.done++;
    const label = productLabel(p.sku || String(p.id), p.id);
    const rc = canonicalRemoteProduct(p);
    const rh = hashOf(rc);
    const fields = productFieldsOf(p, store.country, localOf);
    const reason = invalidReason(resources.ecommerces, fields);
    if (reason) {
      t.errors.push({ item: label, msg: `Datos de la tienda no válidos: ${reason}` });
      continue;
    }
    const link = links.get(p.id);
    let row = link ? rows.get(link.recordId) : undefined;
    if (!row && !link) {
      row = candidates.find((r) => !used.has(r.id) && r.woocommerceId === p.id) ?? candidates.find((r) => !used.has(r.id) && r.sku === rc.sku);
    }
    if (row) {
      used.add(row.id);
      recordOf.set(p.id, row.id);
      if (link && link.hash === rh) {
        t.unchanged++;
        continue;
      }
      const lh = hashOf(canonicalLocalProduct(row, externalOf));
      if (lh === rh) t.unchanged++;
      else if (link && lh !== link.hash) {
        // changed here and in the store since the last sync: ours is kept and pushed
        t.unchanged++;
        continue;
      } else {
        await db
          .update(ecommercesTable)
          .set({ ...fields, updatedAt: new Date() } as never)
          .where(and(eq(products.companyId, store.companyId), eq(products.id, row.id)));
        t.updated++;
      }
      newLinks.push({ remoteId: p.id, recordId: row.id, hash: rh });
    } else {
      const id = randomUUID();
      inserts.push({ id, companyId: store.companyId, ...fields } as unknown as Row);
      newLinks.push({ remoteId: p.id, recordId: id, hash: rh });
      recordOf.set(p.id, id);
      t.created++;
    }
  }
  await insertRows(db, ecommercesTable, inserts);
  await saveLinks(db, store, 'product', newLinks);
  await pullVariations(db, store, items, recordOf, variationsOf, t);
}

async function pullVariations(db: Db, store: StoreCtx, items: WooProduct[], recordOf: Map<number, string>, variationsOf: Map<number, WooVariation[]>, t: Tally) {
  const remote = items.flatMap((p) => (recordOf.has(p.id) && variationsOf.has(p.id) ? (variationsOf.get(p.id) ?? []).map((v) => ({ p, v })) : []));
  const recordIds = items.filter((p) => variationsOf.has(p.id)).map((p) => recordOf.get(p.id)).filter((x): x is string => !!x);
  if (!remote.length && !recordIds.length) return;
  const links = await linksOf(db, store.id, 'variation', remote.map((x) => x.v.id));
  const conditions = [];
  if (recordIds.length) conditions.push(inArray(variationsT.ecommerceId, recordIds));
  // a variation made before its link (the demo's seed) is found by the store's id, among this store's country only
  if (remote.length) {
    conditions.push(
      and(
        inArray(variationsT.woocommerceId, remote.map((x) => x.v.id)),
        inArray(variationsT.ecommerceId, db.select({ id: products.id }).from(ecommercesTable).where(and(eq(products.companyId, store.companyId), eq(products.country, store.country)))),
      ),
    );
  }
  const locals = (await db
    .select()
    .from(ecommercesVariationsTable)
    .where(and(eq(variationsT.companyId, store.companyId), or(...conditions)))) as unknown as VariationRow[];
  const byId = new Map(locals.map((r) => [r.id, r]));
  const localLinks = await linksByRecord(db, store.id, 'variation', locals.map((r) => r.id));
  const newLinks: Array<{ remoteId: number; recordId: string; hash: string }> = [];
  const inserts: Row[] = [];
  const seen = new Set<string>();
  for (const { p, v } of remote) {
    const ecommerceId = recordOf.get(p.id) as string;
    const rc = canonicalRemoteVariation(v);
    const rh = hashOf(rc);
    const fields = { ecommerceId, sku: rc.sku, attributes: rc.attributes, price: rc.price, stock: rc.stock, woocommerceId: v.id };
    const reason = invalidReason(resources['ecommerces-variations'], fields);
    if (reason) {
      t.errors.push({ item: `Variación ${v.sku || v.id} de ${p.sku || p.id}`, msg: `Datos de la tienda no válidos: ${reason}` });
      continue;
    }
    const link = links.get(v.id);
    let row = link ? byId.get(link.recordId) : undefined;
    if (!row && !link) {
      row =
        locals.find((r) => !seen.has(r.id) && !localLinks.has(r.id) && r.woocommerceId === v.id) ??
        locals.find((r) => !seen.has(r.id) && !localLinks.has(r.id) && r.ecommerceId === ecommerceId && r.sku === rc.sku);
    }
    if (row) {
      seen.add(row.id);
      // variations are counted as records, like the products, categories and terms
      if (link && link.hash === rh && row.ecommerceId === ecommerceId) {
        t.unchanged++;
        continue;
      }
      const lh = hashOf(canonicalLocalVariation(row));
      if (lh === rh && row.ecommerceId === ecommerceId && row.woocommerceId === v.id) {
        // the same already: only the link is new
        t.unchanged++;
      } else if (link && lh !== link.hash && row.ecommerceId === ecommerceId) {
        continue;
      } else {
        await db
          .update(ecommercesVariationsTable)
          .set({ ...fields, updatedAt: new Date() } as never)
          .where(and(eq(variationsT.companyId, store.companyId), eq(variationsT.id, row.id)));
        t.updated++;
      }
      newLinks.push({ remoteId: v.id, recordId: row.id, hash: rh });
    } else {
      const id = randomUUID();
      inserts.push({ id, companyId: store.companyId, ...fields } as unknown as Row);
      newLinks.push({ remoteId: v.id, recordId: id, hash: rh });
      t.created++;
    }
  }
  // a variation the store no longer has (it was linked, and is unchanged here) is gone here too
  const remoteIds = new Set(remote.map((x) => x.v.id));
  const gone = locals.filter((r) => recordIds.includes(r.ecommerceId ?? '') && localLinks.has(r.id) && !remoteIds.has(localLinks.get(r.id)?.remoteId ?? -1));
  const removable = gone.filter((r) => hashOf(canonicalLocalVariation(r)) === localLinks.get(r.id)?.hash);
  if (removable.length) {
    await db.delete(ecommercesVariationsTable).where(and(eq(variationsT.companyId, store.companyId), inArray(variationsT.id, removable.map((r) => r.id))));
    await db
      .delete(woocommerceLinks)
      .where(and(eq(woocommerceLinks.storeId, store.id), eq(woocommerceLinks.kind, 'variation'), inArray(woocommerceLinks.recordId, removable.map((r) => r.id))));
    t.updated += removable.length;
  }
  await insertRows(db, ecommercesVariationsTable, inserts);
  await saveLinks(db, store, 'variation', newLinks);
}

/**
 * Pushes our products (and their variations) whose canonical form differs from the last one
 * both sides agreed on, in store batches of ≤ 100; unchanged ones send nothing.
 */
export async function pushProducts(db: Db, store: StoreCtx, client: WooClient, rows: ProductRow[], t: Tally, maps?: TermMaps) {
  if (!rows.length) return;
  const terms = maps ?? (await termMaps(db, store));
  const externalOf = (id: string) => terms.local.get(id);
  const links = await linksByRecord(db, store.id, 'product', rows.map((r) => r.id));
  const locals = (await db
    .select()
    .from(ecommercesVariationsTable)
    .where(and(eq(variationsT.companyId, store.companyId), inArray(variationsT.ecommerceId, rows.map((r) => r.id))))
    .orderBy(asc(variationsT.sku))) as unknown as VariationRow[];
  const variationsOfRow = new Map<string, VariationRow[]>();
  for (const v of locals) variationsOfRow.set(v.ecommerceId as string, [...(variationsOfRow.get(v.ecommerceId as string) ?? []), v]);
  const creates: Array<{ row: ProductRow; payload: Partial<WooProduct>; hash: string }> = [];
  const updates: Array<{ row: ProductRow; payload: Partial<WooProduct> & { id: number }; hash: string }> = [];
  const remoteOf = new Map<string, number>();
  for (const row of rows) {
    t.done++;
    const c = canonicalLocalProduct(row, externalOf);
    const h = hashOf(c);
    const link = links.get(row.id);
    const payload = productPayloadOf(c, (variationsOfRow.get(row.id)?.length ?? 0) > 0);
    if (link) remoteOf.set(row.id, link.remoteId);
    if (link && link.hash === h) continue;
    if (link) updates.push({ row, payload: { ...payload, id: link.remoteId }, hash: h });
    else creates.push({ row, payload, hash: h });
  }
  const newLinks: Array<{ remoteId: number; recordId: string; hash: string }> = [];
  if (creates.length || updates.length) {
    t.storeWrites += creates.length + updates.length;
    const result = await client.batch<WooProduct>('/products', { create: creates.map((c) => c.payload), update: updates.map((u) => u.payload) });
    const settle = async (sent: { row: ProductRow; hash: string }, answer: WooProduct | { error: { message: string } } | undefined, created: boolean) => {
      if (!answer || isBatchError(answer)) {
        t.errors.push({ item: productLabel(sent.row.sku, sent.row.woocommerceId ?? undefined), msg: `La tienda rechazó el producto: ${answer && isBatchError(answer) ? providerReason(String(answer.error.message ?? '')) : 'sin respuesta'}` });
        return;
      }
      const p = answer as WooProduct;
      remoteOf.set(sent.row.id, p.id);
      newLinks.push({ remoteId: p.id, recordId: sent.row.id, hash: hashOf(canonicalRemoteProduct(p)) });
      if (created || sent.row.woocommerceId !== p.id) {
        await db
          .update(ecommercesTable)
          .set({ woocommerceId: p.id, updatedAt: new Date() } as never)
          .where(and(eq(products.companyId, store.companyId), eq(products.id, sent.row.id)));
      }
      if (created) t.created++;
      else t.updated++;
    };
    for (const [i, c] of creates.entries()) await settle(c, result.create[i] as WooProduct, true);
    for (const [i, u] of updates.entries()) await settle(u, result.update[i] as WooProduct, false);
    await saveLinks(db, store, 'product', newLinks);
  }
  // variations: each product's changed ones in one store batch
  const vLinks = await linksByRecord(db, store.id, 'variation', locals.map((v) => v.id));
  const variationLinks: Array<{ remoteId: number; recordId: string; hash: string }> = [];
  for (const row of rows) {
    const remoteId = remoteOf.get(row.id);
    const list = variationsOfRow.get(row.id) ?? [];
    if (!remoteId || !list.length) continue;
    const vCreates: Array<{ v: VariationRow; payload: Partial<WooVariation> }> = [];
    const vUpdates: Array<{ v: VariationRow; payload: Partial<WooVariation> & { id: number } }> = [];
    for (const v of list) {
      const h = hashOf(canonicalLocalVariation(v));
      const link = vLinks.get(v.id);
      if (link && link.hash === h) continue;
      const payload = variationPayloadOf(canonicalLocalVariation(v));
      if (link) vUpdates.push({ v, payload: { ...payload, id: link.remoteId } });
      else vCreates.push({ v, payload });
    }
    if (!vCreates.length && !vUpdates.length) continue;
    t.storeWrites += vCreates.length + vUpdates.length;
    try {
      const result = await client.batch<WooVariation>(`/products/${remoteId}/variations`, { create: vCreates.map((x) => x.payload), update: vUpdates.map((x) => x.payload) });
      const settle = async (v: VariationRow, answer: unknown) => {
        if (!answer || isBatchError(answer)) {
          t.errors.push({ item: `Variación ${v.sku}`, msg: `La tienda rechazó la variación: ${isBatchError(answer) ? providerReason(String(answer.error.message ?? '')) : 'sin respuesta'}` });
          return;
        }
        const rv = answer as WooVariation;
        variationLinks.push({ remoteId: rv.id, recordId: v.id, hash: hashOf(canonicalRemoteVariation(rv)) });
        if (v.woocommerceId !== rv.id) {
          await db
            .update(ecommercesVariationsTable)
            .set({ woocommerceId: rv.id, updatedAt: new Date() } as never)
            .where(and(eq(variationsT.companyId, store.companyId), eq(variationsT.id, v.id)));
        }
      };
      for (const [i, x] of vCreates.entries()) await settle(x.v, result.create[i]);
      for (const [i, x] of vUpdates.entries()) await settle(x.v, result.update[i]);
    } catch (error) {
      if (!(error instanceof WooError) || ['refused', 'network', 'server', 'rate-limited', 'auth', 'not-woocommerce', 'read-only'].includes(error.kind)) throw error;
      t.errors.push({ item: productLabel(row.sku, remoteId), msg: `No se pudieron enviar sus variaciones: ${error.msg}` });
    }
  }
  await saveLinks(db, store, 'variation', variationLinks);
}

/** Items of a store list into records of a simple kind, page by page. */
const simpleKinds = {
  categories: {
    path: '/products/categories',
    kind: 'category' as const,
    resource: resources['ecommerces-categories'],
    table: ecommercesCategoriesTable,
    idField: 'externalId',
    map: (c: WooCategory, store: StoreCtx) => ({
      remoteId: c.id,
      label: `Categoría ${c.name} (#${c.id})`,
      fields: { name: String(c.name ?? '').trim().slice(0, 120) || `Categoría ${c.id}`, slug: slugOf(String(c.slug ?? ''), `categoria-${c.id}`), parent: Number(c.parent) || 0, externalId: c.id, country: store.country },
    }),
  },
  tags: {
    path: '/products/tags',
    kind: 'tag' as const,
    resource: resources['ecommerces-tags'],
    table: ecommercesTagsTable,
    idField: 'externalId',
    map: (c: WooTag, store: StoreCtx) => ({
      remoteId: c.id,
      label: `Etiqueta ${c.name} (#${c.id})`,
      fields: { name: String(c.name ?? '').trim().slice(0, 120) || `Etiqueta ${c.id}`, slug: slugOf(String(c.slug ?? ''), `etiqueta-${c.id}`), externalId: c.id, country: store.country },
    }),
  },
  orders: {
    path: '/orders',
    kind: 'order' as const,
    resource: resources['ecommerces-orders'],
    table: ecommercesOrdersTable,
    idField: 'woocommerceId',
    map: (o: WooOrder, store: StoreCtx, productOf: (id: number) => string | undefined) => ({
      remoteId: o.id,
      label: `Orden ${o.number || o.id}`,
      fields: orderFieldsOf(o, store.country, productOf) as Record<string, unknown>,
    }),
  },
  customers: {
    path: '/customers',
    kind: 'customer' as const,
    resource: resources['ecommerces-contacts'],
    table: ecommercesContactsTable,
    idField: 'woocommerceId',
    map: (c: WooCustomer, store: StoreCtx) => ({ remoteId: c.id, label: `Cliente ${c.email || c.id}`, fields: contactFieldsOf(c, store.country) as Record<string, unknown> }),
  },
};

/** Orders name our products: the store's product ids of a page, resolved in one query. */
async function productResolver(db: Db, store: StoreCtx, orders: WooOrder[]) {
  const ids = [...new Set(orders.flatMap((o) => (o.line_items ?? []).map((l) => l.product_id)).filter((x) => x > 0))];
  const links = await linksOf(db, store.id, 'product', ids);
  return (id: number) => links.get(id)?.recordId;
}

/** A page of the store's orders into ours; those created or changed that are paid get their invoice queued (decision 0037). */
export async function pullOrders(db: Db, store: StoreCtx, orders: WooOrder[], t: Tally) {
  const productOf = await productResolver(db, store, orders);
  const k = simpleKinds.orders;
  const written = await pullSimple(db, store, k.kind, k.resource, k.table, k.idField, orders.map((o) => k.map(o, store, productOf)), t);
  const arrivals: OrderArrival[] = orders
    .filter((o) => written.has(o.id))
    .map((o) => ({ orderId: written.get(o.id) as string, country: store.country, invoiceable: invoicedWooStatuses.has(o.status), customerTaxId: taxIdOf(o) }));
  const pending = await recordArrivals(db, store.companyId, 'ecommerce', arrivals);
  if (pending.length) (t.invoices ??= []).push(...pending);
}
export async function pullCustomers(db: Db, store: StoreCtx, customers: WooCustomer[], t: Tally) {
  const k = simpleKinds.customers;
  await pullSimple(db, store, k.kind, k.resource, k.table, k.idField, customers.map((c) => k.map(c, store)), t);
}

/** Fetches the variations of the page's variable products (≤ 4 at a time, every page of each). */
export async function variationsOfPage(client: WooClient, items: WooProduct[]) {
  const variable = items.filter((p) => p.type === 'variable' || (p.variations?.length ?? 0) > 0);
  const lists = await mapLimit(variable, FETCH_CONCURRENCY, (p) => client.all<WooVariation>(`/products/${p.id}/variations`, { orderby: 'id', order: 'asc' }));
  return new Map(variable.map((p, i) => [p.id, lists[i]]));
}

/** A run row as the screens see it. */
export function runOut(row: typeof ecommerceSyncRuns.$inferSelect, store: { name: string; country: string }): SyncRunOut {
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

/**
 * Store sync jobs (decision 0034). A run pulls the store page by page (categories, tags,
 * attributes, products with their variations, orders, customers), then pushes our changed
 * products; each page commits its records, its counts and the cursor of the next page in one
 * transaction, so a job resumed after a crash starts where the last commit left off.
 */
export function createSyncEngine(deps: {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  realtime?: Realtime;
  log?: { warn: (o: unknown, m?: string) => void };
  client?: (store: StoreCtx) => WooClient;
  /** After a page committed orders whose invoices are pending: sends their issuing jobs (decision 0037). */
  onInvoices?: (companyId: string) => Promise<unknown>;
}) {
  const { db } = deps;
  const makeClient = deps.client ?? clientFor;

  async function publish(runId: string, store: StoreCtx) {
    if (!deps.realtime) return;
    const [row] = await db.select().from(ecommerceSyncRuns).where(eq(ecommerceSyncRuns.id, runId));
    if (row) await deps.realtime.publish(store.companyId, { type: 'sync.progress', run: runOut(row, store) });
  }

  /** Commits one page: its writes (done in `work` on the transaction), counts and the next cursor. */
  async function commit(runId: string, cursor: Cursor, requests: number, work: (tx: Db, t: Tally) => Promise<void>) {
    const t = tally();
    await db.transaction(async (tx) => {
      await work(tx as unknown as Db, t);
      await tx
        .update(ecommerceSyncRuns)
        .set({
          cursor,
          done: sql`${ecommerceSyncRuns.done} + ${t.done}`,
          created: sql`${ecommerceSyncRuns.created} + ${t.created}`,
          updated: sql`${ecommerceSyncRuns.updated} + ${t.updated}`,
          unchanged: sql`${ecommerceSyncRuns.unchanged} + ${t.unchanged}`,
          storeWrites: sql`${ecommerceSyncRuns.storeWrites} + ${t.storeWrites}`,
          requests: sql`${ecommerceSyncRuns.requests} + ${requests}`,
          failedItems: sql`${ecommerceSyncRuns.failedItems} + ${t.errors.length}`,
          errors: t.errors.length
            ? sql`(select coalesce(jsonb_agg(e), '[]'::jsonb) from (select e from jsonb_array_elements(${ecommerceSyncRuns.errors} || ${JSON.stringify(t.errors)}::jsonb) e limit ${MAX_ERRORS}) x)`
            : ecommerceSyncRuns.errors,
        })
        .where(eq(ecommerceSyncRuns.id, runId));
    });
    return t;
  }

  async function run(runId: string): Promise<void> {
    const [row] = await db.select().from(ecommerceSyncRuns).where(eq(ecommerceSyncRuns.id, runId));
    if (!row || row.status === 'done' || row.status === 'failed') return;
    const store = await loadStore(db, deps.secrets, row.companyId, row.storeId).catch(() => undefined);
    if (!store) {
      await db.update(ecommerceSyncRuns).set({ status: 'failed', message: 'La tienda ya no existe', finishedAt: new Date() }).where(eq(ecommerceSyncRuns.id, runId));
      return;
    }
    const client = makeClient(store);
    let seen = client.stats.requests;
    const used = () => {
      const n = client.stats.requests - seen;
      seen = client.stats.requests;
      return n;
    };
    await db.update(ecommerceSyncRuns).set({ status: 'running', startedAt: row.startedAt ?? new Date() }).where(eq(ecommerceSyncRuns.id, runId));
    let cursor = (row.cursor ?? {}) as Cursor;
    try {
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
            const attributes = await client.get<WooAttribute[]>('/products/attributes');
            const list = Array.isArray(attributes.data) ? attributes.data : [];
            const termsOf = await mapLimit(list, FETCH_CONCURRENCY, (a) => client.all<WooTerm>(`/products/attributes/${a.id}/terms`));
            const next: Cursor = { phase: pullPhases[p + 1], page: 1, totals: true };
            await commit(runId, next, used(), (tx, t) =>
              pullSimple(
                tx,
                store,
                'attribute',
                resources['ecommerces-attributes'],
                ecommercesAttributesTable,
                'woocommerceId',
                list.map((a, i) => ({
                  remoteId: a.id,
                  label: `Atributo ${a.name} (#${a.id})`,
                  fields: { nombre: String(a.name).slice(0, 120), terms: termsOf[i].slice(0, 500).map((term) => ({ _id: String(term.id), name: String(term.name).slice(0, 120) })), woocommerceId: a.id, country: store.country },
                })),
                t,
              ).then(() => {
                t.done = 0;
              }),
            );
            cursor = next;
            await publish(runId, store);
            continue;
          }
          for (let page = cursor.phase === phase ? (cursor.page ?? 1) : 1; ; page++) {
            const path = phase === 'products' ? '/products' : simpleKinds[phase].path;
            const { items, totalPages } = await client.page<Record<string, unknown>>(path, page, { orderby: 'id', order: 'asc' });
            const last = page >= totalPages || items.length === 0;
            const next: Cursor = last ? { phase: pullPhases[p + 1] ?? 'push', page: 1, totals: true } : { phase, page: page + 1, totals: true };
            if (phase === 'products') {
              const variations = await variationsOfPage(client, items as unknown as WooProduct[]);
              await commit(runId, next, used(), (tx, t) => pullProducts(tx, store, maps, items as unknown as WooProduct[], variations, t));
            } else if (phase === 'orders') {
              const written = await commit(runId, next, used(), (tx, t) => pullOrders(tx, store, items as unknown as WooOrder[], t));
              if (written.invoices?.length) await deps.onInvoices?.(store.companyId);
            } else if (phase === 'customers') {
              await commit(runId, next, used(), (tx, t) => pullCustomers(tx, store, items as unknown as WooCustomer[], t));
            } else {
              const k = simpleKinds[phase];
              await commit(runId, next, used(), async (tx, t) => {
                await pullSimple(tx, store, k.kind, k.resource, k.table, k.idField, (items as never[]).map((i) => k.map(i, store)), t);
              });
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
        const page = (await db
          .select()
          .from(ecommercesTable)
          .where(
            and(
              eq(products.companyId, store.companyId),
              eq(products.country, store.country),
              ids ? inArray(products.id, ids.length ? ids : ['00000000-0000-0000-0000-000000000000']) : undefined,
              cursor.after ? gt(products.id, cursor.after) : undefined,
            ),
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
      await db
        .update(ecommerceSyncRuns)
        .set({ status: 'done', finishedAt: new Date(), total: sql`greatest(${ecommerceSyncRuns.total}, ${ecommerceSyncRuns.done})`, requests: sql`${ecommerceSyncRuns.requests} + ${used()}` })
        .where(eq(ecommerceSyncRuns.id, runId));
      await publish(runId, store);
    } catch (error) {
      const permanent = error instanceof WooError && !['network', 'server', 'rate-limited'].includes(error.kind);
      if (permanent) {
        await db
          .update(ecommerceSyncRuns)
          .set({ status: 'failed', message: (error as WooError).msg, finishedAt: new Date(), requests: sql`${ecommerceSyncRuns.requests} + ${used()}` })
          .where(eq(ecommerceSyncRuns.id, runId));
        await publish(runId, store);
        return;
      }
      // transient: the run stays running with its cursor; the queue retries and it resumes there
      await db
        .update(ecommerceSyncRuns)
        .set({ message: error instanceof WooError ? `${error.msg} (se reintentará)` : 'Error interno (se reintentará)', requests: sql`${ecommerceSyncRuns.requests} + ${used()}` })
        .where(eq(ecommerceSyncRuns.id, runId));
      await publish(runId, store);
      throw error;
    }
  }

  /** A run for a store, or the one already queued or running for it (a second click changes nothing). */
  async function start(store: StoreCtx, kind: 'all' | 'selected', params: Record<string, unknown> = {}) {
    const [active] = await db
      .select()
      .from(ecommerceSyncRuns)
      .where(and(eq(ecommerceSyncRuns.storeId, store.id), inArray(ecommerceSyncRuns.status, ['queued', 'running']), eq(ecommerceSyncRuns.kind, kind)));
    if (active && kind === 'all') return { row: active, fresh: false };
    const [row] = await db.insert(ecommerceSyncRuns).values({ companyId: store.companyId, storeId: store.id, kind, params }).returning();
    return { row, fresh: true };
  }

  return { run, start, publish };
}
export type SyncEngine = ReturnType<typeof createSyncEngine>;
