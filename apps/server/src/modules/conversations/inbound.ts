import { type CountryCode, isCsatReplyId, type LeadPlatform, type LeadStatus, normalisePhone, resources } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import type { InboundMessage, Provider, ReadReceipt, StatusUpdate } from '../../integrations/meta/events.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Tenant } from '../../plugins/auth.js';
import { repositoryOf } from '../../resources/crud.js';
import { type ChatEffect, previewOf } from './effects.js';
import { cleanName, type Detail, mergeDetails } from '../leads/merge.js';

// Conversation ingestion (decision 0070): what a customer's message, a delivery status or a read
// receipt does to the company's leads, chats and messages. The provider inbox (webhooks/) stores
// and dispatches the events; chats, comments, forms and orders build on this from above.

/**
 * What processing an event did: processed (with what it changed in a chat, published to the
 * company's browsers once the transaction commits), or ignored with the reason (Spanish, for the log).
 */
export type Outcome = { status: 'processed'; effects?: ChatEffect[] } | { status: 'ignored'; reason: string };

/**
 * The company an event belongs to, as the one tenant scope of the repositories: it comes from
 * the channel the event was addressed to, never from the payload. No user acts here.
 */
export function channelTenant(companyId: string): Tenant {
  return { companyId, corporationId: '', userId: '', role: 'admin' };
}

/** Leads and chats name Messenger's platform 'facebook' (SPEC §9 platforms). */
export const platformOf = (provider: Provider): LeadPlatform & ('facebook' | 'whatsapp' | 'instagram') =>
  provider === 'messenger' ? 'facebook' : provider;

const fallbackName = (provider: Provider, from: string) =>
  `${provider === 'whatsapp' ? 'WhatsApp' : provider === 'messenger' ? 'Messenger' : 'Instagram'} ${from.slice(-4)}`;

/** Serialises work on one key inside the transaction (two deliveries of one person, one phone). */
const lockOn = (db: Db, key: string) => db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);

/**
 * Inbound messages: find or create the lead (by platform user id, then by normalised phone),
 * its clean lead (one per person: merged by normalised phone, then e-mail), its chat (one per
 * lead and platform), and store the message once. Runs inside the event's transaction.
 */
