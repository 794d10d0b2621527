import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';

/**
 * The demo's «Enviar más tarde» (decision 0079): two messages Ana scheduled on WhatsApp chats for
 * next week, on Lima's clock — a reminder of the new collection and a quote's follow-up. A week
 * ahead, so none goes by itself while the test suites use the demo's company the same day.
 */
export async function seedDemoScheduled(db: Db, companyId: string, adminId: string | null): Promise<void> {
  const chats = await rowsOf<{ id: string; contact_name: string }>(
    db,
    sql`select id::text, contact_name from chats where company_id = ${companyId} and platform = 'whatsapp' order by last_message_at desc nulls last, id limit 2`,
  );
  const first = (name: string) => name.trim().split(/\s+/)[0] || '';
  const plan = [
    { days: 7, time: '09:30', text: (name: string) => `Hola ${first(name)}, el lunes llega la nueva colección a la tienda. ¿Te separo tu talla antes de que se agote?` },
    { days: 8, time: '10:00', text: (name: string) => `Buenos días ${first(name)}, ¿pudiste revisar la cotización que te enviamos? Quedo atento a cualquier consulta.` },
  ];
  for (const [i, chat] of chats.entries()) {
    const p = plan[i];
    if (!p) break;
    await db.execute(sql`insert into scheduled_messages (company_id, chat_id, kind, text, send_at, created_by, created_at, updated_at)
      values (${companyId}, ${chat.id}, 'text', ${p.text(chat.contact_name).replace(/\s+,/, ',')},
              (date_trunc('day', now() at time zone 'America/Lima') + make_interval(days => ${p.days}) + ${p.time}::time) at time zone 'America/Lima',
              ${adminId}, now() - interval '2 hours', now() - interval '2 hours')`);
  }
}
