import { and, eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.js';
import { ecommercesTable, ecommercesVariationsTable } from '../db/resource-tables.js';
import { isSandboxUrl } from '../integrations/woocommerce/sandbox.js';
import type { SecretBox } from '../lib/secret-box.js';
import { storesOf } from '../modules/ecommerce/store.js';
import { createSyncEngine } from '../modules/ecommerce/sync.js';

const products = ecommercesTable as unknown as Record<string, AnyPgColumn>;
const variations = ecommercesVariationsTable as unknown as Record<string, AnyPgColumn>;

/**
 * The example variations are seeded round-robin over the example products (examples cannot
 * name ids): each goes back to the product its SKU belongs to (POLO-PIMA-BLANCO-L → POLO-PIMA,
 * the longest SKU it starts with), so the first sync links it to the store's own variation
 * instead of sending it to the wrong product, where the store refuses its repeated SKU.
 */
async function variationsToTheirProducts(db: Db, companyId: string) {
  const own = (await db.select({ id: products.id, sku: products.sku, country: products.country }).from(ecommercesTable).where(eq(products.companyId, companyId))) as Array<{
    id: string;
    sku: string;
    country: string;
  }>;
  const byId = new Map(own.map((p) => [p.id, p]));
  const list = (await db
    .select({ id: variations.id, sku: variations.sku, ecommerceId: variations.ecommerceId })
    .from(ecommercesVariationsTable)
    .where(eq(variations.companyId, companyId))) as Array<{ id: string; sku: string; ecommerceId: string | null }>;
  for (const v of list) {
    const current = v.ecommerceId ? byId.get(v.ecommerceId) : undefined;
    if (current && v.sku.startsWith(`${current.sku}-`)) continue;
    const owner = own.filter((p) => v.sku.startsWith(`${p.sku}-`) && (!current || p.country === current.country)).sort((a, b) => b.sku.length - a.sku.length)[0];
    if (owner) await db.update(ecommercesVariationsTable).set({ ecommerceId: owner.id } as never).where(and(eq(variations.companyId, companyId), eq(variations.id, v.id)));
  }
}

/**
 * The demo's WooCommerce stores (decision 0034): the company's sandbox stores (Perú, Chile,
 * `*.sandbox.test`, answered in-process) are synced once at seed time, so their products,
 * variations, categories, orders and customers are there on a fresh start, as already-synced
 * records (linked to the store: the first sync in the demo changes nothing). No internet.
 */
export async function seedEcommerce(db: Db, companyId: string, secrets: Pick<SecretBox, 'open'>): Promise<void> {
  await variationsToTheirProducts(db, companyId);
  const engine = createSyncEngine({ db, secrets });
  for (const store of await storesOf(db, secrets, companyId)) {
    if (!isSandboxUrl(store.url)) continue;
    const { row } = await engine.start(store, 'all');
    await engine.run(row.id);
  }
}
