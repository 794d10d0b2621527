import { randomUUID } from 'node:crypto';
import { type ChannelKind, chatStateReasons, type Platform, type SendStatus, sendingMessages } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { type Db, rowsOf } from '../../db/database.js';
import { createGraphClient, type MessageClient } from '../../integrations/meta/send.js';
import { createSandboxClient } from '../../integrations/sandbox/send.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { SANDBOX_STATUS_QUEUE, type SandboxStatusJob } from '../chats/service.js';
import { providerLinks } from '../drive/provider-links.js';
import { storageOf } from '../drive/storage-of.js';
import { classify, type Outcome, Pacer, sleep } from './pacing.js';
import { contentOf, payloadOf, planChunk, type RecipientValues, textOf } from './planning.js';
import { SEND_QUEUE } from '../../jobs/sending-queues.js';
import { publishSends, type SendRow } from './read-model.js';

/** A runner hands over to a fresh job after this long (a job stays short; the lease carries on). */
const RUN_MS = 60_000;
/**
 * How long a runner's lease lasts unless renewed (renewed every batch). The lease is about the
 * line's pace, not correctness (rows are claimed one way only), so it can be short: a runner
 * killed mid-send is replaced within seconds.
 */
const LEASE_MS = 5_000;
/** Each batch is about this much of the line's throughput (its database work is a small share of it). */
const BATCH_SECONDS = 2;
/** While a batch is sent, its send's stop flag is read this often: a stop is seen within it, well within 2 s. */
const STOP_POLL_MS = 250;
const MAX_BATCH = 500;
/** Provider calls in flight at once. */
const MAX_IN_FLIGHT = 64;
/** A claimed row whose runner died is reconciled after this long (time for the provider's status webhook to arrive). */
export const RECONCILE_AFTER_MS = 60_000;
/** Attempts before a recipient that keeps being interrupted or throttled is failed. */
const MAX_ATTEMPTS = 8;

type Row = Record<string, unknown>;
type Line = { accountId: string; accessToken?: string } | { error: string };
const channelKindOf = (platform: Platform): ChannelKind => (platform === 'facebook' ? 'messenger' : (platform as ChannelKind));

interface Claimed extends Row {
  id: string;
  send_id: string;
  chat_id: string;
  platform: Platform;
  phone: string;
  values: RecipientValues | null;
  attempts: number;
}

/** SENDING_TRACE=1: each batch's phases on stderr (the fault benchmark's diagnosis). */
const trace = process.env.SENDING_TRACE ? (line: string) => process.stderr.write(`[envío] ${line}\n`) : undefined;

/** A send that just got its final status (finalize). A campaign's (campaign_id set) is one of its chunks. */
export interface FinishedSend extends Row {
  id: string;
  kind: 'campaign' | 'massive';
  campaign_id: string | null;
  chunk_page: number | null;
  status: Extract<SendStatus, 'sent' | 'error' | 'sent_with_some_errors'>;
  log_id: string | null;
}

export interface RunnerDeps {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  realtime: Pick<Realtime, 'publish'>;
  jobs: Pick<JobQueue, 'send'>;
  config: Pick<Config, 'sendProvider' | 'graphApiUrl' | 'sandboxStatusSeconds' | 'whatsappThroughput'> & Partial<Pick<Config, 'storage' | 'dataDir' | 'publicUrl'>>;
  log: { warn: (obj: unknown, msg?: string) => void; error: (obj: unknown, msg?: string) => void; info?: (obj: unknown, msg?: string) => void };
  client?: MessageClient;
  /** Tests: a shorter reconcile wait. */
  reconcileAfterMs?: number;
}

/** The provider client a process sends through: Meta's Graph API, or the sandbox line. */
export function messageClientOf(config: Pick<Config, 'sendProvider' | 'graphApiUrl' | 'sandboxStatusSeconds'>): MessageClient {
  return config.sendProvider === 'graph' ? createGraphClient(config.graphApiUrl) : createSandboxClient(config.sandboxStatusSeconds);
}

/**
 * The sending runner (issue 13, decision 0041). Recipients are written once (planning.ts), then a
 * company's runner — one at a time per company, by lease — claims them in batches
 * (queued → sending, the chat message written pending in the same transaction), calls the
 * provider at the line's pace with the outbox id as `biz_opaque_callback_data`, and settles
 * each (sent with the provider's id, failed with its reason, or queued again after a
 * throttle). A runner that dies leaves rows `sending`: the next one settles them from what the
 * provider reported (the status webhook found the message by its callback data) or queues them
 * again, so nothing claimed is lost and nothing the provider accepted goes twice.
 */
