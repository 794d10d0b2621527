import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envExample, envExampleFile } from '../src/cli/env-example.js';
import { envSchema, repoRoot } from '../src/config.js';
import { createJobQueue } from '../src/jobs/queue.js';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * Running it as production runs Node services (issue 26, decision 0066): readiness beside
 * liveness, Prometheus metrics that only a scraper reads, and a .env.example that is the schema.
 */
let t: TestApp;
let base: string;
let admin: Signed;
const silent = { error: () => {} };

beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  admin = await login(t, demo.admin);
});
afterAll(async () => {
  await t?.close();
});

const ready = () => t.app.inject({ method: 'GET', url: '/api/health/ready' });
const staleWorkers = () => t.sql(`update worker_heartbeats set seen_at = now() - interval '1 hour'`);

describe('GET /api/health/ready', () => {
  it('is ready, without a token, when the database, its migrations, the queue and a worker are', async () => {
    const res = await ready();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', queue: 'ok', worker: 'ok', storage: 'ok' } });
  });

  it('is not ready when no worker has beaten lately, and is again when a separate worker process starts', async () => {
    // the API's own inline worker stalls (or the API runs with WORKERS=off and its workers are down)
    await staleWorkers();
    const down = await ready();
    expect(down.statusCode).toBe(503);
    expect(down.json().checks).toEqual({ database: 'ok', migrations: 'ok', queue: 'ok', worker: 'error', storage: 'ok' });
    expect(down.json().errors.msg).toMatch(/ningún worker procesa trabajos/);
    // what an answer to anyone says: states and a Spanish message, no host, pid or version
    expect(Object.keys(down.json()).sort()).toEqual(['checks', 'errors', 'status']);
    expect(down.body).not.toContain(String(process.pid));

    // `npm run worker` against the same database: its heartbeat makes the API ready
    const worker = createJobQueue(t.database, silent);
    await worker.start({ work: true });
    expect((await ready()).statusCode).toBe(200);
    // a worker that stops cleanly is gone at once
    await worker.stop();
    await staleWorkers();
    expect((await ready()).statusCode).toBe(503);
    await t.sql(`update worker_heartbeats set seen_at = now()`);
    expect((await ready()).statusCode).toBe(200);
  });

  it('is not ready when the database lacks a migration of this build', async () => {
    const [newest] = await t.sql<{ id: number; hash: string; created_at: number }>(
      'select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
    );
    await t.sql('delete from drizzle.__drizzle_migrations where id = $1', [newest.id]);
    try {
      const res = await ready();
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.migrations).toBe('error');
      expect(res.json().errors.msg).toMatch(/no tiene todas las migraciones/);
    } finally {
      await t.sql('insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)', [newest.id, newest.hash, newest.created_at]);
    }
    expect((await ready()).statusCode).toBe(200);
  });
});

