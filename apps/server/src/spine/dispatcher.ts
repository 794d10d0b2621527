import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type AggregateType, type DomainActor, type DomainEvent, type DomainEventType, payloadSchema } from '@mostrador/contract';
import pg from 'pg';
import type { Database } from '../db/database.js';
import { errorText } from '../lib/error-text.js';
import { pruneEvents } from './retention.js';

/**
 * The spine's delivery (decision 0068): the events of `domain_events` to the listeners of
 * listeners.ts, at least once, in order per aggregate, each listener idempotent by event.
 *
 * One process dispatches at a time (a lease in `spine_leases`, renewed while it works, taken over
 * when it lapses): the processes that work jobs compete for it, so a killed worker's place is
 * taken within LEASE_SECONDS. A round reads the next undelivered events in order, hands each
 * listener the ones of its types it has not taken (receipts), records what each took, and marks
 * the events delivered: five statements per round of up to BATCH events, none per event.
 *
 * A listener that fails an event gets it again later (a growing wait, its error kept in
 * `domain_event_failures`); its later events of the same aggregate wait behind that one, so the
 * order holds. After MAX_ATTEMPTS the event is given up (kept, with its error, for replay) and
 * the ones behind it go on. `replay` hands a listener the events since a time again.
 */

export interface Listener {
  /** Stable name: receipts and failures are kept under it. */
  name: string;
  /** The types it takes. */
  on: readonly DomainEventType[];
  /**
   * Takes events in the outbox's order. Throwing fails the call: the spine then hands the events
   * one by one to find the failing ones, so a handler must be safe to call again for an event
   * (it is keyed by `event.id` where it has effects outside the database).
   */
  handle(events: DomainEvent[]): Promise<void>;
}

/** Events per round. */
export const BATCH = 500;
/** Tries of a listener's event before it is given up. */
export const MAX_ATTEMPTS = 8;
/** How long a lease lasts without renewal. */
export const LEASE_SECONDS = 15;
/** How often an idle dispatcher looks for events nobody woke it for (another process's writes, a lost NOTIFY). */
export const POLL_MS = 500;
/** How long a round that found events waits before the next one, so the next takes what came meanwhile. */
export const COALESCE_MS = 20;
/** The PostgreSQL channel a write in a process that does not dispatch wakes the dispatcher on. */
export const SPINE_CHANNEL = 'mostrador_spine';

/** The wait before try `attempts + 1`: 1 s, 4 s, 16 s … capped at an hour. */
export const retryDelaySeconds = (attempts: number) => Math.min(3600, 4 ** Math.max(0, attempts - 1));

type Row = {
  position: number;
  id: string;
  company_id: string;
  type: string;
  version: number;
  aggregate_type: AggregateType;
  aggregate_id: string;
  actor: DomainActor;
  payload: unknown;
  occurred_at: Date | string;
};

const toEvent = (r: Row): DomainEvent =>
  ({
    position: Number(r.position),
    id: r.id,
    type: r.type as DomainEventType,
    version: r.version,
    companyId: r.company_id,
    aggregate: { type: r.aggregate_type, id: r.aggregate_id },
    actor: r.actor,
    payload: r.payload,
    occurredAt: new Date(r.occurred_at).toISOString(),
  }) as DomainEvent;

const aggregateKey = (e: Pick<DomainEvent, 'aggregate'>) => `${e.aggregate.type}:${e.aggregate.id}`;
const columns = 'e.position, e.id, e.company_id, e.type, e.version, e.aggregate_type, e.aggregate_id, e.actor, e.payload, e.occurred_at';

/** What a listener made of a set of events: taken, or failed with the reason. */
interface Outcome {
  taken: DomainEvent[];
  failed: Array<{ event: DomainEvent; error: string; blockedBy?: number }>;
}

/**
 * Hands `events` to the listener in order, skipping the aggregates in `blocked`. A failed call is
 * split into one call per event; an aggregate's first failure blocks its later events here too.
 */
