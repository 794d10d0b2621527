import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { WINDOW } from './embedded.js';
import type { ChatAnalysis } from '@mostrador/contract';
import type { Analyzer, ConversationMessage } from './types.js';

/** A company's dirty chats are analysed by one job (debounced: at most one per company every ANALYSIS_DEBOUNCE_SECONDS). */
export const ANALYSIS_QUEUE = 'analysis.company';
/** Every minute: companies with chats changed since their analysis, or never analysed. */
export const ANALYSIS_SWEEP_QUEUE = 'analysis.sweep';
/** Chats one job analyses before it hands over to a new job of its company (the queue stays fair to others). */
export const BATCH = 100;

/**
 * A chat is dirty when its latest message is newer than what its analysis saw, or it has
 * messages and no analysis: no flag to write, the inbox's own `last_message_at` says it — or when
 * a customer message reached us after the analysis read the chat, by our clock (decision 0106: a
 * message delivered late carries the provider's earlier time, older than a reply we stamped).
 * Read with `w`, the chat's chat_windows row (left join).
 */
const dirty = (companyId: string | SQL) => sql`c.company_id = ${companyId} and c.last_message_at is not null
  and (a.chat_id is null or a.last_message_at is null or c.last_message_at::timestamptz > a.last_message_at
       or (w.last_arrived_at is not null and (a.arrived_seen_at is null or w.last_arrived_at > a.arrived_seen_at)))`;
const withWindow = sql`left join chat_windows w on w.chat_id = c.id and w.company_id = c.company_id`;
/** last_arrived_at as text, to the microsecond (written back as it was read). */
const arrived = sql`to_char(w.last_arrived_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as arrived`;
interface ChatToRead extends Record<string, unknown> {
  id: string;
  last_message_at: string | null;
  contact_name: string | null;
  arrived: string | null;
}

/**
 * Conversation analysis as jobs (issue 14, decision 0044). An inbound message wakes its company's
 * job (`wake`: one small insert that pg-boss folds into the one pending job of the company for
 * the next seconds); the job reads its dirty chats, each one's newest WINDOW messages, asks the
 * engine and upserts chat_analyses; the sweep wakes every company with dirty chats (missed
 * wakes, outbound messages, chats never analysed: a fresh demo). Every query is scoped by
 * company; the sweep's only cross-company query lists companies.
 */
const isForeignKeyViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23503' || e?.cause?.code === '23503';
};

/**
 * Wakes the company's analysis job `seconds` later: one small insert, folded by pg-boss into the
 * company's one job of that slot of `seconds` (the messages that arrive meanwhile are read by it).
 * Never throws: the inbox must not wait on the analysis.
 */
/** The debounce slot each company was last woken in, per queue (a process sends each slot's job once). */
const wokenIn = new WeakMap<object, Map<string, number>>();

export async function wakeAnalysis(jobs: Pick<JobQueue, 'send'>, log: { error: (obj: unknown, msg?: string) => void }, companyId: string, seconds: number) {
  // pg-boss keeps one job per company and slot of `seconds` (singletonSeconds) and drops the rest;
  // a burst's other messages of the slot need not ask it again (one insert saved per message)
  const slot = Math.floor(Date.now() / 1000 / Math.max(seconds, 1));
  const slots = wokenIn.get(jobs) ?? new Map<string, number>();
  wokenIn.set(jobs, slots);
  if (slots.get(companyId) === slot) return;
  await jobs
    .send(ANALYSIS_QUEUE, { companyId }, { singletonKey: companyId, singletonSeconds: seconds, startAfter: seconds })
    .then(() => slots.set(companyId, slot))
    .catch((error: unknown) => log.error({ err: error, companyId }, 'no se pudo encolar el análisis'));
}

/** How long an engine's answer may wait to be written with the next ones (see `flush`). */
const FLUSH_MS = 1000;

/** An engine's answer for a chat, to be written. */
interface Answered {
  chatId: string;
  analysis: ChatAnalysis;
  engine: string;
  messages: number;
  upTo: Date | null;
  /** The chat's last_arrived_at as read before its messages. */
  arrivedSeen: string | null;
}

