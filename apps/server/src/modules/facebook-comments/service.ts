import type { CommentAnswer, CommentReply, CommentReplyInput, CountryCode } from '@mostrador/contract';
import { resources } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import type { Config } from '../../config.js';
import { type CommentClient, commentFailureReason, createCommentClient, createSandboxCommentClient, PRIVATE_REPLY_WINDOW_DAYS } from '../../integrations/meta/comments.js';
import type { PageComment } from '../../integrations/meta/events.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { repositoryOf } from '../../resources/crud.js';
import { channelTenant, createInbound, type Outcome } from '../conversations/inbound.js';

/**
 * Facebook comments answered by private Messenger replies (issue 15, decision 0049).
 *
 * `receive` runs in the webhook event's transaction: it keeps the comment (comments-facebook),
 * finds the company's first active rule that matches it and, unless the person was already
 * answered on that post, records a pending private reply; a comment no rule answers joins
 * /comentarios-sin-respuesta. `sendReply` runs after that commit: it calls Facebook and records
 * sent (the person becomes a lead with a Messenger chat holding the comment and the reply) or
 * failed with Facebook's reason in Spanish (the comment then joins the list). `answer` is a
 * person's reply from the list, public or private.
 */
export interface CommentServiceDeps {
  db: Db;
  secrets: Pick<SecretBox, 'open' | 'seal'>;
  config: Pick<Config, 'sendProvider' | 'graphApiUrl'>;
  log?: { warn: (obj: unknown, msg?: string) => void };
  client?: CommentClient;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const NO_TEXT = '(comentario sin texto: una foto, un sticker o una mención)';
const NO_NAME = 'Usuario de Facebook';

/** Text as a matcher reads it: lower case, without accents, spaces collapsed. */
export const foldText = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

export type RuleRow = {
  id: string;
  name: string;
  kind: string;
  post_id: string | null;
  keywords: string[] | null;
  reply_text: string;
};

/** Whether a rule answers a comment: its post (or any post) and one of its keywords (or any text). */
export function ruleMatches(rule: Pick<RuleRow, 'post_id' | 'keywords'>, comment: { postId: string; message?: string }): boolean {
  if (rule.post_id && rule.post_id !== comment.postId) return false;
  const keywords = (rule.keywords ?? []).map(foldText).filter(Boolean);
  if (keywords.length === 0) return true;
  const text = foldText(comment.message ?? '');
  return keywords.some((k) => text.includes(k));
}

type ReplyRow = {
  id: string;
  company_id: string;
  rule_id: string | null;
  user_id: string | null;
  comment_id: string;
  post_id: string;
  author_id: string | null;
  author_name: string;
  comment_text: string | null;
  commented_at: Date | string | null;
  mode: 'private' | 'public';
  text: string;
  status: 'pending' | 'sent' | 'failed';
  reason: string | null;
  chat_id: string | null;
  lead_id: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
};

const iso = (v: Date | string | null | undefined) => (v ? new Date(v).toISOString() : undefined);

export function replyOut(r: ReplyRow): CommentReply {
  return {
    _id: r.id,
    ...(r.rule_id ? { ruleId: r.rule_id } : {}),
    commentId: r.comment_id,
    postId: r.post_id,
    authorName: r.author_name,
    ...(r.comment_text ? { commentText: r.comment_text } : {}),
    mode: r.mode,
    by: r.user_id || !r.rule_id ? 'user' : 'rule',
    text: r.text,
    status: r.status,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.chat_id ? { chatId: r.chat_id } : {}),
    ...(r.lead_id ? { leadId: r.lead_id } : {}),
    createdAt: iso(r.created_at) as string,
    ...(r.sent_at ? { sentAt: iso(r.sent_at) } : {}),
  };
}

const lockOn = (db: Db, key: string) => db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);

