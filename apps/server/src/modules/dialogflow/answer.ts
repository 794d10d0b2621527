import { BOT_HANDOFF_TEXT, type ChatMessageKind, type MessageContent } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { DialogflowError } from '../../integrations/dialogflow/client.js';
import { AppError } from '../../lib/errors.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { assignChat } from '../assignment/auto.js';
import { publishChatEffect } from '../chats/events.js';
import type { ChatService } from '../chats/service.js';
import { ask, type BotRow, botForPlatform, botTakes, handoffWordIn, recordConnection } from './bots.js';
import type { BotAnswerJob } from './jobs.js';

// the webhooks module queues the bot's answer by this name, imported from here
export { BOT_ANSWER_QUEUE } from './jobs.js';

/** Kinds the bot cannot read: the chat goes to a person. */
const forAPerson = new Set<ChatMessageKind>(['image', 'audio', 'video', 'document', 'location', 'contacts', 'order']);
/** Kinds that need no answer (a reaction, a sticker, a provider's notice). */
const silent = new Set<ChatMessageKind>(['reaction', 'sticker', 'system', 'unsupported', 'note']);

export type BotOutcome = 'answered' | 'handed_over' | 'failed' | 'skipped';

/**
 * The bot's turn on one inbound message (decision 0053). Nothing happens when no ready bot is on
 * for the chat's platform or the chat is held by a person. Each message is taken once
 * (`bot_replies` is unique per inbound message, and the answer's id is the reply's id, so the chat
 * service sends it once even when the job runs again). A text goes to detectIntent with the chat
 * as the session; the fulfillment is sent in the chat through the normal send path, marked as the
 * bot's. A fallback intent, a handoff word, a file the bot cannot read or Dialogflow refusing
 * hands the chat to a person: a last message, the chat marked handed over (the bot never answers
 * it again), its lead dealt by the company's assignment (decision 0025) when that is on.
 */
