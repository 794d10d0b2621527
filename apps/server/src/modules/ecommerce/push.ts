import type { PushResult } from '@mostrador/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { ecommercesTable, ecommercesVariationsTable } from '../../db/resource-tables.js';
import { providerReason } from '../../integrations/http.js';
import { type WooClient, WooError } from '../../integrations/woocommerce/client.js';
import { isBatchError, type WooProduct, type WooVariation } from '../../integrations/woocommerce/types.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { linksByRecord, productLabel, products, saveLinks, type Tally, type TermMaps, tally, termMaps, variationsT } from './links.js';
import {
  canonicalLocalProduct,
  canonicalLocalVariation,
  canonicalRemoteProduct,
  canonicalRemoteVariation,
  hashOf,
  type ProductRow,
  productPayloadOf,
  type VariationRow,
  variationPayloadOf,
} from './mapping.js';
import { clientFor, type StoreCtx, storeOfCountry } from './store.js';

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

/**
 * Pushes one product (and its changed variations) to its country's store at once: what
 * PATCH /ecommerces/v2/{id} and the variation calls answer with. Unchanged: nothing is sent.
 */
export async function pushOne(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string, productId: string): Promise<PushResult> {
  const [row] = (await db
    .select()
    .from(ecommercesTable)
    .where(and(eq((ecommercesTable as never as { companyId: never }).companyId, companyId), eq((ecommercesTable as never as { id: never }).id, productId)))) as unknown as ProductRow[];
  if (!row) return { status: 'failed', msg: 'El producto no existe' };
  const store = await storeOfCountry(db, secrets, companyId, row.country);
  if (!store) return { status: 'no-store', msg: `Guardado. No hay tienda WooCommerce de ${row.country} a la cual enviarlo` };
  const t = tally();
  try {
    await db.transaction(async (tx) => pushProducts(tx as unknown as Db, store, clientFor(store), [row], t));
  } catch (error) {
    return { status: 'failed', msg: `Guardado, pero no se pudo enviar a ${store.name}: ${error instanceof WooError ? error.msg : 'error interno'}` };
  }
  if (t.errors.length) return { status: 'failed', msg: `Guardado, pero ${store.name} lo rechazó: ${t.errors.map((e) => e.msg).join('; ')}` };
  if (t.storeWrites === 0) return { status: 'unchanged', msg: `Guardado. ${store.name} ya tenía estos datos` };
  return { status: 'synced', msg: `Guardado y enviado a ${store.name}` };
}
