import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';
import { createSandboxCommentClient, type CommentClient } from '../integrations/meta/comments.js';
import { ProviderError } from '../integrations/meta/send.js';
import type { PageComment } from '../integrations/meta/events.js';
import type { SecretBox } from '../lib/secret-box.js';
import { createCommentService } from '../modules/facebook-comments/service.js';

/** The demo's Facebook page (Messenger), answered by the sandbox (SEND_PROVIDER=sandbox, decision 0049). */
export const DEMO_PAGE = '104857362819475';
const PACK_POST = `${DEMO_PAGE}_712345678901234`;
const DELIVERY_POST = `${DEMO_PAGE}_723456789012345`;

const HOUR = 60 * 60 * 1000;
type Seeded = { name: string; fromId: string; post: string; message: string; hoursAgo: number; refuse?: boolean };

/** Comments of the last days on two posts: the rules answer some, one refusal, two for a person. */
const seeded: Seeded[] = [
  { name: 'Rosa Quispe', fromId: '3100000000000001', post: PACK_POST, message: '¿Cuánto cuesta el pack familiar? 😊', hoursAgo: 50 },
  { name: 'Luis Mendoza', fromId: '3100000000000002', post: PACK_POST, message: 'Precio por favor 🙏', hoursAgo: 26 },
  { name: 'Ana Torres', fromId: '3100000000000003', post: DELIVERY_POST, message: '¿Hacen delivery a Chorrillos?', hoursAgo: 20 },
  { name: 'Pedro Huamán', fromId: '3100000000000004', post: PACK_POST, message: 'Info del precio', hoursAgo: 9, refuse: true },
  { name: 'Giovanna Ramos', fromId: '3100000000000005', post: PACK_POST, message: '¡Qué lindos colores los de la nueva colección! 😍', hoursAgo: 5 },
  { name: 'Jorge Salazar', fromId: '3100000000000006', post: DELIVERY_POST, message: '¿Atienden los domingos en Miraflores?', hoursAgo: 2 },
];

/**
 * The demo's Facebook comments (decision 0049): the company's page is connected (Messenger,
 * no token: the sandbox answers without the internet), and comments of the last days went
 * through the same path as the page's `feed` webhook — the rules the resources seeded answered
 * three privately (each person now a lead with a Messenger chat), Facebook refused one (its
 * reason on the rule's log, the comment in the list), and two no rule matched wait in
 * /comentarios-sin-respuesta.
 */
export async function seedDemoComments(db: Db, companyId: string, secrets: Pick<SecretBox, 'seal' | 'open'>): Promise<void> {
  // after the WhatsApp line (channels list oldest first)
  await db.execute(sql`insert into channels (company_id, kind, provider_id, name, created_at, updated_at)
      values (${companyId}, 'messenger', ${DEMO_PAGE}, 'Demo Perú', now() + interval '1 second', now() + interval '1 second') on conflict do nothing`);
  const [page] = await rowsOf<{ company_id: string }>(db, sql`select company_id from channels where kind = 'messenger' and provider_id = ${DEMO_PAGE}`);
  if (page?.company_id !== companyId) return;
  const sandbox = createSandboxCommentClient();
  const refused = new Set(seeded.filter((s) => s.refuse).map((s) => `${s.post.split('_')[1]}_${s.fromId.slice(-6)}`));
  const client: CommentClient = {
    ...sandbox,
    async privateReply(target, comment, text) {
      // one refusal as Facebook gives it for a comment it no longer lets answer
      if (refused.has(comment.commentId)) throw new ProviderError('This activity can’t be replied to', { code: 10903, httpStatus: 400 });
      return sandbox.privateReply(target, comment, text);
    },
  };
  const service = createCommentService({ db, secrets, config: { sendProvider: 'sandbox', graphApiUrl: '' }, client });
  const now = Date.now();
  for (const s of seeded) {
    const comment: PageComment = {
      verb: 'add',
      commentId: `${s.post.split('_')[1]}_${s.fromId.slice(-6)}`,
      postId: s.post,
      parentId: s.post,
      fromId: s.fromId,
      fromName: s.name,
      message: s.message,
      createdTime: new Date(now - s.hoursAgo * HOUR).toISOString(),
      permalinkUrl: `https://www.facebook.com/${DEMO_PAGE}/posts/${s.post.split('_')[1]}`,
    };
    const received = await service.receive(db, companyId, comment);
    if (received.replyId) await service.sendReply(received.replyId);
  }
  // one seeding transaction stamps every row with one instant: each takes its comment's time, so
  // the lists read newest first as they would have (a reply a minute after its comment)
  await db.execute(sql`update comments_facebook set created_at = commented_at::timestamptz, updated_at = commented_at::timestamptz
      where company_id = ${companyId} and commented_at is not null`);
  // the whole list (the resource's examples too): newest first by when each comment came
  await db.execute(sql`update comments_without_responses set created_at = received_at::timestamptz, updated_at = received_at::timestamptz
      where company_id = ${companyId}`);
  await db.execute(sql`update comment_replies set created_at = commented_at + interval '1 minute',
      sent_at = case when sent_at is null then null else commented_at + interval '1 minute' end
      where company_id = ${companyId} and commented_at is not null`);
  await db.execute(sql`update chat_messages m set sent_at = r.sent_at, created_at = r.sent_at from comment_replies r
      where r.company_id = ${companyId} and m.company_id = r.company_id and m.provider_message_id = r.provider_message_id and r.sent_at is not null`);
  await db.execute(sql`update chats c set last_message_at = to_char(r.sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), updated_at = r.sent_at
      from comment_replies r where r.company_id = ${companyId} and c.company_id = r.company_id and c.id = r.chat_id and r.sent_at is not null`);
}
