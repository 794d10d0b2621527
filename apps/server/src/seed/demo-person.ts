import { type LeadPlatform, messagePreview, type Platform, resources } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.js';
import { chatMessages, chatWindows, leadIdentities } from '../db/join-tables.js';
import { resourceTables } from '../db/resource-tables.js';

/** The demo's person on two channels (issue 11): her WhatsApp number, also the platform id there. */
export const DEMO_PERSON_PHONE = '51987650001';
const MINUTE = 60_000;

type Script = Array<{ dir: 'in' | 'out'; text: string }>;
interface Conversation {
  platform: Platform;
  platformUserId: string;
  name: string;
  telefono?: string;
  /** Minutes before seeding of the last message. */
  endsMinutesAgo: number;
  unread: number;
  script: Script;
}

const idOf = (table: unknown) => (table as Record<string, AnyPgColumn>).id;

/**
 * The person behind a chat, on a fresh demo (issue 11, decision 0029): Valeria Mendoza writes
 * on WhatsApp (inside the 24-hour window) and on Instagram, one person with two conversations;
 * «Vale Mendoza» on Messenger gave the same e-mail and is a separate person, the duplicate the
 * chat panel offers to merge. A hand-typed contact has her number without the country code.
 * Idempotent: nothing is added when her WhatsApp identity exists.
 */
