import {
  type ChatSummary,
  type CountryCode,
  countries,
  countryOfPhone,
  DUPLICATES_MAX,
  type DuplicateCandidate,
  type DuplicateReason,
  LEAD_DETAILS_MAX,
  type LeadPlatform,
  type LeadStatus,
  type MergeResult,
  normalisePhone,
  type Person,
  type PersonLead,
  personMessages,
  type PersonPatch,
  resources,
} from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { containsPattern } from '../../lib/list.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Tenant } from '../../plugins/auth.js';
import { repositoryOf } from '../../resources/crud.js';
import { textArray } from '../../resources/repository.js';
import { inboxScope, ownerCondition, visibleIds } from '../../resources/owned-rows.js';
import type { ChatEffect } from '../conversations/effects.js';
import { chatsOfCleanLead, chatSummary, notFound } from '../chats/queries.js';
import { byNewest, type Detail } from '../leads/merge.js';

/**
 * The person behind a chat (issue 11, decision 0029): the clean lead, every lead of that
 * person with their chats, and the contactos sharing a phone or e-mail; editing it; the people
 * who may be the same one; and the merge of a duplicate into a kept person, in one transaction.
 * Every statement names the caller's company: another company's ids do not exist here (404).
 * A caller who sees only their own and the unassigned leads (decision 0026) sees only those of
 * the person, and only those people among the duplicates; naming another agent's person is a 404.
 */

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
const unique = <T>(values: ReadonlyArray<T | null | undefined>): T[] => [...new Set(values.filter((v): v is T => v !== null && v !== undefined && v !== ''))];
/** Serialises work on one key inside the transaction: the same keys inbound messages lock (conversations/inbound.ts). */
const lockOn = (db: Db, key: string) => db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);

interface CleanLeadRow extends Row {
  id: string;
  name: string;
  telefono: string | null;
  email: string | null;
  status: LeadStatus;
  agente_id: string | null;
  mostrador_labels: string[] | null;
  details: Detail[] | null;
  contact_frequency_days: number | null;
  opt_out: boolean | null;
  created_at: Date;
  updated_at: Date;
}
const cleanLeadColumns = sql`id, name, telefono, email, status, agente_id, mostrador_labels, details, contact_frequency_days, opt_out, created_at, updated_at`;

interface LeadRow extends Row {
  id: string;
  name: string;
  platform: LeadPlatform;
  telefono: string | null;
  email: string | null;
  status: LeadStatus | null;
  agente_id: string | null;
  mostrador_labels: string[] | null;
  clean_lead_id: string | null;
  created_at: Date;
}
const leadColumns = sql`id, name, platform, telefono, email, status, agente_id, mostrador_labels, clean_lead_id, created_at`;

/**
 * The forms one phone is stored in: with its country code (normalised, SPEC §5) and without it
 * (a contact typed by hand as 987654321), so a match is an index lookup on the stored text.
 */
export function phoneForms(phones: readonly string[], country: CountryCode): string[] {
  const out = new Set<string>();
  for (const raw of phones) {
    const full = normalisePhone(raw, country);
    if (!full) continue;
    out.add(full);
    const dial = countries.find((c) => c.code === countryOfPhone(full))?.dial;
    if (dial && full.length - dial.length >= 8) out.add(full.slice(dial.length));
  }
  return [...out];
}