/** The upsert of answers: the analysis's columns from a JSON array, only for chats of the company that still exist. */
function upsertStatement(companyId: string, rows: Answered[]): SQL {
  const json = JSON.stringify(
    rows.map(({ chatId, analysis: a, engine, messages, upTo, arrivedSeen }) => ({
      chat_id: chatId,
      sentiment: a.sentiment,
      motive: a.motive,
      dissatisfaction_origin: a.dissatisfactionOrigin ?? null,
      cross_sell_offered: a.crossSellOffered,
      cross_sell_taken: a.crossSellTaken,
      personalised_promotion: a.personalisedPromotion,
      quality: a.quality,
      category: a.category,
      engine,
      messages,
      last_message_at: upTo ? upTo.toISOString() : null,
      arrived_seen_at: arrivedSeen,
    })),
  );
  return sql`insert into chat_analyses (chat_id, company_id, sentiment, motive, dissatisfaction_origin, cross_sell_offered, cross_sell_taken,
        personalised_promotion, quality, category, engine, messages, last_message_at, arrived_seen_at, analyzed_at)
      select x.chat_id, c.company_id, x.sentiment, x.motive, x.dissatisfaction_origin, x.cross_sell_offered, x.cross_sell_taken,
        x.personalised_promotion, x.quality, x.category, x.engine, x.messages, x.last_message_at, x.arrived_seen_at, now()
        from jsonb_to_recordset(${json}::jsonb) as x(chat_id uuid, sentiment text, motive text, dissatisfaction_origin text, cross_sell_offered boolean,
          cross_sell_taken boolean, personalised_promotion boolean, quality smallint, category text, engine text, messages integer, last_message_at timestamptz, arrived_seen_at timestamptz)
        join chats c on c.id = x.chat_id and c.company_id = ${companyId}
        order by x.chat_id
      on conflict (chat_id) do update set sentiment = excluded.sentiment, motive = excluded.motive, dissatisfaction_origin = excluded.dissatisfaction_origin,
        cross_sell_offered = excluded.cross_sell_offered, cross_sell_taken = excluded.cross_sell_taken, personalised_promotion = excluded.personalised_promotion,
        quality = excluded.quality, category = excluded.category, engine = excluded.engine, messages = excluded.messages,
        last_message_at = excluded.last_message_at, arrived_seen_at = excluded.arrived_seen_at, analyzed_at = excluded.analyzed_at
      where chat_analyses.company_id = excluded.company_id
      returning chat_id`;
}