async function deliver(listener: Listener, events: DomainEvent[], blocked: Map<string, number>): Promise<Outcome> {
  const out: Outcome = { taken: [], failed: [] };
  const open: DomainEvent[] = [];
  for (const e of events) {
    const head = blocked.get(aggregateKey(e));
    if (head !== undefined) out.failed.push({ event: e, error: 'Espera a un evento anterior del mismo elemento', blockedBy: head });
    else open.push(e);
  }
  if (!open.length) return out;
  try {
    await listener.handle(open);
    out.taken.push(...open);
    return out;
  } catch {
    // one by one: only the failing events (and what follows them in their aggregate) wait
  }
  const failedHere = new Map<string, number>();
  for (const e of open) {
    const head = failedHere.get(aggregateKey(e));
    if (head !== undefined) {
      out.failed.push({ event: e, error: 'Espera a un evento anterior del mismo elemento', blockedBy: head });
      continue;
    }
    try {
      await listener.handle([e]);
      out.taken.push(e);
    } catch (error) {
      failedHere.set(aggregateKey(e), e.position);
      out.failed.push({ event: e, error: errorText(error) });
    }
  }
  return out;
}

/** An event the catalogue does not accept (unknown type or version, a payload its schema refuses): the reason. */
function invalidReason(e: DomainEvent): string | undefined {
  const schema = payloadSchema(e.type, e.version);
  if (!schema) return `Tipo de evento desconocido: ${e.type} v${e.version}`;
  const parsed = schema.safeParse(e.payload);
  return parsed.success ? undefined : errorText(parsed.error);
}

export interface SpineOptions {
  log: { warn: (obj: unknown, msg?: string) => void; error: (obj: unknown, msg?: string) => void };
  pollMs?: number;
  /** Tries of an event per listener before it is given up. */
  maxAttempts?: number;
  /** The wait before try `attempts + 1`, in seconds. */
  retryDelay?: (attempts: number) => number;
  /** Days delivered events are kept (EVENTS_RETENTION_DAYS); the dispatcher drops older ones each hour. */
  retentionDays?: number;
  coalesceMs?: number;
}

