import { createHmac } from 'node:crypto';
import { WEBHOOK_PAUSE_AFTER_HOURS, WEBHOOK_RETRY_HOURS, webhookHeaders } from '@mostrador/contract';
import type { Database } from '../../db/database.js';
import { type OutboundResponse, outboundFetch, refusalOf } from '../../integrations/outbound.js';
import type { SecretBox } from '../../lib/secret-box.js';

/**
 * A claim older than the receiver's timeout plus this is taken again: its process died mid-send
 * (a send never outlives its timeout, which bounds the answer's body too). Short, so that after a
 * kill -9 what was in flight goes again within seconds of the restart, not at the minute's sweep.
 */
export const WEBHOOK_LEASE_MARGIN_SECONDS = 5;
/** Claim loops a process runs side by side: one's statements overlap another's sends. */
export const WEBHOOK_CLAIM_LOOPS = 2;
/** What is kept of a receiver's answer per attempt. */
export const EXCERPT_CHARS = 500;

/** The wait before the next try after `attempts` failed ones: 30 s doubling to 6 h, with ±50 % jitter. */
export function retryDelayMs(attempts: number, random = Math.random): number {
  const base = Math.min(6 * 3600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.5 + random()));
}

/** The signature header of a body sent at `t` (unix seconds): Stripe's `t=…,v1=…`. */
export function signatureOf(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

interface Claimed {
  id: string;
  attempts: number;
  event_id: string;
  event_type: string;
  body: string;
  url: string;
  secret_sealed: string;
}

/**
 * The due deliveries, claimed: pending, their time come, their subscription active, and none of
 * an earlier event of the same subscription and aggregate still pending (order per subscription
 * and aggregate: a retried delivery holds the later ones of its aggregate, not the others).
 */
const claimStatement = (leaseSeconds: number) => `with due as (
  select d.id from webhook_deliveries d
   where d.status = 'pending' and d.next_attempt_at <= now()
     and (d.claimed_at is null or d.claimed_at < now() - make_interval(secs => ${leaseSeconds}))
     and exists (select 1 from webhook_subscriptions s where s.id = d.subscription_id and s.status = 'active')
     and not exists (select 1 from webhook_deliveries e where e.subscription_id = d.subscription_id and e.aggregate_key = d.aggregate_key
                        and e.status = 'pending' and e.event_position < d.event_position)
   order by d.event_position
   limit $1
   for update of d skip locked
)
update webhook_deliveries d set claimed_at = now() from due, webhook_subscriptions s
 where d.id = due.id and s.id = d.subscription_id
returning d.id, d.attempts, d.event_id, d.event_type, d.body, s.url, s.secret_sealed`;

/**
 * A round's outcomes, in one statement (a recordset of `{id, ok, status, latency, error, excerpt,
 * wait}`): every attempt logged; each delivery delivered, or due again after its wait, or given up
 * 3 days after its event; each subscription's failing time cleared by a success of the round,
 * started by a round of failures, and past 24 h of failures the subscription paused — with its
 * `webhook_subscription.paused` event written on the spine by the same statement (the notice to
 * its owners follows it, decision 0075): a pause exists exactly when its event does. A pause is
 * told apart from one made before (by a person) by its time: `paused_at` is this statement's now().
 * Answers the events written (the count of the final insert).
 */
/** Why a subscription paused itself (what its screen and its owners' notice say). */
export const AUTO_PAUSE_REASON = 'Se pausó sola: sus entregas fallaron durante 24 horas seguidas. Revisa la dirección y reanúdala.';
const paused = `not per.ok and w.status = 'active' and w.failing_since <= now() - make_interval(hours => ${WEBHOOK_PAUSE_AFTER_HOURS})`;
const outcomeStatement = `with o as (
  select * from jsonb_to_recordset($1::jsonb) as o(id uuid, ok boolean, status int, latency int, error text, excerpt text, wait double precision)
), d as (
  update webhook_deliveries w set
    attempts = w.attempts + 1,
    claimed_at = null,
    status = case when o.ok then 'delivered' when w.created_at <= now() - make_interval(hours => ${WEBHOOK_RETRY_HOURS}) then 'failed' else 'pending' end,
    delivered_at = case when o.ok then now() end,
    next_attempt_at = case when o.ok then w.next_attempt_at else now() + make_interval(secs => o.wait / 1000) end
   from o where w.id = o.id
  returning w.subscription_id, o.ok
), a as (
  insert into webhook_attempts (delivery_id, status, latency_ms, error, excerpt)
  select o.id, o.status, o.latency, o.error, o.excerpt from o join webhook_deliveries x on x.id = o.id
), per as (
  select subscription_id, bool_or(ok) as ok from d group by subscription_id
), s as (
  update webhook_subscriptions w set
    failing_since = case when per.ok then null else coalesce(w.failing_since, now()) end,
    status = case when ${paused} then 'paused' else w.status end,
    paused_at = case when ${paused} then now() else w.paused_at end,
    paused_reason = case when ${paused} then '${AUTO_PAUSE_REASON}' else w.paused_reason end
    from per
   where w.id = per.subscription_id and (not per.ok or w.failing_since is not null)
  returning w.id, w.company_id, w.url, w.paused_reason, w.status = 'paused' and w.paused_at = now() as paused_now
)
insert into domain_events (company_id, type, version, aggregate_type, aggregate_id, actor, payload)
select s.company_id, 'webhook_subscription.paused', 1, 'webhook_subscription', s.id::text, '{"type":"system"}'::jsonb,
       jsonb_build_object('subscriptionId', s.id::text, 'url', s.url, 'reason', s.paused_reason)
  from s where s.paused_now`;

/** The start of an answer, read no further than needed (a receiver's 100 MB page is not downloaded). */
async function excerptOf(res: OutboundResponse): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_CHARS * 4) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replaceAll(String.fromCharCode(0), '')
    .slice(0, EXCERPT_CHARS);
}

