import { type MailchimpSyncOut, mailchimpMessages } from '@mostrador/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Db, rowsOf } from '../../db/database.js';
import { mailchimpLabelSyncs } from '../../db/join-tables.js';
import { cleanLeadsTable } from '../../db/resource-tables.js';
import { type MailchimpAccount, type MailchimpClient, MailchimpError, MAILCHIMP_PAGE_MAX, type RequestCounter } from '../../integrations/mailchimp/client.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { type FinishedRun, finishedRun, type OnSyncFinished, runSyncRun, SyncFailed, type SyncOutcome, throttledPublish } from '../../lib/sync-run.js';
import type { SegmentFilters } from '../leads/labels-massive.js';
import { segmentCondition, segmentScopeOf } from '../leads/labels-massive.js';

/**
 * The Mailchimp sync (decision 0051) on the sync-run engine (lib/sync-run.ts), run by the
 * `mailchimp.sync-labels` job (jobs.ts).
 *
 * `labels`: for every audience of the company, the people of the call (the segment's clean leads
 * carrying one of its labels; the labels alone if the segment was removed) are upserted
 * (`PUT …/members/{md5}`) and given their Mostrador labels as tags (`POST …/tags`), `chunk` people at
 * a time, all of a chunk at once through the client (whose limiter keeps 10 requests of a key in
 * flight). Each contact's outcome is written as it comes, 25 at a time (ok; error with Mailchimp's
 * reason in Spanish; skipped: no e-mail, opted out); a resumed sync takes only the contacts without a row.
 * A member's refusal never stops the sync; a wrong key or audience ends it `failed`; a 429 / 5xx /
 * network failure that outlives the client's retries leaves it running «… se reintentará» and the
 * job is retried (and resumes).
 *
 * `pull`: the audience's members, 1000 a page (`count`/`offset`), into mailchimp_contacts; the
 * offset is the count done, committed with each page.
 *
 * One sync per company runs at a time in every process: the claim takes a transaction-scoped
 * advisory lock of the company and refuses while another sync of it beats (`heartbeatAt` younger
 * than the lease).
 */
export const MAILCHIMP_LEASE_SECONDS = 120;
export const MAILCHIMP_CHUNK = 200;
/** Outcomes written together while a chunk goes. */
const FLUSH = 25;
/** How often a running sync's progress goes to the browsers. */
const PUBLISH_MS = 500;

type SyncRow = typeof mailchimpLabelSyncs.$inferSelect;
type Outcome = { contactKey: string; cleanLeadId?: string; email?: string; name?: string; outcome: 'ok' | 'error' | 'skipped'; reason?: string; tags: string[]; status?: string; phone?: string };

export class RetryLater extends Error {}
/** A failure that may pass: the job is tried again. */
const passing = (error: MailchimpError) => error.kind === 'rate-limited' || error.kind === 'server' || error.kind === 'network';

/** One audience's calls, bound to its credentials. */
type AudienceOps = {
  upsert: (member: Parameters<MailchimpClient['upsertMember']>[1], counter: RequestCounter) => Promise<{ status: string }>;
  tag: (email: string, tags: string[], counter: RequestCounter) => Promise<void>;
};

const validEmail = (email: string) => /^[^@\s]+@[^@\s]+\.[^@\s.]{2,}$/.test(email);
const contactStatus = (status: string | undefined) =>
  status === 'subscribed' || status === 'unsubscribed' || status === 'cleaned' || status === 'pending' ? status : status === 'archived' ? 'unsubscribed' : 'subscribed';

export interface MailchimpSyncDeps {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  client: MailchimpClient;
  realtime?: Pick<Realtime, 'publish'>;
  log: { warn: (obj: unknown, msg?: string) => void };
  chunk?: number;
  onFinished?: OnSyncFinished;
}

