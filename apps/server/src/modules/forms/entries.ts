import { forConnectionTest } from '../../integrations/connection-test.js';
import { type CountryCode, type GravityFieldMap, gravityMessages, isPhoneNumber, normalisePhone, type RealtimeEvent, resources, zEmail } from '@mostrador/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Db, rowsOf } from '../../db/database.js';
import { gravityFormEntries } from '../../db/gravity-forms-tables.js';
import { gravityFormsTable } from '../../db/resource-tables.js';
import { createGravityClient, type FetchLike, type GravityClient, type GravityEntry } from '../../integrations/gravity-forms/client.js';
import { gravitySandboxFetch, isGravitySandbox } from '../../integrations/gravity-forms/sandbox.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { sanitizeText } from '../../lib/third-party-text.js';
import { repositoryOf } from '../../resources/crud.js';
import { channelTenant, createInbound } from '../conversations/inbound.js';
import { cleanName, type Detail, mergeDetails } from '../leads/merge.js';

// A Gravity Forms entry as the provider inbox dispatches it (webhooks/ → here): the form, its
// mapping and the lead the entry becomes. The feeds that store entries (the public webhook, the
// pull) are modules/gravity-forms, above the inbox (decision 0070).

/** The provider name of form entries in `webhook_events` (the dead-letter list shows them beside WhatsApp's). */
export const GRAVITY_PROVIDER = 'gravity-forms';

/** A form with its keys opened: only the integration code holds them. */
export interface FormCtx {
  id: string;
  companyId: string;
  name: string;
  formId: number;
  siteUrl: string;
  labelIds: string[];
  consumerKey: string;
  consumerSecret: string;
  fieldMap: GravityFieldMap;
}

export const formColumns = gravityFormsTable as unknown as Record<string, AnyPgColumn>;

/** Retry and pacing of the site clients; tests shorten the waits and the pages. */
export const gravityDefaults: { retries: number; backoffMs: number; timeoutMs: number; pageSize: number; fetch?: FetchLike } = {
  retries: 4,
  backoffMs: 500,
  timeoutMs: 30_000,
  pageSize: 50,
};

export function formOf(row: Record<string, unknown>, secrets: Pick<SecretBox, 'open'>): FormCtx {
  const open = (v: unknown) => (typeof v === 'string' && v ? secrets.open<string>(v) : '');
  return {
    id: String(row.id),
    companyId: String(row.companyId),
    name: String(row.name),
    formId: Number(row.formId),
    siteUrl: String(row.siteUrl),
    labelIds: Array.isArray(row.mostradorLabelIds) ? (row.mostradorLabelIds as string[]) : [],
    consumerKey: open(row.consumerKey),
    consumerSecret: open(row.consumerSecret),
    fieldMap: (row.fieldMap as GravityFieldMap | null) ?? {},
  };
}

/** One of the company's forms (404 when another company's or none). */
export async function loadForm(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string, id: string): Promise<FormCtx> {
  const [row] = await db
    .select()
    .from(gravityFormsTable)
    .where(and(eq(formColumns.companyId, companyId), eq(formColumns.id, id)));
  if (!row) throw new AppError('NOT_FOUND', 'El formulario no existe');
  return formOf(row as Record<string, unknown>, secrets);
}

/** The site's REST client: the sandbox in-process for `*.sandbox.test`, else HTTPS. */
export function clientFor(form: FormCtx, { test = false }: { test?: boolean } = {}): GravityClient {
  // a «Probar conexión» answers within seconds; a sync keeps its patient retries
  const policy = test ? forConnectionTest(gravityDefaults) : gravityDefaults;
  const keys = { consumerKey: form.consumerKey, consumerSecret: form.consumerSecret };
  return createGravityClient({
    siteUrl: form.siteUrl,
    ...keys,
    retries: policy.retries,
    backoffMs: policy.backoffMs,
    timeoutMs: policy.timeoutMs,
    fetch: isGravitySandbox(form.siteUrl) ? gravitySandboxFetch(form.companyId, form.siteUrl, keys) : gravityDefaults.fetch,
  });
}

/** What an entry says of the person, through the form's mapping, and what could not be kept. */
export interface MappedEntry {
  name?: string;
  telefono?: string;
  email?: string;
  message?: string;
  notes: string[];
}

const textOf = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(textOf).filter(Boolean).join(', ');
  return '';
};
const emailSchema = zEmail();

/**
 * An entry through the mapping: the name (a whole name field is read from its first and last
 * name inputs, `N.3` and `N.6`, as Gravity Forms stores them), the phone normalised with the
 * company's country (an invalid one is left out with a note), the e-mail lower-cased (likewise),
 * the message kept as written (at most 4,000 characters).
 */
