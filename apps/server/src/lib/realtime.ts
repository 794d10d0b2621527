import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { RealtimeEvent } from '@mostrador/contract';
import pg from 'pg';
import type { Database } from '../db/database.js';

/** The PostgreSQL channel every server process listens on (LISTEN/NOTIFY). */
export const REALTIME_CHANNEL = 'mostrador_events';
/**
 * NOTIFY payloads are limited to 8000 bytes. A larger message is sent as its chat's update (the
 * browser reloads the thread); any other larger event (a sync's progress with its error report)
 * goes in parts, all NOTIFYed by one statement, so they commit together and arrive in order.
 */
const MAX_NOTIFY_BYTES = 7900;
/** UTF-16 units per part: at most 3 bytes each in UTF-8, so a part stays under 8000 bytes with its wrapper. */
const PART_UNITS = 2500;
/** Beyond this many parts (about 600 kB) an event is not sent. */
const MAX_PARTS = 240;
/** Parts of an event whose rest never came are forgotten after this long. */
const PARTS_TTL_MS = 30_000;

type Listener = (event: RealtimeEvent) => void;
type Envelope = { companyId: string; event: RealtimeEvent };
/** One part of an event too large for one NOTIFY: the parts' text joined is the envelope's JSON. */
type Part = { part: { id: string; i: number; n: number; text: string } };

/** The NOTIFY payloads of an envelope: itself, or its JSON in parts (empty when too large even so). */
export function notifyPayloads(envelope: Envelope): string[] {
  const whole = JSON.stringify(envelope);
  if (Buffer.byteLength(whole) <= MAX_NOTIFY_BYTES) return [whole];
  const n = Math.ceil(whole.length / PART_UNITS);
  if (n > MAX_PARTS) return [];
  const id = randomUUID();
  return Array.from({ length: n }, (_, i) => JSON.stringify({ part: { id, i, n, text: whole.slice(i * PART_UNITS, (i + 1) * PART_UNITS) } } satisfies Part));
}

/** Puts parted events back together: answers the envelope when its last part arrives. */
export function createPartsJoiner(ttlMs = PARTS_TTL_MS) {
  const pending = new Map<string, { texts: string[]; got: number; timer: NodeJS.Timeout }>();
  return {
    add({ part }: Part): Envelope | undefined {
      let entry = pending.get(part.id);
      if (!entry) {
        const timer = setTimeout(() => pending.delete(part.id), ttlMs);
        timer.unref();
        entry = { texts: new Array<string>(part.n), got: 0, timer };
        pending.set(part.id, entry);
      }
      if (entry.texts[part.i] === undefined) entry.got++;
      entry.texts[part.i] = part.text;
      if (entry.got < part.n) return undefined;
      clearTimeout(entry.timer);
      pending.delete(part.id);
      return JSON.parse(entry.texts.join('')) as Envelope;
    },
    clear() {
      for (const entry of pending.values()) clearTimeout(entry.timer);
      pending.clear();
    },
  };
}

/**
 * Real-time delivery to the open browsers of a company (issue 4, `GET /api/events`).
 *
 * `publish` is called after the work's transaction has committed. On PostgreSQL it goes
 * through NOTIFY, so an event raised in a worker process (the webhook job) or in another API
 * process reaches every process's SSE clients; each process LISTENs on one dedicated
 * connection. The embedded database is one process by construction (decision 0002), so
 * there the bus is in memory. Delivery is best effort: a browser that was offline reloads
 * what it shows when it reconnects.
 */
export function createRealtime(database: Pick<Database, 'kind' | 'pool' | 'connectionString'>, log: { warn: (obj: unknown, msg?: string) => void }) {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let listener: pg.Client | undefined;
  let stopped = false;
  let subscribers = 0;

  const deliver = (envelope: Envelope) => local.emit(envelope.companyId, envelope.event);
  const parts = createPartsJoiner();

  async function listen() {
    const client = new pg.Client({ connectionString: database.connectionString });
    client.on('notification', (n) => {
      if (n.channel !== REALTIME_CHANNEL || !n.payload) return;
      try {
        const message = JSON.parse(n.payload) as Envelope | Part;
        const envelope = 'part' in message ? parts.add(message) : message;
        if (envelope) deliver(envelope);
      } catch (error) {
        log.warn({ err: error }, 'evento en tiempo real ilegible');
      }
    });
    client.on('error', (error) => {
      log.warn({ err: error }, 'se perdió la conexión de eventos en tiempo real; reconectando');
      listener = undefined;
      client.end().catch(() => {});
      if (!stopped) setTimeout(() => listen().catch(() => {}), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${REALTIME_CHANNEL}`);
    listener = client;
  }

  return {
    async start() {
      stopped = false;
      if (database.kind === 'postgres') await listen();
    },
    async stop() {
      stopped = true;
      local.removeAllListeners();
      parts.clear();
      await listener?.end().catch(() => {});
      listener = undefined;
    },
    /** Sends an event to every open browser of the company (call it after the transaction commits). */
    async publish(companyId: string, event: RealtimeEvent): Promise<void> {
      if (database.kind !== 'postgres') {
        deliver({ companyId, event });
        return;
      }
      let payloads = notifyPayloads({ companyId, event });
      if (payloads.length !== 1 && event.type === 'message.created') {
        payloads = notifyPayloads({ companyId, event: { type: 'chat.updated', chat: event.chat } });
      }
      if (!payloads.length) {
        log.warn({ type: event.type }, 'evento en tiempo real demasiado grande: no se envía');
        return;
      }
      try {
        // one statement: the parts of an event commit together and are delivered in order
        const calls = payloads.map((_, i) => `pg_notify($1, $${i + 2})`).join(', ');
        await database.pool.query(`select ${calls}`, [REALTIME_CHANNEL, ...payloads]);
      } catch (error) {
        log.warn({ err: error }, 'no se pudo enviar el evento en tiempo real');
      }
    },
    /** Listens to a company's events; answers the function that stops listening. */
    subscribe(companyId: string, fn: Listener): () => void {
      local.on(companyId, fn);
      subscribers++;
      let subscribed = true;
      return () => {
        if (subscribed) subscribers--;
        subscribed = false;
        local.off(companyId, fn);
      };
    },
    /** Open subscriptions in this process: the browsers connected to GET /api/events here (`/metrics`, decision 0066). */
    get subscribers() {
      return subscribers;
    },
  };
}
export type Realtime = ReturnType<typeof createRealtime>;
