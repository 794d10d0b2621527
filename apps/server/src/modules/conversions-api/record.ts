import { CONVERSION_WINDOW_DAYS, type CountryCode, type ConversionEventName, conversionsMessages, type DomainEvent } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { normaliseAudienceEmail, normaliseAudiencePhone, sha256Hex } from '../../integrations/meta/audiences.js';

/**
 * The `conversions-api.record` listener (spine/listeners.ts, decision 0098): an order paid
 * (`order.paid`) is a Purchase, a lead moved into the company's qualified status
 * (`lead.status_changed`) a LeadSubmitted — for a company that turned the Conversions API on.
 * One `conversion_events` row per (company, event_id), the id derived from the order or the lead
 * and the event's name: an event heard twice, or an order paid twice, writes one. Only a lead that
 * came from an ad within Meta's 7 days is pending for the send; anything else is written as
 * skipped with its reason, so the owner reads why in the log. Answers the companies with new
 * pending events (the job is woken for them).
 */
export const conversionEventId = (name: ConversionEventName, id: string) => `${name === 'Purchase' ? 'purchase:order' : 'qualified:lead'}:${id}`;
const DAY_MS = 86_400_000;

type Settings = { enabled: boolean; qualified_status: string; send_qualified: boolean; country: string };
type LeadFacts = {
  id: string;
  platform_user_id: string | null;
  telefono: string | null;
  email: string | null;
  ref_platform: string | null;
  referral: Record<string, string | undefined> | null;
  clicked_at: Date | string | null;
  waba: string | null;
  page_id: string | null;
  ig_id: string | null;
};

export async function recordConversions(db: Db, events: DomainEvent[]): Promise<Set<string>> {
  const woken = new Set<string>();
  const byCompany = new Map<string, DomainEvent[]>();
  for (const e of events) byCompany.set(e.companyId, [...(byCompany.get(e.companyId) ?? []), e]);
  for (const [companyId, own] of byCompany) {
    const [settings] = await rowsOf<Settings>(
      db,
      sql`select s.enabled, s.qualified_status, s.send_qualified, c.country from conversion_settings s join companies c on c.id = s.company_id where s.company_id = ${companyId}`,
    );
    if (!settings?.enabled) continue;
    // a round's orders and leads in one statement each (a burst of payments: bench/conversions-api.ts)
    const paid = own.filter((e) => e.type === 'order.paid');
    const orderIds = [...new Set(paid.map((e) => (e.payload as DomainEvent<'order.paid'>['payload']).orderId))];
    const orders = new Map(
      (orderIds.length
        ? await rowsOf<{ id: string; lead_id: string | null; total: string | number; currency: string | null }>(
            db,
            sql`select o.id::text, coalesce(o.lead_id, c.lead_id)::text as lead_id, o.total, o.currency
                  from orders o left join chats c on c.company_id = o.company_id and c.id = o.chat_id
                 where o.company_id = ${companyId} and o.id = any(${`{${orderIds.join(',')}}`}::uuid[])`,
          )
        : []
      ).map((o) => [o.id, o]),
    );
    const wanted: Array<{ name: ConversionEventName; leadId: string | null; orderId: string | null; value: number | null; currency: string | null; eventTime: Date }> = [];
    for (const e of own) {
      if (e.type === 'order.paid') {
        const p = e.payload as DomainEvent<'order.paid'>['payload'];
        const o = orders.get(p.orderId);
        if (!o) continue;
        wanted.push({ name: 'Purchase', leadId: o.lead_id, orderId: p.orderId, value: Number(o.total), currency: o.currency ?? p.currency ?? 'PEN', eventTime: new Date(e.occurredAt) });
      } else if (e.type === 'lead.status_changed') {
        const p = e.payload as DomainEvent<'lead.status_changed'>['payload'];
        if (!settings.send_qualified || p.status !== settings.qualified_status || p.previous === p.status) continue;
        wanted.push({ name: 'LeadSubmitted', leadId: p.leadId, orderId: null, value: null, currency: null, eventTime: new Date(e.occurredAt) });
      }
    }
    if (!wanted.length) continue;
    const leads = await leadFacts(db, companyId, [...new Set(wanted.map((w) => w.leadId).filter((id): id is string => id !== null))]);
    const rows = wanted.map((w) => {
      const eventId = conversionEventId(w.name, w.orderId ?? (w.leadId as string));
      const lead = w.leadId ? leads.get(w.leadId) : undefined;
      const built = lead ? buildEvent(lead, { eventId, ...w }, settings.country as CountryCode) : ({ reason: conversionsMessages.noLead } as Built);
      const pending = 'payload' in built;
      return {
        event_id: eventId,
        event_name: w.name,
        lead_id: w.leadId,
        order_id: w.orderId,
        channel: built.channel ?? null,
        status: pending ? 'pending' : 'skipped',
        reason: pending ? null : built.reason,
        payload: pending ? built.payload : null,
        value: w.value,
        currency: w.currency,
        event_time: w.eventTime.toISOString(),
        expires_at: pending ? built.expiresAt.toISOString() : null,
        next_attempt_at: pending ? w.eventTime.toISOString() : null,
      };
    });
    // one row per (company, event_id): an event heard twice, an order paid twice, write one
    const inserted = await rowsOf<{ status: string }>(
      db,
      sql`insert into conversion_events (company_id, event_id, event_name, lead_id, order_id, channel, status, reason, payload, value, currency, event_time, expires_at, next_attempt_at)
          select ${companyId}, x.event_id, x.event_name, x.lead_id, x.order_id, x.channel, x.status, x.reason, x.payload, x.value, x.currency, x.event_time, x.expires_at, x.next_attempt_at
            from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(event_id text, event_name text, lead_id uuid, order_id uuid, channel text, status text, reason text, payload jsonb,
                 value numeric, currency text, event_time timestamptz, expires_at timestamptz, next_attempt_at timestamptz)
          on conflict (company_id, event_id) do nothing returning status`,
    );
    if (inserted.some((r) => r.status === 'pending')) woken.add(companyId);
  }
  return woken;
}