export function createCommentService({ db, secrets, config, log, client: given }: CommentServiceDeps) {
  const client: CommentClient = given ?? (config.sendProvider === 'graph' ? createCommentClient(config.graphApiUrl) : createSandboxCommentClient());
  const comments = repositoryOf(resources['comments-facebook'], secrets);
  const unanswered = repositoryOf(resources['comments-without-responses'], secrets);
  const inbound = createInbound(secrets);

  async function pageOf(tx: Db, companyId: string) {
    const [page] = await rowsOf<{ provider_id: string; access_token: string | null }>(
      tx,
      sql`select provider_id, access_token from channels where company_id = ${companyId} and kind = 'messenger'`,
    );
    return page;
  }

  /** A comment nobody answered joins /comentarios-sin-respuesta (once). */
  async function listUnanswered(tx: Db, companyId: string, c: { commentId: string; authorName: string; message: string; permalinkUrl?: string | null; commentedAt: string }) {
    const [known] = await rowsOf(tx, sql`select id from comments_without_responses where company_id = ${companyId} and comment_id = ${c.commentId}`);
    if (known) return;
    const input = resources['comments-without-responses'].input.parse({
      platform: 'facebook',
      authorName: c.authorName.slice(0, 120),
      message: c.message.slice(0, 8000),
      ...(c.permalinkUrl ? { postUrl: c.permalinkUrl } : {}),
      receivedAt: c.commentedAt,
      commentId: c.commentId,
    });
    await unanswered.create(tx, channelTenant(companyId), input);
  }

  /** The comment answered: marked on comments-facebook, gone from the list. */
  async function markAnswered(tx: Db, companyId: string, commentId: string) {
    await tx.execute(sql`update comments_facebook set answered = true, updated_at = now() where company_id = ${companyId} and comment_id = ${commentId}`);
    await tx.execute(sql`delete from comments_without_responses where company_id = ${companyId} and comment_id = ${commentId}`);
  }

  const permalinkOk = (url: string | undefined) => (url && /^https:\/\/(www\.|m\.)?facebook\.com\//.test(url) && url.length <= 500 ? url : undefined);

  async function receive(tx: Db, companyId: string, c: PageComment): Promise<Outcome & { replyId?: string }> {
    const page = await pageOf(tx, companyId);
    if (c.fromId && page && c.fromId === page.provider_id) return { status: 'ignored', reason: 'comentario de la propia página' };
    await lockOn(tx, `${companyId}:comment:${c.commentId}`);
    const [stored] = await rowsOf<{ id: string }>(tx, sql`select id from comments_facebook where company_id = ${companyId} and comment_id = ${c.commentId}`);
    const message = c.message?.trim() ? c.message.slice(0, 8000) : NO_TEXT;
    if (c.verb === 'remove') {
      await tx.execute(sql`delete from comments_without_responses where company_id = ${companyId} and comment_id = ${c.commentId}`);
      if (!stored) return { status: 'ignored', reason: 'comentario borrado que no está en Mostrador' };
      await tx.execute(sql`delete from comments_facebook where company_id = ${companyId} and id = ${stored.id}`);
      return { status: 'processed' };
    }
    if (c.verb === 'edited') {
      if (!stored) return { status: 'ignored', reason: 'comentario editado que no está en Mostrador' };
      await tx.execute(sql`update comments_facebook set message = ${message}, updated_at = now() where company_id = ${companyId} and id = ${stored.id}`);
      await tx.execute(sql`update comments_without_responses set message = ${message}, updated_at = now() where company_id = ${companyId} and comment_id = ${c.commentId}`);
      return { status: 'processed' };
    }
    if (stored) return { status: 'ignored', reason: 'comentario ya guardado' };
    const authorName = (c.fromName || NO_NAME).slice(0, 120);
    const permalinkUrl = permalinkOk(c.permalinkUrl);
    const input = resources['comments-facebook'].input.parse({
      ...(page ? { pageId: page.provider_id } : {}),
      postId: c.postId,
      commentId: c.commentId,
      authorName,
      message,
      ...(permalinkUrl ? { permalinkUrl } : {}),
      answered: false,
      ...(c.fromId ? { authorId: c.fromId.slice(0, 64) } : {}),
      ...(c.parentId && c.parentId !== c.postId ? { parentCommentId: c.parentId } : {}),
      commentedAt: c.createdTime,
    });
    await comments.create(tx, channelTenant(companyId), input);

    const rules = await rowsOf<RuleRow>(
      tx,
      sql`select id, name, kind, post_id, keywords, reply_text from comment_rules
          where company_id = ${companyId} and active is true
          order by (post_id is not null and post_id <> '') desc, created_at, id`,
    );
    const rule = rules.find((r) => ruleMatches(r, { postId: c.postId, message: c.message }));
    const fresh = Date.now() - new Date(c.createdTime).getTime() < PRIVATE_REPLY_WINDOW_DAYS * DAY_MS;
    if (rule && fresh) {
      // once per person per post, whichever rule: a second comment of theirs stays for a person
      if (c.fromId) await lockOn(tx, `${companyId}:comment-person:${c.postId}:${c.fromId}`);
      const [answered] = c.fromId
        ? await rowsOf(
            tx,
            sql`select id from comment_replies where company_id = ${companyId} and post_id = ${c.postId} and author_id = ${c.fromId}
                and mode = 'private' and status <> 'failed' limit 1`,
          )
        : [];
      if (!answered) {
        const [reply] = await rowsOf<{ id: string }>(
          tx,
          sql`insert into comment_replies (company_id, rule_id, comment_id, post_id, author_id, author_name, comment_text, commented_at, mode, text)
              values (${companyId}, ${rule.id}, ${c.commentId}, ${c.postId}, ${c.fromId ?? null}, ${authorName}, ${message}, ${c.createdTime}, 'private', ${rule.reply_text})
              on conflict do nothing returning id`,
        );
        if (reply) return { status: 'processed', replyId: reply.id };
      }
    }
    await listUnanswered(tx, companyId, { commentId: c.commentId, authorName, message, permalinkUrl, commentedAt: c.createdTime });
    return { status: 'processed' };
  }

  /** Takes a pending private reply (a crashed worker's claim expires after two minutes). */
  async function claim(replyId: string) {
    const [row] = await rowsOf<ReplyRow>(
      db,
      sql`update comment_replies set claimed_at = now()
          where id = ${replyId} and status = 'pending' and (claimed_at is null or claimed_at < now() - interval '2 minutes')
          returning *`,
    );
    return row;
  }

  async function fail(row: ReplyRow, reason: string): Promise<ReplyRow> {
    return db.transaction(async (tx) => {
      const [failed] = await rowsOf<ReplyRow>(
        tx,
        sql`update comment_replies set status = 'failed', reason = ${reason.slice(0, 2000)}, claimed_at = null where id = ${row.id} returning *`,
      );
      // nobody answered the comment: a person can (publicly, or privately once the cause is fixed)
      const [comment] = await rowsOf<{ author_name: string; message: string; permalink_url: string | null; commented_at: Date | string | null; answered: boolean | null }>(
        tx,
        sql`select author_name, message, permalink_url, commented_at, answered from comments_facebook where company_id = ${row.company_id} and comment_id = ${row.comment_id}`,
      );
      if (comment && !comment.answered) {
        await listUnanswered(tx, row.company_id, {
          commentId: row.comment_id,
          authorName: comment.author_name,
          message: comment.message,
          permalinkUrl: comment.permalink_url,
          commentedAt: iso(comment.commented_at) ?? new Date().toISOString(),
        });
      }
      return failed;
    });
  }

  /**
   * Sends a pending private reply: Facebook's answer becomes the lead (by the Messenger id it
   * returns) with a Messenger chat holding the comment and the reply; a refusal is recorded with
   * its Spanish reason and never thrown (the webhook queue goes on).
   */
  async function sendReply(replyId: string): Promise<ReplyRow | undefined> {
    const row = await claim(replyId);
    if (!row) return undefined;
    const page = await pageOf(db, row.company_id);
    if (!page) return fail(row, 'La compañía ya no tiene página de Facebook conectada');
    if (row.commented_at && Date.now() - new Date(row.commented_at).getTime() >= PRIVATE_REPLY_WINDOW_DAYS * DAY_MS) {
      return fail(row, `Facebook solo permite responder en privado durante ${PRIVATE_REPLY_WINDOW_DAYS} días después del comentario`);
    }
    let accessToken: string | undefined;
    try {
      accessToken = page.access_token ? secrets.open<string>(page.access_token) : undefined;
    } catch {
      return fail(row, 'El token de la página no se puede abrir (se guardó con otra clave): guárdalo de nuevo en Integraciones › WhatsApp');
    }
    let sent: { recipientId: string; messageId: string };
    try {
      sent = await client.privateReply({ pageId: page.provider_id, accessToken }, { commentId: row.comment_id, authorId: row.author_id ?? undefined }, row.text);
    } catch (error) {
      log?.warn({ err: error, replyId }, 'respuesta privada rechazada por Facebook');
      return fail(row, commentFailureReason(error));
    }
    // the chat's messages reach the company's screens from their events (spine/listeners.ts)
    const done = await db.transaction(async (tx) => {
      const [company] = await rowsOf<{ country: CountryCode }>(tx, sql`select country from companies where id = ${row.company_id}`);
      const at = iso(row.commented_at) ?? new Date().toISOString();
      // the comment opens the person's Messenger chat (as their words; it does not open the 24-hour window)
      await inbound.message(tx, row.company_id, company?.country ?? 'PE', 'messenger', {
        from: sent.recipientId,
        name: row.author_name === NO_NAME ? undefined : row.author_name,
        messageId: `comment:${row.comment_id}`,
        timestamp: at,
        kind: 'text',
        text: `Comentó en Facebook: «${row.comment_text ?? NO_TEXT}»`,
        internal: true,
      });
      const [identity] = await rowsOf<{ lead_id: string; chat_id: string }>(
        tx,
        sql`select lead_id, chat_id from lead_identities where company_id = ${row.company_id} and platform = 'facebook' and platform_user_id = ${sent.recipientId}`,
      );
      const chatId = identity?.chat_id ?? null;
      if (chatId) {
        const now = new Date();
        const [message] = await rowsOf<{ id: string }>(
          tx,
          sql`insert into chat_messages (company_id, chat_id, direction, kind, text, provider_message_id, status, sent_at)
              values (${row.company_id}, ${chatId}, 'out', 'text', ${row.text}, ${sent.messageId}, 'sent', ${now.toISOString()})
              on conflict (company_id, provider_message_id) do nothing returning id`,
        );
        if (message) {
          await tx.execute(sql`update chats set last_message_preview = ${row.text.slice(0, 200)}, last_message_at = ${now.toISOString()}, updated_at = now()
              where company_id = ${row.company_id} and id = ${chatId}`);
        }
      }
      await markAnswered(tx, row.company_id, row.comment_id);
      const [updated] = await rowsOf<ReplyRow>(
        tx,
        sql`update comment_replies set status = 'sent', reason = null, provider_message_id = ${sent.messageId}, recipient_id = ${sent.recipientId},
              lead_id = ${identity?.lead_id ?? null}, chat_id = ${chatId}, sent_at = now(), claimed_at = null
            where id = ${row.id} returning *`,
      );
      return updated;
    });
    return done;
  }

  /** A person answers a comment of /comentarios-sin-respuesta, publicly or privately; answered, it leaves the list. */
  async function answer(companyId: string, userId: string, unansweredId: string, body: CommentReplyInput): Promise<CommentAnswer> {
    const [item] = await rowsOf<{ comment_id: string | null; platform: string }>(
      db,
      sql`select comment_id, platform from comments_without_responses where company_id = ${companyId} and id = ${unansweredId}`,
    );
    if (!item) throw new AppError('NOT_FOUND', 'Comentario sin respuesta no encontrado');
    if (item.platform !== 'facebook' || !item.comment_id) {
      throw new AppError('CONFLICT', 'Este comentario no llegó por la página de Facebook: respóndelo desde la red social');
    }
    const [comment] = await rowsOf<{ post_id: string; author_id: string | null; author_name: string; message: string; commented_at: Date | string | null }>(
      db,
      sql`select post_id, author_id, author_name, message, commented_at from comments_facebook where company_id = ${companyId} and comment_id = ${item.comment_id}`,
    );
    if (!comment) throw new AppError('CONFLICT', 'El comentario ya no está en Mostrador (lo borraron en Facebook)');
    const page = await pageOf(db, companyId);
    if (!page) throw new AppError('CONFLICT', 'La compañía no tiene página de Facebook conectada: conéctala en Integraciones › WhatsApp');
    const text = body.text;
    if (body.mode === 'private') {
      const [reply] = await rowsOf<{ id: string }>(
        db,
        sql`insert into comment_replies (company_id, user_id, comment_id, post_id, author_id, author_name, comment_text, commented_at, mode, text)
            values (${companyId}, ${userId}, ${item.comment_id}, ${comment.post_id}, ${comment.author_id}, ${comment.author_name}, ${comment.message},
                    ${iso(comment.commented_at) ?? null}, 'private', ${text})
            on conflict do nothing returning id`,
      );
      if (!reply) throw new AppError('CONFLICT', 'Este comentario ya tiene una respuesta privada: Facebook permite solo una');
      const done = await sendReply(reply.id);
      if (!done) throw new AppError('CONFLICT', 'La respuesta privada ya se está enviando');
      if (done.status === 'failed') throw new AppError('PROVIDER_ERROR', done.reason ?? 'Facebook rechazó la respuesta');
      return { reply: replyOut(done), msg: 'Respuesta enviada por Messenger' };
    }
    // public: a comment under theirs
    let accessToken: string | undefined;
    try {
      accessToken = page.access_token ? secrets.open<string>(page.access_token) : undefined;
    } catch {
      throw new AppError('CONFLICT', 'El token de la página no se puede abrir (se guardó con otra clave): guárdalo de nuevo en Integraciones › WhatsApp');
    }
    const [row] = await rowsOf<ReplyRow>(
      db,
      sql`insert into comment_replies (company_id, user_id, comment_id, post_id, author_id, author_name, comment_text, commented_at, mode, text)
          values (${companyId}, ${userId}, ${item.comment_id}, ${comment.post_id}, ${comment.author_id}, ${comment.author_name}, ${comment.message},
                  ${iso(comment.commented_at) ?? null}, 'public', ${text})
          returning *`,
    );
    try {
      const { id } = await client.publicReply({ pageId: page.provider_id, accessToken }, item.comment_id, text);
      const done = await db.transaction(async (tx) => {
        await markAnswered(tx, companyId, item.comment_id as string);
        const [updated] = await rowsOf<ReplyRow>(tx, sql`update comment_replies set status = 'sent', provider_message_id = ${id}, sent_at = now() where id = ${row.id} returning *`);
        return updated;
      });
      return { reply: replyOut(done), msg: 'Respuesta publicada en Facebook' };
    } catch (error) {
      const reason = commentFailureReason(error);
      await db.execute(sql`update comment_replies set status = 'failed', reason = ${reason} where id = ${row.id}`);
      throw new AppError('PROVIDER_ERROR', reason);
    }
  }

  return {
    client,
    receive,
    sendReply,
    answer,
    /** Private replies a crash left pending (queued again on start). */
    async pendingIds(limit = 500): Promise<string[]> {
      const rows = await rowsOf<{ id: string }>(db, sql`select id from comment_replies where status = 'pending' and mode = 'private' order by created_at limit ${limit}`);
      return rows.map((r) => r.id);
    },
    /** A rule's replies, newest first (its detail screen). */
    async replies(companyId: string, ruleId: string, { page = 1, limit = 50 }: { page?: number; limit?: number } = {}) {
      const rows = await rowsOf<ReplyRow>(
        db,
        sql`select * from comment_replies where company_id = ${companyId} and rule_id = ${ruleId}
            order by created_at desc, id desc limit ${limit} offset ${(page - 1) * limit}`,
      );
      const [{ n }] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from comment_replies where company_id = ${companyId} and rule_id = ${ruleId}`);
      return { payload: rows.map(replyOut), total: Number(n) };
    },
  };
}
export type CommentService = ReturnType<typeof createCommentService>;
