import { randomUUID } from 'node:crypto';
import {
  type ChannelKind,
  chatStateReasons,
  type Platform,
  type SendCounts,
  type SendOut,
  type SendStatus,
  sendingMessages,
  WHATSAPP_WINDOW_HOURS,
  type WhatsappTemplate,
  renderTemplate,
  templateLeadFields,
  templateVariables,
  variableCount,
  MAX_MASS_AUDIENCE,
  renderImagina,
  isoCountryOfPhone,
  isPhoneNumber,
  type SegmentFilters,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { type Db, rowsOf } from '../../db/database.js';
import { createGraphClient, type MessageClient, ProviderError, type TemplatePayload } from '../../integrations/meta/send.js';
import { createSandboxClient } from '../../integrations/sandbox/send.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { publishChatEffect } from '../chats/events.js';
import { SANDBOX_STATUS_QUEUE, type SandboxStatusJob } from '../chats/service.js';
import { segmentCondition } from '../leads/labels-massive.js';
import { timezoneOf } from '../leads/summary.js';
import { toTemplatePayload } from '../../integrations/meta/template-mapping.js';

import { SEND_QUEUE, SEND_SWEEP_QUEUE } from '../../jobs/sending-queues.js';

export { SEND_QUEUE, SEND_SWEEP_QUEUE };

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
/** WhatsApp's pair rate limit: about one message every 6 s to the same person (131056). */
const PAIR_WAIT_MS = 6_000;
/** Rows planned per statement. */
const PLAN_PAGE = 2_000;

type Row = Record<string, unknown>;
type Line = { accountId: string; accessToken?: string } | { error: string };
const channelKindOf = (platform: Platform): ChannelKind => (platform === 'facebook' ? 'messenger' : (platform as ChannelKind));

/** What a send carries: a template snapshot with the lead fields of its variables, or a text. */
export interface SendContent {
  template?: Pick<WhatsappTemplate, '_id' | 'name' | 'language' | 'category' | 'header' | 'body' | 'footer' | 'buttons' | 'variableFields'>;
  /**
   * Free text (only inside the person's 24-hour window). With a template too (an Imagina
   * template that names one, decision 0043): the text inside the window, the template outside.
   * `{{nombre}}`-style variables (imaginaVariables) are filled per person.
   */
  text?: string;
  /** A massive message: its row of massive-messages-logs, whose counts the send keeps. */
  logId?: string;
  /** A massive send to an audience (POST /sends): who, planned when it starts. */
  audience?: { segmentId?: string; filters?: SegmentFilters; cleanLeadIds?: string[] };
  /** The Imagina template it came from. */
  imaginaTemplateId?: string;
}

/** A person's message: the template's values, or (`text`) the free text written for them. */
export type RecipientValues = { body: string[]; header?: string; text?: string };

interface SendRow extends Row {
  id: string;
  company_id: string;
  kind: 'campaign' | 'massive';
  campaign_id: string | null;
  chunk_page: number | null;
  chunk_size: number | null;
  segment_id: string | null;
  name: string;
  status: SendStatus;
  content: SendContent;
  planned: boolean;
  stop_requested: boolean;
  error: string | null;
  scheduled_at: Date | string | null;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  created_by: string | null;
  created_at: Date | string;
}

interface Claimed extends Row {
  id: string;
  send_id: string;
  chat_id: string;
  platform: Platform;
  phone: string;
  values: RecipientValues | null;
  attempts: number;
}

type Outcome =
  | { id: string; kind: 'sent'; providerId: string; followUps?: Awaited<ReturnType<MessageClient['send']>>['followUps'] }
  | { id: string; kind: 'failed'; reason: string }
  | { id: string; kind: 'retry'; afterMs: number; reason: string; throttled: boolean }
  | { id: string; kind: 'unknown'; reason: string }
  /** Claimed but not sent: a stop came first. */
  | { id: string; kind: 'release' };

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : undefined);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** SENDING_TRACE=1: each batch's phases on stderr (the fault benchmark's diagnosis). */
const trace = process.env.SENDING_TRACE ? (line: string) => process.stderr.write(`[envío] ${line}\n`) : undefined;

/**
 * The line's pace: a token bucket of `rate` messages per second. Throttling from the provider
 * halves the rate for a while; it climbs back by a tenth per calm second.
 */
