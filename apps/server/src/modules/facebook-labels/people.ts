import type { FacebookLabelPeopleOut } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { type Db, rowsOf } from '../../db/database.js';
import { isPassing, isThrottled, type LabelClient, personLabelFailure } from '../../integrations/meta/labels.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { FACEBOOK_LABEL_PEOPLE_QUEUE } from './jobs.js';
import { labelClientOf, labelPageOf } from './page.js';

/** Rows taken per claim, and claims per run (a run ends when nothing is due, or after these). */
const BATCH = 50;
const ROUNDS = 40;
/** A claim a crashed worker left is taken again after this long. */
const CLAIM_TTL = '5 minutes';
/** Waits before a refusal that may pass is tried again: doubling from a minute, at most an hour (throttling: at least five). */
const delayMs = (attempts: number, throttled: boolean) => Math.max(throttled ? 300_000 : 0, Math.min(3_600_000, 60_000 * 2 ** Math.min(attempts, 6)));

interface Claimed extends Record<string, unknown> {
  company_id: string;
  page_label_id: string;
  psid: string;
  wanted: boolean;
  applied: boolean;
  attempts: number;
  claim: string;
}

/**
 * The page's labels on people (decision 0057): the leads' trigger (migration 0043) marks what
 * each Messenger person should carry, in the labelling write's own transaction; this sends it.
 * A run claims the due rows (skipping those another worker holds), sends each through the
 * page's token, and records what Facebook was told — or its refusal in Spanish. A refusal that
 * may pass (token, permission, throttling, no answer) keeps the work, tried again later, and
 * stops that page's other rows for this run (they would meet the same); a final one (the label
 * or the person unknown to the page) stays until the label changes again or «Reintentar».
 */