/** A scrape from this machine, as a Prometheus beside the server does. */
const scrape = async (headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
};
/** The value of one series in a scrape, `undefined` when it is not there. */
const sample = (body: string, series: string) => {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  it('times requests by route pattern, method and status class: no raw URL, no id', async () => {
    const id = randomUUID();
    const res = await t.app.inject({ method: 'GET', url: `/api/chats/${id}/messages`, headers: as(admin, admin.company('Demo Perú')) });
    expect(res.statusCode).toBe(404);
    await t.app.inject({ method: 'GET', url: `/no-such-${id}.js` });
    const { status, type, body } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(body, 'http_request_duration_seconds_count{method="GET",route="/api/chats/:id/messages",status_class="4xx"}')).toBe(1);
    expect(sample(body, 'http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"}')).toBeGreaterThanOrEqual(1);
    expect(body).not.toContain(id);
    // Node's own metrics come along
    expect(body).toContain('process_cpu_user_seconds_total');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts the browsers connected to GET /api/events', async () => {
    const before = sample((await scrape()).body, 'mostrador_sse_clients');
    const controller = new AbortController();
    const stream = await fetch(`${base}/api/events`, { headers: as(admin, admin.company('Demo Perú')) as Record<string, string>, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(sample((await scrape()).body, 'mostrador_sse_clients')).toBe((before ?? 0) + 1);
    controller.abort();
    await until(async () => sample((await scrape()).body, 'mostrador_sse_clients'), (n) => n === before, 10_000, 'el navegador que se fue');
  });

  it('reads the queues, the webhook intake and the sends under way from the database on each scrape', async () => {
    // a queue nobody works here: one job ready, one for later
    const other = createJobQueue(t.database, silent, { 'ops.metrics-probe': { module: 'test', does: 'nothing' } });
    other.define('ops.metrics-probe', async () => {});
    await other.start({ work: false });
    await other.send('ops.metrics-probe', {});
    await other.send('ops.metrics-probe', {}, { startAfter: 3600 });
    await t.sql(`update pgboss.job set created_on = now() - interval '90 seconds' where name = 'ops.metrics-probe' and start_after <= now()`);
    // a webhook stored two minutes ago and not processed yet
    await t.sql(
      `insert into webhook_events (provider, event_id, type, account_id, payload, received_at) values ('whatsapp', $1, 'message', 'ops-probe', '{}', now() - interval '120 seconds')`,
      [randomUUID()],
    );
    // a massive message scheduled for tomorrow with two people queued
    const company = admin.company('Demo Chile');
    const [send] = await t.sql<{ id: string }>(
      `insert into sends (company_id, kind, name, status, content, scheduled_at) values ($1, 'massive', 'ops', 'scheduled', '{}', now() + interval '1 day') returning id`,
      [company],
    );
    for (const position of [1, 2]) {
      await t.sql(
        `insert into send_recipients (company_id, send_id, dedupe_key, position, clean_lead_id, name, status) values ($1, $2, $2, $3, gen_random_uuid(), 'x', 'queued')`,
        [company, send.id, position],
      );
    }
    const { body } = await scrape();
    await other.stop();
    expect(sample(body, 'mostrador_queue_waiting_jobs{queue="ops.metrics-probe",state="ready"}')).toBe(1);
    expect(sample(body, 'mostrador_queue_waiting_jobs{queue="ops.metrics-probe",state="deferred"}')).toBe(1);
    expect(sample(body, 'mostrador_queue_oldest_job_age_seconds{queue="ops.metrics-probe"}')).toBeGreaterThanOrEqual(90);
    expect(sample(body, 'mostrador_webhook_intake_lag_seconds{provider="whatsapp"}')).toBeGreaterThanOrEqual(120);
    expect(sample(body, 'mostrador_webhook_events{provider="whatsapp",status="pending"}')).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'mostrador_sends_active{status="scheduled"}')).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'mostrador_send_recipients{status="queued"}')).toBeGreaterThanOrEqual(2);
  });

  it('is not for the internet: without METRICS_TOKEN only this machine, unproxied; with it, only its bearer', async () => {
    // from another address, or through a reverse proxy on this machine: as if there were nothing
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' });
    expect(remote.statusCode).toBe(404);
    expect(remote.body).not.toContain('http_request_duration_seconds');
    const proxied = await scrape({ 'x-forwarded-for': '203.0.113.7' });
    expect(proxied.status).toBe(404);

    t.app.settings.metricsToken = 'a-metrics-token-a-metrics-token-0123';
    try {
      const local = await scrape();
      expect(local.status).toBe(401);
      expect(JSON.parse(local.body).errors.msg).toMatch(/METRICS_TOKEN/);
      expect((await scrape({ authorization: 'Bearer a-metrics-token-a-metrics-token-0124' })).status).toBe(401);
      const far = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '203.0.113.7',
        headers: { authorization: 'Bearer a-metrics-token-a-metrics-token-0123', 'x-forwarded-for': '203.0.113.7' },
      });
      expect(far.statusCode).toBe(200);
      expect(far.body).toContain('http_request_duration_seconds');
    } finally {
      t.app.settings.metricsToken = undefined;
    }
  });
});

describe('.env.example and docs/OPERATIONS.md', () => {
  it('.env.example is what `npm run env:example` writes from the config schema', () => {
    const written = readFileSync(envExampleFile, 'utf8');
    expect(written, '.env.example está desactualizado: ejecuta `npm run env:example`').toBe(envExample());
    for (const name of Object.keys(envSchema.shape)) expect(written).toContain(`#${name}=`);
  });

  it('docs/OPERATIONS.md documents every variable of the config schema', () => {
    const operations = readFileSync(path.join(repoRoot, 'docs/OPERATIONS.md'), 'utf8');
    const missing = Object.keys(envSchema.shape).filter((name) => !operations.includes(`| \`${name}\` |`));
    expect(missing, 'variables sin fila en la tabla de docs/OPERATIONS.md').toEqual([]);
  });
});
