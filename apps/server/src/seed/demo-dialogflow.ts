import { BOT_HANDOFF_TEXT } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';
import { sandboxDetectIntent } from '../integrations/dialogflow/sandbox.js';
import type { SecretBox } from '../lib/secret-box.js';
import { createInbound } from '../modules/conversations/inbound.js';

/** The demo's WhatsApp bot answers through the sandbox agent (no Google account, no internet). */
export const DEMO_BOT_PROJECT = 'sandbox:bodega-lucho-wa';

/**
 * Dialogflow in the demo (decision 0053): the example bot «Asistente WhatsApp» answers Demo Perú's
 * WhatsApp line through the sandbox agent, and two recent chats show what it did — one it answered
 * (a greeting and a price), one it handed to a person (the customer asked for an «asesor»), which
 * the inbox marks «Para una persona». New customer messages on the sandbox line are answered live.
 * Idempotent: a company whose bot already has replies is left alone.
 */
export async function seedDemoDialogflow(db: Db, companyId: string, secrets: Pick<SecretBox, 'seal'>): Promise<void> {
  const [bot] = await rowsOf<{ id: string; name: string }>(
    db,
    sql`update bots set dialogflow_project_id = ${DEMO_BOT_PROJECT}, active = true, updated_at = now()
        where company_id = ${companyId} and platform = 'whatsapp' and name = 'Asistente WhatsApp' returning id, name`,
  );
  if (!bot) return;
  const [done] = await rowsOf(db, sql`select 1 from bot_replies where company_id = ${companyId} limit 1`);
  if (done) return;
  await db.execute(sql`insert into bot_connections (bot_id, company_id, state, message, tested_at)
      values (${bot.id}, ${companyId}, 'ok', 'Conexión correcta (agente de prueba): «Hola» coincide con la intención «Default Welcome Intent»', now() - interval '2 hours')
      on conflict (bot_id) do nothing`);

  const inbound = createInbound(secrets);
  const now = Date.now();
  const conversations = [
    { from: '51911200301', name: 'Lucía Campos', lines: ['Hola, buenas tardes', '¿Qué precio tiene el pack familiar?', 'Perfecto, gracias'], handoff: false },
    { from: '51911200302', name: 'Jorge Salinas', lines: ['Buenas, ¿a qué hora abren el domingo?', 'Mi pedido llegó incompleto, quiero hablar con un asesor'], handoff: true },
  ];
  for (const [c, conversation] of conversations.entries()) {
    let at = now - (40 - c * 15) * 60_000;
    let chatId: string | undefined;
    for (const [i, text] of conversation.lines.entries()) {
      const messageId = `wamid.demo-bot-${c}-${i}`;
      const outcome = await inbound.message(db, companyId, 'PE', 'whatsapp', {
        from: conversation.from,
        phone: conversation.from,
        name: conversation.name,
        messageId,
        timestamp: new Date(at).toISOString(),
        kind: 'text',
        text,
      });
      if (outcome.status !== 'processed') break;
      const created = outcome.effects?.find((e) => e.type === 'message.created');
      if (created?.type !== 'message.created') break;
      chatId = created.chatId;
      at += 20_000;
      const handoff = conversation.handoff && i === conversation.lines.length - 1;
      const result = handoff ? undefined : sandboxDetectIntent({ projectId: DEMO_BOT_PROJECT, text, languageCode: 'es' });
      const reply = handoff ? BOT_HANDOFF_TEXT : (result?.reply ?? '');
      const [row] = await rowsOf<{ id: string }>(
        db,
        sql`insert into bot_replies (company_id, bot_id, chat_id, inbound_message_id, outcome, intent, confidence, created_at, updated_at)
            values (${companyId}, ${bot.id}, ${chatId}, ${created.messageId}, ${handoff ? 'handed_over' : 'answered'}, ${result?.intent ?? null}, ${result?.confidence ?? null},
                    ${new Date(at).toISOString()}, ${new Date(at).toISOString()}) returning id`,
      );
      const content = { bot: { name: bot.name, intent: result?.intent, ...(handoff ? { handoff: true } : {}) } };
      await db.execute(sql`insert into chat_messages (id, company_id, chat_id, direction, kind, text, content, provider_message_id, status, sent_at)
          values (${row.id}, ${companyId}, ${chatId}, 'out', 'text', ${reply}, ${JSON.stringify(content)}::jsonb, ${`wamid.demo-bot-reply-${c}-${i}`}, 'read', ${new Date(at).toISOString()})`);
      await db.execute(sql`update chats set last_message_preview = ${reply.slice(0, 300)}, last_message_at = ${new Date(at).toISOString()}, unread_count = ${handoff ? 1 : 0}
          where company_id = ${companyId} and id = ${chatId}`);
      at += 60_000;
    }
    if (!chatId) continue;
    await db.execute(sql`insert into bot_chats (chat_id, company_id, bot_id, state, reason, handed_over_at)
        values (${chatId}, ${companyId}, ${bot.id}, ${conversation.handoff ? 'handed_over' : 'answering'},
                ${conversation.handoff ? 'Pidió hablar con una persona («asesor»)' : null}, ${conversation.handoff ? new Date(at).toISOString() : null})
        on conflict (chat_id) do nothing`);
  }
}