export function createInbound(secrets: Pick<SecretBox, 'seal'>) {
  const leads = repositoryOf(resources.leads, secrets);
  const cleanLeads = repositoryOf(resources['clean-leads'], secrets);
  const chats = repositoryOf(resources.chats, secrets);

  /** The person's clean lead, found by phone or e-mail, else created; the new contact is added to its details, newest first. */
  async function cleanLeadFor(tx: Db, tenant: Tenant, person: { name: string; telefono?: string; email?: string }, detail: Detail) {
    const c = tenant.companyId;
    if (person.telefono) await lockOn(tx, `${c}:telefono:${person.telefono}`);
    const [found] = await rowsOf<{ id: string; details: Detail[] | null }>(
      tx,
      sql`select id, details from clean_leads where company_id = ${c} and (
            ${person.telefono ?? null}::text is not null and telefono = ${person.telefono ?? null}
            or ${person.email ?? null}::text is not null and email = ${person.email ?? null})
          order by (telefono is not distinct from ${person.telefono ?? null}) desc, created_at limit 1`,
    );
    if (!found) {
      const input = resources['clean-leads'].input.parse({ ...person, status: 'sin-asignar', details: [detail] });
      return (await cleanLeads.create(tx, tenant, input))._id;
    }
    const details = mergeDetails(found.details, detail);
    await tx.execute(sql`update clean_leads set details = ${JSON.stringify(details)}::jsonb,
        telefono = coalesce(telefono, ${person.telefono ?? null}), email = coalesce(email, ${person.email ?? null}), updated_at = now()
      where company_id = ${c} and id = ${found.id}`);
    return found.id;
  }

  return {
    /** The person's clean lead (also for the Gravity Forms entries, modules/gravity-forms). */
    cleanLeadFor,
    /**
     * A contact card a customer shared, as a lead (the thread's "Agregar como lead"): the
     * company's WhatsApp lead with that normalised phone, else a new one merged into the
     * person's clean lead like an inbound message's (decision 0020). `created` says which.
     */
    async contactLead(tx: Db, tenant: Tenant, country: CountryCode, card: { name: string; phone: string }) {
      const c = tenant.companyId;
      const telefono = normalisePhone(card.phone, country);
      if (!telefono) return undefined;
      await lockOn(tx, `${c}:lead-telefono:${telefono}`);
      const [found] = await rowsOf<{ id: string; name: string; status: LeadStatus | null }>(
        tx,
        sql`select id, name, status from leads where company_id = ${c} and telefono = ${telefono} order by (platform = 'whatsapp') desc, created_at limit 1`,
      );
      if (found) return { _id: found.id, name: found.name, telefono, status: found.status ?? undefined, created: false };
      const name = cleanName(card.name) || fallbackName('whatsapp', telefono);
      const detail: Detail = { message: 'Compartido como contacto en un chat', source: 'whatsapp', updatedAt: new Date().toISOString() };
      const cleanLeadId = await cleanLeadFor(tx, tenant, { name, telefono }, detail);
      const input = resources.leads.input.parse({ name, telefono, platform: 'whatsapp', status: 'sin-asignar', cleanLeadId, details: [detail] });
      const created = await leads.create(tx, tenant, input);
      return { _id: created._id, name, telefono, status: 'sin-asignar' as LeadStatus, created: true };
    },

    async message(tx: Db, companyId: string, country: CountryCode, provider: Provider, m: InboundMessage): Promise<Outcome> {
      if (m.ignore) return { status: 'ignored', reason: m.ignore };
      const c = companyId;
      const platform = platformOf(provider);
      if (m.unsent) {
        const [gone] = await rowsOf<{ id: string; chat_id: string }>(
          tx,
          sql`update chat_messages set is_active = false, updated_at = now()
              where company_id = ${c} and provider_message_id = ${m.messageId} and direction = 'in' returning id, chat_id`,
        );
        if (!gone) return { status: 'ignored', reason: 'mensaje anulado que no está en Mostrador' };
        return { status: 'processed', effects: [{ type: 'message.updated', chatId: gone.chat_id, messageId: gone.id }] };
      }
      if (m.kind === 'reaction' && m.content?.reactionTo?.mid) {
        // a reaction belongs on the message it reacts to (an empty emoji removes it); looked for under
        // the person's lock, so a message of theirs being stored meanwhile is either found here or,
        // committed after this reaction, takes it as an orphan (below): never both missed
        const { mid, emoji } = m.content.reactionTo;
        await lockOn(tx, `${c}:${platform}:${m.from}`);
        const [target] = await rowsOf<{ id: string; chat_id: string }>(
          tx,
          sql`update chat_messages set content = case when ${emoji} = '' then coalesce(content, '{}'::jsonb) - 'reaction'
                else coalesce(content, '{}'::jsonb) || jsonb_build_object('reaction', ${emoji}::text) end, updated_at = now()
              where company_id = ${c} and provider_message_id = ${mid} returning id, chat_id`,
        );
        if (target) return { status: 'processed', effects: [{ type: 'message.updated', chatId: target.chat_id, messageId: target.id }] };
        // its message is not in Mostrador (older than the channel): kept as a message of its own
        if (!emoji) return { status: 'ignored', reason: 'reacción quitada de un mensaje desconocido' };
      }
      const tenant = channelTenant(companyId);
      const phone = m.phone ? (normalisePhone(m.phone, country) ?? undefined) : undefined;
      const name = cleanName(m.name) || fallbackName(provider, m.from);
      const preview = previewOf(m);
      const referral = m.content?.referral;
      const ad = referral ? `Llegó desde un anuncio: ${[referral.headline, referral.sourceUrl].filter(Boolean).join(' · ') || referral.adId || referral.ref || 'sin título'}` : '';
      const detail: Detail = { message: [preview, ad].filter(Boolean).join(' — ').slice(0, 4000) || undefined, source: provider, updatedAt: m.timestamp };

      await lockOn(tx, `${c}:${platform}:${m.from}`);
      // the lead: by the person's platform id, else (WhatsApp) by the normalised phone, else new
      // the person as last seen: their lead and chat, when both still exist, and their clean lead
      // touched (it shows the activity; `touched` is null when it is gone) — one round trip
      const [identity] = await rowsOf<{
        lead_id: string;
        chat_id: string | null;
        lead: string | null;
        name: string;
        clean_lead_id: string | null;
        chat: string | null;
        touched: string | null;
      }>(
        tx,
        sql`with found as (
              select i.lead_id, i.chat_id, l.id as lead, l.name, l.clean_lead_id, ch.id as chat
                from lead_identities i
                left join leads l on l.company_id = i.company_id and l.id = i.lead_id
                left join chats ch on ch.company_id = i.company_id and ch.id = i.chat_id
               where i.company_id = ${c} and i.platform = ${platform} and i.platform_user_id = ${m.from}),
            touched as (
              update clean_leads set updated_at = now()
               where company_id = ${c} and id = (select clean_lead_id from found where lead is not null) returning id)
            select found.*, (select id from touched) as touched from found`,
      );
      let [lead]: Array<{ id: string; name: string; clean_lead_id: string | null }> = identity?.lead
        ? [{ id: identity.lead, name: identity.name, clean_lead_id: identity.clean_lead_id }]
        : [];
      if (!lead && phone) {
        [lead] = await rowsOf(
          tx,
          sql`select id, name, clean_lead_id from leads where company_id = ${c} and platform = ${platform} and telefono = ${phone} order by created_at limit 1`,
        );
      }
      if (!lead) {
        const cleanLeadId = await cleanLeadFor(tx, tenant, { name, telefono: phone }, detail);
        const input = resources.leads.input.parse({
          name,
          telefono: phone,
          platform,
          status: 'sin-asignar',
          platformUserId: m.from,
          cleanLeadId,
          details: [detail],
        });
        const created = await leads.create(tx, tenant, input);
        lead = { id: created._id, name, clean_lead_id: cleanLeadId };
      } else {
        // a known person: their clean lead shows the activity; a lead without one (imported, or
        // its clean lead deleted) is merged now, as a new contact
        let cleanLeadId = lead.clean_lead_id;
        if (cleanLeadId && identity?.lead) {
          // touched with the identity's read above
          if (!identity.touched) cleanLeadId = null;
        } else if (cleanLeadId) {
          const touched = await rowsOf(tx, sql`update clean_leads set updated_at = now() where company_id = ${c} and id = ${cleanLeadId} returning id`);
          if (touched.length === 0) cleanLeadId = null;
        }
        cleanLeadId ??= await cleanLeadFor(tx, tenant, { name: lead.name, telefono: phone }, detail);
        if (lead.clean_lead_id !== cleanLeadId || !identity) {
          await tx.execute(sql`update leads set clean_lead_id = ${cleanLeadId}, platform_user_id = coalesce(platform_user_id, ${m.from}),
              updated_at = now() where company_id = ${c} and id = ${lead.id}`);
        }
      }

      // the chat: one per lead and platform
      let chatId = identity?.chat ?? undefined;
      if (!chatId) {
        const input = resources.chats.input.parse({ contactName: lead.name, platform, leadId: lead.id, status: 'open', unreadCount: 0 });
        chatId = (await chats.create(tx, tenant, input))._id;
      }
      if (identity?.lead_id !== lead.id || identity.chat_id !== chatId) {
        await tx.execute(sql`insert into lead_identities (company_id, platform, platform_user_id, lead_id, chat_id)
            values (${c}, ${platform}, ${m.from}, ${lead.id}, ${chatId})
            on conflict (company_id, platform, platform_user_id) do update set lead_id = excluded.lead_id, chat_id = excluded.chat_id`);
      }

      // the message, once per provider id, with the reactions to it that arrived before it (one round trip)
      const [inserted] = await rowsOf<{ id: string; orphans: Array<{ id: string; emoji: string | null }> | null }>(
        tx,
        sql`with ins as (
              insert into chat_messages (company_id, chat_id, direction, kind, text, media_url, media_id, mime_type, content, provider_message_id, status, sent_at)
              values (${c}, ${chatId}, 'in', ${m.kind}, ${m.text ?? null}, ${m.mediaUrl ?? null}, ${m.mediaId ?? null}, ${m.mimeType ?? null},
                      ${m.content ? JSON.stringify(m.content) : null}::jsonb, ${m.messageId}, 'received', ${m.timestamp})
              on conflict (company_id, provider_message_id) do nothing returning id)
            select ins.id,
                   (select json_agg(json_build_object('id', o.id, 'emoji', o.content->'reactionTo'->>'emoji') order by o.sent_at desc, o.created_at desc)
                      from chat_messages o
                     where o.company_id = ${c} and o.chat_id = ${chatId} and o.kind = 'reaction' and o.content->'reactionTo'->>'mid' = ${m.messageId}) as orphans
              from ins`,
      );
      if (!inserted) return { status: 'ignored', reason: 'mensaje ya guardado' };
      // a reaction that arrived before its message (Meta does not promise order) moves onto it now
      const orphans = inserted.orphans ?? [];
      if (orphans.length > 0) {
        const emoji = orphans[0].emoji;
        if (emoji) {
          await tx.execute(sql`update chat_messages set content = coalesce(content, '{}'::jsonb) || jsonb_build_object('reaction', ${emoji}::text)
              where company_id = ${c} and id = ${inserted.id}`);
        }
        for (const orphan of orphans) await tx.execute(sql`delete from chat_messages where company_id = ${c} and id = ${orphan.id}`);
      }
      if (referral) {
        // the ad the person came from stays on the lead too (decision 0020)
        await tx.execute(sql`insert into lead_referrals (company_id, lead_id, platform, message_id, referral)
            values (${c}, ${lead.id}, ${platform}, ${inserted.id}, ${JSON.stringify(referral)}::jsonb)`);
        const [known] = await rowsOf<{ details: Detail[] | null }>(tx, sql`select details from leads where company_id = ${c} and id = ${lead.id}`);
        if (known && !(known.details ?? []).some((d) => d.updatedAt === m.timestamp && d.message === detail.message)) {
          await tx.execute(sql`update leads set details = ${JSON.stringify(mergeDetails(known.details, detail))}::jsonb, updated_at = now()
              where company_id = ${c} and id = ${lead.id}`);
        }
      }
      // the customer wrote: the 24-hour window of the chat runs from their latest message (decision 0014);
      // Mostrador's own note (an order from the digital catalogue) does not open it
      // (with the chat's update, in one round trip)
      // and when it reached us by our clock (decision 0106: what is new for the analysis)
      const opensWindow = m.internal
        ? sql``
        : sql`with w as (insert into chat_windows (chat_id, company_id, last_inbound_at, last_arrived_at) values (${chatId}, ${c}, ${m.timestamp}, clock_timestamp())
            on conflict (chat_id) do update set last_inbound_at = greatest(chat_windows.last_inbound_at, excluded.last_inbound_at),
              last_arrived_at = greatest(chat_windows.last_arrived_at, excluded.last_arrived_at)) `;
      // the preview is the customer's newest message by the customer's own clock (the provider's), compared
      // with their earlier messages, not with a reply our clock stamped while this one was on its way
      // (decision 0106); the statement reads chat_windows as it was before its own upsert
      const newestOfCustomer = m.internal
        ? sql`false`
        : sql`coalesce((select w0.last_inbound_at <= ${m.timestamp}::timestamptz from chat_windows w0 where w0.chat_id = ${chatId}), true)`;
      // and the chat is open again, resolved or snoozed (its snooze time forgotten: decisions 0027, 0076) —
      // except a tap on a CSAT survey's option (decision 0100): it answers the resolution, it does not
      // reopen the chat (nor count as unread), else resolving it again would ask again
      const surveyTap = isCsatReplyId(m.content?.interactive?.id);
      const reopen = surveyTap
        ? sql`unread_count = case when status = 'closed' then unread_count else coalesce(unread_count, 0) + 1 end,
              status = case when status = 'closed' then status else 'open' end,
              snoozed_until = case when status = 'closed' then snoozed_until else null end`
        : sql`unread_count = coalesce(unread_count, 0) + 1, status = 'open', snoozed_until = null`;
      await tx.execute(sql`${opensWindow}update chats set ${reopen}, updated_at = now(),
          last_message_preview = case when last_message_at is null or last_message_at::timestamptz <= ${m.timestamp}::timestamptz or ${newestOfCustomer}
            then ${preview} else last_message_preview end,
          last_message_at = case when last_message_at is null or last_message_at::timestamptz <= ${m.timestamp}::timestamptz then ${m.timestamp} else last_message_at end
        where company_id = ${c} and id = ${chatId}`);
      return { status: 'processed', effects: [{ type: 'message.created', chatId, messageId: inserted.id }] };
    },

    /** A delivery status of a message the company sent: it only moves forward (sent → delivered → read; failed). */
    async status(tx: Db, companyId: string, s: StatusUpdate): Promise<Outcome> {
      const rank = sql`(case status when 'pending' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 when 'failed' then 4 else -1 end)`;
      const newRank = { sent: 1, delivered: 2, read: 3, failed: 4 }[s.status];
      // a campaign's message whose send was cut before its id was stored: found by the callback data it carried (decision 0041)
      if (s.callbackData && /^[0-9a-f-]{36}$/i.test(s.callbackData)) {
        await tx.execute(sql`update chat_messages set provider_message_id = ${s.messageId}, updated_at = now()
            where company_id = ${companyId} and id = ${s.callbackData} and direction = 'out' and provider_message_id is null`);
      }
      const [message] = await rowsOf<{ id: string; chat_id: string; moved: boolean }>(
        tx,
        sql`select id, chat_id, ${rank} < ${newRank} as moved from chat_messages
            where company_id = ${companyId} and provider_message_id = ${s.messageId} and direction = 'out' for update`,
      );
      if (!message) return { status: 'ignored', reason: 'mensaje desconocido' };
      if (message.moved) {
        await tx.execute(sql`update chat_messages set status = ${s.status}, status_error = ${s.error ?? null}, updated_at = now()
            where company_id = ${companyId} and id = ${message.id}`);
        // a message of a finished massive send that WhatsApp now says never arrived moves its history row's counts (sent → failed)
        if (s.status === 'failed') {
          await tx.execute(sql`update massive_messages_logs l set sent = greatest(l.sent - 1, 0), failed = l.failed + 1, updated_at = now(),
              status = case when l.sent - 1 <= 0 then 'error' else 'sent_with_some_errors' end
            from send_recipients r join sends s on s.id = r.send_id
            where r.company_id = ${companyId} and r.id = ${message.id} and r.status = 'sent' and s.finished_at is not null
              and l.company_id = ${companyId} and l.id::text = s.content->>'logId'`);
        }
        return { status: 'processed', effects: [{ type: 'message.updated', chatId: message.chat_id, messageId: message.id }] };
      }
      return { status: 'processed' };
    },

    /**
     * A Messenger/Instagram read receipt: every message the company sent in the person's chat
     * up to the watermark moves forward to read (a failed one stays failed). At most the newest
     * 100 are announced to the browsers; the rest show read when the thread reloads.
     */
    async read(tx: Db, companyId: string, provider: Provider, r: ReadReceipt): Promise<Outcome> {
      const [identity] = await rowsOf<{ chat_id: string | null }>(
        tx,
        sql`select chat_id from lead_identities where company_id = ${companyId} and platform = ${platformOf(provider)} and platform_user_id = ${r.from}`,
      );
      if (!identity?.chat_id) return { status: 'ignored', reason: 'persona sin chat' };
      const moved = await rowsOf<{ id: string }>(
        tx,
        sql`update chat_messages set status = 'read', updated_at = now()
            where company_id = ${companyId} and chat_id = ${identity.chat_id} and direction = 'out'
              and status in ('sent', 'delivered') and sent_at <= ${r.watermark}::timestamptz
            returning id`,
      );
      const chatId = identity.chat_id;
      return { status: 'processed', effects: moved.slice(-100).map((m) => ({ type: 'message.updated' as const, chatId, messageId: m.id })) };
    },
  };
}