export class Pacer {
  private tokens: number;
  private last = Date.now();
  rate: number;
  constructor(readonly max: number) {
    this.rate = max;
    this.tokens = Math.min(max, 1);
  }
  private lastThrottle = 0;
  private refill() {
    const now = Date.now();
    // a small burst only (a tenth of a second: what a batch's own database work leaves unsent)
    this.tokens = Math.min(Math.max(1, this.rate / 10), this.tokens + ((now - this.last) / 1000) * this.rate);
    if (this.rate < this.max) this.rate = Math.min(this.max, this.rate * (1 + (now - this.last) / 10_000));
    this.last = now;
  }
  async take(): Promise<void> {
    for (;;) {
      this.refill();
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(Math.max(1, Math.ceil(((1 - this.tokens) / this.rate) * 1000)));
    }
  }
  /**
   * The provider said too fast: a fifth slower, once per second at most, never below a quarter
   * of the line's (at the line's own pace a refusal is a second's boundary, not a wrong pace).
   */
  throttled() {
    const now = Date.now();
    if (now - this.lastThrottle < 1000) return;
    this.lastThrottle = now;
    this.rate = Math.max(this.max / 4, this.rate * 0.8);
    this.tokens = 0;
  }
}

/** How a provider failure is treated: retried later (throttling, pair limit), unknown (no answer), or final. */
export function classify(id: string, error: unknown, attempts: number): Outcome {
  if (!(error instanceof ProviderError)) return { id, kind: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  const { httpStatus, code } = error.details;
  if (httpStatus === undefined) return { id, kind: 'unknown', reason: error.reason };
  const throttled = httpStatus === 429 || code === 130429 || code === 80007 || code === 4 || code === 131048;
  if (throttled) return { id, kind: 'retry', afterMs: Math.min(30_000, 1000 * 2 ** Math.min(attempts, 5)), reason: error.reason, throttled: true };
  if (code === 131056) return { id, kind: 'retry', afterMs: PAIR_WAIT_MS, reason: error.reason, throttled: false };
  if (httpStatus >= 500) return { id, kind: 'retry', afterMs: Math.min(30_000, 2000 * 2 ** Math.min(attempts, 4)), reason: error.reason, throttled: false };
  return { id, kind: 'failed', reason: error.reason };
}

export interface EngineDeps {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  realtime: Pick<Realtime, 'publish'>;
  jobs: Pick<JobQueue, 'send'>;
  config: Pick<Config, 'sendProvider' | 'graphApiUrl' | 'sandboxStatusSeconds' | 'whatsappThroughput'>;
  log: { warn: (obj: unknown, msg?: string) => void; error: (obj: unknown, msg?: string) => void; info?: (obj: unknown, msg?: string) => void };
  client?: MessageClient;
  /** Tests: a shorter reconcile wait. */
  reconcileAfterMs?: number;
}

/**
 * The sending engine (issue 13, decision 0041). Recipients are written once (`plan`), then a
 * company's runner — one at a time per company, by lease — claims them in batches
 * (queued → sending, the chat message written pending in the same transaction), calls the
 * provider at the line's pace with the outbox id as `biz_opaque_callback_data`, and settles
 * each (sent with the provider's id, failed with its reason, or queued again after a
 * throttle). A runner that dies leaves rows `sending`: the next one settles them from what the
 * provider reported (the status webhook found the message by its callback data) or queues them
 * again, so nothing claimed is lost and nothing the provider accepted goes twice.
 */
export function createSendingEngine(deps: EngineDeps) {
  const { db, secrets, realtime, jobs, config, log } = deps;
  const client: MessageClient =
    deps.client ?? (config.sendProvider === 'graph' ? createGraphClient(config.graphApiUrl) : createSandboxClient(config.sandboxStatusSeconds));
  const reconcileAfter = deps.reconcileAfterMs ?? RECONCILE_AFTER_MS;

  // ---------- reading ----------

  async function countsOf(sendIds: string[]): Promise<Map<string, SendCounts>> {
    const map = new Map<string, SendCounts>();
    if (!sendIds.length) return map;
    const rows = await rowsOf<{ send_id: string; status: string; n: number }>(
      db,
      sql`select r.send_id, case when r.status = 'sent' and m.status in ('delivered', 'read', 'failed') then m.status else r.status end as status, count(*)::int as n
          from send_recipients r left join chat_messages m on r.status = 'sent' and m.id = r.id
          where r.send_id in (${sql.join(sendIds.map((id) => sql`${id}`), sql`, `)})
          group by 1, 2`,
    );
    for (const id of sendIds) map.set(id, { total: 0, queued: 0, sending: 0, skipped: 0, sent: 0, delivered: 0, read: 0, failed: 0 });
    for (const r of rows) {
      const c = map.get(r.send_id) as SendCounts;
      c[r.status as keyof SendCounts] = (c[r.status as keyof SendCounts] ?? 0) + Number(r.n);
      c.total += Number(r.n);
    }
    return map;
  }

  function toSendOut(s: SendRow, counts: SendCounts): SendOut {
    return {
      _id: s.id,
      kind: s.kind,
      ...(s.campaign_id ? { campaignId: s.campaign_id } : {}),
      ...(s.chunk_page !== null ? { chunkPage: s.chunk_page } : {}),
      ...(s.chunk_size !== null ? { chunkSize: s.chunk_size } : {}),
      name: s.name,
      // a chunk finished sent can learn later, from the status webhooks, that some never arrived
      status: s.status === 'sent' && counts.failed > 0 ? (counts.sent + counts.delivered + counts.read > 0 ? 'sent_with_some_errors' : 'error') : s.status,
      counts,
      ...(s.scheduled_at ? { scheduledAt: iso(s.scheduled_at) } : {}),
      ...(s.started_at ? { startedAt: iso(s.started_at) } : {}),
      ...(s.finished_at ? { finishedAt: iso(s.finished_at) } : {}),
      stopRequested: s.stop_requested,
      ...(s.error ? { error: s.error } : {}),
      createdAt: iso(s.created_at) as string,
    };
  }

  async function sendsOut(rows: SendRow[]): Promise<SendOut[]> {
    const counts = await countsOf(rows.map((r) => r.id));
    return rows.map((r) => toSendOut(r, counts.get(r.id) as SendCounts));
  }

  async function sendRow(companyId: string, id: string): Promise<SendRow | undefined> {
    const [row] = await rowsOf<SendRow>(db, sql`select * from sends where company_id = ${companyId} and id = ${id}`);
    return row;
  }

  async function publishSends(companyId: string, ids: string[]) {
    if (!ids.length) return;
    const rows = await rowsOf<SendRow>(db, sql`select * from sends where company_id = ${companyId} and id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
    for (const send of await sendsOut(rows)) {
      await realtime.publish(companyId, { type: 'send.progress', send }).catch((error: unknown) => log.warn({ err: error }, 'no se pudo publicar el avance del envío'));
    }
  }

  // ---------- planning ----------

  /** The values of a template's variables for one person, or which one is missing. */
  function valuesFor(content: SendContent, person: Record<string, string | undefined>): { body: string[]; header?: string } | { missing: string } {
    const t = content.template;
    if (!t) return { body: [] };
    const n = variableCount(t.body);
    const body: string[] = [];
    for (let i = 0; i < n; i++) {
      const field = (t.variableFields[i] ?? 'nombre') as keyof typeof templateLeadFields;
      const v = person[field]?.trim();
      if (!v) return { missing: sendingMessages.missingValue(i + 1, templateLeadFields[field] ?? field) };
      body.push(v.slice(0, 1000));
    }
    const headerNeeds = t.header?.format === 'TEXT' && templateVariables(t.header.text).length > 0;
    if (!headerNeeds) return { body };
    const field = (t.variableFields[n] ?? 'nombre') as keyof typeof templateLeadFields;
    const header = person[field]?.trim();
    if (!header) return { missing: sendingMessages.missingValue(1, `encabezado: ${templateLeadFields[field] ?? field}`) };
    return { body, header: header.slice(0, 60) };
  }

  /**
   * A chunk's people: the audience's clean leads (a saved segment, or the filters of a massive
   * send) in creation order, page `chunkPage` of `chunkSize`, each with their WhatsApp chat and
   * number, whether their 24-hour window is open, their country, the message written for them
   * and the pre-send check's verdict (queued, or skipped with why). `dedupeKey`: people already
   * holding a row of this campaign or send are marked so (the outbox's key leaves them out).
   */
  async function chunkPeople(
    companyId: string,
    c: { segmentId?: string | null; filters?: SegmentFilters; cleanLeadIds?: string[]; chunkPage: number; chunkSize: number; content: SendContent; createdBy: string | null; dedupeKey?: string },
  ) {
    let filters = c.filters;
    if (!filters && c.segmentId) {
      const [segment] = await rowsOf<{ filters: unknown }>(db, sql`select filters from marketing_segments where company_id = ${companyId} and id = ${c.segmentId}`);
      filters = (segment?.filters ?? undefined) as SegmentFilters | undefined;
      if (segment && !filters) filters = {};
    }
    const [company] = await rowsOf<{ name: string; sender: string | null }>(
      db,
      sql`select co.name, (select trim(u.first_name || ' ' || u.last_name) from users u where u.id = ${c.createdBy}) as sender
          from companies co where co.id = ${companyId}`,
    );
    const offset = c.chunkPage * c.chunkSize;
    const where = c.cleanLeadIds
      ? c.cleanLeadIds.length
        ? sql`clean_leads.id in (${sql.join(c.cleanLeadIds.map((id) => sql`${id}`), sql`, `)})`
        : sql`false`
      : filters
        ? segmentCondition(filters, await timezoneOf(db, companyId))
        : sql`false`;
    const people = await rowsOf<{
      id: string;
      name: string;
      telefono: string | null;
      email: string | null;
      opt_out: boolean | null;
      days: number | null;
      chat_id: string | null;
      phone: string | null;
      window_open: boolean | null;
      last_sent: Date | string | null;
      taken: boolean;
      n: number;
    }>(
      db,
      sql`select p.id, p.name, p.telefono, p.email, p.opt_out, p.contact_frequency_days as days, ch.chat_id, ch.phone, ch.window_open, f.last_sent, p.n,
                 ${c.dedupeKey ? sql`exists (select 1 from send_recipients t where t.company_id = ${companyId} and t.dedupe_key = ${c.dedupeKey} and t.clean_lead_id = p.id)` : sql`false`} as taken
          from (select clean_leads.*, ${offset} + row_number() over (order by clean_leads.created_at, clean_leads.id) as n from clean_leads
                 where clean_leads.company_id = ${companyId} and ${where} order by clean_leads.created_at, clean_leads.id offset ${offset} limit ${c.chunkSize}) p
          left join lateral (
            select c.id as chat_id,
                   coalesce((select i.platform_user_id from lead_identities i where i.company_id = c.company_id and i.lead_id = c.lead_id and i.platform = 'whatsapp' limit 1),
                            case when l.platform = 'whatsapp' then l.platform_user_id end, l.telefono) as phone,
                   (select w.last_inbound_at > now() - make_interval(hours => ${WHATSAPP_WINDOW_HOURS}) from chat_windows w where w.chat_id = c.id) as window_open
              from leads l join chats c on c.company_id = l.company_id and c.lead_id = l.id and c.platform = 'whatsapp'
             where l.company_id = ${companyId} and l.clean_lead_id = p.id
             order by c.last_message_at desc nulls last limit 1) ch on true
          left join lateral (
            select max(r.settled_at) as last_sent from send_recipients r
             where r.company_id = ${companyId} and r.clean_lead_id = p.id and r.status = 'sent') f on true
          order by p.n`,
    );
    const { text, template } = c.content;
    return people.map((p) => {
      const phone = p.phone ?? p.telefono;
      const windowOpen = Boolean(p.window_open);
      const base = {
        id: randomUUID(),
        position: Number(p.n),
        clean_lead_id: p.id,
        chat_id: p.chat_id,
        name: p.name || p.telefono || 'Sin nombre',
        phone,
        taken: p.taken,
        window_open: windowOpen,
        country: isoCountryOfPhone(phone),
      };
      const skip = (reason: string) => ({ ...base, status: 'skipped' as const, reason, values: null as RecipientValues | null, charged: null as WhatsappTemplate['category'] | null });
      if (p.taken) return skip(sendingMessages.alreadySent);
      if (p.opt_out) return skip(sendingMessages.optedOut);
      if (p.days && p.last_sent && Date.now() - new Date(p.last_sent).getTime() < p.days * 86_400_000) return skip(sendingMessages.frequency(p.days));
      // without a WhatsApp chat: a template can still reach a valid number, and their chat is opened when the send is planned
      if (!p.chat_id && !template) return skip(sendingMessages.noChat);
      if (!base.phone) return skip(sendingMessages.noPhone);
      if (!p.chat_id && !isPhoneNumber(base.phone)) return skip(sendingMessages.noPhone);
      const person = { nombre: p.name || undefined, telefono: p.telefono ?? undefined, email: p.email ?? undefined, empresa: company?.name, agente: company?.sender ?? undefined };
      // free text inside the window (an Imagina template's, with its variables filled); the template outside it
      if (text !== undefined && (windowOpen || !template)) {
        if (!windowOpen) return skip(sendingMessages.windowClosed);
        const written = renderImagina(text, person);
        if (written.missing.length) return skip(sendingMessages.missingVariable(written.missing[0]));
        return { ...base, status: 'queued' as const, reason: null, values: { body: [], text: written.text } as RecipientValues, charged: null };
      }
      const values = valuesFor(c.content, person);
      if ('missing' in values) return skip(values.missing);
      return { ...base, status: 'queued' as const, reason: null, values: values as RecipientValues, charged: template?.category ?? null, opens_chat: !p.chat_id };
    });
  }

  /**
   * Opens a WhatsApp chat (and, if they have none, a WhatsApp lead) for people of a send who
   * have a number but never wrote: the template reaches them there, and their answer lands in the
   * same chat (the webhook finds the lead by its `lead_identities` row). Answers clean lead → chat.
   */
  async function openChats(tx: Db, companyId: string, people: Array<{ clean_lead_id: string; name: string; phone: string | null }>): Promise<Map<string, string>> {
    if (!people.length) return new Map();
    const opened = await rowsOf<{ clean_lead_id: string; chat_id: string; lead_id: string; phone: string }>(
      tx,
      sql`with x as (select * from jsonb_to_recordset(${JSON.stringify(people)}::jsonb) as x(clean_lead_id uuid, name text, phone text)),
          existing as (select distinct on (l.clean_lead_id) l.clean_lead_id, l.id from leads l join x on x.clean_lead_id = l.clean_lead_id
                        where l.company_id = ${companyId} and l.platform = 'whatsapp' order by l.clean_lead_id, l.created_at),
          made as (insert into leads (company_id, clean_lead_id, name, telefono, platform, status, platform_user_id)
                   select ${companyId}, x.clean_lead_id, x.name, x.phone, 'whatsapp', 'sin-asignar', x.phone from x
                    where not exists (select 1 from existing e where e.clean_lead_id = x.clean_lead_id)
                   returning id, clean_lead_id),
          person as (select clean_lead_id, id from existing union all select clean_lead_id, id from made),
          chat as (insert into chats (company_id, contact_name, platform, lead_id, status, unread_count)
                   select ${companyId}, x.name, 'whatsapp', p.id, 'open', 0 from person p join x on x.clean_lead_id = p.clean_lead_id
                   returning id, lead_id)
          select p.clean_lead_id, c.id as chat_id, p.id as lead_id, x.phone from chat c join person p on p.id = c.lead_id join x on x.clean_lead_id = p.clean_lead_id`,
    );
    await tx.execute(sql`insert into lead_identities (company_id, platform, platform_user_id, lead_id, chat_id)
      select ${companyId}, 'whatsapp', y.phone, y.lead_id, y.chat_id from jsonb_to_recordset(${JSON.stringify(opened)}::jsonb) as y(phone text, lead_id uuid, chat_id uuid)
      on conflict (company_id, platform, platform_user_id) do nothing`);
    return new Map(opened.map((o) => [o.clean_lead_id, o.chat_id]));
  }

  /** Writes a campaign chunk's recipients (once: `planned`), in the same transaction as the mark. */
  async function planChunk(send: SendRow): Promise<void> {
    const dedupeKey = send.campaign_id ?? send.id;
    const rows = (
      await chunkPeople(send.company_id, {
        segmentId: send.content.audience?.segmentId ?? send.segment_id,
        filters: send.content.audience?.filters,
        cleanLeadIds: send.content.audience?.cleanLeadIds,
        chunkPage: send.chunk_page ?? 0,
        chunkSize: send.chunk_size ?? MAX_MASS_AUDIENCE,
        content: send.content,
        createdBy: send.created_by,
        dedupeKey,
      })
    )
      .filter((r) => !r.taken);
    await db.transaction(async (tx) => {
      const chats = await openChats(tx as unknown as Db, send.company_id, rows.filter((r) => 'opens_chat' in r && r.opens_chat && r.status === 'queued'));
      const planned = rows.map(({ id, position, clean_lead_id, chat_id, name, phone, values, status, reason }) => ({
        id,
        position,
        clean_lead_id,
        chat_id: chat_id ?? chats.get(clean_lead_id) ?? null,
        name,
        phone,
        values,
        status,
        reason,
      }));
      for (let i = 0; i < planned.length; i += PLAN_PAGE) {
        const page = planned.slice(i, i + PLAN_PAGE);
        await tx.execute(sql`insert into send_recipients (id, company_id, send_id, dedupe_key, position, clean_lead_id, chat_id, name, phone, values, status, reason)
          select x.id, ${send.company_id}, ${send.id}, ${dedupeKey}, x.position, x.clean_lead_id, x.chat_id, x.name, x.phone, x.values, x.status, x.reason
            from jsonb_to_recordset(${JSON.stringify(page)}::jsonb) as x(id uuid, position int, clean_lead_id uuid, chat_id uuid, name text, phone text, values jsonb, status text, reason text)
          on conflict (company_id, dedupe_key, clean_lead_id) do nothing`);
      }
      await tx.execute(sql`update sends set planned = true, updated_at = now() where id = ${send.id} and not planned`);
    });
  }

  // ---------- the runner ----------

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
      if (!send.planned && (send.kind === 'campaign' || send.content.audience)) await planChunk(send);
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
    const done = await rowsOf<{ id: string; campaign_id: string | null; log_id: string | null }>(
      db,
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
          returning s.id, s.campaign_id, s.content->>'logId' as log_id`,
    );
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
    for (const campaignId of new Set(done.map((d) => d.campaign_id).filter(Boolean))) await refreshCampaign(companyId, campaignId as string);
    return done.map((d) => d.id);
  }

  /**
   * A campaign's status from its chunks (decision 0041): processing while a chunk is pending or
   * sending; pending before any chunk ran; else sent, error or sent_with_some_errors by the
   * recipients of its finished chunks.
   */
  async function refreshCampaign(companyId: string, campaignId: string): Promise<void> {
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

  /** Whether a person's message is the template (else free text: the send's, or the one written for them). */
  const usesTemplate = (content: SendContent, values: Claimed['values']) => Boolean(content.template) && values?.text === undefined;
  const textOf = (content: SendContent, values: Claimed['values']) =>
    values?.text ?? (usesTemplate(content, values) && content.template ? renderTemplate(content.template, { body: values?.body ?? [], header: values?.header }) : (content.text ?? ''));
  const contentOf = (content: SendContent, values: Claimed['values']) =>
    usesTemplate(content, values) && content.template ? { template: { name: content.template.name, language: content.template.language, campaign: true } } : null;

  function payloadOf(content: SendContent, values: Claimed['values']): TemplatePayload | undefined {
    const t = content.template;
    if (!t || !usesTemplate(content, values)) return undefined;
    return toTemplatePayload({ name: t.name, language: t.language, header: t.header ?? null }, { body: values?.body ?? [], header: values?.header });
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
          const template = payloadOf(send.content, row.values);
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
      await publishSends(companyId, await reconcile(companyId));
      for (;;) {
        if (Date.now() - started > (options.maxMs ?? RUN_MS)) {
          more = true;
          break;
        }
        if (!(await takeLease(companyId, holder))) return; // lost it (a long pause): the other runner goes on
        const t0 = performance.now();
        const changed = [...(await startPending(companyId)), ...(await applyStops(companyId))];
        if (changed.length) await publishSends(companyId, changed);
        const { send, rows, nextAt } = await claim(companyId, batchSize);
        if (!send) {
          // a stop asked between this iteration's applyStops and its claim left its send unclaimable: applied now, not at the next sweep
          const finished = [...(await applyStops(companyId)), ...(await finalize(companyId))];
          await publishSends(companyId, finished);
          if (nextAt === undefined) {
            // rows another (dead) runner left claimed: come back when they can be reconciled
            const [left] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from send_recipients r join sends s on s.id = r.send_id
              where s.company_id = ${companyId} and s.status = 'processing' and r.status = 'sending'`);
            if (Number(left?.n ?? 0) > 0) {
              await sleep(1000);
              await publishSends(companyId, await reconcile(companyId));
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
        await publishSends(companyId, [send.id]);
        if (trace) trace(`lote ${rows.length}: reclamar ${(t1 - t0).toFixed(0)} ms, enviar ${(t2 - t1).toFixed(0)} ms, asentar ${(t3 - t2).toFixed(0)} ms, publicar ${(performance.now() - t3).toFixed(0)} ms`);
        // each chat shows its new message (one event per chat would flood a big send: the inbox refreshes its list)
        if (rows.length <= 20) for (const r of rows) await publishChatEffect(db, realtime, companyId, { type: 'message.created', chatId: r.chat_id, messageId: r.id }, log);
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

  return { client, run, sweep, plan: planChunk, chunkPeople, sendRow, sendsOut, publishSends, refreshCampaign, countsOf, valuesFor, toSendOut };
}
export type SendingEngine = ReturnType<typeof createSendingEngine>;
