import { pickLang } from '@mostrador/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { AppError, errorBody } from '../lib/errors.js';
import { safeEqual } from '../lib/safe-equal.js';

/** Where a route that matched none is counted (a screen of the SPA, an unknown path): one label, not the raw URL. */
const UNMATCHED = 'unmatched';

/** Seconds; from a fast cached read to a slow CSV export. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** Headers a reverse proxy adds: a request that carries one came from further away than the socket says. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * Who may read /metrics (decision 0066): with METRICS_TOKEN, whoever sends it as a bearer token;
 * without it, only a scraper on this machine — the socket's peer is loopback and no proxy header
 * says the request came from elsewhere (a reverse proxy on the same host forwards the internet).
 */
export function mayScrape(request: Pick<FastifyRequest, 'headers' | 'socket'>, token: string | undefined): boolean {
  if (token) {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    return safeEqual(given, token);
  }
  return LOOPBACK.has(request.socket.remoteAddress ?? '') && !FORWARDED.some((h) => h in request.headers);
}

/**
 * GET /metrics in Prometheus' text format (decision 0066): this process's HTTP latency by route
 * pattern, method and status class, its SSE clients and Node's own metrics; and, read from the
 * database on each scrape (a few indexed statements, never on the request path), the queues'
 * backlog, the webhook intake's lag and the sends under way.
 */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duración de las respuestas HTTP por ruta (su patrón), método y clase de estado',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // in memory, no statement: the request path stays at its one query (test/request-path.test.ts)
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    latency.observe({ method: request.method, route, status_class: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
  });

  new Gauge({
    name: 'mostrador_sse_clients',
    help: 'Navegadores conectados a GET /api/events en este proceso',
    registers: [registry],
    collect() {
      this.set(app.realtime.subscribers);
    },
  });

  /** A gauge of the database's side, set by readDatabase on each scrape. */
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Gauge({ name, help, labelNames, registers: [registry] });
  const queueWaiting = gauge('mostrador_queue_waiting_jobs', 'Trabajos por hacer en cada cola: listos (ready) o programados para después (deferred)', ['queue', 'state'] as const);
  const queueOldest = gauge('mostrador_queue_oldest_job_age_seconds', 'Antigüedad del trabajo listo más antiguo de cada cola (0 si no hay ninguno)', ['queue'] as const);
  const webhookPending = gauge('mostrador_webhook_events', 'Webhooks de proveedores recibidos sin procesar (pending) o en la cola de fallidos (failed)', ['provider', 'status'] as const);
  const webhookLag = gauge('mostrador_webhook_intake_lag_seconds', 'Antigüedad del webhook de proveedor más antiguo aún sin procesar (0 si no hay ninguno)', ['provider'] as const);
  const sendsActive = gauge('mostrador_sends_active', 'Envíos (trozos de campaña, mensajes masivos) en curso por estado: scheduled, pending, processing', ['status'] as const);
  const recipients = gauge('mostrador_send_recipients', 'Destinatarios de los envíos en curso por estado: queued, sending, sent, failed, skipped', ['status'] as const);

  /** The database's side, read at scrape time; each statement follows an index (decision 0066). */
  async function readDatabase() {
    const pool = app.database.pool;
    const [queues, webhooks, sends, sent] = await Promise.all([
      // pg-boss's waiting jobs are its partial index job_i11 (state < active, not blocked)
      pool.query<{ name: string; ready: number; deferred: number; oldest: number }>(
        `select q.name, coalesce(j.ready, 0)::int as ready, coalesce(j.deferred, 0)::int as deferred,
                coalesce(extract(epoch from now() - j.oldest), 0)::float8 as oldest
         from pgboss.queue q
         left join (select name, count(*) filter (where start_after <= now()) as ready, count(*) filter (where start_after > now()) as deferred,
                           min(created_on) filter (where start_after <= now()) as oldest
                    from pgboss.job where state < 'active' and not blocked group by name) j on j.name = q.name`,
      ),
      // both intakes keep an index on status: only their unprocessed and failed rows are read
      pool.query<{ provider: string; status: string; n: number; oldest: number }>(
        `select provider, status, count(*)::int as n, coalesce(extract(epoch from now() - min(received_at)), 0)::float8 as oldest
         from (select provider, status, received_at from webhook_events where status in ('pending', 'failed')
               union all
               select 'woocommerce', status, received_at from woocommerce_webhook_events where status in ('pending', 'failed')) e
         group by provider, status`,
      ),
      // sends_active_idx, then the recipients of those by send_recipients_send_status_idx
      pool.query<{ status: string; n: number }>(`select status, count(*)::int as n from sends where status in ('scheduled', 'pending', 'processing') group by status`),
      pool.query<{ status: string; n: number }>(
        `select r.status, count(*)::int as n from sends s join send_recipients r on r.send_id = s.id
         where s.status in ('scheduled', 'pending', 'processing') group by r.status`,
      ),
    ]);
    queueWaiting.reset();
    queueOldest.reset();
    for (const q of queues.rows) {
      queueWaiting.set({ queue: q.name, state: 'ready' }, q.ready);
      queueWaiting.set({ queue: q.name, state: 'deferred' }, q.deferred);
      queueOldest.set({ queue: q.name }, q.oldest);
    }
    webhookPending.reset();
    webhookLag.reset();
    for (const provider of new Set(['whatsapp', 'messenger', 'woocommerce', ...webhooks.rows.map((w) => w.provider)])) {
      webhookPending.set({ provider, status: 'pending' }, 0);
      webhookPending.set({ provider, status: 'failed' }, 0);
      webhookLag.set({ provider }, 0);
    }
    for (const w of webhooks.rows) {
      webhookPending.set({ provider: w.provider, status: w.status }, w.n);
      if (w.status === 'pending') webhookLag.set({ provider: w.provider }, w.oldest);
    }
    sendsActive.reset();
    for (const status of ['scheduled', 'pending', 'processing']) sendsActive.set({ status }, sends.rows.find((s) => s.status === status)?.n ?? 0);
    recipients.reset();
    for (const status of ['queued', 'sending', 'sent', 'failed', 'skipped']) recipients.set({ status }, sent.rows.find((s) => s.status === status)?.n ?? 0);
  }

  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const token = app.settings.metricsToken;
    if (!mayScrape(request, token)) {
      // a scraper with the wrong token is told so; without a token, a caller from elsewhere gets
      // the answer of a path that does not exist: nothing says there is something here
      if (token) throw new AppError('TOKEN_INVALID', 'Falta el token de /metrics o no es el correcto: envía «Authorization: Bearer» con el valor de METRICS_TOKEN');
      const lang = pickLang(request.headers['accept-language']);
      return reply.status(404).send(errorBody('NOT_FOUND', lang, lang === 'es' ? 'La ruta no existe' : 'No such route'));
    }
    try {
      await readDatabase();
    } catch (error) {
      // the process's own metrics still go out; `up` stays 1 and the database's gauges keep their last values
      request.log.warn({ err: error }, 'métricas de la base de datos no leídas');
    }
    return reply.type(registry.contentType).header('cache-control', 'no-store').send(await registry.metrics());
  });
});
