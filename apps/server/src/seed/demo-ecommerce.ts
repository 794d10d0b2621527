import type { Db } from '../db/database.js';
import { isSandboxUrl } from '../integrations/woocommerce/sandbox.js';
import type { SecretBox } from '../lib/secret-box.js';
import { storesOf } from '../modules/ecommerce/store.js';
import { createSyncEngine } from '../modules/ecommerce/sync.js';

/**
 * The demo's WooCommerce stores (decision 0034): the company's sandbox stores (Perú, Chile,
 * `*.sandbox.test`, answered in-process) are synced once at seed time, so their products,
 * variations, categories, orders and customers are there on a fresh start, as already-synced
 * records (linked to the store: the first sync in the demo changes nothing). No internet.
 */
export async function seedEcommerce(db: Db, companyId: string, secrets: Pick<SecretBox, 'open'>): Promise<void> {
  const engine = createSyncEngine({ db, secrets });
  for (const store of await storesOf(db, secrets, companyId)) {
    if (!isSandboxUrl(store.url)) continue;
    const { row } = await engine.start(store, 'all');
    await engine.run(row.id);
  }
}
