import { type ChatMessageKind, type LeadStatus, leadStatuses, type MessageContent, messagePreview, resources } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.js';
import { chatMessages, chatWindows, leadIdentities, webhookEvents } from '../db/join-tables.js';
import { resourceTables } from '../db/resource-tables.js';
import { reasonOf } from '../integrations/meta/error-reasons.js';
import { productImagePath, type ProductShape } from '../modules/orders/product-images.js';

/** The demo's WhatsApp line: answered by the sandbox provider (SEND_PROVIDER=sandbox, decision 0014). */
export const DEMO_WHATSAPP_LINE = '100000000000001';

type Step = {
  dir: 'in' | 'out';
  text?: string;
  kind?: ChatMessageKind;
  mediaUrl?: string;
  mimeType?: string;
  failed?: string;
  /** What the kind carries (decision 0020); `replyTo` names a step of the same script. */
  content?: Omit<MessageContent, 'replyTo'>;
  replyTo?: number;
};

/** The demo's pictures are drawn by the server itself (no internet; the web shows them from its own origin). */
const photo = (shape: ProductShape, hex: string) => `http://localhost:3000${productImagePath(shape, hex)}`;
const catalogue = 'https://www.w3.org/WAI/ER/tests/xhtml/testfiles/resources/pdf/dummy.pdf';

/** Conversations of a small Peruvian shop; the first five end with the customer writing (the demo can answer them). */
const scripts: Step[][] = [
  [
    { dir: 'in', text: 'Hola, buenas tardes 👋 ¿Hacen delivery a Surco?' },
    { dir: 'out', text: '¡Hola! Sí, hacemos delivery a Surco de lunes a sábado. El envío cuesta S/ 8 y es gratis desde S/ 120.' },
    { dir: 'in', text: 'Perfecto. ¿Hasta qué hora puedo pedir para que llegue hoy?' },
    { dir: 'out', text: 'Los pedidos hasta la 1 p. m. llegan el mismo día 🚚' },
    { dir: 'in', text: 'Genial, ahora les hago el pedido' },
  ],
  [
    { dir: 'in', text: '¿Tienen el pack familiar en stock?' },
    { dir: 'out', kind: 'image', mediaUrl: photo('botella', 'e31b23'), mimeType: 'image/svg+xml', text: 'Sí, este es el pack familiar: 6 gaseosas de 1.5 L + 2 piqueos grandes a S/ 49.90' },
    { dir: 'in', text: '¿Aceptan Yape o Plin?' },
    { dir: 'out', text: 'Aceptamos Yape, Plin, transferencia y tarjeta contra entrega.' },
    { dir: 'in', text: 'Listo, te yapeo ahora' },
  ],
  [
    { dir: 'in', text: 'Hola, ¿me pueden pasar su catálogo?' },
    { dir: 'out', kind: 'document', mediaUrl: catalogue, mimeType: 'application/pdf', text: 'Te comparto nuestro catálogo de este mes 📄' },
    { dir: 'in', kind: 'image', mediaUrl: photo('polo', '2b5f9e'), mimeType: 'image/svg+xml', text: 'Quiero este modelo en talla M' },
    { dir: 'out', text: '¡Claro! Tenemos talla M en negro y azul. ¿Cuál prefieres?', content: { reaction: '👍' } },
    { dir: 'in', text: 'Negro, por favor', replyTo: 3 },
  ],
  [
    {
      dir: 'in',
      text: '¿Siguen con la promoción del 2x1?',
      // a click-to-WhatsApp ad
      content: { referral: { sourceType: 'ad', headline: '2x1 en gaseosas de 1.5 L', body: 'Solo hasta el domingo', sourceUrl: 'https://fb.me/mostrador-demo-2x1' } },
    },
    { dir: 'out', text: '¡Sí! El 2x1 en gaseosas de 1.5 L va hasta el domingo.' },
    { dir: 'in', text: 'Entonces quiero 4 👍' },
  ],
  [
    { dir: 'in', text: '¿Tienen stock de la talla M?' },
    { dir: 'out', text: 'Sí, nos quedan 3 unidades en talla M. Como ya nos compraste antes, te la dejamos con 10% de descuento solo para ti 😉' },
    { dir: 'in', text: 'Me separan una, paso en la tarde' },
  ],
  [
    { dir: 'in', text: 'Buenas, ya realicé el pago del pedido 1043' },
    { dir: 'out', text: '¡Gracias! Ya lo validamos ✅ ¿Te agregamos también una Inca Kola de 1.5 L por S/ 5? Va en el mismo envío.' },
    { dir: 'in', text: 'Sí, agrégala porfa 🙌' },
    { dir: 'out', text: 'Listo, sumada. Tu pedido sale mañana por la mañana. ¡Gracias por tu compra!' },
  ],
  [
    { dir: 'in', text: '¿A qué hora abren el sábado?' },
    { dir: 'out', text: 'El sábado atendemos de 9 a. m. a 6 p. m. en la tienda de Miraflores.' },
    { dir: 'in', text: 'El sábado pasado fui a las 5 y ya estaba cerrado 😠 perdí el viaje' },
    { dir: 'out', text: 'Lo sentimos mucho, ese día cerramos antes por inventario. Los domingos atendemos pedidos por WhatsApp, de 10 a. m. a 2 p. m.' },
  ],
  [
    { dir: 'in', text: 'Mi pedido no llegó todavía 😕' },
    { dir: 'out', text: 'Lamentamos la demora. ¿Nos confirmas tu número de pedido?' },
    { dir: 'in', text: 'Es el 1051, ya van tres días y nadie me avisa nada' },
    {
      dir: 'out',
      text: 'Tu pedido está en ruta y llega hoy antes de las 6 p. m.',
      failed: reasonOf(131047, 'Re-engagement message'),
    },
  ],
];
const ANSWERABLE = 5;

