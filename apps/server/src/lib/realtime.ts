import { EventEmitter } from 'node:events';
import type { RealtimeEvent } from '@mostrador/contract';
import pg from 'pg';
import type { Database } from '../db/database.js';

/** The PostgreSQL channel every server process listens on (LISTEN/NOTIFY). */
export const REALTIME_CHANNEL = 'mostrador_events';
/** NOTIFY payloads are limited to 8000 bytes; a larger event is sent as its chat's update (the browser reloads the thread). */
const MAX_NOTIFY_BYTES = 7900;

type Listener = (event: RealtimeEvent) => void;
type Envelope = { companyId: string; event: RealtimeEvent };

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

  const deliver = (envelope: Envelope) => local.emit(envelope.companyId, envelope.event);

  async function listen() {
    const client = new pg.Client({ connectionString: database.connectionString });
    client.on('notification', (n) => {
      if (n.channel !== REALTIME_CHANNEL || !n.payload) return;
      try {
        deliver(JSON.parse(n.payload) as Envelope);
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
      await listener?.end().catch(() => {});
      listener = undefined;
    },
    /** Sends an event to every open browser of the company (call it after the transaction commits). */
    async publish(companyId: string, event: RealtimeEvent): Promise<void> {
      if (database.kind !== 'postgres') {
        deliver({ companyId, event });
        return;
      }
      let payload = JSON.stringify({ companyId, event } satisfies Envelope);
      if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES && event.type === 'message.created') {
        payload = JSON.stringify({ companyId, event: { type: 'chat.updated', chat: event.chat } } satisfies Envelope);
      }
      if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) {
        log.warn({ type: event.type }, 'evento en tiempo real demasiado grande: no se envía');
        return;
      }
      try {
        await database.pool.query('select pg_notify($1, $2)', [REALTIME_CHANNEL, payload]);
      } catch (error) {
        log.warn({ err: error }, 'no se pudo enviar el evento en tiempo real');
      }
    },
    /** Listens to a company's events; answers the function that stops listening. */
    subscribe(companyId: string, fn: Listener): () => void {
      local.on(companyId, fn);
      return () => local.off(companyId, fn);
    },
  };
}
export type Realtime = ReturnType<typeof createRealtime>;