export function mapEntry(entry: Record<string, unknown>, map: GravityFieldMap, country: CountryCode): MappedEntry {
  const value = (id?: string) => (id ? sanitizeText(textOf(entry[id])).trim() : '');
  let name = value(map.name);
  if (!name && map.name && !map.name.includes('.')) name = [value(`${map.name}.2`), value(`${map.name}.3`), value(`${map.name}.4`), value(`${map.name}.6`)].filter(Boolean).join(' ');
  if (!name) name = [value(map.firstName), value(map.lastName)].filter(Boolean).join(' ');
  const out: MappedEntry = { notes: [] };
  if (cleanName(name)) out.name = cleanName(name);
  const phoneText = value(map.phone);
  if (phoneText) {
    const telefono = normalisePhone(phoneText, country);
    if (telefono && isPhoneNumber(telefono)) out.telefono = telefono;
    else out.notes.push(gravityMessages.badPhone(phoneText));
  }
  const emailText = value(map.email);
  if (emailText) {
    const parsed = emailSchema.safeParse(emailText);
    if (parsed.success) out.email = parsed.data;
    else out.notes.push(gravityMessages.badEmail(emailText));
  }
  const message = value(map.message);
  if (message) out.message = message.slice(0, 4000);
  return out;
}

/** Gravity Forms' `date_created` ("2026-11-26 15:17:00", UTC) as an instant. */
export function submittedAtOf(entry: GravityEntry): Date | undefined {
  const raw = typeof entry.date_created === 'string' ? entry.date_created.trim() : '';
  if (!/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(raw)) return undefined;
  const d = new Date(`${raw.replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export type GravityOutcome = ({ status: 'processed' } | { status: 'ignored'; reason: string } | { status: 'failed'; reason: string }) & { publish?: RealtimeEvent[] };

/** Serialises work on one key inside the transaction (two entries of one person). */
const lockOn = (db: Db, key: string) => db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/**
 * The processing of one stored entry (the webhook job, a pull, a dead letter's «Reintentar»),
 * inside the event's transaction: the entry through the form's mapping (read now, so a retry
 * after fixing it uses the new one) becomes a lead. The person is the company's lead with the
 * same phone, else the same e-mail (any platform, a web lead first, then the oldest): the entry
 * is added to it — labels joined, a missing phone or e-mail filled, the message kept as a detail.
 * Otherwise a new web lead. Either way the person's clean lead is found by phone or e-mail (or
 * created) as an inbound message's is (decision 0013) and gets the detail and the labels. An
 * entry with neither a valid phone nor a valid e-mail makes no lead: it fails at once with the
 * reason (a dead letter, retried by hand after fixing the mapping).
 */
export function createEntryProcessor(secrets: Pick<SecretBox, 'seal' | 'open'>) {
  const inbound = createInbound(secrets);
  const leads = repositoryOf(resources.leads, secrets);

  return async function processEntry(tx: Db, event: { id: string; accountId: string; companyId: string | null; payload: unknown }): Promise<GravityOutcome> {
    // the company is the form's (its id is ours, unique across companies), never the payload's
    const [owner] = await rowsOf<{ company_id: string }>(tx, sql`select company_id from gravity_forms where id = ${event.accountId}::uuid`);
    const c = event.companyId ?? owner?.company_id;
    if (!c) return { status: 'ignored', reason: gravityMessages.formGone };
    const [row] = await tx.select().from(gravityFormsTable).where(and(eq(formColumns.companyId, c), eq(formColumns.id, event.accountId)));
    if (!row) return { status: 'ignored', reason: gravityMessages.formGone };
    const form = formOf(row as Record<string, unknown>, secrets);
    const [company] = await rowsOf<{ country: CountryCode }>(tx, sql`select country from companies where id = ${c}`);
    const entry = event.payload as GravityEntry;
    const entryId = Number(entry.id);
    const mapped = mapEntry(entry, form.fieldMap, company?.country ?? 'PE');
    const submittedAt = submittedAtOf(entry);
    const settle = (values: Partial<typeof gravityFormEntries.$inferInsert>) =>
      tx
        .insert(gravityFormEntries)
        .values({ companyId: c, formId: form.id, entryId, eventId: event.id, source: 'webhook', submittedAt: submittedAt ?? null, ...values })
        .onConflictDoUpdate({ target: [gravityFormEntries.formId, gravityFormEntries.entryId], set: { ...values, eventId: event.id, updatedAt: new Date() } });
    const seen = {
      name: mapped.name ?? null,
      telefono: mapped.telefono ?? null,
      email: mapped.email ?? null,
      message: mapped.message ?? null,
    };
    // the form's open screen reads its entries again once this commits
    const settled = (status: 'created' | 'merged' | 'rejected') => [{ type: 'gravity.entry' as const, formId: form.id, entryId, status }];
    if (!form.fieldMap.phone && !form.fieldMap.email) {
      await settle({ ...seen, status: 'rejected', reason: gravityMessages.noMapping, leadId: null });
      return { status: 'failed', reason: gravityMessages.noMapping, publish: settled('rejected') };
    }
    if (!mapped.telefono && !mapped.email) {
      const reason = [gravityMessages.noContact, ...mapped.notes].join('. ');
      await settle({ ...seen, status: 'rejected', reason, leadId: null });
      return { status: 'failed', reason, publish: settled('rejected') };
    }

    const when = (submittedAt ?? new Date()).toISOString();
    const detail: Detail = {
      ...(mapped.email ? { email: mapped.email } : {}),
      message: `Formulario «${form.name}» (entrada ${entryId})${mapped.message ? `: ${mapped.message}` : ''}`.slice(0, 4000),
      source: 'Gravity Forms',
      updatedAt: when,
    };
    if (mapped.telefono) await lockOn(tx, `${c}:lead-telefono:${mapped.telefono}`);
    if (mapped.email) await lockOn(tx, `${c}:lead-email:${mapped.email}`);
    const [found] = await rowsOf<{ id: string; name: string; telefono: string | null; email: string | null; details: Detail[] | null; clean_lead_id: string | null }>(
      tx,
      sql`select id, name, telefono, email, details, clean_lead_id from leads where company_id = ${c} and (
            ${mapped.telefono ?? null}::text is not null and telefono = ${mapped.telefono ?? null}
            or ${mapped.email ?? null}::text is not null and email = ${mapped.email ?? null})
          order by (telefono is not distinct from ${mapped.telefono ?? null}) desc, (platform = 'web') desc, created_at, id limit 1 for update`,
    );
    const name = mapped.name ?? found?.name ?? mapped.email ?? mapped.telefono ?? `Entrada ${entryId}`;
    const telefono = found?.telefono ?? mapped.telefono;
    const email = found?.email ?? mapped.email;
    const cleanLeadId = await inbound.cleanLeadFor(tx, channelTenant(c), { name, ...(telefono ? { telefono } : {}), ...(email ? { email } : {}) }, detail);
    if (form.labelIds.length) {
      await tx.execute(sql`update clean_leads set mostrador_labels = (select jsonb_agg(distinct x) from jsonb_array_elements_text(coalesce(mostrador_labels, '[]'::jsonb) || ${json(form.labelIds)}) x),
          updated_at = now() where company_id = ${c} and id = ${cleanLeadId}`);
    }
    let leadId: string;
    if (found) {
      leadId = found.id;
      await tx.execute(sql`update leads set
          telefono = coalesce(telefono, ${mapped.telefono ?? null}), email = coalesce(email, ${mapped.email ?? null}),
          mostrador_labels = (select jsonb_agg(distinct x) from jsonb_array_elements_text(coalesce(mostrador_labels, '[]'::jsonb) || ${json(form.labelIds)}) x),
          details = ${json(mergeDetails(found.details, detail))}, clean_lead_id = coalesce(clean_lead_id, ${cleanLeadId}::uuid), updated_at = now()
        where company_id = ${c} and id = ${found.id}`);
    } else {
      const input = resources.leads.input.parse({
        name,
        ...(telefono ? { telefono } : {}),
        ...(email ? { email } : {}),
        platform: 'web',
        status: 'sin-asignar',
        ...(form.labelIds.length ? { mostradorLabels: form.labelIds } : {}),
        cleanLeadId,
        details: [detail],
      });
      leadId = (await leads.create(tx, channelTenant(c), input))._id;
      // the person arrived when they sent the form (a pull brings entries of days ago): the lead is dated then
      if (submittedAt && submittedAt.getTime() < Date.now()) {
        await tx.execute(sql`update leads set created_at = ${submittedAt.toISOString()}::timestamptz where company_id = ${c} and id = ${leadId}`);
      }
    }
    await settle({ ...seen, status: found ? 'merged' : 'created', reason: mapped.notes.length ? mapped.notes.join('. ') : null, leadId });
    return { status: 'processed', publish: settled(found ? 'merged' : 'created') };
  };
}
export type EntryProcessor = ReturnType<typeof createEntryProcessor>;
