import type { DomainActor } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Db } from './database.js';

/**
 * Names who acts in this transaction: the events its row changes emit carry this actor (the
 * spine's emitters, migration 0051, read `mostrador.actor`). Transaction-local: it ends with the
 * transaction. Here, under the modules, so any of them may say who acts without importing the spine.
 */
export async function actAs(tx: Pick<Db, 'execute'>, actor: DomainActor): Promise<void> {
  await tx.execute(sql`select set_config('mostrador.actor', ${JSON.stringify(actor)}, true)`);
}