/**
 * The answer that failed in one open WhatsApp conversation (issue 11): the thread shows the
 * provider's reason and «Reintentar» sends it again through the sandbox.
 */
export const DEMO_RETRY_TEXT = 'Te confirmo: tu pedido sale hoy a las 4 p. m. 🚚';
const retryStep: Step = { dir: 'out', text: DEMO_RETRY_TEXT, failed: reasonOf(131000, 'Internal error') };

/** One older WhatsApp conversation shows what customers can send besides text (decision 0020). */
const showcase: Step[] = [
  {
    dir: 'in',
    kind: 'order',
    text: 'Para recoger el sábado',
    content: {
      order: {
        catalogId: '1588461368287262',
        text: 'Para recoger el sábado',
        items: [
          { productRetailerId: 'pack-familiar', quantity: 1, itemPrice: 49.9, currency: 'PEN' },
          { productRetailerId: 'inca-kola-1-5l', quantity: 2, itemPrice: 7.5, currency: 'PEN' },
        ],
        total: 64.9,
        currency: 'PEN',
      },
    },
  },
  { dir: 'out', text: '¡Recibido! Tu pedido suma S/ 64.90. ¿Lo recoges en la tienda de Miraflores?' },
  { dir: 'in', kind: 'location', content: { location: { latitude: -12.1211, longitude: -77.0297, name: 'Parque Kennedy', address: 'Av. José Larco, Miraflores 15074' } } },
  { dir: 'out', text: 'Perfecto, estamos a una cuadra. ¿A nombre de quién lo dejamos?' },
  { dir: 'in', kind: 'contacts', content: { contacts: [{ name: 'Ana Rojas', phones: [{ phone: '+51 987 654 111', waId: '51987654111', type: 'CELL' }] }] }, replyTo: 3 },
  { dir: 'in', kind: 'interactive', text: 'Sí, confirmar', content: { interactive: { type: 'button_reply', id: 'confirmar-pedido', title: 'Sí, confirmar' } } },
];
const MINUTE = 60_000;

type ChatRow = { id: string; contact_name: string; platform: 'whatsapp' | 'facebook' | 'instagram'; status: string; lead_id: string | null; last_message_at: string | null };

/**
 * The demo's conversations (issue 4 "Chat"): Demo Perú gets a sandbox WhatsApp line when it
 * has none, and every demo chat without messages gets a lead (with its clean lead and its
 * platform identity, as an inbound message would create them) and a short Spanish
 * conversation — text, a photo and a catalogue sent by link, delivery statuses and one failed
 * message. Some chats end with the customer writing minutes or hours before seeding, inside
 * the 24-hour window, so the demo can answer them at once. Idempotent: a company that already
 * has messages is left alone.
 */
