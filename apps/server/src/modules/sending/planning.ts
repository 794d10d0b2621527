import { randomUUID } from 'node:crypto';
import {
  isoCountryOfPhone,
  isPhoneNumber,
  MAX_MASS_AUDIENCE,
  renderImagina,
  renderTemplate,
  type SegmentFilters,
  sendingMessages,
  templateLeadFields,
  templateVariables,
  variableCount,
  WHATSAPP_WINDOW_HOURS,
  type WhatsappTemplate,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import type { TemplatePayload } from '../../integrations/meta/send.js';
import { segmentCondition, segmentScopeOf } from '../leads/labels-massive.js';
import { toTemplatePayload } from '../../integrations/meta/template-mapping.js';

/**
 * Planning a send (issue 13, decisions 0041 and 0043): who a campaign chunk or a massive send
 * goes to, each person's message (a template's values, or the free text inside their 24-hour
 * window), the pre-send check's verdict (queued, or skipped with why), and the recipients
 * written once. The runner (runner.ts) sends what this wrote.
 */

/** Rows planned per statement. */
const PLAN_PAGE = 2_000;

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

/** The values of a template's variables for one person, or which one is missing. */
export function valuesFor(content: SendContent, person: Record<string, string | undefined>): { body: string[]; header?: string } | { missing: string } {
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
export async function chunkPeople(
  db: Db,
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
      ? segmentCondition(filters, await segmentScopeOf(db, companyId))
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

/** What planning reads of a send (its row in `sends`). */
export interface PlannedSend {
  id: string;
  company_id: string;
  campaign_id: string | null;
  segment_id: string | null;
  chunk_page: number | null;
  chunk_size: number | null;
  content: SendContent;
  created_by: string | null;
}

/** Writes a campaign chunk's recipients (once: `planned`), in the same transaction as the mark. */
export async function planChunk(db: Db, send: PlannedSend): Promise<void> {
  const dedupeKey = send.campaign_id ?? send.id;
  const rows = (
    await chunkPeople(db, send.company_id, {
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

/** Whether a person's message is the template (else free text: the send's, or the one written for them). */
const usesTemplate = (content: SendContent, values: RecipientValues | null) => Boolean(content.template) && values?.text === undefined;
/** The text a person's chat message shows (the template rendered, or the free text). */
export const textOf = (content: SendContent, values: RecipientValues | null) =>
  values?.text ?? (usesTemplate(content, values) && content.template ? renderTemplate(content.template, { body: values?.body ?? [], header: values?.header }) : (content.text ?? ''));
/** The chat message's content: which template went, when one did. */
export const contentOf = (content: SendContent, values: RecipientValues | null) =>
  usesTemplate(content, values) && content.template ? { template: { name: content.template.name, language: content.template.language, campaign: true } } : null;

/** The template as the provider takes it, filled with the person's values; none for free text. */
export function payloadOf(content: SendContent, values: RecipientValues | null): TemplatePayload | undefined {
  const t = content.template;
  if (!t || !usesTemplate(content, values)) return undefined;
  return toTemplatePayload({ name: t.name, language: t.language, header: t.header ?? null }, { body: values?.body ?? [], header: values?.header });
}