export function createAnalysisJobs({
  db,
  jobs,
  analyzer,
  analyzerFor,
  log,
  batchMs = 60_000,
}: {
  db: Db;
  jobs: JobQueue;
  analyzer: Analyzer;
  /** The company's engine (decision 0046: the OpenAI-compatible one when configured); default `analyzer`. */
  analyzerFor?: (companyId: string) => Promise<Analyzer>;
  log: { error: (obj: unknown, msg?: string) => void };
  /**
   * A batch stops after this long and hands over to a new job (a paid model answers in seconds a
   * chat: 100 of them would outlive the job's expiry); the embedded engine never gets near it.
   */
  batchMs?: number;
}) {
  /** The answers written in one statement; how many chats they were for. */
  async function upsertAnswers(companyId: string, rows: Answered[]): Promise<number> {
    return (await rowsOf<{ chat_id: string }>(db, upsertStatement(companyId, rows))).length;
  }

  /** The answers one by one: a chat deleted meanwhile (its foreign key) is skipped, the others are written. */
  async function upsertOneByOne(companyId: string, rows: Answered[]): Promise<number> {
    let written = 0;
    for (const row of rows) {
      written += await upsertAnswers(companyId, [row]).catch((error: unknown) => (isForeignKeyViolation(error) ? 0 : Promise.reject(error)));
    }
    return written;
  }

  /** Analyses the given chats of the company (or its dirty ones, BATCH at most); returns how many it wrote. */
  async function analyzeCompany(companyId: string, chatIds?: string[]): Promise<{ analyzed: number; more: boolean }> {
    const chats = chatIds
      ? await rowsOf<ChatToRead>(
          db,
          sql`select c.id, c.last_message_at, c.contact_name, ${arrived} from chats c ${withWindow}
              where c.company_id = ${companyId} and c.id = any(${`{${chatIds.join(',')}}`}::uuid[])`,
        )
      : await rowsOf<ChatToRead>(
          db,
          sql`select c.id, c.last_message_at, c.contact_name, ${arrived} from chats c left join chat_analyses a on a.chat_id = c.id and a.company_id = c.company_id
              ${withWindow} where ${dirty(companyId)} order by c.last_message_at desc limit ${BATCH + 1}`,
        );
    const batch = chats.slice(0, BATCH);
    if (batch.length === 0) return { analyzed: 0, more: false };
    const ids = `{${batch.map((c) => c.id).join(',')}}`;
    const rows = await rowsOf<{ chat_id: string; direction: 'in' | 'out'; text: string | null; sent_at: Date | string }>(
      db,
      sql`select c.id as chat_id, m.direction, m.text, m.sent_at from chats c
          cross join lateral (select direction, text, sent_at, created_at from chat_messages
            where company_id = ${companyId} and chat_id = c.id and is_active and kind <> 'reaction'
            order by sent_at desc, created_at desc limit ${WINDOW}) m
          where c.company_id = ${companyId} and c.id = any(${ids}::uuid[])
          order by c.id, m.sent_at, m.created_at`,
    );
    const byChat = new Map<string, ConversationMessage[]>();
    for (const r of rows) {
      const list = byChat.get(r.chat_id) ?? [];
      list.push({ direction: r.direction, text: r.text, at: r.sent_at });
      byChat.set(r.chat_id, list);
    }
    const now = new Date();
    const engine = analyzerFor ? await analyzerFor(companyId) : analyzer;
    let analyzed = 0;
    let cut = false;
    const started = performance.now();
    /** Answers not yet written, and since when the oldest of them waits. */
    const answered: Answered[] = [];
    let waitingSince = 0;
    /**
     * Writes the answers so far in ONE upsert (the batch's chats, in id order so that two jobs
     * lock rows in the same order), skipping chats deleted meanwhile. The embedded engine answers
     * a whole batch in milliseconds: one statement instead of a hundred, and the metrics trigger
     * once per statement. A paid model's answers, seconds apart, are written within a second of
     * each other (FLUSH_MS): a crash loses at most that much paid work.
     */
    async function flush(): Promise<void> {
      const answers = answered.splice(0);
      if (!answers.length) return;
      analyzed += await upsertAnswers(companyId, answers).catch((error: unknown) =>
        // a chat deleted between the statement's snapshot and its foreign-key check: one by one
        isForeignKeyViolation(error) ? upsertOneByOne(companyId, answers) : Promise.reject(error),
      );
    }
    /** One chat: the engine's answer, kept for the next flush. */
    async function analyzeChat(chat: (typeof batch)[number]): Promise<void> {
      const messages = byChat.get(chat.id) ?? [];
      const a = await engine.analyze({ messages, now }, { companyId, chatId: chat.id, chatName: chat.contact_name });
      // what it saw up to: the chat's own last message time (its dirty mark), else its newest message's
      const newest = messages.length ? new Date(messages[messages.length - 1].at as string | Date) : undefined;
      const seen = chat.last_message_at ? new Date(chat.last_message_at) : newest;
      const upTo = newest && seen && newest > seen ? newest : (seen ?? null);
      if (!answered.length) waitingSince = performance.now();
      answered.push({ chatId: chat.id, analysis: a, engine: a.engine ?? engine.name, messages: messages.length, upTo, arrivedSeen: chat.arrived });
      if (performance.now() - waitingSince >= FLUSH_MS) await flush();
    }
    // `engine.concurrency` chats in flight (a paid model's calls wait on the network; the embedded engine: one at a time)
    let next = 0;
    const lane = async () => {
      while (next < batch.length) {
        if (!chatIds && (analyzed > 0 || next > 0) && performance.now() - started > batchMs) {
          cut = true;
          return;
        }
        const chat = batch[next++];
        await analyzeChat(chat);
        // the embedded engine is synchronous: let requests waiting on the process through between chats
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const lanes = await Promise.allSettled(Array.from({ length: Math.min(Math.max(1, engine.concurrency ?? 1), batch.length) }, lane));
    // what was answered is written even when the engine failed on a later chat
    await flush();
    const failed = lanes.find((l) => l.status === 'rejected');
    if (failed) throw failed.reason;
    return { analyzed, more: cut || (!chatIds && chats.length > BATCH) };
  }

  /** The company's job: one batch of dirty chats, then another job if more are left. */
  async function run(companyId: string) {
    const { more } = await analyzeCompany(companyId);
    if (more) await jobs.send(ANALYSIS_QUEUE, { companyId }).catch((error: unknown) => log.error({ err: error, companyId }, 'no se pudo continuar el análisis'));
  }

  /** Companies with dirty chats (the one query across companies: it reads only their ids). */
  async function sweep() {
    const companies = await rowsOf<{ company_id: string }>(
      db,
      sql`select co.id as company_id from companies co where exists (
            select 1 from chats c left join chat_analyses a on a.chat_id = c.id and a.company_id = c.company_id
            ${withWindow} where ${dirty(sql`co.id`)})`,
    );
    for (const c of companies) await jobs.send(ANALYSIS_QUEUE, { companyId: c.company_id }, { singletonKey: c.company_id, singletonSeconds: 30 });
    return companies.length;
  }

  return { analyzeCompany, run, sweep };
}
export type AnalysisJobs = ReturnType<typeof createAnalysisJobs>;