export function createLabelPeople(deps: { db: Db; secrets: Pick<SecretBox, 'open'>; config: Pick<Config, 'sendProvider' | 'graphApiUrl'>; client?: LabelClient }) {
  const { db } = deps;
  const client = deps.client ?? labelClientOf(deps.config);

  const key = (r: Claimed) => sql`company_id = ${r.company_id} and page_label_id = ${r.page_label_id} and psid = ${r.psid} and claimed_at = ${r.claim}::timestamptz`;

  /** Facebook was told `r.wanted`: due again only when the lead changed meanwhile. */
  const settle = (r: Claimed) =>
    db.execute(sql`update facebook_label_people set applied = ${r.wanted}, claimed_at = null, reason = null, failed_at = null, attempts = 0, sent_at = now(),
                     due_at = case when wanted = ${r.wanted} then null else now() end where ${key(r)}`);

  /** Refused: the reason kept; tried again after `laterMs`, or never (null) — unless the lead changed meanwhile. */
  const refuse = (r: Claimed, reason: string, laterMs: number | null) =>
    db.execute(sql`update facebook_label_people set claimed_at = null, attempts = attempts + 1, reason = ${reason}, failed_at = now(),
                     due_at = case when wanted <> ${r.wanted} then now() when ${laterMs}::bigint is null then null else now() + ${laterMs}::bigint * interval '1 millisecond' end
                   where ${key(r)}`);

  /** Not tried in this run: back to the queue at `laterMs`. */
  const release = (r: Claimed, laterMs: number) =>
    db.execute(sql`update facebook_label_people set claimed_at = null, due_at = case when wanted <> ${r.wanted} then now() else greatest(due_at, now() + ${laterMs}::bigint * interval '1 millisecond') end where ${key(r)}`);

  async function claim(): Promise<Claimed[]> {
    return rowsOf<Claimed>(
      db,
      sql`update facebook_label_people p set claimed_at = clock_timestamp()
            from (select company_id, page_label_id, psid from facebook_label_people
                   where due_at <= now() and (claimed_at is null or claimed_at < now() - ${CLAIM_TTL}::interval)
                   order by due_at limit ${BATCH} for update skip locked) d
           where p.company_id = d.company_id and p.page_label_id = d.page_label_id and p.psid = d.psid
          returning p.company_id, p.page_label_id, p.psid, p.wanted, p.applied, p.attempts, p.claimed_at::text as claim`,
    );
  }

  return {
    client,
    /** Sends what is due; answers how many were sent and refused. */
    async run(): Promise<{ sent: number; refused: number }> {
      let sent = 0;
      let refused = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const rows = await claim();
        if (!rows.length) break;
        const byCompany = new Map<string, Claimed[]>();
        for (const r of rows) byCompany.set(r.company_id, [...(byCompany.get(r.company_id) ?? []), r]);
        for (const [companyId, mine] of byCompany) {
          const page = await labelPageOf(db, deps.secrets, companyId);
          // a refusal the whole page meets: the rest of its rows wait with it
          let halted: number | undefined;
          for (const r of mine) {
            if (halted !== undefined) {
              await release(r, halted);
              continue;
            }
            if (r.wanted === r.applied) {
              await settle(r);
              continue;
            }
            if (typeof page === 'string') {
              halted = delayMs(r.attempts, false);
              await refuse(r, page, halted);
              refused++;
              continue;
            }
            try {
              await client.tag(page, r.page_label_id, r.psid, r.wanted);
              await settle(r);
              sent++;
            } catch (error) {
              const passing = isPassing(error);
              const later = passing ? delayMs(r.attempts, isThrottled(error)) : null;
              await refuse(r, personLabelFailure(error), later);
              refused++;
              if (later !== null) halted = later;
            }
          }
        }
      }
      return { sent, refused };
    },

    /** /etiquetas-facebook: each page label's people at Facebook, and the last refusals. */
    async status(companyId: string): Promise<FacebookLabelPeopleOut> {
      const labels = await rowsOf<{ page_label_id: string; applied: number; pending: number; failed: number }>(
        db,
        sql`select page_label_id, count(*) filter (where applied)::int as applied,
                   count(*) filter (where due_at is not null)::int as pending,
                   count(*) filter (where due_at is null and reason is not null)::int as failed
              from facebook_label_people where company_id = ${companyId} group by page_label_id order by page_label_id`,
      );
      const failures = await rowsOf<{ page_label_id: string; lead_id: string | null; lead_name: string | null; wanted: boolean; reason: string; failed_at: Date | string; retrying: boolean }>(
        db,
        sql`select p.page_label_id, p.lead_id, l.name as lead_name, p.wanted, p.reason, p.failed_at, (p.due_at is not null) as retrying
              from facebook_label_people p left join leads l on l.company_id = p.company_id and l.id = p.lead_id
             where p.company_id = ${companyId} and p.reason is not null
             order by p.failed_at desc nulls last limit 50`,
      );
      return {
        labels: labels.map((l) => ({ facebookLabelId: l.page_label_id, applied: Number(l.applied), pending: Number(l.pending), failed: Number(l.failed) })),
        failures: failures.map((f) => ({
          facebookLabelId: f.page_label_id,
          ...(f.lead_id ? { leadId: f.lead_id } : {}),
          ...(f.lead_name ? { leadName: f.lead_name } : {}),
          action: f.wanted ? ('put' as const) : ('remove' as const),
          reason: f.reason,
          at: new Date(f.failed_at).toISOString(),
          retrying: Boolean(f.retrying),
        })),
      };
    },

    /** «Reintentar»: the company's refused rows due now. */
    async retry(companyId: string): Promise<number> {
      const rows = await rowsOf<{ psid: string }>(
        db,
        sql`update facebook_label_people set due_at = now(), attempts = 0
             where company_id = ${companyId} and reason is not null and wanted <> applied returning psid`,
      );
      return rows.length;
    },

  };
}
export type LabelPeople = ReturnType<typeof createLabelPeople>;

/**
 * Wakes the labels' job after a change of the labels' mapping (`/api/facebook-labels`): the
 * trigger that leaves people due cannot (it runs inside the write's transaction). Labels put on or
 * taken off leads wake it from their events, whatever wrote them (spine/listeners.ts); the job
 * that runs each minute sends what is left.
 */
export const facebookLabelWake: FastifyPluginAsync = fp(async (app) => {
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400 || !request.tenant) return;
    if (!request.url.startsWith('/api/facebook-labels')) return;
    try {
      await wakeFacebookLabels(app, request.tenant.companyId);
    } catch (error) {
      request.log.warn({ err: error }, 'no se pudo despertar el envío de etiquetas de Facebook');
    }
  });
});

/** Sends the Facebook labels' job when the company has people whose labels are due. */
export async function wakeFacebookLabels(app: Pick<FastifyInstance, 'database' | 'jobs'>, companyId: string): Promise<void> {
  const [row] = await rowsOf<{ due: boolean }>(
    app.database.db,
    sql`select exists (select 1 from facebook_label_people where company_id = ${companyId} and due_at <= now() and claimed_at is null) as due`,
  );
  if (row?.due) await app.jobs.send(FACEBOOK_LABEL_PEOPLE_QUEUE, {});
}
