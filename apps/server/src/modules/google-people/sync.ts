import { GOOGLE_BATCH_MAX, type GooglePhoneOut, type GooglePhoneState, type GoogleSyncOut, googleMessages } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import { type Db, rowsOf } from '../../db/database.js';
import { type ContactIn, type GoogleCredentials, GoogleError, googleFailure, isSandboxClient, type PeopleClient, type PeopleSession } from '../../integrations/google/people.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { finishedRun, type OnSyncFinished, runSyncRun, SyncFailed } from '../../lib/sync-run.js';

/** A run that has not beaten for this long is taken as dead: another may take its sync. */
export const GOOGLE_SYNC_LEASE_SECONDS = 120;
/** Tries of one batch that Google answers 429 before the sync gives up (the leads left stay pending). */
const RATE_TRIES = 6;

/**
 * A lead's phone in E.164 for Google: written with `+` or `00`, as it is; else a number of the
 * company's country when it is one (987654321 in Perú), else the stored digits with their country
 * code (51987654321, as leads keep them).
 */
export function toE164(raw: string | null | undefined, country: string): string | undefined {
  if (!raw) return undefined;
  const text = raw.trim();
  const digits = text.replace(/\D/g, '');
  if (!digits) return undefined;
  const international = parsePhoneNumberFromString(`+${digits.replace(/^00/, '')}`);
  if (text.startsWith('+') || text.startsWith('00')) return international?.isValid() ? international.number : undefined;
  const local = parsePhoneNumberFromString(digits, country as CountryCode);
  if (local?.isValid()) return local.number;
  return international?.isValid() ? international.number : undefined;
}

type SyncRow = {
  id: string;
  company_id: string;
  telefono_id: string;
  status: string;
  total: number;
  done: number;
  created: number;
  failed: number;
  requests: number;
  cursor: string | null;
  in_flight: string[] | null;
  message: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
};
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : undefined);

export function syncOut(r: SyncRow): GoogleSyncOut {
  return {
    id: r.id,
    telefonoId: r.telefono_id,
    status: (['en-cola', 'en-curso', 'terminada', 'fallida'].includes(r.status) ? r.status : 'en-cola') as GoogleSyncOut['status'],
    total: r.total,
    done: r.done,
    created: r.created,
    failed: r.failed,
    requests: r.requests,
    ...(r.message ? { message: r.message } : {}),
    createdAt: iso(r.created_at) as string,
    ...(r.started_at ? { startedAt: iso(r.started_at) } : {}),
    ...(r.finished_at ? { finishedAt: iso(r.finished_at) } : {}),
  };
}

export interface PhoneRow {
  id: string;
  company_id: string;
  numero: string;
  google_contact_email: string | null;
  credenciales: unknown;
  status: string | null;
  reason: string | null;
  client_id_hint: string | null;
  connected_at: Date | string | null;
}

/** The phone with its Google row, in the company; undefined when it is not the company's. */
export async function loadPhone(db: Pick<Db, 'execute'>, companyId: string, telefonoId: string): Promise<PhoneRow | undefined> {
  const [row] = await rowsOf<PhoneRow & Record<string, unknown>>(
    db,
    sql`select t.id, t.company_id, t.numero, t.google_contact_email, t.credenciales, p.status, p.reason, p.client_id_hint, p.connected_at
          from telefonos t left join google_people_phones p on p.telefono_id = t.id
         where t.company_id = ${companyId} and t.id = ${telefonoId}`,
  );
  return row;
}

/** The phone's sealed credentials opened, or undefined (none, or sealed with another key). */
export function credentialsOf(secrets: Pick<SecretBox, 'open' | 'isSealed'>, sealed: unknown): Partial<GoogleCredentials> | undefined {
  if (!secrets.isSealed(sealed)) return undefined;
  try {
    const c = secrets.open<Partial<GoogleCredentials>>(sealed as string);
    return c && typeof c === 'object' ? c : undefined;
  } catch {
    return undefined;
  }
}

export function stateOf(row: Pick<PhoneRow, 'status'>, creds: Partial<GoogleCredentials> | undefined): GooglePhoneState {
  if (!creds?.clientId || !creds.clientSecret) return 'sin-conectar';
  if (row.status === 'reconectar') return 'reconectar';
  if (creds.refresh_token || creds.access_token) return 'conectado';
  return 'falta-autorizar';
}

export const clientIdHint = (clientId: string) => (clientId.length > 16 ? `${clientId.slice(0, 12)}…` : clientId);

