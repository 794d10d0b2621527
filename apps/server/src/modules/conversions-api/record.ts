import { CONVERSION_WINDOW_DAYS, type CountryCode, type ConversionEventName, conversionsMessages, type DomainEvent } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { normaliseAudienceEmail, normaliseAudiencePhone, sha256Hex } from '../../integrations/meta/audiences.js';

/**
 * The `conversions-api.record` listener (spine/listeners.ts, decision 0098): an order paid
 * (`order.paid`) is a Purchase, a lead moved into the company's qualified status
 * (`lead.status_changed`) a QualifiedLead — for a company that turned the Conversions API on.
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
  const settingsOf = new Map<string, Settings | null>();
  for (const e of events) {
    if (!settingsOf.has(e.companyId)) {
      const [s] = await rowsOf<Settings>(
        db,
        sql`select s.enabled, s.qualified_status, s.send_qualified, c.country from conversion_settings s join companies c on c.id = s.company_id where s.company_id = ${e.companyId}`,
      );
      settingsOf.set(e.companyId, s ?? null);
    }
    const settings = settingsOf.get(e.companyId);
    if (!settings?.enabled) continue;
    let name: ConversionEventName;
    let leadId: string | null;
    let orderId: string | null = null;
    let value: number | null = null;
    let currency: string | null = null;
    if (e.type === 'order.paid') {
      const p = e.payload as DomainEvent<'order.paid'>['payload'];
      const [o] = await rowsOf<{ lead_id: string | null; total: string | number; currency: string | null }>(
        db,
        sql`select coalesce(o.lead_id, c.lead_id) as lead_id, o.total, o.currency from orders o left join chats c on c.company_id = o.company_id and c.id = o.chat_id
            where o.company_id = ${e.companyId} and o.id = ${p.orderId}`,
      );
      if (!o) continue;
      name = 'Purchase';
      leadId = o.lead_id;
      orderId = p.orderId;
      value = Number(o.total);
      currency = o.currency ?? p.currency ?? 'PEN';
    } else if (e.type === 'lead.status_changed') {
      const p = e.payload as DomainEvent<'lead.status_changed'>['payload'];
      if (!settings.send_qualified || p.status !== settings.qualified_status || p.previous === p.status) continue;
      name = 'QualifiedLead';
      leadId = p.leadId;
    } else continue;

    const eventId = conversionEventId(name, orderId ?? (leadId as string));
    const eventTime = new Date(e.occurredAt);
    const base = { eventId, name, leadId, orderId, value, currency, eventTime };
    const lead = leadId ? await leadFacts(db, e.companyId, leadId) : undefined;
    const built = lead ? buildEvent(lead, base, settings.country as CountryCode) : { reason: conversionsMessages.noLead };
    const pending = 'payload' in built;
    const inserted = await rowsOf<{ id: string }>(
      db,
      sql`insert into conversion_events (company_id, event_id, event_name, lead_id, order_id, channel, status, reason, payload, value, currency, event_time, expires_at, next_attempt_at)
          values (${e.companyId}, ${eventId}, ${name}, ${leadId}, ${orderId}, ${'channel' in built ? built.channel : null}, ${pending ? 'pending' : 'skipped'},
                  ${pending ? null : built.reason}, ${pending ? JSON.stringify(built.payload) : null}::jsonb, ${value}, ${currency}, ${eventTime},
                  ${pending ? built.expiresAt : null}, ${pending ? eventTime : null})
          on conflict (company_id, event_id) do nothing returning id::text`,
    );
    if (pending && inserted.length) woken.add(e.companyId);
  }
  return woken;
}

async function leadFacts(db: Db, companyId: string, leadId: string): Promise<LeadFacts | undefined> {
  const [row] = await rowsOf<LeadFacts>(
    db,
    sql`select l.id::text, l.platform_user_id, l.telefono, l.email, r.platform as ref_platform, r.referral, r.created_at as clicked_at,
               (select business_account_id from channels where company_id = l.company_id and kind = 'whatsapp') as waba,
               (select provider_id from channels where company_id = l.company_id and kind = 'messenger') as page_id,
               (select provider_id from channels where company_id = l.company_id and kind = 'instagram') as ig_id
          from leads l
          left join lateral (select platform, referral, created_at from lead_referrals r where r.company_id = l.company_id and r.lead_id = l.id
                             order by r.created_at desc limit 1) r on true
         where l.company_id = ${companyId} and l.id = ${leadId}`,
  );
  return row;
}

type Built = { payload: object; channel: string; expiresAt: Date } | { reason: string; channel?: string };

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
