import type { Db } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import { sourcesOf } from '../modules/marketplace/sources.js';
import { createMarketplaceSync } from '../modules/marketplace/sync.js';

/**
 * The demo's marketplace accounts (decision 0035): the company's sandbox Seller Center accounts
 * (Falabella Perú and Falabella Chile, `*.sandbox.test`, answered in-process) are synced once at
 * seed time, so their products, variations and orders (pending, ready to ship, shipped,
 * delivered, cancelled, returned) are there on a fresh start, linked to the account: the demo's
 * first sync changes nothing. No internet.
 */
export async function seedMarketplaces(db: Db, companyId: string, secrets: Pick<SecretBox, 'open'>): Promise<void> {
  const engine = createMarketplaceSync({ db, secrets });
  for (const source of await sourcesOf(db, secrets, companyId)) {
    if (!source.sandbox) continue;
    const { row } = await engine.start(source);
    await engine.run(row.id, companyId);
  }
}