async function leadFacts(db: Db, companyId: string, leadIds: string[]): Promise<Map<string, LeadFacts>> {
  if (!leadIds.length) return new Map();
  const rows = await rowsOf<LeadFacts>(
    db,
    sql`with ch as (select max(business_account_id) filter (where kind = 'whatsapp') as waba,
                           max(provider_id) filter (where kind = 'messenger') as page_id,
                           max(provider_id) filter (where kind = 'instagram') as ig_id
                      from channels where company_id = ${companyId})
        select l.id::text, l.platform_user_id, l.telefono, l.email, r.platform as ref_platform, r.referral, r.created_at as clicked_at, ch.waba, ch.page_id, ch.ig_id
          from leads l
          cross join ch
          left join lateral (select platform, referral, created_at from lead_referrals r where r.company_id = l.company_id and r.lead_id = l.id
                             order by r.created_at desc limit 1) r on true
         where l.company_id = ${companyId} and l.id = any(${`{${leadIds.join(',')}}`}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

type Built = { payload: object; channel: string; expiresAt: Date; reason?: undefined } | { reason: string; channel?: string };

/** The event as it goes in `data[]`, or why it is not sent. */
export function buildEvent(
  lead: LeadFacts,
  e: { eventId: string; name: ConversionEventName; value: number | null; currency: string | null; eventTime: Date },
  country: CountryCode,
): Built {
  if (!lead.referral || !lead.clicked_at) return { reason: conversionsMessages.organic };
  const channel = lead.ref_platform === 'whatsapp' ? 'whatsapp' : lead.ref_platform === 'instagram' ? 'instagram' : 'messenger';
  const clickedAt = new Date(lead.clicked_at);
  const expiresAt = new Date(clickedAt.getTime() + CONVERSION_WINDOW_DAYS * DAY_MS);
  if (e.eventTime.getTime() > expiresAt.getTime()) return { reason: conversionsMessages.tooOld, channel };
  let ids: Record<string, string>;
  if (channel === 'whatsapp') {
    const clid = lead.referral.ctwaClid;
    if (!clid) return { reason: conversionsMessages.noClickId, channel };
    if (!lead.waba) return { reason: conversionsMessages.noChannel, channel };
    ids = { whatsapp_business_account_id: lead.waba, ctwa_clid: clid };
  } else if (channel === 'messenger') {
    if (!lead.page_id) return { reason: conversionsMessages.noChannel, channel };
    if (!lead.platform_user_id) return { reason: conversionsMessages.noPerson, channel };
    ids = { page_id: lead.page_id, page_scoped_user_id: lead.platform_user_id };
  } else {
    if (!lead.ig_id) return { reason: conversionsMessages.noChannel, channel };
    if (!lead.platform_user_id) return { reason: conversionsMessages.noPerson, channel };
    ids = { instagram_business_account_id: lead.ig_id, ig_sid: lead.platform_user_id };
  }
  const phone = normaliseAudiencePhone(lead.telefono ?? (channel === 'whatsapp' ? lead.platform_user_id : null), country);
  const email = normaliseAudienceEmail(lead.email);
  const userData = {
    ...ids,
    ...(phone ? { ph: [sha256Hex(phone)] } : {}),
    ...(email ? { em: [sha256Hex(email)] } : {}),
    external_id: [sha256Hex(lead.id)],
  };
  return {
    channel,
    expiresAt,
    payload: {
      event_name: e.name,
      event_time: Math.floor(e.eventTime.getTime() / 1000),
      event_id: e.eventId,
      action_source: 'business_messaging',
      messaging_channel: channel,
      user_data: userData,
      ...(e.name === 'Purchase' ? { custom_data: { currency: (e.currency ?? 'PEN').toUpperCase(), value: e.value ?? 0 } } : {}),
    },
  };
}