/** Every phone of the company (or one) as the screens show it: its Google state, counts and last sync. */
export async function phonesOut(db: Pick<Db, 'execute'>, secrets: Pick<SecretBox, 'open' | 'isSealed'>, companyId: string, telefonoId?: string): Promise<GooglePhoneOut[]> {
  const phones = await rowsOf<PhoneRow & { leads: number; synced: number } & Record<string, unknown>>(
    db,
    sql`select t.id, t.company_id, t.numero, t.google_contact_email, t.credenciales, p.status, p.reason, p.client_id_hint, p.connected_at,
               (select count(*)::int from leads l where l.company_id = t.company_id and l.telefono_id = t.id) as leads,
               (select count(*)::int from google_contacts g where g.telefono_id = t.id and g.resource_name is not null) as synced
          from telefonos t left join google_people_phones p on p.telefono_id = t.id
         where t.company_id = ${companyId} ${telefonoId ? sql`and t.id = ${telefonoId}` : sql``}
         order by t.numero, t.id`,
  );
  const syncs = phones.length
    ? await rowsOf<SyncRow & Record<string, unknown>>(
        db,
        sql`select distinct on (telefono_id) * from google_contact_syncs
             where company_id = ${companyId} ${telefonoId ? sql`and telefono_id = ${telefonoId}` : sql``}
             order by telefono_id, created_at desc, id desc`,
      )
    : [];
  const lastOf = new Map(syncs.map((s) => [s.telefono_id, s]));
  return phones.map((p) => {
    const creds = credentialsOf(secrets, p.credenciales);
    const state = stateOf(p, creds);
    const last = lastOf.get(p.id);
    return {
      telefonoId: p.id,
      numero: p.numero,
      state,
      ...(p.google_contact_email ? { googleContactEmail: p.google_contact_email } : {}),
      ...(p.reason && state !== 'conectado' ? { reason: p.reason } : {}),
      ...(creds?.clientId ? { clientIdHint: p.client_id_hint ?? clientIdHint(creds.clientId) } : {}),
      sandbox: !!creds?.clientId && isSandboxClient(creds.clientId),
      ...(p.connected_at && state === 'conectado' ? { connectedAt: iso(p.connected_at) } : {}),
      leads: p.leads,
      synced: p.synced,
      ...(last ? { lastSync: syncOut(last) } : {}),
    };
  });
}