export function createSendingRunner(deps: RunnerDeps) {
  const { db, secrets, realtime, jobs, config, log } = deps;
  const client: MessageClient = deps.client ?? messageClientOf(config);
  const reconcileAfter = deps.reconcileAfterMs ?? RECONCILE_AFTER_MS;
  // with Drive on S3 a template's media header goes as a signed link of the bucket (decision 0105)
  const links =
    config.storage?.kind === 's3' && config.publicUrl ? providerLinks(db, storageOf(config as Pick<Config, 'storage' | 'dataDir'>, log), config.publicUrl, log) : undefined;
  // progress goes to the company's browsers after each step (send.progress)
  const publish = (companyId: string, ids: string[]) => publishSends({ db, realtime, log }, companyId, ids);

  async function takeLease(companyId: string, holder: string): Promise<boolean> {
    const rows = await rowsOf(
      db,
      sql`insert into sending_leases (company_id, holder, until) values (${companyId}, ${holder}, now() + make_interval(secs => ${LEASE_MS / 1000}))
          on conflict (company_id) do update set holder = excluded.holder, until = excluded.until
          where sending_leases.until < now() or sending_leases.holder = excluded.holder
          returning company_id`,
    );
    return rows.length > 0;
  }
  const releaseLease = (companyId: string, holder: string) => db.execute(sql`delete from sending_leases where company_id = ${companyId} and holder = ${holder}`);

  /**
   * Rows a dead runner left `sending`: sent if the provider reported them, else queued again
   * (failed after too many tries). Nothing is queued again while the line's status webhooks
   * received so far are still waiting to be processed: one of them may be this row's.
   */
  async function reconcile(companyId: string): Promise<string[]> {
    const [{ backlog }] = await rowsOf<{ backlog: boolean }>(
      db,
      sql`select exists (select 1 from webhook_events e join channels c on c.kind = 'whatsapp' and c.provider_id = e.account_id and c.company_id = ${companyId}
            where e.status = 'pending' and e.provider = 'whatsapp' and e.type = 'status') as backlog`,
    );
    const rows = await rowsOf<{ send_id: string }>(
      db,
      sql`update send_recipients r set
            status = case when m.provider_message_id is not null then 'sent' when m.status = 'failed' then 'failed' when r.attempts >= ${MAX_ATTEMPTS} then 'failed' else 'queued' end,
            reason = case when m.provider_message_id is not null then null when m.status = 'failed' then m.status_error when r.attempts >= ${MAX_ATTEMPTS} then ${sendingMessages.interrupted} else r.reason end,
            settled_at = case when m.provider_message_id is not null or m.status = 'failed' or r.attempts >= ${MAX_ATTEMPTS} then now() else null end,
            updated_at = now()
          from chat_messages m
          where r.company_id = ${companyId} and r.status = 'sending' and r.claimed_at < now() - make_interval(secs => ${reconcileAfter / 1000})
            and m.company_id = r.company_id and m.id = r.id
            and (m.provider_message_id is not null or m.status = 'failed' or not ${backlog})
          returning r.send_id`,
    );
    return [...new Set(rows.map((r) => r.send_id))];
  }

  /** The company's channels (WhatsApp line, Messenger and Instagram pages), each with its token opened or why it cannot send. */
  async function channelsOf(companyId: string): Promise<Map<ChannelKind, Line>> {
    const rows = await rowsOf<{ kind: ChannelKind; provider_id: string; page_id: string | null; access_token: string | null }>(
      db,
      sql`select kind, provider_id, page_id, access_token from channels where company_id = ${companyId}`,
    );
    const map = new Map<ChannelKind, Line>();
    for (const c of rows) {
      const accountId = c.kind === 'instagram' ? (c.page_id ?? c.provider_id) : c.provider_id;
      if (!c.access_token) {
        map.set(c.kind, client.name === 'graph' ? { error: chatStateReasons.noToken(c.kind) } : { accountId });
        continue;
      }
      try {
        map.set(c.kind, { accountId, accessToken: secrets.open<string>(c.access_token) });
      } catch {
        map.set(c.kind, { error: chatStateReasons.badToken(c.kind) });
      }
    }
    return map;
  }

  /** Sends that may start now: planned if needed, moved to processing (or error when the line is missing). */
  async function startPending(companyId: string): Promise<string[]> {
    const pending = await rowsOf<SendRow>(db, sql`select * from sends where company_id = ${companyId} and status = 'pending' and not stop_requested order by created_at`);
    const touched: string[] = [];
    for (const send of pending) {
      if (!send.planned && (send.kind === 'campaign' || send.content.audience)) await planChunk(db, send);
      await db.execute(sql`update sends set status = 'processing', started_at = coalesce(started_at, now()), updated_at = now() where id = ${send.id} and status = 'pending'`);
      touched.push(send.id);
    }
    return touched;
  }

  /** Stops asked for: the send becomes stopped between two batches; its queued rows wait for a resume. */
  async function applyStops(companyId: string): Promise<string[]> {
    const rows = await rowsOf<{ id: string }>(
      db,
      sql`update sends set status = 'stopped', stop_requested = false, updated_at = now()
          where company_id = ${companyId} and stop_requested and status in ('pending', 'processing') returning id`,
    );
    return rows.map((r) => r.id);
  }

  /** Sends with nothing left to send get their final status (and their campaign its own). */
  async function finalize(companyId: string): Promise<string[]> {
    const done = await db.transaction(async (tx) => {
      const finished = await rowsOf<FinishedSend>(
        tx,
        sql`update sends s set finished_at = now(), updated_at = now(),
              status = case when c.sent = 0 and c.failed = 0 then 'error'
                            when c.failed = 0 then 'sent' when c.sent = 0 then 'error' else 'sent_with_some_errors' end,
              error = case when c.sent = 0 and c.failed = 0 then ${'Nadie de este bloque pasó la revisión previa: revisa los omitidos'} else s.error end
            from (select s2.id,
                         count(*) filter (where r.status = 'sent')::int as sent,
                         count(*) filter (where r.status = 'failed')::int as failed,
                         count(*) filter (where r.status in ('queued', 'sending'))::int as open
                    from sends s2 left join send_recipients r on r.send_id = s2.id
                   where s2.company_id = ${companyId} and s2.status = 'processing' and not s2.stop_requested
                   group by s2.id) c
            where s.id = c.id and c.open = 0
            returning s.id, s.kind, s.campaign_id, s.chunk_page, s.status, s.content->>'logId' as log_id`,
      );
      // their send.finished / campaign.chunk_finished events are written by this very update (the
      // emitter of `sends`, migration 0051), in this transaction: decision 0068
      return finished;
    });
    // a massive message's history row gets its final counts
    for (const d of done) {
      if (!d.log_id) continue;
      await db.execute(sql`update massive_messages_logs l set sent = x.sent, failed = x.failed, updated_at = now(),
          status = case when x.failed = 0 then 'sent' when x.sent = 0 then 'error' else 'sent_with_some_errors' end
        from (select count(*) filter (where r.status = 'sent' and m.status is distinct from 'failed')::int as sent,
                     count(*) filter (where r.status = 'failed' or (r.status = 'sent' and m.status = 'failed'))::int as failed
                from send_recipients r left join chat_messages m on m.company_id = r.company_id and m.id = r.id where r.send_id = ${d.id}) x
        where l.company_id = ${companyId} and l.id = ${d.log_id}`);
    }
    for (const campaignId of new Set(done.map((d) => d.campaign_id).filter(Boolean))) await refreshCampaign(db, companyId, campaignId as string);
    return done.map((d) => d.id);
  }

  /** Claims a batch of the oldest processing send's queued rows and writes their chat messages, pending. */
  async function claim(companyId: string, limit: number): Promise<{ send?: SendRow; rows: Claimed[]; nextAt?: number }> {
    const active = await rowsOf<SendRow>(db, sql`select * from sends where company_id = ${companyId} and status = 'processing' and not stop_requested order by created_at, id`);
    let nextAt: number | undefined;
    for (const send of active) {
      const rows = await db.transaction(async (tx) => {
        const claimed = await rowsOf<Claimed>(
          tx,
          sql`update send_recipients r set status = 'sending', claimed_at = now(), attempts = r.attempts + 1, updated_at = now()
              from (select id from send_recipients where send_id = ${send.id} and status = 'queued' and (not_before is null or not_before <= now())
                     order by position limit ${limit} for update of send_recipients skip locked) p, chats c
              where r.id = p.id and c.company_id = r.company_id and c.id = r.chat_id
              returning r.id, r.send_id, r.chat_id, c.platform, r.phone, r.values, r.attempts`,
        );
        if (!claimed.length) return claimed;
        const messages = claimed.map((c) => ({ id: c.id, chat_id: c.chat_id, text: textOf(send.content, c.values), content: contentOf(send.content, c.values) }));
        await tx.execute(sql`insert into chat_messages (id, company_id, chat_id, direction, kind, text, content, status, sent_by, sent_at)
          select x.id, ${companyId}, x.chat_id, 'out', 'text', x.text, x.content, 'pending', ${send.created_by}, now()
            from jsonb_to_recordset(${JSON.stringify(messages)}::jsonb) as x(id uuid, chat_id uuid, text text, content jsonb)
          on conflict (id) do nothing`);
        await tx.execute(sql`update chats c set last_message_preview = left(x.text, 300), last_message_at = to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), updated_at = now()
          from (select distinct on (chat_id) chat_id, text from jsonb_to_recordset(${JSON.stringify(messages)}::jsonb) as y(chat_id uuid, text text)) x
          where c.company_id = ${companyId} and c.id = x.chat_id`);
        return claimed;
      });
      if (rows.length) return { send, rows };
      const [next] = await rowsOf<{ at: Date | string | null }>(db, sql`select min(not_before) as at from send_recipients where send_id = ${send.id} and status = 'queued'`);
      if (next?.at) nextAt = Math.min(nextAt ?? Infinity, new Date(next.at).getTime());
    }
    return { rows: [], nextAt };
  }

  /** Calls the provider for each claimed row at the line's pace, MAX_IN_FLIGHT at a time. */
  async function dispatch(send: SendRow, rows: Claimed[], channels: Map<ChannelKind, Line>, pacer: Pacer): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    const inFlight = new Set<Promise<void>>();
    let stop = false;
    const poll = setInterval(() => {
      void rowsOf<{ stop_requested: boolean }>(db, sql`select stop_requested from sends where id = ${send.id}`)
        .then(([r]) => {
          if (r?.stop_requested) stop = true;
        })
        .catch(() => undefined);
    }, STOP_POLL_MS);
    try {
      for (const row of rows) {
        if (!stop) await pacer.take();
        if (stop) {
          outcomes.push({ id: row.id, kind: 'release' });
          continue;
        }
        const kind = channelKindOf(row.platform);
        const line = channels.get(kind) ?? { error: chatStateReasons.notConnected(kind) };
        // the channel went away (or its token cannot be read) since the send was asked: said on the person, not sent
        if ('error' in line) outcomes.push({ id: row.id, kind: 'failed', reason: line.error });
        else dispatchOne(row, kind, line);
        if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
    } finally {
      clearInterval(poll);
    }
    return outcomes;

    function dispatchOne(row: Claimed, channel: ChannelKind, line: { accountId: string; accessToken?: string }) {
      const p = (async () => {
        try {
          const payload = payloadOf(send.content, row.values);
          const template = links ? await links.template(send.company_id, payload) : payload;
          const result = await client.send(
            { channel, accountId: line.accountId, accessToken: line.accessToken, to: row.phone },
            { kind: 'text', text: template ? undefined : textOf(send.content, row.values), template, callbackData: row.id },
          );
          outcomes.push({ id: row.id, kind: 'sent', providerId: result.messageId, followUps: result.followUps });
        } catch (error) {
          const outcome = classify(row.id, error, row.attempts);
          if (outcome.kind === 'retry' && outcome.throttled) pacer.throttled();
          outcomes.push(outcome);
        }
      })();
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
  }

  /** Records each outcome on the outbox row and its chat message, in one transaction. */
  async function settle(companyId: string, outcomes: Outcome[]): Promise<void> {
    const sent = outcomes.filter((o) => o.kind === 'sent');
    const failed = outcomes.filter((o) => o.kind === 'failed');
    const retry = outcomes.filter((o) => o.kind === 'retry');
    const released = outcomes.filter((o) => o.kind === 'release').map((o) => o.id);
    await db.transaction(async (tx) => {
      if (released.length) {
        // never sent: back in the queue as they were, their pending chat messages gone until they go
        const ids = sql.join(released.map((id) => sql`${id}`), sql`, `);
        await tx.execute(sql`update send_recipients set status = 'queued', attempts = greatest(attempts - 1, 0), claimed_at = null, updated_at = now() where id in (${ids}) and status = 'sending'`);
        await tx.execute(sql`delete from chat_messages where company_id = ${companyId} and id in (${ids}) and provider_message_id is null and status = 'pending'`);
      }
      if (sent.length) {
        const data = JSON.stringify(sent.map((o) => ({ id: o.id, provider_id: o.providerId })));
        await tx.execute(sql`update send_recipients r set status = 'sent', reason = null, settled_at = now(), updated_at = now()
          from jsonb_to_recordset(${data}::jsonb) as x(id uuid, provider_id text) where r.id = x.id and r.status = 'sending'`);
        await tx.execute(sql`update chat_messages m set provider_message_id = x.provider_id,
            status = case when m.status = 'pending' then 'sent' else m.status end, updated_at = now()
          from jsonb_to_recordset(${data}::jsonb) as x(id uuid, provider_id text) where m.company_id = ${companyId} and m.id = x.id`);
      }
      if (failed.length) {
        const data = JSON.stringify(failed.map((o) => ({ id: o.id, reason: o.reason.slice(0, 2000) })));
        await tx.execute(sql`update send_recipients r set status = 'failed', reason = x.reason, settled_at = now(), updated_at = now()
          from jsonb_to_recordset(${data}::jsonb) as x(id uuid, reason text) where r.id = x.id and r.status = 'sending'`);
        await tx.execute(sql`update chat_messages m set status = 'failed', status_error = x.reason, updated_at = now()
          from jsonb_to_recordset(${data}::jsonb) as x(id uuid, reason text) where m.company_id = ${companyId} and m.id = x.id`);
      }
      if (retry.length) {
        const data = JSON.stringify(retry.map((o) => ({ id: o.id, ms: o.afterMs, reason: o.reason.slice(0, 2000) })));
        await tx.execute(sql`update send_recipients r set
            status = case when r.attempts >= ${MAX_ATTEMPTS} then 'failed' else 'queued' end,
            reason = x.reason, not_before = now() + make_interval(secs => x.ms / 1000.0),
            settled_at = case when r.attempts >= ${MAX_ATTEMPTS} then now() end, updated_at = now()
          from jsonb_to_recordset(${data}::jsonb) as x(id uuid, ms int, reason text) where r.id = x.id and r.status = 'sending'`);
        await tx.execute(sql`update chat_messages m set status = 'failed', status_error = x.reason, updated_at = now()
          from jsonb_to_recordset(${data}::jsonb) as x(id uuid, reason text), send_recipients r
          where m.company_id = ${companyId} and m.id = x.id and r.id = x.id and r.status = 'failed'`);
      }
      // 'unknown' (no answer): left sending, reconciled after RECONCILE_AFTER_MS from the provider's status webhook
    });
    // the sandbox reports delivered and read later, as a phone would (one job per status, not per message)
    for (const o of sent) {
      for (const follow of o.followUps ?? []) {
        const job: SandboxStatusJob = { companyId, providerMessageId: o.providerId, status: follow.status, error: follow.error };
        await jobs.send(SANDBOX_STATUS_QUEUE, job, { startAfter: follow.afterSeconds }).catch(() => undefined);
      }
    }
  }

  /**
   * The company's runner (the `sending.run` job). Returns when nothing is left to send now, or
   * after RUN_MS (then it queues its own continuation). Another runner holding the lease: nothing.
   */
  async function run(companyId: string, options: { maxMs?: number } = {}): Promise<void> {
    const holder = randomUUID();
    if (!(await takeLease(companyId, holder))) {
      // another runner has it, or had it and died: look again when its lease would have run out
      await jobs.send(SEND_QUEUE, { companyId }, { startAfter: Math.ceil(LEASE_MS / 1000) + 1, singletonKey: `waiting:${companyId}` }).catch(() => undefined);
      return;
    }
    const started = Date.now();
    const pacer = new Pacer(config.whatsappThroughput);
    const batchSize = Math.max(1, Math.min(MAX_BATCH, Math.round(config.whatsappThroughput * BATCH_SECONDS)));
    let more = false;
    try {
      await publish(companyId, await reconcile(companyId));
      for (;;) {
        if (Date.now() - started > (options.maxMs ?? RUN_MS)) {
          more = true;
          break;
        }
        if (!(await takeLease(companyId, holder))) return; // lost it (a long pause): the other runner goes on
        const t0 = performance.now();
        const changed = [...(await startPending(companyId)), ...(await applyStops(companyId))];
        if (changed.length) await publish(companyId, changed);
        const { send, rows, nextAt } = await claim(companyId, batchSize);
        if (!send) {
          // a stop asked between this iteration's applyStops and its claim left its send unclaimable: applied now, not at the next sweep
          const finished = [...(await applyStops(companyId)), ...(await finalize(companyId))];
          await publish(companyId, finished);
          if (nextAt === undefined) {
            // rows another (dead) runner left claimed: come back when they can be reconciled
            const [left] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from send_recipients r join sends s on s.id = r.send_id
              where s.company_id = ${companyId} and s.status = 'processing' and r.status = 'sending'`);
            if (Number(left?.n ?? 0) > 0) {
              await sleep(1000);
              await publish(companyId, await reconcile(companyId));
              continue;
            }
            return;
          }
          await sleep(Math.min(1000, Math.max(20, nextAt - Date.now())));
          continue;
        }
        const channels = await channelsOf(companyId);
        const t1 = performance.now();
        const outcomes = await dispatch(send, rows, channels, pacer);
        const t2 = performance.now();
        await settle(companyId, outcomes);
        const t3 = performance.now();
        await publish(companyId, [send.id]);
        if (trace) trace(`lote ${rows.length}: reclamar ${(t1 - t0).toFixed(0)} ms, enviar ${(t2 - t1).toFixed(0)} ms, asentar ${(t3 - t2).toFixed(0)} ms, publicar ${(performance.now() - t3).toFixed(0)} ms`);
      }
    } finally {
      await releaseLease(companyId, holder).catch(() => undefined);
    }
    if (more) await jobs.send(SEND_QUEUE, { companyId }).catch((error: unknown) => log.error({ err: error }, 'no se pudo continuar el envío'));
  }

  /** The `sending.sweep` job: scheduled chunks whose time came become pending; companies with work and no runner get one. */
  async function sweep(): Promise<void> {
    await db.execute(sql`update sends set status = 'pending', updated_at = now() where status = 'scheduled' and scheduled_at <= now() and not stop_requested`);
    const companies = await rowsOf<{ company_id: string }>(
      db,
      sql`select distinct s.company_id from sends s left join sending_leases l on l.company_id = s.company_id
          where s.status in ('pending', 'processing') and (l.until is null or l.until < now())`,
    );
    for (const c of companies) await jobs.send(SEND_QUEUE, { companyId: c.company_id }).catch(() => undefined);
  }

  return { client, run, sweep };
}
export type SendingRunner = ReturnType<typeof createSendingRunner>;

/**
 * A campaign's status from its chunks (decision 0041): processing while a chunk is pending or
 * sending; pending before any chunk ran; else sent, error or sent_with_some_errors by the
 * recipients of its finished chunks.
 */
export async function refreshCampaign(db: Pick<Db, 'execute'>, companyId: string, campaignId: string): Promise<void> {
  await db.execute(sql`update marketing_campaigns mc set status = x.status, updated_at = now()
    from (select case
            when bool_or(s.status in ('pending', 'processing')) then 'processing'
            when count(r.id) filter (where r.status in ('sent', 'failed')) = 0 then case when bool_or(s.status in ('sent', 'error', 'sent_with_some_errors')) then 'error' else 'pending' end
            when count(r.id) filter (where r.status = 'failed' or m.status = 'failed') = 0 then 'sent'
            when count(r.id) filter (where r.status = 'sent' and m.status is distinct from 'failed') = 0 then 'error'
            else 'sent_with_some_errors' end as status
          from sends s left join send_recipients r on r.send_id = s.id
          left join chat_messages m on r.status = 'sent' and m.company_id = r.company_id and m.id = r.id
          where s.company_id = ${companyId} and s.campaign_id = ${campaignId}) x
    where mc.company_id = ${companyId} and mc.id = ${campaignId} and x.status is not null and mc.status is distinct from x.status`);
}