export async function seedDemoPerson(db: Db, companyId: string): Promise<void> {
  const [done] = (await db.execute(sql`select 1 from lead_identities where company_id = ${companyId} and platform = 'whatsapp' and platform_user_id = ${DEMO_PERSON_PHONE}`))
    .rows;
  if (done) return;
  const rowsOf = async <T>(q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];
  const [agent] = await rowsOf<{ id: string }>(sql`select id from agentes where company_id = ${companyId} order by name limit 1`);
  const labels = (await rowsOf<{ id: string }>(sql`select id from mostrador_labels where company_id = ${companyId} order by name limit 2`)).map((r) => r.id);
  const [admin] = await rowsOf<{ user_id: string }>(
    sql`select user_id from memberships where company_id = ${companyId} order by (role = 'admin') desc, created_at limit 1`,
  );
  const now = Date.now();
  const email = 'valeria.mendoza@gmail.com';

  const person = async (input: Record<string, unknown>) => {
    const [row] = await db
      .insert(resourceTables['clean-leads'])
      .values({ ...resources['clean-leads'].input.parse(input), companyId } as never)
      .returning({ id: idOf(resourceTables['clean-leads']) });
    return row.id as string;
  };

  async function conversation(cleanLeadId: string, c: Conversation, extra: Record<string, unknown>) {
    const endAt = now - c.endsMinutesAgo * MINUTE;
    const times = c.script.map((_, i) => new Date(endAt - (c.script.length - 1 - i) * 3 * MINUTE));
    const first = c.script[0];
    const [lead] = await db
      .insert(resourceTables.leads)
      .values({
        ...resources.leads.input.parse({
          name: c.name,
          telefono: c.telefono,
          platform: c.platform as LeadPlatform,
          platformUserId: c.platformUserId,
          cleanLeadId,
          details: [{ message: first.text, source: c.platform, updatedAt: times[0].toISOString() }],
          ...extra,
        }),
        companyId,
        createdAt: times[0],
        updatedAt: times[0],
      } as never)
      .returning({ id: idOf(resourceTables.leads) });
    const last = c.script[c.script.length - 1];
    const [chat] = await db
      .insert(resourceTables.chats)
      .values({
        ...resources.chats.input.parse({
          contactName: c.name,
          platform: c.platform,
          leadId: lead.id,
          status: 'open',
          unreadCount: c.unread,
          lastMessageAt: new Date(endAt).toISOString(),
          lastMessagePreview: messagePreview({ kind: 'text', text: last.text }),
        }),
        companyId,
        createdAt: times[0],
        updatedAt: new Date(endAt),
      } as never)
      .returning({ id: idOf(resourceTables.chats) });
    const chatId = chat.id as string;
    await db.insert(leadIdentities).values({ companyId, platform: c.platform, platformUserId: c.platformUserId, leadId: lead.id as string, chatId });
    const tag = c.platform === 'whatsapp' ? 'wamid.DEMOPERSON' : `m_demo_person_${c.platform}_`;
    await db.insert(chatMessages).values(
      c.script.map((step, i) => ({
        companyId,
        chatId,
        direction: step.dir,
        kind: 'text',
        text: step.text,
        providerMessageId: `${tag}${i}`,
        status: step.dir === 'in' ? 'received' : i === c.script.length - 1 ? 'delivered' : 'read',
        sentBy: step.dir === 'out' ? admin?.user_id : undefined,
        sentAt: times[i],
        createdAt: times[i],
        updatedAt: times[i],
      })),
    );
    const lastIn = c.script.map((s) => s.dir).lastIndexOf('in');
    if (lastIn >= 0) await db.insert(chatWindows).values({ chatId, companyId, lastInboundAt: times[lastIn] }).onConflictDoNothing();
  }

  const valeria = await person({
    name: 'Valeria Mendoza',
    telefono: DEMO_PERSON_PHONE,
    email,
    status: 'informado-al-agente',
    agenteId: agent?.id,
    mostradorLabels: labels.slice(0, 1),
    details: [{ email, message: 'Quiere dos packs familiares para el sábado', source: 'whatsapp', updatedAt: new Date(now - 12 * MINUTE).toISOString() }],
  });
  const leadFields = { status: 'informado-al-agente', agenteId: agent?.id, mostradorLabels: labels.slice(0, 1) };
  await conversation(
    valeria,
    {
      platform: 'whatsapp',
      platformUserId: DEMO_PERSON_PHONE,
      name: 'Valeria Mendoza',
      telefono: DEMO_PERSON_PHONE,
      endsMinutesAgo: 12,
      unread: 1,
      script: [
        { dir: 'in', text: 'Hola, les escribí por Instagram ayer 🙂 ¿Me separan dos packs familiares?' },
        { dir: 'out', text: '¡Hola, Valeria! Claro, te separamos dos packs familiares. ¿Los recoges o te los enviamos?' },
        { dir: 'in', text: 'Los recojo el sábado en Miraflores' },
      ],
    },
    leadFields,
  );
  await conversation(
    valeria,
    {
      platform: 'instagram',
      platformUserId: '17841400098765',
      name: 'Valeria Mendoza',
      endsMinutesAgo: 26 * 60,
      unread: 0,
      script: [
        { dir: 'in', text: 'Hola! Vi su post del pack familiar, ¿cuánto cuesta?' },
        { dir: 'out', text: 'Hola 👋 El pack familiar está a S/ 49.90. Si quieres separarlo, escríbenos por WhatsApp al 987 000 000.' },
        { dir: 'in', text: 'Perfecto, les escribo por WhatsApp' },
      ],
    },
    leadFields,
  );

  // the duplicate: same e-mail, another channel, a person of her own
  const vale = await person({
    name: 'Vale Mendoza',
    email,
    status: 'sin-asignar',
    mostradorLabels: labels.slice(1, 2),
    details: [{ email, message: 'Dejó su correo por Messenger', source: 'messenger', updatedAt: new Date(now - 3 * 60 * MINUTE).toISOString() }],
  });
  await conversation(
    vale,
    {
      platform: 'facebook',
      platformUserId: '6100000000098765',
      name: 'Vale Mendoza',
      endsMinutesAgo: 3 * 60,
      unread: 2,
      script: [
        { dir: 'in', text: 'Buenas, ¿hacen factura? Mi correo es valeria.mendoza@gmail.com' },
        { dir: 'out', text: 'Sí, emitimos factura. Te la enviamos a ese correo con tu compra.' },
        { dir: 'in', text: 'Genial, gracias' },
        { dir: 'in', text: 'Es por el pedido de los packs familiares' },
      ],
    },
    { status: 'sin-asignar', mostradorLabels: labels.slice(1, 2) },
  );

  // a contact typed by hand on the business phone, without the country code
  await db
    .insert(resourceTables.contactos)
    .values({ ...resources.contactos.input.parse({ nombre: 'Valeria Mendoza (cliente frecuente)', telefono: DEMO_PERSON_PHONE.slice(2), email }), companyId } as never);
}