/** The leads of a phone not yet in its Google contacts. */
export async function pendingCount(db: Pick<Db, 'execute'>, companyId: string, telefonoId: string): Promise<number> {
  const [r] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from leads l where l.company_id = ${companyId} and l.telefono_id = ${telefonoId}
          and not exists (select 1 from google_contacts g where g.telefono_id = ${telefonoId} and g.lead_id = l.id and g.resource_name is not null)`,
  );
  return r?.n ?? 0;
}

export interface SyncDeps {
  db: Db;
  secrets: Pick<SecretBox, 'seal' | 'open' | 'isSealed'>;
  client: PeopleClient;
  publish?: (companyId: string, sync: GoogleSyncOut) => Promise<void>;
  /** Waits (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
  /** First wait after a 429 without Retry-After, doubled each time (1 s). */
  backoffMs?: number;
  onFinished?: OnSyncFinished;
}

type Lead = { id: string; name: string; telefono: string | null; email: string | null };
type Outcome = { leadId: string; resourceName?: string; problem?: string };

/**
 * Runs one «Sincronizar con Google» of a phone (decision 0052): its leads without a Google
 * contact, 200 at a time in lead-id order, each batch's resourceNames kept with the sync's counts
 * and cursor in one transaction, so a run cut anywhere resumes where it was and never creates a
 * lead twice (a batch sent but not recorded is looked up by its external ids first). A 429 waits
 * (Retry-After, else 1 s doubling) and tries the batch again; a 400 splits the batch to find the
 * contacts Google refuses; a lost grant marks the phone «Reconectar con Google». On the sync-run
 * engine (lib/sync-run.ts); its job is in jobs.ts.
 */
export async function runSync(deps: SyncDeps, syncId: string): Promise<'done' | 'failed' | 'gone' | 'busy'> {
  const { db } = deps;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const publish = async (r: SyncRow) => {
    await deps.publish?.(r.company_id, syncOut(r)).catch(() => undefined);
  };
  // the sync as its last commit left it (each batch's record answers it)
  let row: SyncRow;
  let requests = 0;
  let keepTokens = async () => {};
  let ended: SyncRow;

  return runSyncRun<SyncRow>({
    db,
    onFinished: deps.onFinished,
    async claim() {
      const claimed = await claim(db, syncId);
      if (claimed === 'gone' || claimed === 'busy') return claimed;
      row = claimed;
      await publish(row);
      return row;
    },
    async pages() {
      const phone = await loadPhone(db, row.company_id, row.telefono_id);
      const creds = phone ? credentialsOf(deps.secrets, phone.credenciales) : undefined;
      if (!phone || !creds?.clientId || !creds.clientSecret || !(creds.refresh_token || creds.access_token) || phone.status === 'reconectar') {
        throw new SyncFailed(phone?.status === 'reconectar' ? (phone.reason ?? googleMessages.invalidGrant) : googleMessages.notConnected);
      }
      const [company] = await rowsOf<{ country: string }>(db, sql`select country from companies where id = ${row.company_id}`);
      const country = company?.country ?? 'PE';

      let current: GoogleCredentials = creds as GoogleCredentials;
      let tokensChanged = false;
      const session: PeopleSession = deps.client.session(current, (tokens) => {
        // a refresh answers no refresh_token: the kept one stays
        current = { ...current, ...tokens, refresh_token: tokens.refresh_token ?? current.refresh_token };
        tokensChanged = true;
      });
      keepTokens = async () => {
        if (!tokensChanged) return;
        tokensChanged = false;
        await db.execute(sql`update telefonos set credenciales = ${JSON.stringify(deps.secrets.seal(current))}::jsonb, updated_at = now()
                              where id = ${row.telefono_id} and company_id = ${row.company_id}`);
      };

      // a batch sent by a run that died before recording it: find what Google made of it
      if (row.in_flight?.length) {
        requests++;
        const found = await withRateRetry(() => session.findLeads(new Set(row.in_flight ?? [])), sleep, deps.backoffMs, () => requests++);
        const outcomes: Outcome[] = [...found].map(([leadId, resourceName]) => ({ leadId, resourceName }));
        row = await record(db, row, outcomes, outcomes.length, requests, row.cursor);
        requests = 0;
        await publish(row);
      }
      for (;;) {
        const leads = await rowsOf<Lead & Record<string, unknown>>(
          db,
          sql`select l.id, l.name, l.telefono, l.email from leads l
               where l.company_id = ${row.company_id} and l.telefono_id = ${row.telefono_id} ${row.cursor ? sql`and l.id > ${row.cursor}` : sql``}
                 and not exists (select 1 from google_contacts g where g.telefono_id = ${row.telefono_id} and g.lead_id = l.id and g.resource_name is not null)
               order by l.id limit ${GOOGLE_BATCH_MAX}`,
        );
        if (!leads.length) break;
        const outcomes: Outcome[] = [];
        const contacts: ContactIn[] = [];
        for (const l of leads) {
          const phoneE164 = toE164(l.telefono, country);
          if (!phoneE164) outcomes.push({ leadId: l.id, problem: l.telefono ? googleMessages.badPhone : googleMessages.noPhone });
          else contacts.push({ leadId: l.id, name: l.name, phone: phoneE164, ...(l.email ? { email: l.email } : {}) });
        }
        if (contacts.length) {
          // recorded before the call: a run cut during it looks these up instead of creating them again
          await db.execute(sql`update google_contact_syncs set in_flight = ${JSON.stringify(contacts.map((c) => c.leadId))}::jsonb, heartbeat_at = now() where id = ${row.id}`);
          outcomes.push(...(await createAll(session, contacts, sleep, deps.backoffMs, () => requests++)));
        }
        row = await record(db, row, outcomes, leads.length, requests, leads[leads.length - 1].id);
        requests = 0;
        await keepTokens();
        await publish(row);
      }
      await keepTokens();
    },
    async onError(_claimed, error) {
      await keepTokens().catch(() => undefined);
      if (!(error instanceof GoogleError)) {
        // not Google's answer (the database, a bug): the job is tried again and resumes from the cursor
        await db.execute(sql`update google_contact_syncs set heartbeat_at = null, requests = requests + ${requests} where id = ${row.id}`).catch(() => undefined);
        return { retry: error };
      }
      if (requests) await db.execute(sql`update google_contact_syncs set requests = requests + ${requests} where id = ${row.id}`);
      if (error.kind === 'reauth') {
        await db.execute(sql`insert into google_people_phones (telefono_id, company_id, status, reason) values (${row.telefono_id}, ${row.company_id}, 'reconectar', ${error.reason})
          on conflict (telefono_id) do update set status = 'reconectar', reason = excluded.reason, updated_at = now()`);
      }
      return { fail: error.reason };
    },
    async finish(tx, _claimed, outcome) {
      const message = outcome.status === 'done' ? googleMessages.done(row.created, row.failed) : outcome.message;
      const [out] = await rowsOf<SyncRow & Record<string, unknown>>(
        tx,
        sql`update google_contact_syncs set status = ${outcome.status === 'done' ? 'terminada' : 'fallida'}, message = ${message}, finished_at = now(), heartbeat_at = null
             where id = ${row.id} returning *`,
      );
      ended = out ?? row;
      return finishedRun('google-people', outcome, { id: ended.id, companyId: ended.company_id, message: ended.message }, {
        total: ended.total,
        done: ended.done,
        created: ended.created,
        failed: ended.failed,
        requests: ended.requests,
      });
    },
    async published() {
      await publish(ended);
    },
  });
}

/** One batch created, splitting it when Google refuses it (400) to name the contacts at fault; 429s waited out. */
async function createAll(session: PeopleSession, contacts: ContactIn[], sleep: (ms: number) => Promise<void>, backoffMs = 1000, counted: () => void): Promise<Outcome[]> {
  try {
    const created = await withRateRetry(() => session.batchCreate(contacts), sleep, backoffMs, counted, true);
    const byLead = new Map(created.map((c) => [c.leadId, c.resourceName]));
    return contacts.map((c) => (byLead.has(c.leadId) ? { leadId: c.leadId, resourceName: byLead.get(c.leadId) } : { leadId: c.leadId, problem: googleMessages.refused }));
  } catch (error) {
    const g = googleFailure(error);
    if (g.kind !== 'refused') throw g;
    if (contacts.length === 1) return [{ leadId: contacts[0].leadId, problem: googleMessages.refused }];
    const half = Math.ceil(contacts.length / 2);
    return [...(await createAll(session, contacts.slice(0, half), sleep, backoffMs, counted)), ...(await createAll(session, contacts.slice(half), sleep, backoffMs, counted))];
  }
}

async function withRateRetry<T>(call: () => Promise<T>, sleep: (ms: number) => Promise<void>, backoffMs = 1000, counted: () => void, countFirst = false): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (countFirst || attempt > 0) counted();
    try {
      return await call();
    } catch (error) {
      const g = googleFailure(error);
      if (g.kind !== 'rate' || attempt + 1 >= RATE_TRIES) throw g;
      const wait = Math.min(60_000, g.detail.retryAfterMs ?? backoffMs * 2 ** attempt);
      await sleep(wait + Math.floor(Math.random() * Math.min(250, backoffMs)));
    }
  }
}

/** A batch's outcomes with the sync's counts and cursor, in one transaction. */
async function record(db: Db, row: SyncRow, outcomes: Outcome[], seen: number, requests: number, cursor: string | null): Promise<SyncRow> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    if (outcomes.length) {
      await t.execute(sql`insert into google_contacts (telefono_id, lead_id, company_id, resource_name, problem)
        select ${row.telefono_id}, x."leadId", ${row.company_id}, x."resourceName", x.problem
          from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as x("leadId" uuid, "resourceName" text, problem text)
        on conflict (telefono_id, lead_id) do update set
          resource_name = coalesce(google_contacts.resource_name, excluded.resource_name),
          problem = case when coalesce(google_contacts.resource_name, excluded.resource_name) is null then excluded.problem end,
          updated_at = now()`);
    }
    const created = outcomes.filter((o) => o.resourceName).length;
    const failed = outcomes.filter((o) => o.problem).length;
    const [out] = await rowsOf<SyncRow & Record<string, unknown>>(
      t,
      sql`update google_contact_syncs set done = done + ${seen}, created = created + ${created}, failed = failed + ${failed}, requests = requests + ${requests},
            cursor = ${cursor}, in_flight = null, heartbeat_at = now(), total = greatest(total, done + ${seen})
          where id = ${row.id} returning *`,
    );
    return out;
  });
}

/** Takes the sync for this run: 'gone' when finished, 'busy' while a live run of the same phone holds it. */
async function claim(db: Db, syncId: string): Promise<SyncRow | 'gone' | 'busy'> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [first] = await rowsOf<{ telefono_id: string }>(t, sql`select telefono_id from google_contact_syncs where id = ${syncId}`);
    if (!first) return 'gone' as const;
    await t.execute(sql`select pg_advisory_xact_lock(hashtext(${`google-sync:${first.telefono_id}`}))`);
    const [row] = await rowsOf<SyncRow & { heartbeat_at: Date | string | null } & Record<string, unknown>>(t, sql`select * from google_contact_syncs where id = ${syncId}`);
    if (!row || row.status === 'terminada' || row.status === 'fallida') return 'gone' as const;
    const live = await rowsOf<{ id: string }>(
      t,
      sql`select id from google_contact_syncs where telefono_id = ${row.telefono_id} and status = 'en-curso'
            and heartbeat_at > now() - make_interval(secs => ${GOOGLE_SYNC_LEASE_SECONDS}) limit 1`,
    );
    if (live.length) return 'busy' as const;
    const [claimed] = await rowsOf<SyncRow & Record<string, unknown>>(
      t,
      sql`update google_contact_syncs set status = 'en-curso', started_at = coalesce(started_at, now()), heartbeat_at = now(), message = null where id = ${syncId} returning *`,
    );
    return claimed;
  });
}