/** The person's details and the duplicate's, newest first, without repeats, at most LEAD_DETAILS_MAX. */
function mergedDetails(kept: Detail[] | null, duplicate: Detail[] | null, note: Detail): Detail[] {
  const seen = new Set<string>();
  return [note, ...(kept ?? []), ...(duplicate ?? [])]
    .filter((d) => {
      const key = JSON.stringify([d.updatedAt, d.message ?? '', d.email ?? '', d.source ?? '']);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort(byNewest)
    .slice(0, LEAD_DETAILS_MAX);
}

/** The tenant's row scope on a table's rows (`alias.column`), or true when they see every row. */
const scopeOf = (key: 'leads' | 'clean-leads', tenant: Tenant, alias: string): SQL =>
  ownerCondition(key, tenant, (column) => sql.raw(`${alias}.${column}`)) ?? sql`true`;

export function createPeople(secrets: Pick<SecretBox, 'seal'>) {
  const cleanLeads = repositoryOf(resources['clean-leads'], secrets);

  /** A 404 for a person the caller may not see (another agent's, decision 0026). */
  async function assertVisible(db: Db, tenant: Tenant, ids: string[], message: string = personMessages.notFound) {
    const visible = await visibleIds(db, tenant, 'clean-leads', ids);
    if (ids.some((id) => !visible.has(id))) throw new AppError('NOT_FOUND', message);
  }

  async function countryOf(db: Db, companyId: string): Promise<CountryCode> {
    const [row] = await rowsOf<{ country: CountryCode }>(db, sql`select country from companies where id = ${companyId}`);
    return row?.country ?? 'PE';
  }

  /**
   * The clean lead `id`, or the one it was merged into (following merges), or undefined.
   * `lock`: the row is locked for the transaction.
   */
  async function cleanLeadOf(db: Db, companyId: string, id: string): Promise<{ row: CleanLeadRow; mergedFrom?: string } | undefined> {
    let current = id;
    for (let hop = 0; hop < 20; hop++) {
      const [row] = await rowsOf<CleanLeadRow>(db, sql`select ${cleanLeadColumns} from clean_leads where company_id = ${companyId} and id = ${current}`);
      if (row) return { row, mergedFrom: current === id ? undefined : id };
      const [merge] = await rowsOf<{ kept_id: string }>(
        db,
        sql`select kept_id from person_merges where company_id = ${companyId} and duplicate_id = ${current}`,
      );
      if (!merge) return undefined;
      current = merge.kept_id;
    }
    return undefined;
  }

  /** Contactos with one of the phones (in either stored form) or e-mails. */
  async function contactsOf(db: Db, companyId: string, country: CountryCode, phones: string[], emails: string[]) {
    const forms = phoneForms(phones, country);
    if (forms.length === 0 && emails.length === 0) return [];
    const rows = await rowsOf<{ id: string; nombre: string; telefono: string; email: string | null; telefono_id: string | null }>(
      db,
      sql`select id, nombre, telefono, email, telefono_id from contactos where company_id = ${companyId}
          and (telefono = any(${textArray(forms)}) or email = any(${textArray(emails)})) order by nombre, id limit 50`,
    );
    return rows.map((r) => ({ _id: r.id, nombre: r.nombre, telefono: r.telefono, email: opt(r.email), telefonoId: opt(r.telefono_id) }));
  }

  function leadOut(l: LeadRow, chats: ChatSummary[]): PersonLead {
    return {
      _id: l.id,
      name: l.name,
      platform: l.platform,
      telefono: opt(l.telefono),
      email: opt(l.email),
      status: opt(l.status),
      agenteId: opt(l.agente_id),
      mostradorLabels: opt(l.mostrador_labels),
      createdAt: iso(l.created_at),
      chats: chats.filter((c) => c.lead?._id === l.id),
    };
  }

  /** The person as one answer: the clean lead, its leads with their chats, and the contactos that match. */
  async function personOf(db: Db, tenant: Tenant, cl: CleanLeadRow, mergedFrom?: string): Promise<Person> {
    const companyId = tenant.companyId;
    const leads = await rowsOf<LeadRow>(
      db,
      sql`select ${leadColumns} from leads l where company_id = ${companyId} and clean_lead_id = ${cl.id} and ${scopeOf('leads', tenant, 'l')}
          order by created_at, id limit 200`,
    );
    const chats = await chatsOfCleanLead(db, companyId, cl.id, inboxScope(tenant));
    const telefonos = unique([cl.telefono, ...leads.map((l) => l.telefono)]);
    const emails = unique([cl.email, ...leads.map((l) => l.email)]);
    return {
      _id: cl.id,
      name: cl.name,
      telefono: opt(cl.telefono),
      email: opt(cl.email),
      telefonos,
      emails,
      mostradorLabels: unique([...(cl.mostrador_labels ?? []), ...leads.flatMap((l) => l.mostrador_labels ?? [])]),
      status: cl.status,
      agenteId: opt(cl.agente_id) ?? leads.find((l) => l.agente_id)?.agente_id ?? undefined,
      details: cl.details ?? undefined,
      leads: leads.map((l) => leadOut(l, chats)),
      contactos: await contactsOf(db, companyId, await countryOf(db, companyId), telefonos, emails),
      mergedFrom,
      createdAt: iso(cl.created_at),
      updatedAt: iso(cl.updated_at),
    };
  }

  /** A lead that belongs to no person (made by hand, or its clean lead was deleted): the person is that lead alone. */
  async function loneLead(db: Db, companyId: string, lead: LeadRow): Promise<Person> {
    const chatIds = await rowsOf<{ id: string }>(db, sql`select id from chats where company_id = ${companyId} and lead_id = ${lead.id} limit 50`);
    const chats = await Promise.all(chatIds.map((c) => chatSummary(db, companyId, c.id)));
    const telefonos = unique([lead.telefono]);
    const emails = unique([lead.email]);
    return {
      name: lead.name,
      telefonos,
      emails,
      mostradorLabels: lead.mostrador_labels ?? [],
      status: opt(lead.status),
      agenteId: opt(lead.agente_id),
      leads: [leadOut(lead, chats)],
      contactos: await contactsOf(db, companyId, await countryOf(db, companyId), telefonos, emails),
    };
  }

  async function personById(db: Db, tenant: Tenant, id: string): Promise<Person> {
    const found = await cleanLeadOf(db, tenant.companyId, id);
    if (!found) throw new AppError('NOT_FOUND', personMessages.notFound);
    await assertVisible(db, tenant, [found.row.id]);
    return personOf(db, tenant, found.row, found.mergedFrom);
  }

  async function leadRow(db: Db, companyId: string, leadId: string): Promise<LeadRow> {
    const [lead] = await rowsOf<LeadRow>(db, sql`select ${leadColumns} from leads where company_id = ${companyId} and id = ${leadId}`);
    if (!lead) throw notFound.lead();
    return lead;
  }

  /** The chats and leads of a person, to tell the company's browsers after a change. */
  async function effectsOf(db: Db, companyId: string, cleanLeadId: string) {
    const leads = await rowsOf<{ id: string }>(db, sql`select id from leads where company_id = ${companyId} and clean_lead_id = ${cleanLeadId} limit 200`);
    const chats = await rowsOf<{ id: string }>(
      db,
      sql`select id from chats where company_id = ${companyId} and lead_id in (select id from leads where company_id = ${companyId} and clean_lead_id = ${cleanLeadId}) limit 200`,
    );
    return { leadIds: leads.map((l) => l.id), chatEffects: chats.map((c): ChatEffect => ({ type: 'chat.updated', chatId: c.id })) };
  }

  return {
    /** GET /people: by chat, lead or clean lead. */
    async find(db: Db, tenant: Tenant, q: { chatId?: string; leadId?: string; cleanLeadId?: string }): Promise<Person> {
      const c = tenant.companyId;
      if (q.cleanLeadId) return personById(db, tenant, q.cleanLeadId);
      let leadId = q.leadId;
      if (q.chatId) {
        const [chat] = await rowsOf<{ lead_id: string | null }>(db, sql`select lead_id from chats where company_id = ${c} and id = ${q.chatId}`);
        if (!chat) throw notFound.chat();
        if (!chat.lead_id) throw new AppError('NOT_FOUND', 'Esta conversación no tiene un lead asociado');
        leadId = chat.lead_id;
      }
      const lead = await leadRow(db, c, leadId as string);
      const found = lead.clean_lead_id ? await cleanLeadOf(db, c, lead.clean_lead_id) : undefined;
      return found ? personOf(db, tenant, found.row) : loneLead(db, c, lead);
    },

    /**
     * PUT /people/:id: the name goes to the person, every lead of theirs and their chats (one
     * name everywhere); the phone (normalised) and e-mail to the person's own record; the labels
     * to the person and every lead of theirs. Answers the person and what to tell the browsers.
     */
    async update(db: Db, tenant: Tenant, id: string, patch: PersonPatch) {
      const c = tenant.companyId;
      const country = await countryOf(db, c);
      const input: Record<string, unknown> = {};
      if (patch.name !== undefined) input.name = patch.name;
      if (patch.telefono !== undefined) {
        const typed = patch.telefono?.trim() ?? '';
        const telefono = typed ? normalisePhone(typed, country) : null;
        if (typed && !telefono) throw new AppError('VALIDATION', personMessages.phone, [{ path: 'telefono', msg: personMessages.phone }]);
        input.telefono = telefono;
      }
      if (patch.email !== undefined) input.email = patch.email || null;
      if (patch.mostradorLabels !== undefined) input.mostradorLabels = [...new Set(patch.mostradorLabels)];
      await assertVisible(db, tenant, [id]);
      await db.transaction(async (tx) => {
        const [row] = await rowsOf<{ id: string }>(tx, sql`select id from clean_leads where company_id = ${c} and id = ${id} for update`);
        if (!row) {
          const merged = await cleanLeadOf(tx, c, id);
          throw merged ? new AppError('CONFLICT', personMessages.keptMerged) : new AppError('NOT_FOUND', personMessages.notFound);
        }
        // the generic update checks the labels are the company's
        await cleanLeads.update(tx, tenant, id, input);
        if (input.name !== undefined) {
          await tx.execute(sql`update leads set name = ${input.name as string}, updated_at = now() where company_id = ${c} and clean_lead_id = ${id}`);
          await tx.execute(sql`update chats set contact_name = ${input.name as string}, updated_at = now()
              where company_id = ${c} and lead_id in (select id from leads where company_id = ${c} and clean_lead_id = ${id})`);
        }
        if (input.mostradorLabels !== undefined) {
          await tx.execute(sql`update leads set mostrador_labels = ${JSON.stringify(input.mostradorLabels)}::jsonb, updated_at = now()
              where company_id = ${c} and clean_lead_id = ${id}`);
        }
      });
      return { person: await personById(db, tenant, id), ...(await effectsOf(db, c, id)) };
    },

    /**
     * GET /people/:id/duplicates: other people of the company sharing one of this person's
     * phones (either stored form) or e-mails, on their own record or on one of their leads;
     * with `filter`, any person whose name, phone or e-mail contains it. At most DUPLICATES_MAX.
     */
    async duplicates(db: Db, tenant: Tenant, id: string, filter?: string): Promise<DuplicateCandidate[]> {
      const c = tenant.companyId;
      const person = await personById(db, tenant, id);
      if (person._id !== id) throw new AppError('CONFLICT', personMessages.keptMerged);
      const forms = phoneForms(person.telefonos, await countryOf(db, c));
      const emails = person.emails;
      const phones = textArray(forms);
      const mails = textArray(emails);
      let rows: Array<{ id: string; name: string; telefono: string | null; email: string | null; created_at: Date }>;
      if (filter) {
        const pattern = containsPattern(filter);
        const digits = filter.replace(/\D/g, '');
        const phonePattern = /^[\d\s+().-]+$/.test(filter) && digits.length >= 3 ? containsPattern(digits) : pattern;
        rows = await rowsOf(
          db,
          sql`select id, name, telefono, email, created_at from clean_leads cl where company_id = ${c} and id <> ${id} and ${scopeOf('clean-leads', tenant, 'cl')}
              and (name ilike ${pattern} or telefono ilike ${phonePattern} or email ilike ${pattern})
              order by updated_at desc, id limit ${DUPLICATES_MAX}`,
        );
      } else {
        if (forms.length === 0 && emails.length === 0) return [];
        rows = await rowsOf(
          db,
          sql`select id, name, telefono, email, created_at from clean_leads cl where company_id = ${c} and id <> ${id} and ${scopeOf('clean-leads', tenant, 'cl')} and id in (
                select id from clean_leads where company_id = ${c} and (telefono = any(${phones}) or email = any(${mails}))
                union
                select clean_lead_id from leads where company_id = ${c} and clean_lead_id is not null and (telefono = any(${phones}) or email = any(${mails})))
              order by updated_at desc, id limit ${DUPLICATES_MAX}`,
        );
      }
      if (rows.length === 0) return [];
      const ids = rows.map((r) => r.id);
      // what each one has: its channels, leads, chats and messages; which of its phones and e-mails match
      const stats = await rowsOf<{ id: string; platform: LeadPlatform; leads: number; chats: number; messages: number; by_phone: boolean; by_email: boolean }>(
        db,
        sql`select l.clean_lead_id as id, l.platform, count(distinct l.id)::int as leads, count(distinct ch.id)::int as chats,
              count(m.id)::int as messages, bool_or(l.telefono = any(${phones})) as by_phone, bool_or(l.email = any(${mails})) as by_email
            from leads l
            left join chats ch on ch.company_id = l.company_id and ch.lead_id = l.id
            left join chat_messages m on m.company_id = ch.company_id and m.chat_id = ch.id
            where l.company_id = ${c} and l.clean_lead_id = any(${textArray(ids)}::uuid[])
            group by l.clean_lead_id, l.platform`,
      );
      return rows.map((r) => {
        const own = stats.filter((s) => s.id === r.id);
        const reasons: DuplicateReason[] = [];
        if ((r.telefono && forms.includes(r.telefono)) || own.some((s) => s.by_phone)) reasons.push('telefono');
        if ((r.email && emails.includes(r.email)) || own.some((s) => s.by_email)) reasons.push('email');
        if (filter) reasons.push('busqueda');
        return {
          _id: r.id,
          name: r.name,
          telefono: opt(r.telefono),
          email: opt(r.email),
          reasons,
          platforms: unique(own.map((s) => s.platform)),
          leads: own.reduce((n, s) => n + s.leads, 0),
          chats: own.reduce((n, s) => n + s.chats, 0),
          messages: own.reduce((n, s) => n + s.messages, 0),
          createdAt: iso(r.created_at),
        };
      });
    },

    /**
     * POST /people/:id/merge: the duplicate person joins the kept one, in one transaction.
     * Every lead of the duplicate (with its chats, messages and ad referrals, which hang from
     * the lead) moves to the kept person; labels are joined, details merged newest first, an
     * empty phone, e-mail, agent or frequency of the kept person taken from the duplicate, an
     * opt-out kept if either asked for it; audience memberships move; the duplicate's clean lead
     * is removed and the merge recorded. A retried or concurrent call for the same duplicate
     * finds that record and changes nothing (alreadyMerged).
     */
    async merge(db: Db, tenant: Tenant, keptId: string, duplicateId: string): Promise<MergeResult & { leadIds: string[]; chatEffects: ChatEffect[] }> {
      const c = tenant.companyId;
      if (keptId === duplicateId) throw new AppError('BAD_REQUEST', personMessages.self);
      // another agent's people are not the caller's to merge (a merged one is gone: its record answers below)
      const existing = await rowsOf<{ id: string }>(db, sql`select id from clean_leads where company_id = ${c} and id in (${keptId}, ${duplicateId})`);
      const visible = await visibleIds(db, tenant, 'clean-leads', existing.map((r) => r.id));
      for (const { id } of existing) {
        if (!visible.has(id)) throw new AppError('NOT_FOUND', id === duplicateId ? personMessages.duplicateNotFound : personMessages.notFound);
      }
      const outcome = await db.transaction(async (tx) => {
        // the keys inbound messages of these people lock first (their platform identities, then their phones):
        // a message of the duplicate waits for the merge and then finds its lead on the kept person
        const identities = await rowsOf<{ key: string }>(
          tx,
          sql`select li.company_id || ':' || li.platform || ':' || li.platform_user_id as key
              from lead_identities li join leads l on l.company_id = li.company_id and l.id = li.lead_id
              where li.company_id = ${c} and l.clean_lead_id = ${duplicateId}`,
        );
        for (const key of unique(identities.map((i) => i.key)).sort()) await lockOn(tx, key);
        const phones = await rowsOf<{ telefono: string }>(
          tx,
          sql`select telefono from clean_leads where company_id = ${c} and id in (${keptId}, ${duplicateId}) and telefono is not null`,
        );
        for (const p of unique(phones.map((r) => r.telefono)).sort()) await lockOn(tx, `${c}:telefono:${p}`);

        const locked = await rowsOf<CleanLeadRow>(
          tx,
          sql`select ${cleanLeadColumns} from clean_leads where company_id = ${c} and id in (${keptId}, ${duplicateId}) order by id for update`,
        );
        const kept = locked.find((r) => r.id === keptId);
        const duplicate = locked.find((r) => r.id === duplicateId);
        if (!duplicate) {
          // merged already (a retry, or the other of two concurrent calls): the record says where to
          const [done] = await rowsOf<{ kept_id: string; leads: number; chats: number; messages: number }>(
            tx,
            sql`select kept_id, leads, chats, messages from person_merges where company_id = ${c} and duplicate_id = ${duplicateId}`,
          );
          if (!done) throw new AppError('NOT_FOUND', personMessages.duplicateNotFound);
          return { alreadyMerged: true, moved: { leads: done.leads, chats: done.chats, messages: done.messages }, keptId: done.kept_id };
        }
        if (!kept) {
          const [merged] = await rowsOf(tx, sql`select 1 from person_merges where company_id = ${c} and duplicate_id = ${keptId}`);
          throw merged ? new AppError('CONFLICT', personMessages.keptMerged) : new AppError('NOT_FOUND', personMessages.notFound);
        }

        const [moved] = await rowsOf<{ leads: number; chats: number; messages: number }>(
          tx,
          sql`select (select count(*)::int from leads where company_id = ${c} and clean_lead_id = ${duplicateId}) as leads,
                     (select count(*)::int from chats where company_id = ${c}
                        and lead_id in (select id from leads where company_id = ${c} and clean_lead_id = ${duplicateId})) as chats,
                     (select count(*)::int from chat_messages where company_id = ${c} and chat_id in (select id from chats where company_id = ${c}
                        and lead_id in (select id from leads where company_id = ${c} and clean_lead_id = ${duplicateId}))) as messages`,
        );
        await tx.execute(sql`update leads set clean_lead_id = ${keptId}, updated_at = now() where company_id = ${c} and clean_lead_id = ${duplicateId}`);
        // audience memberships of the duplicate become the kept person's (once per audience); the rest go with it
        await tx.execute(sql`update audience_members a set clean_lead_id = ${keptId}
            where a.company_id = ${c} and a.clean_lead_id = ${duplicateId} and not exists (
              select 1 from audience_members k where k.company_id = ${c} and k.audience_id = a.audience_id and k.clean_lead_id = ${keptId})`);

        // the kept record wins; what it lacks comes from the duplicate (decision 0029)
        const note: Detail = {
          message: `Unido con ${duplicate.name}${duplicate.telefono ? ` · teléfono ${duplicate.telefono}` : ''}${duplicate.email ? ` · correo ${duplicate.email}` : ''}`.slice(0, 4000),
          ...(duplicate.email ? { email: duplicate.email } : {}),
          source: 'union de contactos',
          updatedAt: new Date().toISOString(),
        };
        const labels = unique([...(kept.mostrador_labels ?? []), ...(duplicate.mostrador_labels ?? [])]);
        await tx.execute(sql`update clean_leads set
            telefono = ${kept.telefono ?? duplicate.telefono},
            email = ${kept.email ?? duplicate.email},
            status = ${kept.status === 'sin-asignar' ? duplicate.status : kept.status},
            agente_id = ${kept.agente_id ?? duplicate.agente_id},
            mostrador_labels = ${labels.length ? JSON.stringify(labels) : null}::jsonb,
            details = ${JSON.stringify(mergedDetails(kept.details, duplicate.details, note))}::jsonb,
            contact_frequency_days = ${kept.contact_frequency_days ?? duplicate.contact_frequency_days},
            opt_out = ${kept.opt_out || duplicate.opt_out ? true : (kept.opt_out ?? duplicate.opt_out)},
            created_at = least(created_at, ${duplicate.created_at}::timestamptz),
            updated_at = now()
          where company_id = ${c} and id = ${keptId}`);
        await tx.execute(sql`delete from clean_leads where company_id = ${c} and id = ${duplicateId}`);
        const { id: _, ...snapshot } = duplicate;
        await tx.execute(sql`insert into person_merges (company_id, duplicate_id, kept_id, duplicate, leads, chats, messages, merged_by)
            values (${c}, ${duplicateId}, ${keptId}, ${JSON.stringify(snapshot)}::jsonb, ${moved.leads}, ${moved.chats}, ${moved.messages},
              ${tenant.userId || null})`);
        return { alreadyMerged: false, moved, keptId };
      });
      const person = await personById(db, tenant, outcome.keptId);
      return {
        msg: outcome.alreadyMerged ? personMessages.alreadyMerged(person.name) : personMessages.merged(person.name),
        alreadyMerged: outcome.alreadyMerged,
        moved: outcome.moved,
        person,
        ...(outcome.alreadyMerged ? { leadIds: [], chatEffects: [] } : await effectsOf(db, c, person._id as string)),
      };
    },
  };
}
export type People = ReturnType<typeof createPeople>;