export function createBotAnswerer(deps: {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  chats: Pick<ChatService, 'send'>;
  realtime: Pick<Realtime, 'publish'>;
  log: { warn: (obj: unknown, msg?: string) => void; error: (obj: unknown, msg?: string) => void };
}) {
  const { db, secrets, chats, realtime, log } = deps;

  async function run(job: BotAnswerJob): Promise<BotOutcome> {
    const { companyId, chatId, messageId } = job;
    const [m] = await rowsOf<{ kind: ChatMessageKind; text: string | null; content: MessageContent | null; platform: string }>(
      db,
      sql`select m.kind, m.text, m.content, c.platform from chat_messages m join chats c on c.company_id = m.company_id and c.id = m.chat_id
          where m.company_id = ${companyId} and m.id = ${messageId} and m.chat_id = ${chatId} and m.direction = 'in' and m.is_active`,
    );
    if (!m || silent.has(m.kind)) return 'skipped';
    if (!(await botTakes(db, companyId, chatId))) return 'skipped';
    const bot = await botForPlatform(db, companyId, m.platform);
    if (!bot) return 'skipped';

    // taken once per inbound message; a job run again finds its pending reply and goes on with the same id
    const [claimed] = await rowsOf<{ id: string; outcome: string }>(
      db,
      sql`insert into bot_replies (company_id, bot_id, chat_id, inbound_message_id) values (${companyId}, ${bot.id}, ${chatId}, ${messageId})
          on conflict (inbound_message_id) do update set updated_at = now() returning id, outcome`,
    );
    if (claimed.outcome !== 'pending') return 'skipped';
    const replyId = claimed.id;
    await db.execute(sql`insert into bot_chats (chat_id, company_id, bot_id, state) values (${chatId}, ${companyId}, ${bot.id}, 'answering')
        on conflict (chat_id) do update set bot_id = excluded.bot_id, updated_at = now() where bot_chats.state = 'answering'`);

    const text = (m.kind === 'interactive' ? (m.content?.interactive?.title ?? m.text) : m.text)?.trim();
    if (forAPerson.has(m.kind) || !text) return handOver(bot, job, replyId, 'Envió un archivo o un mensaje que el bot no puede leer');
    const word = handoffWordIn(text);
    if (word) return handOver(bot, job, replyId, `Pidió hablar con una persona («${word}»)`);

    let result: Awaited<ReturnType<typeof ask>>;
    try {
      result = await ask(bot, secrets, chatId, text);
    } catch (error) {
      const reason = error instanceof DialogflowError ? error.reason : 'Error inesperado al consultar Dialogflow';
      if (!(error instanceof DialogflowError)) log.error({ err: error, botId: bot.id }, 'error inesperado al consultar Dialogflow');
      await recordConnection(db, bot, 'failed', reason);
      await db.execute(sql`update bot_replies set error = ${reason}, updated_at = now() where id = ${replyId}`);
      // the customer is not left without an answer: a person takes the chat
      return handOver(bot, job, replyId, `El bot no pudo consultar Dialogflow: ${reason}`, undefined, 'failed');
    }
    await recordConnection(db, bot, 'ok', `Respondió con la intención «${result.intent ?? 'sin nombre'}»`);
    await db.execute(sql`update bot_replies set intent = ${result.intent ?? null}, confidence = ${result.confidence ?? null}, updated_at = now() where id = ${replyId}`);
    if (result.isFallback) return handOver(bot, job, replyId, `El bot no entendió: «${text.slice(0, 120)}»`, result.intent);
    if (!result.reply) return handOver(bot, job, replyId, `La intención «${result.intent ?? 'sin nombre'}» no tiene respuesta de texto`, result.intent);

    try {
      await chats.send(companyId, chatId, { kind: 'text', text: result.reply }, { messageId: replyId, content: { bot: { name: bot.name, intent: result.intent } } });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await db.execute(sql`update bot_replies set outcome = 'failed', error = ${error.message.slice(0, 2000)}, updated_at = now() where id = ${replyId}`);
      return 'failed';
    }
    await db.execute(sql`update bot_replies set outcome = 'answered', updated_at = now() where id = ${replyId}`);
    return 'answered';
  }

  /** The chat goes to a person: the bot's last words, the chat marked, the lead dealt when assignment is on. */
  async function handOver(bot: BotRow, job: BotAnswerJob, replyId: string, reason: string, intent?: string, outcome: 'handed_over' | 'failed' = 'handed_over'): Promise<BotOutcome> {
    const { companyId, chatId } = job;
    try {
      await chats.send(companyId, chatId, { kind: 'text', text: BOT_HANDOFF_TEXT }, { messageId: replyId, content: { bot: { name: bot.name, intent, handoff: true } } });
    } catch (error) {
      // the chat is a person's all the same
      if (!(error instanceof AppError)) log.warn({ err: error, chatId }, 'no se pudo enviar el aviso de traspaso del bot');
    }
    const agent = await db.transaction(async (tx) => {
      await tx.execute(sql`insert into bot_chats (chat_id, company_id, bot_id, state, reason, handed_over_at) values (${chatId}, ${companyId}, ${bot.id}, 'handed_over', ${reason.slice(0, 500)}, now())
          on conflict (chat_id) do update set state = 'handed_over', reason = excluded.reason, handed_over_at = excluded.handed_over_at, updated_at = now()`);
      await tx.execute(sql`update bot_replies set outcome = ${outcome}, updated_at = now() where id = ${replyId}`);
      return assignChat(tx as unknown as Db, companyId, chatId);
    });
    await publishChatEffect(db, realtime, companyId, { type: 'chat.updated', chatId }, log);
    if (agent) {
      const [lead] = await rowsOf<{ lead_id: string }>(db, sql`select lead_id from chats where company_id = ${companyId} and id = ${chatId}`);
      if (lead) await realtime.publish(companyId, { type: 'lead.updated', leadId: lead.lead_id });
    }
    return outcome;
  }

  return { run };
}
export type BotAnswerer = ReturnType<typeof createBotAnswerer>;
