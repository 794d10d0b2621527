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
const requestActors = new AsyncLocalStorage<RequestScope>();

/**
 * What a request's scope holds: the spine's actor (an API key's only), and for the audit log
 * (decision 0072) who calls — a person's session or a key, set by the auth hook for both — and
 * from where (the client's IP and user agent).
 */
interface RequestScope {
  actor?: DomainActor;
  caller?: { type: 'user' | 'api_key'; id: string };
  ip?: string;
  userAgent?: string;
}

/** Runs `next` (the rest of a request) with a place for its actor; set by `actAsInRequest`. */
export function withActorScope(next: () => void, from: { ip?: string; userAgent?: string } = {}): void {
  requestActors.run({ ip: from.ip, userAgent: from.userAgent }, next);
}
/** Names who calls in this request, for the audit log only (the spine's actor is untouched). */
export function callerInRequest(caller: { type: 'user' | 'api_key'; id: string }): void {
  const scope = requestActors.getStore();
  if (scope) scope.caller = caller;
}
/** Who calls and from where, as the audit log records it: outside a request (a job), the system. */
export function requestOrigin(): { actor: { type: 'user' | 'api_key' | 'system'; id?: string }; ip: string | null; userAgent: string | null } {
  const scope = requestActors.getStore();
  return { actor: scope?.caller ?? { type: 'system' }, ip: scope?.ip ?? null, userAgent: scope?.userAgent ?? null };
}
/**
 * Runs `fn` as `actor` outside a request (an automation rule's actions, decision 0077): every
 * transaction it opens on the acting database names that actor, so the events its changes emit
 * carry it, whatever module's code writes them.
 */
export function actingAs<T>(actor: DomainActor, fn: () => Promise<T>): Promise<T> {
  return requestActors.run({ actor }, fn);
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
