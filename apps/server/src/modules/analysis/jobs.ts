import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { WINDOW } from './embedded.js';
import type { Analyzer, ConversationMessage } from './types.js';

/** A company's dirty chats are analysed by one job (debounced: at most one per company every ANALYSIS_DEBOUNCE_SECONDS). */
export const ANALYSIS_QUEUE = 'analysis.company';
/** Every minute: companies with chats changed since their analysis, or never analysed. */
export const ANALYSIS_SWEEP_QUEUE = 'analysis.sweep';
/** Chats one job analyses before it hands over to a new job of its company (the queue stays fair to others). */
export const BATCH = 100;

/**
 * A chat is dirty when its latest message is newer than what its analysis saw, or it has
 * messages and no analysis: no flag to write, the inbox's own `last_message_at` says it.
 */
const dirty = (companyId: string | SQL) => sql`c.company_id = ${companyId} and c.last_message_at is not null
  and (a.chat_id is null or a.last_message_at is null or c.last_message_at::timestamptz > a.last_message_at)`;

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
  /** Analyses the given chats of the company (or its dirty ones, BATCH at most); returns how many it wrote. */
  async function analyzeCompany(companyId: string, chatIds?: string[]): Promise<{ analyzed: number; more: boolean }> {
    const chats = chatIds
      ? await rowsOf<{ id: string; last_message_at: string | null; contact_name: string | null }>(
          db,
          sql`select c.id, c.last_message_at, c.contact_name from chats c where c.company_id = ${companyId} and c.id = any(${`{${chatIds.join(',')}}`}::uuid[])`,
        )
      : await rowsOf<{ id: string; last_message_at: string | null; contact_name: string | null }>(
          db,
          sql`select c.id, c.last_message_at, c.contact_name from chats c left join chat_analyses a on a.chat_id = c.id and a.company_id = c.company_id
              where ${dirty(companyId)} order by c.last_message_at desc limit ${BATCH + 1}`,
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
    /** One chat: the engine's answer upserted; false when the chat was deleted meanwhile. */
    async function analyzeChat(chat: (typeof batch)[number]): Promise<boolean> {
      const messages = byChat.get(chat.id) ?? [];
      const a = await engine.analyze({ messages, now }, { companyId, chatId: chat.id, chatName: chat.contact_name });
      // what it saw up to: the chat's own last message time (its dirty mark), else its newest message's
      const newest = messages.length ? new Date(messages[messages.length - 1].at as string | Date) : undefined;
      const seen = chat.last_message_at ? new Date(chat.last_message_at) : newest;
      const upTo = newest && seen && newest > seen ? newest : (seen ?? null);
      const upsert = db.execute(sql`insert into chat_analyses (chat_id, company_id, sentiment, motive, dissatisfaction_origin, cross_sell_offered, cross_sell_taken,
            personalised_promotion, quality, category, engine, messages, last_message_at, analyzed_at)
          values (${chat.id}, ${companyId}, ${a.sentiment}, ${a.motive}, ${a.dissatisfactionOrigin ?? null}, ${a.crossSellOffered}, ${a.crossSellTaken},
            ${a.personalisedPromotion}, ${a.quality}, ${a.category}, ${a.engine ?? engine.name}, ${messages.length}, ${upTo ? upTo.toISOString() : null}, now())
          on conflict (chat_id) do update set sentiment = excluded.sentiment, motive = excluded.motive, dissatisfaction_origin = excluded.dissatisfaction_origin,
            cross_sell_offered = excluded.cross_sell_offered, cross_sell_taken = excluded.cross_sell_taken, personalised_promotion = excluded.personalised_promotion,
            quality = excluded.quality, category = excluded.category, engine = excluded.engine, messages = excluded.messages,
            last_message_at = excluded.last_message_at, analyzed_at = excluded.analyzed_at
          where chat_analyses.company_id = excluded.company_id`);
      // a chat deleted meanwhile (foreign key): nothing to keep, the rest of the batch goes on
      return !(await upsert.then(
        () => false,
        (error: unknown) => (isForeignKeyViolation(error) ? true : Promise.reject(error)),
      ));
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
        if (await analyzeChat(chat)) analyzed++;
        // the embedded engine is synchronous: let requests waiting on the process through between chats
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all(Array.from({ length: Math.min(Math.max(1, engine.concurrency ?? 1), batch.length) }, lane));
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
            where ${dirty(sql`co.id`)})`,
    );
    for (const c of companies) await jobs.send(ANALYSIS_QUEUE, { companyId: c.company_id }, { singletonKey: c.company_id, singletonSeconds: 30 });
    return companies.length;
  }

  return { analyzeCompany, run, sweep };
}
export type AnalysisJobs = ReturnType<typeof createAnalysisJobs>;