export async function seedDemoChats(db: Db, companyId: string): Promise<void> {
  await db.execute(sql`insert into channels (company_id, kind, provider_id, display_phone_number)
      values (${companyId}, 'whatsapp', ${DEMO_WHATSAPP_LINE}, '51987000000') on conflict do nothing`);
  const [has] = (await db.execute(sql`select 1 from chat_messages where company_id = ${companyId} limit 1`)).rows;
  if (has) return;

  const rowsOf = async <T>(q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];
  const chats = await rowsOf<ChatRow>(
    sql`select id, contact_name, platform, status, lead_id, last_message_at from chats where company_id = ${companyId}
        order by last_message_at desc nulls last, id`,
  );
  if (chats.length === 0) return;
  const agents = (await rowsOf<{ id: string }>(sql`select id from agentes where company_id = ${companyId} order by name`)).map((r) => r.id);
  const labels = (await rowsOf<{ id: string }>(sql`select id from mostrador_labels where company_id = ${companyId} order by name`)).map((r) => r.id);
  const [admin] = await rowsOf<{ user_id: string }>(
    sql`select user_id from memberships where company_id = ${companyId} order by (role = 'admin') desc, created_at limit 1`,
  );

  const now = Date.now();
  const showcaseAt = chats.findIndex((chat, i) => chat.platform === 'whatsapp' && !(chat.status === 'open' && (i < 8 || i % 5 === 0)));
  const people = chats.map((chat, i) => {
    const telefono = `519${String(40_000_000 + ((i * 7_919_323) % 59_999_999)).padStart(8, '0')}`;
    const platformUserId =
      chat.platform === 'whatsapp' ? telefono : chat.platform === 'facebook' ? String(6_100_000_000_000_000 + i * 7_919) : String(17_841_400_000_000_000 + i * 7_919);
    const status: LeadStatus = leadStatuses[i % leadStatuses.length];
    const agenteId = agents.length && i % 3 !== 0 ? agents[i % agents.length] : undefined;
    const mostradorLabels = labels.length && i % 2 === 0 ? [labels[i % labels.length]] : undefined;
    // open chats near the top were written to minutes or hours ago: inside the window
    const recent = chat.status === 'open' && (i < 8 || i % 5 === 0);
    const script = recent ? scripts[i % ANSWERABLE] : i === showcaseAt ? showcase : scripts[i % scripts.length];
    const endAt = recent ? now - (3 + ((i * 53) % (20 * 60))) * MINUTE : chat.last_message_at ? Date.parse(chat.last_message_at) : now - (i + 2) * 86_400_000;
    return { chat, i, telefono: chat.platform === 'whatsapp' ? telefono : undefined, platformUserId, status, agenteId, mostradorLabels, recent, script, endAt };
  });

  // the newest open WhatsApp conversation ends with an answer that failed (a retry sends it)
  const retryable = people.find((p) => p.recent && p.chat.platform === 'whatsapp');
  if (retryable) retryable.script = [...retryable.script, retryStep];

  // a lead (and clean lead) for each chat that has none, as the webhook job would have made them
  const orphans = people.filter((p) => !p.chat.lead_id);
  if (orphans.length) {
    const idOf = (t: unknown) => (t as Record<string, AnyPgColumn>).id;
    const detail = (p: (typeof people)[number]) => [
      { message: p.script[0].text, source: p.chat.platform, updatedAt: new Date(p.endAt).toISOString() },
    ];
    const cleanLeads = await db
      .insert(resourceTables['clean-leads'])
      .values(
        orphans.map((p) => ({
          ...resources['clean-leads'].input.parse({
            name: p.chat.contact_name,
            telefono: p.telefono,
            status: p.status,
            agenteId: p.agenteId,
            mostradorLabels: p.mostradorLabels,
            details: detail(p),
          }),
          companyId,
        })) as never,
      )
      .returning({ id: idOf(resourceTables['clean-leads']) });
    const leads = await db
      .insert(resourceTables.leads)
      .values(
        orphans.map((p, k) => ({
          ...resources.leads.input.parse({
            name: p.chat.contact_name,
            telefono: p.telefono,
            platform: p.chat.platform,
            status: p.status,
            agenteId: p.agenteId,
            mostradorLabels: p.mostradorLabels,
            platformUserId: p.platformUserId,
            cleanLeadId: cleanLeads[k].id,
            details: detail(p),
          }),
          companyId,
        })) as never,
      )
      .returning({ id: idOf(resourceTables.leads) });
    orphans.forEach((p, k) => {
      p.chat.lead_id = leads[k].id as string;
    });
    await db
      .insert(leadIdentities)
      .values(orphans.map((p) => ({ companyId, platform: p.chat.platform, platformUserId: p.platformUserId, leadId: p.chat.lead_id as string, chatId: p.chat.id })))
      .onConflictDoNothing();
  }

  const messages: Array<typeof chatMessages.$inferInsert> = [];
  const windows: Array<typeof chatWindows.$inferInsert> = [];
  for (const p of people) {
    const { chat, script } = p;
    // the conversation ends at the chat's last activity, a few minutes between messages
    const times = [p.endAt];
    for (let j = 1; j < script.length; j++) times.unshift(times[0] - (2 + ((p.i + j) % 8)) * MINUTE);
    let lastIn: number | undefined;
    script.forEach((step, j) => {
      const sentAt = new Date(times[j]);
      const last = j === script.length - 1;
      const midOf = (k: number) => (chat.platform === 'whatsapp' ? `wamid.DEMO${p.i.toString(36).toUpperCase()}X${k}` : `m_demo_${p.i}_${k}`);
      const mid = midOf(j);
      const content = step.content || step.replyTo !== undefined ? { ...step.content, ...(step.replyTo !== undefined ? { replyTo: { mid: midOf(step.replyTo) } } : {}) } : undefined;
      if (step.dir === 'in') lastIn = times[j];
      messages.push({
        companyId,
        chatId: chat.id,
        direction: step.dir,
        kind: step.kind ?? 'text',
        text: step.text,
        mediaUrl: step.mediaUrl,
        mimeType: step.mimeType,
        content,
        providerMessageId: mid,
        // the customer answered what came before; a reply they never answered is only delivered
        status: step.dir === 'in' ? 'received' : step.failed ? 'failed' : last ? 'delivered' : 'read',
        statusError: step.failed,
        sentBy: step.dir === 'out' ? admin?.user_id : undefined,
        sentAt,
        createdAt: sentAt,
        updatedAt: sentAt,
      });
    });
    if (lastIn !== undefined) windows.push({ chatId: chat.id, companyId, lastInboundAt: new Date(lastIn) });
    const lastStep = script[script.length - 1];
    const trailingIn = script.length - 1 - script.map((s) => s.dir).lastIndexOf('out');
    const preview = messagePreview({ kind: lastStep.kind ?? 'text', text: lastStep.text, content: lastStep.content });
    await db.execute(sql`update chats set lead_id = ${chat.lead_id}, last_message_at = ${new Date(p.endAt).toISOString()},
        last_message_preview = ${preview}, unread_count = ${chat.status === 'open' && p.recent ? trailingIn : 0}
        where company_id = ${companyId} and id = ${chat.id}`);
  }
  if (messages.length) await db.insert(chatMessages).values(messages);
  if (windows.length) await db.insert(chatWindows).values(windows).onConflictDoNothing();
  await seedDemoDeadLetter(db, companyId);
}

/**
 * One message that could not be processed (decision 0020), so /whatsapp/fallidos shows what it
 * does on a fresh start: «Reintentar» processes it and a new conversation appears in /chat.
 */
async function seedDemoDeadLetter(db: Db, companyId: string) {
  const receivedAt = new Date(Date.now() - 40 * MINUTE);
  const message = {
    from: '51955001234',
    phone: '51955001234',
    name: 'Marco Paredes',
    messageId: 'wamid.DEMOFAILED1',
    timestamp: receivedAt.toISOString(),
    kind: 'text',
    text: 'Hola, ¿hacen envíos a Arequipa? Quiero dos packs familiares',
  };
  await db
    .insert(webhookEvents)
    .values({
      provider: 'whatsapp',
      eventId: message.messageId,
      type: 'message',
      accountId: DEMO_WHATSAPP_LINE,
      payload: message,
      status: 'failed',
      companyId,
      attempts: 6,
      lastError: 'Connection terminated unexpectedly: la base de datos no respondió durante el procesamiento',
      receivedAt,
      processedAt: new Date(receivedAt.getTime() + 15 * MINUTE),
    })
    .onConflictDoNothing();
}