export function createSpine(database: Pick<Database, 'kind' | 'pool' | 'connectionString'>, listeners: Listener[], { log, pollMs = POLL_MS, maxAttempts = MAX_ATTEMPTS, retryDelay = retryDelaySeconds, retentionDays = 30, coalesceMs = COALESCE_MS }: SpineOptions) {
  const { pool } = database;
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const byName = new Map(listeners.map((l) => [l.name, l]));
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  let leaseUntil = 0;
  let notifier: pg.Client | undefined;
  let lastNotify = 0;

  async function holdLease(): Promise<boolean> {
    if (Date.now() < leaseUntil - (LEASE_SECONDS * 1000) / 2) return true;
    const { rows } = await pool.query<{ until: Date }>(
      `insert into spine_leases (name, holder, until) values ('dispatch', $1, now() + make_interval(secs => $2))
       on conflict (name) do update set holder = excluded.holder, until = excluded.until
         where spine_leases.holder = excluded.holder or spine_leases.until < now()
       returning until`,
      [holder, LEASE_SECONDS],
    );
    // the local clock decides when to renew: a lease renewed at half its time never lapses while this process works
    leaseUntil = rows.length ? Date.now() + LEASE_SECONDS * 1000 : 0;
    return rows.length > 0;
  }

  type State = { taken: Set<string>; blocked: Map<string, Map<string, number>> };
  const receiptsSql = 'select listener, position from domain_event_receipts where position = any($1::bigint[])';
  const headsSql = 'select listener, aggregate, min(position) as position from domain_event_failures where given_up_at is null group by listener, aggregate';

  /** What each listener has taken of these events (receipts), and which of its aggregates wait behind a failure. */
  function stateFrom(receipts: Array<{ listener: string; position: number }>, heads: Array<{ listener: string; aggregate: string; position: number }>): State {
    const taken = new Set(receipts.map((r) => `${r.listener}:${Number(r.position)}`));
    const blocked = new Map<string, Map<string, number>>();
    for (const h of heads) {
      const m = blocked.get(h.listener) ?? new Map<string, number>();
      m.set(h.aggregate, Number(h.position));
      blocked.set(h.listener, m);
    }
    return { taken, blocked };
  }

  /**
   * Writes what the listeners made of the events — receipts, failures (a first failure waits its
   * delay; one parked behind another is due once that one is settled), the refused ones given up —
   * and, for a round, marks the events delivered: all in one statement.
   */
  async function record(outcomes: Array<{ listener: string; outcome: Outcome }>, invalid: number[], delivered: number[]) {
    const receiptListeners: string[] = [];
    const receiptPositions: number[] = [];
    const failures: Array<{ listener: string; position: number; aggregate: string; error: string; blocked_by: number | null }> = [];
    for (const { listener, outcome } of outcomes) {
      for (const e of outcome.taken) {
        receiptListeners.push(listener);
        receiptPositions.push(e.position);
      }
      for (const f of outcome.failed)
        failures.push({ listener, position: f.event.position, aggregate: aggregateKey(f.event), error: f.error.slice(0, 2000), blocked_by: f.blockedBy ?? null });
    }
    const invalidSet = new Set(invalid);
    await pool.query(
      `with receipts as (
         insert into domain_event_receipts (listener, position) select * from unnest($1::text[], $2::bigint[]) on conflict do nothing),
       failures as (
         insert into domain_event_failures (listener, position, aggregate, attempts, last_error, blocked_by, next_at, given_up_at)
         select listener, position, aggregate, case when refused then $5::int when blocked_by is null then 1 else 0 end, error, blocked_by,
                case when blocked_by is null then now() + make_interval(secs => $3) else now() end, case when refused then now() end
         from jsonb_to_recordset($4::jsonb) as f(listener text, position bigint, aggregate text, error text, blocked_by bigint, refused boolean)
         on conflict (listener, position) do nothing),
       done as (
         update domain_events set dispatched_at = now() where position = any($6::bigint[]) and dispatched_at is null)
       select 1`,
      [
        receiptListeners,
        receiptPositions,
        retryDelay(1),
        JSON.stringify(failures.map((f) => ({ ...f, refused: invalidSet.has(f.position) && f.blocked_by === null }))),
        maxAttempts,
        delivered,
      ],
    );
    for (const f of failures) if (f.blocked_by === null) log.warn({ listener: f.listener, position: f.position, error: f.error }, 'un oyente del bus de eventos falló: se reintenta');
  }

  /** Hands events to their listeners, except what each has taken; records it (and marks `delivered` so). */
  async function handOut(events: DomainEvent[], state: State, only?: Listener, delivered: number[] = []) {
    const { taken, blocked } = state;
    const valid: DomainEvent[] = [];
    const invalid: Array<{ event: DomainEvent; error: string }> = [];
    for (const e of events) {
      const reason = invalidReason(e);
      if (reason) invalid.push({ event: e, error: reason });
      else valid.push(e);
    }
    const outcomes = await Promise.all(
      (only ? [only] : listeners).map(async (listener) => {
        const mine = valid.filter((e) => listener.on.includes(e.type) && !taken.has(`${listener.name}:${e.position}`));
        const outcome = await deliver(listener, mine, blocked.get(listener.name) ?? new Map());
        // an event the catalogue refuses is never handed over: it is kept as given up, with the reason
        for (const f of invalid) if (listener.on.includes(f.event.type)) outcome.failed.push({ event: f.event, error: f.error });
        return { listener: listener.name, outcome };
      }),
    );
    await record(
      outcomes,
      invalid.map((f) => f.event.position),
      delivered,
    );
  }

  /**
   * One round of new events, in two statements: the next undelivered events with their receipts
   * and the open failures' heads; then what the listeners made of them, and the events marked
   * delivered. Answers how many were read.
   */
  async function round(): Promise<number> {
    const { rows } = await pool.query<{ events: Row[]; receipts: Array<{ listener: string; position: number }>; heads: Array<{ listener: string; aggregate: string; position: number }> }>(
      `with ev as (select ${columns} from domain_events e where e.dispatched_at is null order by e.position limit $1)
       select (select coalesce(json_agg(ev order by ev.position), '[]'::json) from ev) as events,
              (select coalesce(json_agg(r), '[]'::json) from (select r.listener, r.position from domain_event_receipts r where r.position in (select position from ev)) r) as receipts,
              (select coalesce(json_agg(h), '[]'::json) from (${headsSql}) h) as heads`,
      [BATCH],
    );
    const events = (rows[0]?.events ?? []).map(toEvent);
    if (!events.length) return 0;
    await handOut(
      events,
      stateFrom(rows[0]?.receipts ?? [], rows[0]?.heads ?? []),
      undefined,
      events.map((e) => e.position),
    );
    return events.length;
  }

  /** Failed events whose wait is over, the first of each listener's aggregate: tried again. Answers how many. */
  async function retryRound(): Promise<number> {
    const { rows } = await pool.query<Row & { listener: string; attempts: number }>(
      `select ${columns}, f.listener, f.attempts from (
         select distinct on (listener, aggregate) listener, position, attempts, next_at
         from domain_event_failures where given_up_at is null order by listener, aggregate, position) f
       join domain_events e on e.position = f.position
       where f.next_at <= now() order by f.position limit 100`,
    );
    for (const row of rows) {
      const listener = byName.get(row.listener);
      if (!listener) continue;
      const event = toEvent(row);
      const reason = invalidReason(event);
      try {
        if (reason) throw new Error(reason);
        await listener.handle([event]);
        await pool.query(
          `with gone as (delete from domain_event_failures where listener = $1 and position = $2)
           insert into domain_event_receipts (listener, position) values ($1, $2) on conflict do nothing`,
          [row.listener, event.position],
        );
      } catch (error) {
        const attempts = Number(row.attempts) + 1;
        await pool.query(
          `update domain_event_failures set attempts = $3::int, last_error = $4, blocked_by = null,
             next_at = now() + make_interval(secs => $5), given_up_at = case when $3::int >= $6::int then now() end
           where listener = $1 and position = $2`,
          [row.listener, event.position, attempts, errorText(error), retryDelay(attempts), maxAttempts],
        );
        if (attempts >= maxAttempts) log.error({ listener: row.listener, position: event.position }, 'evento abandonado por un oyente tras sus reintentos');
      }
    }
    return rows.length;
  }

  // rounds of this process one at a time (the loop's and a drain's): two would both hand out
  // the events neither has recorded yet
  let busy: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = busy.then(fn);
    busy = next.catch(() => {});
    return next;
  }

  let lastRetry = 0;
  let lastPrune = 0;
  async function work(): Promise<number> {
    if (!(await holdLease())) return 0;
    let n = await round();
    if (Date.now() - lastRetry > 1000) {
      lastRetry = Date.now();
      n += await retryRound();
    }
    if (Date.now() - lastPrune > 3600_000) {
      lastPrune = Date.now();
      const dropped = await pruneEvents(pool, retentionDays);
      if (dropped) log.warn({ dropped, retentionDays }, 'eventos de dominio viejos borrados');
    }
    return n;
  }

  async function listen() {
    if (database.kind !== 'postgres') return;
    const client = new pg.Client({ connectionString: database.connectionString });
    client.on('notification', () => wake());
    client.on('error', (error) => {
      log.warn({ err: error }, 'se perdió la conexión del bus de eventos; se sigue consultando cada medio segundo');
      notifier = undefined;
      client.end().catch(() => {});
    });
    await client.connect();
    await client.query(`LISTEN ${SPINE_CHANNEL}`);
    notifier = client;
  }

  function wake() {
    woken = true;
    wakeUp?.();
  }

  return {
    listeners,
    /** Starts dispatching in this process (the processes that work jobs). */
    async start() {
      if (running) return;
      running = true;
      await listen().catch((error: unknown) => log.warn({ err: error }, 'el bus de eventos no escucha avisos: consulta cada medio segundo'));
      loop = (async () => {
        while (running) {
          let n = 0;
          try {
            woken = false;
            n = await exclusive(work);
          } catch (error) {
            if (running) log.error({ err: error }, 'ronda del bus de eventos fallida');
          }
          if (!running) break;
          // a full round: the backlog goes on at once; otherwise wait for a wake or the poll
          if (n >= BATCH) continue;
          // a round that found events gathers the next ones a moment (COALESCE_MS): under a stream
          // of single-message commits a round takes many events, not one (two statements each)
          if (n > 0) await new Promise((r) => setTimeout(r, coalesceMs));
          if (woken || !running) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            wakeUp = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wakeUp = undefined;
        }
      })();
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
      loop = undefined;
      await notifier?.end().catch(() => {});
      notifier = undefined;
      // another worker takes over at once, not when the lease lapses
      if (leaseUntil) await pool.query("delete from spine_leases where name = 'dispatch' and holder = $1", [holder]).catch(() => {});
      leaseUntil = 0;
    },
    /**
     * Says events were written (a committed request or job of this process): the dispatcher here
     * runs a round now; on PostgreSQL a process that is not dispatching tells the one that is.
     */
    wake() {
      if (running) return wake();
      if (database.kind !== 'postgres' || Date.now() - lastNotify < 20) return;
      lastNotify = Date.now();
      pool.query(`select pg_notify('${SPINE_CHANNEL}', '')`).catch(() => {});
    },
    /** Delivers everything undelivered now, due retries included (the tests; a drain waits for this process's round in flight). */
    async drain(): Promise<void> {
      for (let i = 0; i < 10_000; i++) {
        const n = await exclusive(async () => {
          if (!(await holdLease())) throw new Error('Otro proceso reparte los eventos');
          return (await round()) + (await retryRound());
        });
        if (!n) return;
      }
    },
    /**
     * Hands a listener the events since `since` again (its receipts of them forgotten first), in
     * order. Answers how many it was handed.
     */
    async replay(name: string, since: Date): Promise<number> {
      const listener = byName.get(name);
      if (!listener) throw new Error(`Oyente desconocido: ${name}`);
      let after = 0;
      let count = 0;
      for (;;) {
        const { rows } = await pool.query<Row>(
          `select ${columns} from domain_events e where e.occurred_at >= $1 and e.position > $2 and e.type = any($3::text[])
             and e.dispatched_at is not null order by e.position limit $4`,
          [since, after, listener.on, BATCH],
        );
        if (!rows.length) return count;
        const events = rows.map(toEvent);
        await pool.query(
          `with gone as (delete from domain_event_failures where listener = $1 and position = any($2::bigint[]))
           delete from domain_event_receipts where listener = $1 and position = any($2::bigint[])`,
          [name, events.map((e) => e.position)],
        );
        await exclusive(async () => {
          const [receipts, heads] = await Promise.all([pool.query(receiptsSql, [events.map((e) => e.position)]), pool.query(headsSql)]);
          await handOut(events, stateFrom(receipts.rows, heads.rows), listener);
        });
        count += events.length;
        after = events[events.length - 1]?.position ?? after;
      }
    },
    /** Each listener's failures: waiting to be retried, and given up (`npm run events`). */
    async failures() {
      const { rows } = await pool.query<{ listener: string; retrying: number; given_up: number; last_error: string | null }>(
        `select listener, count(*) filter (where given_up_at is null)::int as retrying, count(*) filter (where given_up_at is not null)::int as given_up,
                (array_agg(last_error order by failed_at desc) filter (where blocked_by is null))[1] as last_error
         from domain_event_failures group by listener order by listener`,
      );
      return rows;
    },
    /** Undelivered events and the age of the oldest (`npm run events`). */
    async backlog() {
      const { rows } = await pool.query<{ pending: number; oldest: number | null }>(
        'select count(*)::int as pending, extract(epoch from now() - min(occurred_at))::float8 as oldest from domain_events where dispatched_at is null',
      );
      return { pending: rows[0]?.pending ?? 0, oldestSeconds: rows[0]?.oldest ?? 0 };
    },
  };
}
export type Spine = ReturnType<typeof createSpine>;