/** Why there was no answer, in Spanish, without the remote's words. */
function noAnswer(error: unknown, timeoutSeconds: number): string {
  const refusal = refusalOf(error);
  if (refusal) return refusal.msg;
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `Sin respuesta en ${timeoutSeconds} s`;
  const code = (error as { cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  if (code === 'ECONNREFUSED') return 'La dirección rechazó la conexión';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'No se encontró el servidor de la dirección';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'La conexión se cortó antes de la respuesta';
  return 'No hubo respuesta de la dirección';
}

export interface DelivererOptions {
  database: Pick<Database, 'pool'>;
  secrets: Pick<SecretBox, 'open'>;
  timeoutSeconds: number;
  lanes: number;
  log: { warn(obj: object, msg: string): void };
  /** A round paused a subscription: its event is on the spine (app.ts wakes the spine). */
  onPaused?: () => void;
}

/**
 * Sends the due deliveries (decision 0073): woken in process by the spine's fan-out and by the
 * minute's job, it claims up to `lanes` at a time, sends them side by side through the outbound
 * client (private and loopback targets refused unless OUTBOUND_ALLOW_PRIVATE_URLS=1), signs each
 * with its subscription's secret and records every attempt. A wake while it runs makes it look
 * again when it ends; when the next retry is due within a minute, it sets a timer for it.
 */
export function createDeliverer({ database, secrets, timeoutSeconds, lanes, log, onPaused }: DelivererOptions) {
  const send = outboundFetch();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  interface Outcome {
    id: string;
    ok: boolean;
    status: number | null;
    latency: number;
    error: string | null;
    excerpt: string | null;
    wait: number;
  }

  async function deliver(row: Claimed): Promise<Outcome> {
    const t = Math.floor(Date.now() / 1000);
    let ok = false;
    let status: number | null = null;
    let error: string | null = null;
    let excerpt: string | null = null;
    const started = performance.now();
    try {
      const secret = secrets.open<string>(row.secret_sealed);
      const res = await send(row.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Mostrador-Webhooks/1.0',
          [webhookHeaders.eventId]: row.event_id,
          [webhookHeaders.eventType]: row.event_type,
          [webhookHeaders.signature]: signatureOf(secret, t, row.body),
        },
        body: row.body,
        signal: AbortSignal.timeout(timeoutSeconds * 1000),
      });
      status = res.status;
      excerpt = await excerptOf(res).catch(() => null);
      ok = res.status >= 200 && res.status < 300;
      if (!ok) error = `La dirección respondió HTTP ${res.status}`;
    } catch (e) {
      error = noAnswer(e, timeoutSeconds);
    }
    return { id: row.id, ok, status, latency: Math.round(performance.now() - started), error, excerpt, wait: ok ? 0 : retryDelayMs(row.attempts + 1) };
  }

  const claim = claimStatement(timeoutSeconds + WEBHOOK_LEASE_MARGIN_SECONDS);
  const perLoop = Math.max(1, Math.ceil(lanes / WEBHOOK_CLAIM_LOOPS));

  /** Claims and sends until nothing is due: WEBHOOK_CLAIM_LOOPS of these run side by side. */
  async function drain(): Promise<void> {
    for (;;) {
      if (stopped) return;
      const { rows } = await database.pool.query<Claimed>(claim, [perLoop]);
      if (!rows.length) return;
      const outcomes = await Promise.all(rows.map(deliver));
      // rows answered: the subscriptions this round paused (their event is in the outbox)
      const { rowCount } = await database.pool.query(outcomeStatement, [JSON.stringify(outcomes)]);
      if (rowCount) onPaused?.();
    }
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      await Promise.all(Array.from({ length: WEBHOOK_CLAIM_LOOPS }, drain));
    } while (again && !stopped);
    // the next retry, or the end of a dead process's claim, if it comes before the minute's sweep
    const { rows } = await database.pool.query<{ wait: number | null }>(
      `select extract(epoch from least(
         (select min(next_attempt_at) from webhook_deliveries where status = 'pending' and next_attempt_at > now() and claimed_at is null),
         (select min(claimed_at) + make_interval(secs => $1) from webhook_deliveries where status = 'pending' and claimed_at is not null)
       ) - now()) * 1000 as wait`,
      [timeoutSeconds + WEBHOOK_LEASE_MARGIN_SECONDS + 0.5],
    );
    const wait = rows[0]?.wait === null || rows[0]?.wait === undefined ? null : Number(rows[0].wait);
    if (wait !== null && wait < 60_000 && !stopped) {
      clearTimeout(timer);
      timer = setTimeout(() => void wake(), Math.max(50, wait));
      timer.unref();
    }
  }

  /** Sends what is due now; resolves when the round (and any round a wake asked for) ends. */
  function wake(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = loop()
      .catch((e: unknown) => log.warn({ err: e }, 'webhooks: la ronda de entregas falló'))
      .finally(() => {
        running = null;
        // a wake that came after the round's last look (while it set its timer) is not lost
        if (again && !stopped) void wake();
      });
    return running;
  }

  return {
    wake,
    /** Stops waking (the app closes); the round in flight ends by itself. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
export type Deliverer = ReturnType<typeof createDeliverer>;
