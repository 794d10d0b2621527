import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import { createSandboxClient } from '../integrations/sandbox/send.js';
import { createSendingEngine } from '../modules/sending/engine.js';
import { toTemplateOut, type TemplateRow } from '../integrations/meta/template-mapping.js';

type Row = Record<string, unknown>;
const DAY = 86_400_000;

/**
 * The demo's campaign history (decision 0041): «Campaña Día de la Madre» went to the segment
 * «Clientes de WhatsApp en Perú» in two chunks through the sending engine itself (the sandbox
 * line), some weeks ago; what the phones reported since is applied as the status webhooks
 * would (most delivered, many read, a few undeliverable). «Seguimiento de cotizaciones» is
 * planned and untouched: its chunks are there to send from /marketing/campaigns.
 */
export async function seedDemoCampaigns(db: Db, companyId: string, secrets: Pick<SecretBox, 'open'>): Promise<void> {
  const [segment] = (await db.execute(sql`select id from marketing_segments where company_id = ${companyId} and name = 'Clientes de WhatsApp en Perú'`)).rows as Array<{ id: string }>;
  if (!segment) return;
  await db.execute(sql`update marketing_campaigns set segment_id = ${segment.id} where company_id = ${companyId} and channel = 'whatsapp'`);
  const [campaign] = (await db.execute(sql`select id, name, chunk_size, template_name from marketing_campaigns where company_id = ${companyId} and name = 'Campaña Día de la Madre'`))
    .rows as Array<{ id: string; name: string; chunk_size: number; template_name: string }>;
  const [template] = (await db.execute(sql`select * from whatsapp_templates where company_id = ${companyId} and name = ${campaign?.template_name ?? ''} and status = 'APPROVED'`)).rows as Array<TemplateRow & Row>;
  const [admin] = (await db.execute(sql`select u.id from users u join memberships uc on uc.user_id = u.id where uc.company_id = ${companyId} and u.email = 'admin@demo.com'`)).rows as Array<{ id: string }>;
  if (!campaign || !template) return;
  const t = toTemplateOut(template);
  const content = { template: { _id: t._id, name: t.name, language: t.language, category: t.category, header: t.header, body: t.body, footer: t.footer, buttons: t.buttons, variableFields: t.variableFields } };
  for (const page of [0, 1]) {
    await db.execute(sql`insert into sends (company_id, kind, campaign_id, chunk_page, chunk_size, segment_id, name, status, content, created_by)
      values (${companyId}, 'campaign', ${campaign.id}, ${page}, ${campaign.chunk_size}, ${segment.id}, ${`${campaign.name} · bloque ${page + 1}`}, 'pending', ${JSON.stringify(content)}::jsonb, ${admin?.id ?? null})`);
  }
  // what each chat showed last before the campaign (a chat's later messages stay its latest)
  const before = (await db.execute(sql`select id, last_message_at, last_message_preview from chats where company_id = ${companyId} and platform = 'whatsapp'`)).rows as Array<{
    id: string;
    last_message_at: string | null;
    last_message_preview: string | null;
  }>;
  // the engine sends them as it would any day, through the sandbox line, at no pace limit
  const engine = createSendingEngine({
    db,
    secrets,
    realtime: { publish: async () => {} },
    jobs: { send: async () => null },
    config: { sendProvider: 'sandbox', graphApiUrl: '', sandboxStatusSeconds: 3, whatsappThroughput: 100_000 },
    log: { warn: () => {}, error: () => {} },
    client: createSandboxClient(3),
  });
  await engine.run(companyId, { maxMs: 120_000 });

  // it happened on Mother's Day week: the chunks, their people and their chat messages move back in time
  const sentAt = new Date(Date.now() - 18 * DAY);
  await db.execute(sql`update sends set created_at = ${sentAt.toISOString()}::timestamptz + make_interval(hours => chunk_page),
      started_at = ${sentAt.toISOString()}::timestamptz + make_interval(hours => chunk_page),
      finished_at = ${sentAt.toISOString()}::timestamptz + make_interval(hours => chunk_page, mins => 2), updated_at = now()
    where company_id = ${companyId} and campaign_id = ${campaign.id}`);
  await db.execute(sql`update send_recipients r set settled_at = s.started_at + make_interval(secs => r.position), updated_at = s.finished_at
    from sends s where s.id = r.send_id and s.campaign_id = ${campaign.id} and r.status = 'sent'`);
  // what the phones reported since: most delivered, about half read, one in twelve undeliverable
  await db.execute(sql`update chat_messages m set sent_at = r.settled_at, created_at = r.settled_at, updated_at = r.settled_at + interval '1 hour',
      status = case when r.position % 12 = 5 then 'failed' when r.position % 2 = 0 then 'read' else 'delivered' end,
      status_error = case when r.position % 12 = 5 then '131026 · Mensaje no entregable · el número no tiene WhatsApp o no pudo recibirlo' end
    from send_recipients r join sends s on s.id = r.send_id
    where s.campaign_id = ${campaign.id} and r.status = 'sent' and m.company_id = ${companyId} and m.id = r.id`);
  await db.execute(sql`update chats c set last_message_at = case when b.at is not null and b.at > to_char(r.settled_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') then b.at
          else to_char(r.settled_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end,
        last_message_preview = case when b.at is not null and b.at > to_char(r.settled_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') then b.preview else c.last_message_preview end
      from send_recipients r join sends s on s.id = r.send_id,
           jsonb_to_recordset(${JSON.stringify(before.map((b) => ({ id: b.id, at: b.last_message_at, preview: b.last_message_preview })))}::jsonb) as b(id uuid, at text, preview text)
      where s.campaign_id = ${campaign.id} and r.status = 'sent' and c.company_id = ${companyId} and c.id = r.chat_id and b.id = c.id`);
  await engine.refreshCampaign(companyId, campaign.id);
}
