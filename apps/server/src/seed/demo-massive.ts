import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import { createSandboxClient } from '../integrations/sandbox/send.js';
import { createSendingEngine } from '../modules/sending/engine.js';
import { toTemplateOut, type TemplateRow } from '../integrations/meta/template-mapping.js';

type Row = Record<string, unknown>;
const DAY = 86_400_000;
const UNDELIVERABLE = '131026 · Mensaje no entregable · el número no tiene WhatsApp o no pudo recibirlo';

/**
 * The demo's massive sends (decision 0042), sent through the sending engine like any other on
 * the sandbox line, then moved back in time with what the phones reported since: «Aviso de
 * feriado» (a text, some undeliverable), «Promo fin de mes» (the approved template
 * promo_fin_de_mes, so the template history shows massive sends too) and «Recordatorio de
 * recojo» (a text to a few). And two templates sent from chats, one read and one failed.
 * /marketing/historial_mensajes_masivos and /marketing/historial-plantillas show real rows.
 */
export async function seedDemoMassive(db: Db, companyId: string, secrets: Pick<SecretBox, 'open'>): Promise<void> {
  const people = (await db.execute(sql`select c.id as chat_id, l.clean_lead_id, coalesce(nullif(c.contact_name, ''), l.name) as name, l.telefono
      from chats c join leads l on l.company_id = c.company_id and l.id = c.lead_id
      where c.company_id = ${companyId} and c.platform = 'whatsapp' and l.clean_lead_id is not null and l.telefono is not null
      order by c.created_at, c.id`)).rows as Array<{ chat_id: string; clean_lead_id: string; name: string; telefono: string }>;
  if (people.length < 4) return;
  const [admin] = (await db.execute(sql`select u.id from users u join memberships uc on uc.user_id = u.id where uc.company_id = ${companyId} and u.email = 'admin@demo.com'`)).rows as Array<{ id: string }>;
  const [template] = (await db.execute(sql`select * from whatsapp_templates where company_id = ${companyId} and name = 'promo_fin_de_mes' and status = 'APPROVED'`)).rows as Array<TemplateRow & Row>;
  const t = template ? toTemplateOut(template) : undefined;

  const before = (await db.execute(sql`select id, last_message_at, last_message_preview from chats where company_id = ${companyId} and platform = 'whatsapp'`)).rows as Array<{
    id: string;
    last_message_at: string | null;
    last_message_preview: string | null;
  }>;

  const sends = [
    { name: 'Aviso de feriado', text: 'Este 8 de diciembre atendemos de 9 a. m. a 1 p. m. ¡Gracias por preferirnos!', daysAgo: 11, who: people, failEvery: 7 },
    ...(t
      ? [{ name: 'Promo fin de mes', text: undefined, daysAgo: 4, who: people.filter((_, i) => i % 2 === 0), failEvery: 9 }]
      : []),
    { name: 'Recordatorio de recojo', text: 'Tu pedido está listo para recoger en tienda hasta las 8 p. m.', daysAgo: 1, who: people.slice(0, 6), failEvery: 0 },
  ];
  const written: Array<{ sendId: string; logId: string; daysAgo: number; failEvery: number }> = [];
  for (const s of sends) {
    const content =
      s.text || !t
        ? { text: s.text }
        : { template: { _id: t._id, name: t.name, language: t.language, category: t.category, header: t.header, body: t.body, footer: t.footer, buttons: t.buttons, variableFields: t.variableFields } };
    const message = s.text ?? (t ? t.body : '');
    const [log] = (await db.execute(sql`insert into massive_messages_logs (company_id, name, message, total, sent, failed, status)
        values (${companyId}, ${s.name}, ${message}, ${s.who.length}, 0, 0, 'processing') returning id`)).rows as Array<{ id: string }>;
    const [send] = (await db.execute(sql`insert into sends (company_id, kind, name, status, content, planned, created_by)
        values (${companyId}, 'massive', ${s.name}, 'pending', ${JSON.stringify({ ...content, logId: log.id })}::jsonb, true, ${admin?.id ?? null}) returning id`)).rows as Array<{ id: string }>;
    const rows = s.who.map((p, i) => ({
      position: i + 1,
      clean_lead_id: p.clean_lead_id,
      chat_id: p.chat_id,
      name: p.name || 'Sin nombre',
      phone: p.telefono,
      values: s.text ? null : { body: [(p.name || 'Hola').split(' ')[0]] },
    }));
    await db.execute(sql`insert into send_recipients (company_id, send_id, dedupe_key, position, clean_lead_id, chat_id, name, phone, values, status)
      select ${companyId}, ${send.id}, ${send.id}, x.position, x.clean_lead_id, x.chat_id, x.name, x.phone, x.values, 'queued'
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(position int, clean_lead_id uuid, chat_id uuid, name text, phone text, values jsonb)`);
    written.push({ sendId: send.id, logId: log.id, daysAgo: s.daysAgo, failEvery: s.failEvery });
  }

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

  for (const w of written) {
    const at = new Date(Date.now() - w.daysAgo * DAY).toISOString();
    await db.execute(sql`update sends set created_at = ${at}::timestamptz, started_at = ${at}::timestamptz, finished_at = ${at}::timestamptz + interval '3 minutes', updated_at = now()
      where id = ${w.sendId}`);
    // a few numbers the line refused at the call (no WhatsApp), as the engine records a refusal
    if (w.failEvery) {
      await db.execute(sql`update send_recipients set status = 'failed', reason = ${UNDELIVERABLE} where send_id = ${w.sendId} and status = 'sent' and position % ${w.failEvery} = 3`);
    }
    await db.execute(sql`update send_recipients set settled_at = ${at}::timestamptz + make_interval(secs => position), updated_at = ${at}::timestamptz + interval '3 minutes'
      where send_id = ${w.sendId}`);
    // what the phones reported since: most read, some only delivered, yesterday's not all seen yet
    await db.execute(sql`update chat_messages m set sent_at = r.settled_at, created_at = r.settled_at, updated_at = r.settled_at + interval '2 hours',
        status = case when r.status = 'failed' then 'failed'
                      when ${w.daysAgo} <= 1 and r.position % 2 = 0 then 'sent' when r.position % 3 = 0 then 'delivered' else 'read' end,
        status_error = case when r.status = 'failed' then r.reason end
      from send_recipients r where r.send_id = ${w.sendId} and m.company_id = ${companyId} and m.id = r.id`);
    await db.execute(sql`update massive_messages_logs l set created_at = ${at}::timestamptz, updated_at = ${at}::timestamptz + interval '3 minutes',
        sent = x.sent, failed = x.failed, status = case when x.failed = 0 then 'sent' when x.sent = 0 then 'error' else 'sent_with_some_errors' end
      from (select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'failed')::int as failed
              from send_recipients where send_id = ${w.sendId}) x
      where l.id = ${w.logId}`);
    await db.execute(sql`update sends set status = (select status from massive_messages_logs where id = ${w.logId}) where id = ${w.sendId}`);
  }
  // each chat keeps showing its own latest message when it is later than the sends
  await db.execute(sql`update chats c set last_message_at = b.at, last_message_preview = b.preview
      from jsonb_to_recordset(${JSON.stringify(before.map((b) => ({ id: b.id, at: b.last_message_at, preview: b.last_message_preview })))}::jsonb) as b(id uuid, at text, preview text)
      where c.company_id = ${companyId} and c.id = b.id and b.at is not null`);

  // two templates sent from chats whose 24-hour window had closed (decision 0038)
  if (t && people.length > 8) {
    for (const [k, p] of [people[7], people[8]].entries()) {
      const at = new Date(Date.now() - (2 + k) * DAY).toISOString();
      const first = (p.name || 'Hola').split(' ')[0];
      const text = t.body.replace('{{1}}', first);
      await db.execute(sql`insert into chat_messages (company_id, chat_id, direction, kind, text, content, status, status_error, provider_message_id, sent_by, sent_at, created_at, updated_at)
        values (${companyId}, ${p.chat_id}, 'out', 'text', ${text},
                ${JSON.stringify({ template: { name: t.name, language: t.language, payload: { name: t.name, language: { code: t.language }, components: [] } } })}::jsonb,
                ${k === 0 ? 'read' : 'failed'}, ${k === 0 ? null : '131047 · Mensaje no entregado · el número bloqueó a la empresa o no acepta mensajes de marketing'},
                ${`wamid.DEMOTPL${k}`}, ${admin?.id ?? null}, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz + interval '1 hour')`);
    }
  }
}
