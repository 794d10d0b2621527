import type { MarketplacePushOut } from '@mostrador/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { marketplaceVariationsTable } from '../../db/resource-tables.js';
import type { MarketplaceAdapter, OfferResult, OfferUpdate } from '../../integrations/marketplace.js';
import { hashOf, linksByRecord, type RemoteVariation, refreshProductTotals, remotePriceStock, saveLinks, variations } from './records.js';
import { type SourceCtx, sourceLabel } from './sources.js';

export interface VariationRow {
  id: string;
  companyId: string;
  sourceId: string | null;
  productId: string | null;
  sellerSku: string;
  price: number;
  stock: number;
  syncStatus: string;
}

/** What a send needs to know of each variation: its offer and the marketplace's last known price and stock. */
export async function offersOf(db: Db, companyId: string, rows: VariationRow[]) {
  const links = await linksByRecord(db, companyId, 'variation', rows.map((r) => r.id));
  return rows.map((row) => {
    const link = links.get(row.id);
    const remote = remotePriceStock(link);
    const offer: OfferUpdate = { sku: row.sellerSku };
    if (!remote || remote.price !== Number(row.price)) offer.price = Number(row.price);
    if (!remote || remote.stock !== Number(row.stock)) offer.stock = Number(row.stock);
    return { row, link, offer, changed: offer.price !== undefined || offer.stock !== undefined };
  });
}

/**
 * Settles what the marketplace did with sent variations (decision 0035): taken → synced, and the
 * link remembers the new price and stock (so the next sync sees the same hash and writes
 * nothing); refused → failed with the marketplace's reason; still processing → pending.
 */
export async function settleResults(db: Db, source: SourceCtx, sent: Awaited<ReturnType<typeof offersOf>>, results: OfferResult[]) {
  const bySku = new Map(results.map((r) => [r.sku, r]));
  const newLinks: Array<{ remoteId: string; recordId: string; hash: string; remote: unknown }> = [];
  const touched = new Set<string>();
  const taken: string[] = [];
  const others: Array<{ id: string; status: 'failed' | 'pending'; msg: string }> = [];
  for (const { row, link, offer } of sent) {
    const result = bySku.get(offer.sku);
    if (!result) continue;
    if (result.status === 'taken') {
      taken.push(row.id);
      const before = (link?.remote ?? {}) as Partial<RemoteVariation>;
      const remote = { ...before, sku: row.sellerSku, price: Number(row.price), stock: Number(row.stock) };
      newLinks.push({ remoteId: row.sellerSku, recordId: row.id, hash: link ? hashOf(remote) : 'enviado', remote });
    } else {
      const msg = result.status === 'refused' ? `${sourceLabel(source)} rechazó el cambio: ${result.reason ?? 'sin motivo'}` : (result.reason ?? 'El marketplace aún procesa el envío');
      others.push({ id: row.id, status: result.status === 'refused' ? 'failed' : 'pending', msg: msg.slice(0, 500) });
    }
    if (row.productId) touched.add(row.productId);
  }
  // one statement per thousand rows, whatever the count
  for (let i = 0; i < taken.length; i += 1000) {
    await db
      .update(marketplaceVariationsTable)
      .set({ syncStatus: 'synced', syncMessage: null, updatedAt: new Date() } as never)
      .where(and(eq(variations.companyId, source.companyId), inArray(variations.id, taken.slice(i, i + 1000))));
  }
  for (let i = 0; i < others.length; i += 1000) {
    await db.execute(sql`
      update ${marketplaceVariationsTable} v set sync_status = x.status, sync_message = x.msg, updated_at = now()
        from (values ${sql.join(
          others.slice(i, i + 1000).map((o) => sql`(${o.id}::uuid, ${o.status}, ${o.msg})`),
          sql`, `,
        )}) as x(id, status, msg)
       where v.company_id = ${source.companyId} and v.id = x.id`);
  }
  await saveLinks(db, source.companyId, source.id, 'variation', newLinks);
  await refreshProductTotals(db, source.companyId, [...touched]);
}

export async function variationRows(db: Db, companyId: string, ids: string[]): Promise<VariationRow[]> {
  if (!ids.length) return [];
  return (await db
    .select()
    .from(marketplaceVariationsTable)
    .where(and(eq(variations.companyId, companyId), inArray(variations.id, ids)))) as unknown as VariationRow[];
}

/**
 * Sends one variation's price and stock at once (POST /marketplace-products/variations/{id}/sync):
 * nothing when the marketplace already has them.
 */
export async function pushOne(db: Db, source: SourceCtx, adapter: MarketplaceAdapter, row: VariationRow): Promise<Omit<MarketplacePushOut, 'variation'>> {
  const [item] = await offersOf(db, source.companyId, [row]);
  if (!item.changed) {
    if (row.syncStatus !== 'synced') {
      await db
        .update(marketplaceVariationsTable)
        .set({ syncStatus: 'synced', syncMessage: null, updatedAt: new Date() } as never)
        .where(and(eq(variations.companyId, source.companyId), eq(variations.id, row.id)));
    }
    return { status: 'unchanged', msg: `${sourceLabel(source)} ya tenía este precio y este stock` };
  }
  const results = await adapter.pushOffers([item.offer]);
  await db.transaction(async (tx) => settleResults(tx as unknown as Db, source, [item], results));
  const [result] = results;
  if (result?.status === 'taken') return { status: 'synced', msg: `Enviado a ${sourceLabel(source)}` };
  if (result?.status === 'processing') return { status: 'processing', msg: `Enviado a ${sourceLabel(source)}; aún lo está procesando` };
  return { status: 'failed', msg: `${sourceLabel(source)} rechazó el cambio: ${result?.reason ?? 'sin motivo'}` };
}
