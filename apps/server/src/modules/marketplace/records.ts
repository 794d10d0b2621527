import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { marketplaceLinks } from '../../db/marketplace-tables.js';
import { marketplaceProductsTable, marketplaceVariationsTable } from '../../db/resource-tables.js';
import type { RemoteListing } from '../../integrations/marketplace.js';
import { sanitizeText } from '../../lib/third-party-text.js';

/**
 * What the marketplace module shares between the sync, the sends and the bulk update (decision
 * 0035): the compared forms and their hashes, the links, and the product totals.
 */
export const products = marketplaceProductsTable as unknown as Record<string, AnyPgColumn>;
export const variations = marketplaceVariationsTable as unknown as Record<string, AnyPgColumn>;

export type LinkKind = 'product' | 'variation' | 'order';

/** JSON with sorted keys: equal values, equal text. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
export const hashOf = (value: unknown) => createHash('sha1').update(stableJson(value)).digest('base64url');

/** Amounts as we keep them: cents, never negative. */
export const cents = (n: number) => Math.max(0, Math.round(n * 100) / 100);
/** Third-party text cut to a column's limit, without NULs (decision 0021). */
export const clip = (s: string | undefined, max: number): string | undefined => {
  if (s === undefined) return undefined;
  const clean = sanitizeText(s).trim().slice(0, max);
  return clean || undefined;
};

/** A variation as the marketplace shows it: what its link remembers and its hash compares. */
export interface RemoteVariation {
  sku: string;
  parentSku: string;
  name: string;
  variation: string | null;
  shopSku: string | null;
  price: number;
  salePrice: number | null;
  stock: number;
  status: string;
}

export function remoteVariationOf(l: RemoteListing): RemoteVariation {
  return {
    sku: l.sku,
    parentSku: l.parentSku,
    name: clip(l.name, 200) ?? l.sku,
    variation: clip(l.variation, 120) ?? null,
    shopSku: clip(l.shopSku, 80) ?? null,
    price: cents(l.price),
    salePrice: l.salePrice !== undefined && l.salePrice > 0 ? cents(l.salePrice) : null,
    stock: Math.max(0, Math.min(2_147_483_647, Math.trunc(l.stock))),
    status: l.status,
  };
}

export interface LinkRow {
  remoteId: string;
  recordId: string;
  hash: string;
  remote: unknown;
}

export async function linksOf(db: Db, companyId: string, sourceId: string, kind: LinkKind, remoteIds: string[]): Promise<Map<string, LinkRow>> {
  const out = new Map<string, LinkRow>();
  if (!remoteIds.length) return out;
  const rows = await db
    .select()
    .from(marketplaceLinks)
    .where(and(eq(marketplaceLinks.companyId, companyId), eq(marketplaceLinks.sourceId, sourceId), eq(marketplaceLinks.kind, kind), inArray(marketplaceLinks.remoteId, remoteIds)));
  for (const r of rows) out.set(r.remoteId, { remoteId: r.remoteId, recordId: r.recordId, hash: r.hash, remote: r.remote });
  return out;
}

export async function linksByRecord(db: Db, companyId: string, kind: LinkKind, recordIds: string[]): Promise<Map<string, LinkRow & { sourceId: string }>> {
  const out = new Map<string, LinkRow & { sourceId: string }>();
  if (!recordIds.length) return out;
  const rows = await db
    .select()
    .from(marketplaceLinks)
    .where(and(eq(marketplaceLinks.companyId, companyId), eq(marketplaceLinks.kind, kind), inArray(marketplaceLinks.recordId, recordIds)));
  for (const r of rows) out.set(r.recordId, { remoteId: r.remoteId, recordId: r.recordId, hash: r.hash, remote: r.remote, sourceId: r.sourceId });
  return out;
}

export async function saveLinks(db: Db, companyId: string, sourceId: string, kind: LinkKind, links: Array<{ remoteId: string; recordId: string; hash: string; remote?: unknown }>) {
  for (let i = 0; i < links.length; i += 500) {
    await db
      .insert(marketplaceLinks)
      .values(links.slice(i, i + 500).map((l) => ({ companyId, sourceId, kind, remoteId: l.remoteId, recordId: l.recordId, hash: l.hash, remote: l.remote ?? null })))
      .onConflictDoUpdate({
        target: [marketplaceLinks.companyId, marketplaceLinks.sourceId, marketplaceLinks.kind, marketplaceLinks.remoteId],
        set: { recordId: sql`excluded.record_id`, hash: sql`excluded.hash`, remote: sql`excluded.remote`, updatedAt: sql`now()` },
      });
  }
}

/**
 * A product's totals from its variations: how many, the stock, the lowest price a customer
 * pays (the offer price when there is one) and a status (active when one is). Written only where
 * they changed: a second sync of the same data writes nothing.
 */
export async function refreshProductTotals(db: Db, companyId: string, productIds: string[]) {
  if (!productIds.length) return;
  await db.execute(sql`
    with agg as (
      select ${variations.productId} as product_id, count(*)::int as n, coalesce(sum(${variations.stock}), 0)::int as stock,
        coalesce(min(coalesce(${variations.salePrice}, ${variations.price})), 0)::float8 as price,
        case when bool_or(${variations.status} = 'active') then 'active' when bool_or(${variations.status} = 'inactive') then 'inactive' else 'deleted' end as status
      from ${marketplaceVariationsTable}
      where ${variations.companyId} = ${companyId} and ${variations.productId} in (${sql.join(
        productIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      group by ${variations.productId}
    )
    update ${marketplaceProductsTable} p set variations = agg.n, stock = agg.stock, price = agg.price, status = agg.status, updated_at = now()
    from agg
    where p.company_id = ${companyId} and p.id = agg.product_id
      and (p.variations, p.stock, p.price, p.status) is distinct from (agg.n, agg.stock, agg.price, agg.status)`);
}

/** The marketplace's side of a variation's price and stock, from its link (undefined: never synced). */
export const remotePriceStock = (link: { remote: unknown } | undefined): { price: number; stock: number } | undefined => {
  const r = link?.remote as Partial<RemoteVariation> | null | undefined;
  return r && typeof r.price === 'number' && typeof r.stock === 'number' ? { price: r.price, stock: r.stock } : undefined;
};