export function createMailchimpSync(deps: MailchimpSyncDeps) {
  const { db } = deps;
  const chunk = deps.chunk ?? MAILCHIMP_CHUNK;

  async function accountsOf(companyId: string, onlyId?: string) {
    const rows = await rowsOf<{ id: string; name: string; server_prefix: string; list_id: string; api_key: string | null }>(
      db,
      sql`select id, name, server_prefix, list_id, api_key from mailchimps where company_id = ${companyId} ${onlyId ? sql`and id = ${onlyId}` : sql``} order by name, id`,
    );
    return rows.map((r) => {
      let apiKey = '';
      try {
        apiKey = r.api_key ? deps.secrets.open<string>(r.api_key) : '';
      } catch {
        apiKey = '';
      }
      return { id: r.id, name: r.name, account: { apiKey, serverPrefix: r.server_prefix, listId: r.list_id } as MailchimpAccount };
    });
  }

  /** The sync as the screens show it. */
  async function out(row: SyncRow): Promise<MailchimpSyncOut> {
    const labelIds = (row.labelIds as string[]) ?? [];
    const [names] = await rowsOf<{ segment: string | null; labels: string[] | null; audiences: string[] | null }>(
      db,
      sql`select
        (select name from marketing_segments where id = ${row.segmentId} and company_id = ${row.companyId}) as segment,
        (select array_agg(name order by name) from mostrador_labels where company_id = ${row.companyId} and id::text = any(${`{${labelIds.join(',')}}`}::text[])) as labels,
        coalesce(
          (select array_agg(name order by name) from mailchimps where company_id = ${row.companyId} ${row.mailchimpId ? sql`and id = ${row.mailchimpId}` : sql``}),
          (select array_agg(distinct audience_name) from mailchimp_sync_contacts where company_id = ${row.companyId} and sync_id = ${row.id} and audience_name is not null)
        ) as audiences`,
    );
    return {
      _id: row.id,
      kind: row.kind,
      status: (['queued', 'running', 'done', 'failed'].includes(row.status) ? row.status : 'queued') as MailchimpSyncOut['status'],
      ...(row.mailchimpId ? { mailchimpId: row.mailchimpId } : {}),
      audienceNames: names?.audiences ?? [],
      ...(row.segmentId ? { segmentId: row.segmentId } : {}),
      ...(names?.segment ? { segmentName: names.segment } : {}),
      labelNames: names?.labels ?? [],
      total: row.total,
      done: row.done,
      ok: row.ok,
      failed: row.failed,
      skipped: row.skipped,
      requests: row.requests,
      ...(row.message ? { message: row.message } : {}),
      createdAt: row.createdAt.toISOString(),
      ...(row.startedAt ? { startedAt: row.startedAt.toISOString() } : {}),
      ...(row.processedAt ? { finishedAt: row.processedAt.toISOString() } : {}),
    };
  }

  /** Tells the company's browsers; while a sync runs, at most every `PUBLISH_MS` (its end always). */
  const publisher = throttledPublish(async (syncId) => {
    const [row] = await db.select().from(mailchimpLabelSyncs).where(eq(mailchimpLabelSyncs.id, syncId));
    if (row) await deps.realtime?.publish(row.companyId, { type: 'mailchimp.sync', sync: await out(row) });
  }, PUBLISH_MS);
  async function publish(syncId: string, throttle = false) {
    if (!deps.realtime) return;
    await publisher.publish(syncId, throttle);
  }

  /** The sync's one end (the engine's finish): its status, and the list of people it served dropped. */
  async function finish(tx: Db, row: SyncRow, outcome: SyncOutcome): Promise<FinishedRun> {
    const [end] = await tx
      .update(mailchimpLabelSyncs)
      .set({ status: outcome.status, message: outcome.message ?? null, processedAt: new Date(), heartbeatAt: null })
      .where(eq(mailchimpLabelSyncs.id, row.id))
      .returning();
    // the list of people served the run; the report keeps who was done
    await tx.execute(sql`delete from mailchimp_sync_people where sync_id = ${row.id}`);
    return finishedRun('mailchimp', outcome, end, { total: end.total, done: end.done, ok: end.ok, failed: end.failed, skipped: end.skipped, requests: end.requests });
  }

  /** Takes the sync for this process: 'gone' when finished or removed, 'busy' while another of the company runs. */
  async function claim(syncId: string): Promise<SyncRow | 'gone' | 'busy'> {
    const result = await db.transaction(async (tx) => {
      const [first] = await tx.select({ companyId: mailchimpLabelSyncs.companyId }).from(mailchimpLabelSyncs).where(eq(mailchimpLabelSyncs.id, syncId));
      if (!first) return 'gone' as const;
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mailchimp-sync:${first.companyId}`}))`);
      const [row] = await tx.select().from(mailchimpLabelSyncs).where(eq(mailchimpLabelSyncs.id, syncId));
      if (!row || row.status === 'done' || row.status === 'failed') return 'gone' as const;
      const other = await rowsOf<{ id: string }>(
        tx as unknown as Db,
        // this sync too: a job pg-boss handed out again while its first run still beats waits
        sql`select id from mailchimp_label_syncs where company_id = ${row.companyId} and status = 'running'
              and heartbeat_at > now() - make_interval(secs => ${MAILCHIMP_LEASE_SECONDS}) limit 1`,
      );
      if (other.length) {
        await tx.update(mailchimpLabelSyncs).set({ message: mailchimpMessages.busy }).where(eq(mailchimpLabelSyncs.id, syncId));
        return 'busy' as const;
      }
      const [claimed] = await tx
        .update(mailchimpLabelSyncs)
        .set({ status: 'running', startedAt: row.startedAt ?? new Date(), heartbeatAt: new Date(), message: null })
        .where(eq(mailchimpLabelSyncs.id, syncId))
        .returning();
      return claimed;
    });
    if (result !== 'gone') await publish(syncId);
    return result;
  }

  /** Writes a chunk's outcomes, their counts and the contacts and tags they leave, in one transaction. */
  async function record(row: SyncRow, audience: { id: string; name: string }, outcomes: Outcome[], requests: number) {
    await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const inserted = outcomes.length
        ? await rowsOf<{ outcome: string }>(
            t,
            sql`insert into mailchimp_sync_contacts (company_id, sync_id, audience_key, audience_name, contact_key, clean_lead_id, email, name, outcome, reason, tags)
                select ${row.companyId}, ${row.id}, ${audience.id}, ${audience.name}, x."contactKey", x."cleanLeadId", x.email, x.name, x.outcome, x.reason, coalesce(x.tags, '[]'::jsonb)
                  from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as x("contactKey" text, "cleanLeadId" uuid, email text, name text, outcome text, reason text, tags jsonb)
                on conflict do nothing returning outcome`,
          )
        : [];
      const n = (o: string) => inserted.filter((r) => r.outcome === o).length;
      await t.execute(sql`update mailchimp_label_syncs set done = done + ${inserted.length}, ok = ok + ${n('ok')}, failed = failed + ${n('error')},
        skipped = skipped + ${n('skipped')}, requests = requests + ${requests}, heartbeat_at = now() where id = ${row.id}`);
      const sent = outcomes.filter((o) => o.outcome === 'ok' && o.email);
      if (sent.length) await keepContacts(t, row.companyId, audience.id, sent.map((o) => ({ email: o.email as string, name: o.name, phone: o.phone, status: o.status, tags: o.tags })));
    });
    await publish(row.id, true);
  }

  async function keepContacts(t: Db, companyId: string, mailchimpId: string, contacts: Array<{ email: string; name?: string; phone?: string; status?: string; tags: string[] }>) {
    const rows = [...new Map(contacts.map((c) => [c.email.toLowerCase(), { ...c, email: c.email.toLowerCase(), status: contactStatus(c.status), tags: c.tags.slice(0, 100) }])).values()];
    await t.execute(sql`insert into mailchimp_contacts (company_id, email, name, telefono, status, tags)
      select ${companyId}, x.email, nullif(left(x.name, 120), ''), nullif(x.phone, ''), x.status, x.tags from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(email text, name text, phone text, status text, tags jsonb)
      on conflict (company_id, email) do update set
        name = coalesce(excluded.name, mailchimp_contacts.name), telefono = coalesce(excluded.telefono, mailchimp_contacts.telefono), status = excluded.status,
        tags = (select coalesce(jsonb_agg(distinct v), '[]'::jsonb) from jsonb_array_elements_text(coalesce(mailchimp_contacts.tags, '[]'::jsonb) || coalesce(excluded.tags, '[]'::jsonb)) v),
        updated_at = now()`);
    const tags = [...new Set(rows.flatMap((r) => r.tags))].map((t) => t.slice(0, 100));
    if (tags.length) {
      await t.execute(sql`insert into mailchimp_tags (company_id, name, mailchimp_id)
        select ${companyId}, x, ${mailchimpId}::uuid from jsonb_array_elements_text(${JSON.stringify(tags)}::jsonb) as x
        on conflict (company_id, name) do nothing`);
    }
  }

  /** One contact to one audience: upsert, then tags. A member's refusal is its outcome; anything else is thrown. */
  async function sendOne(account: AudienceOps, person: { id: string; name: string; email: string | null; telefono: string | null; opt_out: boolean | null; tags: string[] }, counter: RequestCounter): Promise<Outcome> {
    const email = (person.email ?? '').trim().toLowerCase();
    const base = { contactKey: person.id, cleanLeadId: person.id, name: person.name, tags: person.tags, ...(email ? { email } : {}) };
    if (!email) return { ...base, outcome: 'skipped', reason: mailchimpMessages.noEmail };
    if (!validEmail(email)) return { ...base, outcome: 'skipped', reason: `El correo «${email.slice(0, 80)}» no es válido: corrígelo en la ficha de la persona` };
    if (person.opt_out) return { ...base, outcome: 'skipped', reason: 'Pidió no recibir mensajes (opt-out): no se envía a Mailchimp' };
    const [firstName, ...rest] = person.name.trim().split(/\s+/);
    const phone = person.telefono ? `+${person.telefono}` : undefined;
    try {
      const { status } = await account.upsert({ email, firstName, lastName: rest.join(' ') || undefined, phone }, counter);
      await account.tag(email, person.tags, counter);
      return { ...base, outcome: 'ok', status, ...(person.telefono ? { phone: person.telefono } : {}) };
    } catch (error) {
      if (error instanceof MailchimpError && error.kind === 'member') return { ...base, outcome: 'error', reason: error.reason };
      throw error;
    }
  }

  /** A 429 / 5xx / network failure the client's retries outlived: the sync stays running «… se reintentará» and the job is retried (and resumes). */
  async function retryLater(row: SyncRow, error: MailchimpError, requests: number): Promise<never> {
    await db
      .update(mailchimpLabelSyncs)
      .set({ message: `${error.reason.replace(/: se reintentará$/, '')}: se reintentará`, requests: sql`requests + ${requests}`, heartbeatAt: null })
      .where(eq(mailchimpLabelSyncs.id, row.id));
    await publish(row.id);
    throw new RetryLater(error.reason);
  }

  async function runLabels(row: SyncRow) {
    const accounts = await accountsOf(row.companyId);
    if (!accounts.length) throw new SyncFailed(mailchimpMessages.noAccounts);
    const labelIds = (row.labelIds as string[]) ?? [];
    const labelNames = new Map(
      (await rowsOf<{ id: string; name: string }>(db, sql`select id::text as id, name from mostrador_labels where company_id = ${row.companyId}`)).map((l) => [l.id, l.name]),
    );
    const cl = cleanLeadsTable as unknown as Record<string, AnyPgColumn>;
    const [segment] = row.segmentId
      ? await rowsOf<{ filters: SegmentFilters | null }>(db, sql`select filters from marketing_segments where id = ${row.segmentId} and company_id = ${row.companyId}`)
      : [];
    const conditions: SQL[] = [sql`${cl.companyId} = ${row.companyId}`, sql`coalesce(${cl.mostradorLabels}, '[]'::jsonb) ?| ${`{${labelIds.join(',')}}`}::text[]`];
    if (segment) conditions.push(segmentCondition(segment.filters, await segmentScopeOf(db, row.companyId)));
    const people = sql.join(conditions, sql` and `);
    // the sync's people, taken once (a resumed run keeps the list its first run took)
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mailchimp-people:${row.id}`}))`);
      const [taken] = await rowsOf<{ n: number }>(tx as unknown as Db, sql`select count(*)::int as n from mailchimp_sync_people where sync_id = ${row.id}`);
      let n = Number(taken.n);
      if (!n) {
        const inserted = await rowsOf<{ n: number }>(
          tx as unknown as Db,
          sql`with taken as (insert into mailchimp_sync_people (sync_id, seq, company_id, clean_lead_id)
                select ${row.id}, row_number() over (order by ${cl.id}), ${row.companyId}, ${cl.id} from ${cleanLeadsTable} where ${people}
                returning 1)
              select count(*)::int as n from taken`,
        );
        n = Number(inserted[0].n);
      }
      // a list of thousands written at once: the planner learns its size before the chunks read it
      if (n > 1000) await tx.execute(sql`analyze mailchimp_sync_people`);
      await tx.update(mailchimpLabelSyncs).set({ total: n * accounts.length, count: n }).where(eq(mailchimpLabelSyncs.id, row.id));
    });
    await publish(row.id);

    for (const audience of accounts) {
      const account: AudienceOps = {
        upsert: (m: Parameters<MailchimpClient['upsertMember']>[1], c: RequestCounter) => deps.client.upsertMember(audience.account, m, c),
        tag: (email: string, tags: string[], c: RequestCounter) => deps.client.tagMember(audience.account, email, tags, c),
      };
      if (!audience.account.apiKey) throw new SyncFailed(`${mailchimpMessages.keyInvalid} (${audience.name})`);
      // the people go in the list's order: the next chunk starts after the last one's place; a
      // resumed run skips those with their row in the report (done before the crash)
      let after = 0;
      for (;;) {
        const batch = await rowsOf<{ seq: number; id: string; name: string; email: string | null; telefono: string | null; opt_out: boolean | null; labels: string[] | null }>(
          db,
          // per person of the range, by index: the person's row and whether the report has them
          // (lateral, so the plan stays a walk of the list whatever the statistics say mid-sync)
          sql`select p.seq, c.id, c.name, c.email, c.telefono, c.opt_out, c.labels
                from mailchimp_sync_people p
                cross join lateral (select ${cl.id} as id, ${cl.name} as name, ${cl.email} as email, ${cl.telefono} as telefono, ${cl.optOut} as opt_out, ${cl.mostradorLabels} as labels
                                      from ${cleanLeadsTable} where ${cl.companyId} = p.company_id and ${cl.id} = p.clean_lead_id) c
                left join lateral (select 1 as done from mailchimp_sync_contacts r
                                    where r.sync_id = p.sync_id and r.audience_key = ${audience.id} and r.contact_key = p.clean_lead_id::text limit 1) d on true
               where p.sync_id = ${row.id} and p.seq > ${after} and d.done is null
               order by p.seq limit ${chunk}`,
        );
        if (!batch.length) break;
        after = Number(batch[batch.length - 1].seq);
        let stop: unknown;
        // outcomes are written as they come, FLUSH at a time (one writer at a time): a crash redoes
        // at most the contacts in flight and the last unwritten few, never the chunk
        let buffer: Outcome[] = [];
        let counter = { requests: 0 };
        let writing = Promise.resolve();
        const flush = () => {
          const outcomes = buffer;
          const requests = counter;
          buffer = [];
          counter = { requests: 0 };
          writing = writing.then(() => record(row, audience, outcomes, requests.requests));
          return writing;
        };
        await Promise.allSettled(
          batch.map(async (p) => {
            const tags = (p.labels ?? []).map((id) => labelNames.get(id)).filter((x): x is string => !!x);
            const requests = { requests: 0 };
            try {
              const outcome = await sendOne(account, { ...p, tags }, requests);
              counter.requests += requests.requests;
              buffer.push(outcome);
              if (buffer.length >= FLUSH) await flush();
            } catch (error) {
              counter.requests += requests.requests;
              stop ??= error;
            }
          }),
        );
        await flush();
        if (stop) {
          if (stop instanceof MailchimpError && passing(stop)) await retryLater(row, stop, 0);
          if (stop instanceof MailchimpError) throw new SyncFailed(`${audience.name}: ${stop.reason}`);
          // anything else (a bug, the database): the job is retried and resumes at once, not after the lease
          await db.update(mailchimpLabelSyncs).set({ heartbeatAt: null }).where(eq(mailchimpLabelSyncs.id, row.id));
          throw stop;
        }
      }
    }
  }

  async function runPull(row: SyncRow) {
    const [audience] = row.mailchimpId ? await accountsOf(row.companyId, row.mailchimpId) : [];
    if (!audience) throw new SyncFailed('La credencial de Mailchimp ya no existe');
    if (!audience.account.apiKey) throw new SyncFailed(mailchimpMessages.keyInvalid);
    let offset = row.done;
    for (;;) {
      const counter = { requests: 0 };
      let page: Awaited<ReturnType<MailchimpClient['members']>>;
      try {
        page = await deps.client.members(audience.account, offset, MAILCHIMP_PAGE_MAX, counter);
      } catch (error) {
        if (!(error instanceof MailchimpError)) throw error;
        if (passing(error)) await retryLater(row, error, counter.requests);
        throw new SyncFailed(error.reason);
      }
      await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        if (page.members.length) {
          await keepContacts(
            t,
            row.companyId,
            audience.id,
            page.members.map((m) => ({ email: m.email, name: m.fullName, phone: m.phone?.replace(/\D/g, '') || undefined, status: m.status, tags: m.tags })),
          );
        }
        await t.execute(sql`update mailchimp_label_syncs set total = ${page.total}, count = ${page.total}, done = done + ${page.members.length}, ok = ok + ${page.members.length},
          requests = requests + ${counter.requests}, heartbeat_at = now() where id = ${row.id}`);
      });
      await publish(row.id, true);
      offset += page.members.length;
      if (!page.members.length || offset >= page.total) break;
    }
  }

  return {
    out,
    publish,
    /** Runs (or resumes) a sync. 'busy': another sync of the company runs; the caller queues this one again later. */
    async run(syncId: string): Promise<'done' | 'busy'> {
      const status = await runSyncRun<SyncRow>({
        db,
        onFinished: deps.onFinished,
        claim: () => claim(syncId),
        pages: (row) => (row.kind === 'pull' ? runPull(row) : runLabels(row)),
        finish,
        async published(row) {
          publisher.forget(row.id);
          await publish(row.id);
        },
      });
      return status === 'busy' ? 'busy' : 'done';
    },
  };
}
export type MailchimpSync = ReturnType<typeof createMailchimpSync>;
