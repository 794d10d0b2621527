import type { PushResult } from '@mostrador/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { ecommercesTable } from '../../db/resource-tables.js';
import { WooError } from '../../integrations/woocommerce/client.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { ProductRow } from './mapping.js';
import { clientFor, storeOfCountry } from './store.js';
import { pushProducts, type Tally } from './sync.js';

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
  const t: Tally = { done: 0, created: 0, updated: 0, unchanged: 0, storeWrites: 0, errors: [] };
  try {
    await db.transaction(async (tx) => pushProducts(tx as unknown as Db, store, clientFor(store), [row], t));
  } catch (error) {
    return { status: 'failed', msg: `Guardado, pero no se pudo enviar a ${store.name}: ${error instanceof WooError ? error.msg : 'error interno'}` };
  }
  if (t.errors.length) return { status: 'failed', msg: `Guardado, pero ${store.name} lo rechazó: ${t.errors.map((e) => e.msg).join('; ')}` };
  if (t.storeWrites === 0) return { status: 'unchanged', msg: `Guardado. ${store.name} ya tenía estos datos` };
  return { status: 'synced', msg: `Guardado y enviado a ${store.name}` };
}
