import { randomUUID } from 'node:crypto';
import { type Resource, resources } from '@mostrador/contract';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { woocommerceLinks } from '../../db/ecommerce-tables.js';
import {
  ecommercesAttributesTable,
  ecommercesCategoriesTable,
  ecommercesContactsTable,
  ecommercesOrdersTable,
  ecommercesTable,
  ecommercesTagsTable,
  ecommercesVariationsTable,
} from '../../db/resource-tables.js';
import type { WooClient } from '../../integrations/woocommerce/client.js';
import type { WooAttribute, WooCategory, WooCustomer, WooOrder, WooProduct, WooTag, WooTerm, WooVariation } from '../../integrations/woocommerce/types.js';
import { mapLimit } from '../../lib/sync-run.js';
import type { ResourceTable } from '../../db/table-for.js';
import { emit } from '../../spine/outbox.js';
import { C, type LinkKind, linksByRecord, linksOf, productLabel, products, type Row, saveLinks, storeProducts, type Tally, type TermMaps, variationsT } from './links.js';
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
  skuOf,
  type VariationRow,
  taxIdOf,
} from './mapping.js';
import type { StoreCtx } from './store.js';

/**
 * The store's side of a sync (decision 0034): its lists, page by page, into our records. Each
 * kind is found by its link, else by the store's id, else created; the store wins unless our
 * record changed since the last agreement (then ours is pushed, push.ts).
 */

/** Store items fetched at once (variations of a page's products, terms of the attributes). */
const FETCH_CONCURRENCY = 4;

/** The phases of a full sync, in order: what products point at comes first. */
export const pullPhases = ['categories', 'tags', 'attributes', 'products', 'orders', 'customers'] as const;
export type PullPhase = (typeof pullPhases)[number];

/** Fields of a record without empty values, checked by the resource's own schema: a Spanish reason when not valid. */
function invalidReason(resource: Resource, fields: Record<string, unknown>): string | undefined {
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined));
  const parsed = resource.input.safeParse(clean);
  if (parsed.success) return undefined;
  return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

async function insertRows(db: Db, table: ResourceTable, rows: Row[]) {
  for (let i = 0; i < rows.length; i += 300) await db.insert(table).values(rows.slice(i, i + 300) as never);
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
    const found = (await storeProducts(
      db,
      store,
      or(inArray(products.woocommerceId, unlinked.map((p) => p.id)), inArray(products.sku, unlinked.map((p) => skuOf(p.sku, p.id)))),
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

/**
 * A page of the store's orders into ours. Each one created or changed is a `store_order.arrived`
 * event in the page's transaction; Genial's listener invoices the paid ones (decision 0037).
 */
export async function pullOrders(db: Db, store: StoreCtx, orders: WooOrder[], t: Tally) {
  const productOf = await productResolver(db, store, orders);
  const k = simpleKinds.orders;
  const written = await pullSimple(db, store, k.kind, k.resource, k.table, k.idField, orders.map((o) => k.map(o, store, productOf)), t);
  await emit(
    db,
    orders
      .filter((o) => written.has(o.id))
      .map((o) => {
        const orderId = written.get(o.id) as string;
        return {
          type: 'store_order.arrived' as const,
          companyId: store.companyId,
          aggregateId: orderId,
          actor: { type: 'provider' as const, id: 'woocommerce' },
          payload: { kind: 'ecommerce' as const, orderId, status: o.status, country: store.country, invoiceable: invoicedWooStatuses.has(o.status), customerTaxId: taxIdOf(o)?.slice(0, 40) ?? null },
        };
      }),
  );
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


/** The store's list a paged phase reads. */
export const pathOf = (phase: Exclude<PullPhase, 'attributes'>) => (phase === 'products' ? '/products' : simpleKinds[phase].path);

/** A page of categories or tags into ours. */
export async function pullTerms(db: Db, store: StoreCtx, phase: 'categories' | 'tags', items: Array<WooCategory | WooTag>, t: Tally) {
  const k = simpleKinds[phase];
  await pullSimple(db, store, k.kind, k.resource, k.table, k.idField, (items as never[]).map((i) => k.map(i, store)), t);
}

/** The store's attributes with their terms (one list, not paged). */
export async function fetchAttributes(client: WooClient) {
  const attributes = await client.get<WooAttribute[]>('/products/attributes');
  const list = Array.isArray(attributes.data) ? attributes.data : [];
  const termsOf = await mapLimit(list, FETCH_CONCURRENCY, (a) => client.all<WooTerm>(`/products/attributes/${a.id}/terms`));
  return { list, termsOf };
}

/** The attributes into ours; they are not counted as items done. */
export async function pullAttributes(db: Db, store: StoreCtx, { list, termsOf }: Awaited<ReturnType<typeof fetchAttributes>>, t: Tally) {
  await pullSimple(
    db,
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
  );
  t.done = 0;
}
