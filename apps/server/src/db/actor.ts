import { AsyncLocalStorage } from 'node:async_hooks';
import type { DomainActor } from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';

/**
 * Names who acts in this transaction: the events its row changes emit carry this actor (the
 * spine's emitters, migration 0051, read `mostrador.actor`). Transaction-local: it ends with the
 * transaction. Here, under the modules, so any of them may say who acts without importing the spine.
 */
export async function actAs(tx: { execute(query: SQL): Promise<unknown> }, actor: DomainActor): Promise<void> {
  await tx.execute(sql`select set_config('mostrador.actor', ${JSON.stringify(actor)}, true)`);
}

/**
 * Who a request acts as, for every transaction it opens (decision 0071): the auth hook names an
 * API key here, and each transaction of the request starts by saying so (`actingTransactions`),
 * so what a key changes is recorded as the key's doing without any module passing it along. A
 * request of a person's session names nobody: the emitters keep reading the row (the message's
 * `sent_by`), as before.
 */
const requestActors = new AsyncLocalStorage<{ actor?: DomainActor }>();

/** Runs `next` (the rest of a request) with a place for its actor; set by `actAsInRequest`. */
export function withActorScope(next: () => void): void {
  requestActors.run({}, next);
}
export function actAsInRequest(actor: DomainActor): void {
  const scope = requestActors.getStore();
  if (scope) scope.actor = actor;
}
/** The actor the current request named, if any. */
export function requestActor(): DomainActor | undefined {
  return requestActors.getStore()?.actor;
}

/** The database whose transactions begin by naming the request's actor, when it named one. */
export function actingTransactions<D extends object>(db: D): D {
  const target = db as unknown as { transaction: Transactor };
  const begin = target.transaction.bind(db);
  target.transaction = (fn, config) =>
    begin(async (tx) => {
      const actor = requestActor();
      if (actor) await actAs(tx, actor);
      return fn(tx);
    }, config);
  return db;
}
type Transactor = (fn: (tx: { execute(query: SQL): Promise<unknown> }) => Promise<unknown>, config?: unknown) => Promise<unknown>;
