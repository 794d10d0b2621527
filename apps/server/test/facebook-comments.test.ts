import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommentService } from '../src/modules/facebook-comments/service.js';
import { createWebhookProcessor, type WebhookProcessor } from '../src/modules/webhooks/process.js';
import { type FakeGraph, deliver, startFakeGraph } from './fakes/meta.js';
import { type FakeComment, type FakeComments, fakeComments, feedWebhook } from './fakes/meta-comments.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Facebook comments answered by private Messenger replies (decision 0049): the page's signed
 * `feed` webhook → the company's rule → the private reply through the Graph API (a fake that
 * checks what Facebook checks) → the person as a lead with a Messenger chat; the list of
 * comments nobody answered and its public and private answers; failures; tenants.
 */
const PERU_PAGE = '104857362819475';
const ACME_PAGE = '201000000000001';
const PERU_TOKEN = 'EAAGm0PX4ZCpsBAPaginaPeruTokenDePrueba9Zx1';
const ACME_TOKEN = 'EAAGm0PX4ZCpsBAPaginaAcmeTokenDePrueba3Qw2';
const POST = `${PERU_PAGE}_712345678901234`;
const OTHER_POST = `${PERU_PAGE}_799999999999999`;

let t: TestApp;
let fake: FakeGraph;
let fb: FakeComments;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let processor: WebhookProcessor;
let priceRule: string;

const api = (who: Signed, company: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), ...(payload ? { payload } : {}) });

/**
 * Processes every pending event now, sending the private replies it records. The app's own
 * queue may be at it too (each is done once): then its send may still be going, so this waits
 * until no private reply is pending.
 */
async function settle() {
  for (const id of await processor.pendingIds()) await processor.process(id);
  const until = Date.now() + 15_000;
  for (;;) {
    const [{ n }] = await t.sql<{ n: number }>(`select count(*)::int as n from comment_replies where status = 'pending'`);
    if (n === 0 && (await processor.pendingIds()).length === 0) return;
    if (Date.now() > until) throw new Error('respuestas privadas aún pendientes');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function comment(c: Partial<FakeComment> & Pick<FakeComment, 'message'>, pageId = PERU_PAGE) {
  const published = fb.publish({ pageId, postId: POST, fromId: `10${Math.floor(Math.random() * 1e13)}`, fromName: 'Jessica Ccori', ...c });
  const res = await deliver(t, '/api/webhooks/meta', feedWebhook(published));
  expect(res.statusCode, res.body).toBe(200);
  await settle();
  return published;
}

const replyOf = async (commentId: string) =>
  (await t.sql<{ status: string; reason: string | null; rule_id: string | null; chat_id: string | null; lead_id: string | null; mode: string; company_id: string }>(
    'select status, reason, rule_id, chat_id, lead_id, mode, company_id from comment_replies where comment_id = $1 order by created_at',
    [commentId],
  ));
const unansweredIds = async (company: string) =>
  (await t.sql<{ id: string; comment_id: string }>('select id, comment_id from comments_without_responses where company_id = $1 and comment_id is not null', [company]));
const unansweredOf = async (company: string, commentId: string) => (await unansweredIds(company)).find((r) => r.comment_id === commentId);

beforeAll(async () => {
  fb = fakeComments({ [PERU_PAGE]: PERU_TOKEN, [ACME_PAGE]: ACME_TOKEN });
  fake = await startFakeGraph(PERU_TOKEN, fb.route);
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  expect((await api(admin, peru, 'PUT', '/channels/meta', { pageId: PERU_PAGE, pageName: 'Demo Perú', accessToken: PERU_TOKEN })).statusCode).toBe(200);
  expect((await api(acme, acmeCo, 'PUT', '/channels/meta', { pageId: ACME_PAGE, pageName: 'Acme', accessToken: ACME_TOKEN })).statusCode).toBe(200);
  // the demo's rules are Demo Perú's: this suite starts from its own
  await t.sql('delete from comment_rules where company_id = $1', [peru]);
  const comments = createCommentService({ db: t.database.db, secrets: t.app.secrets, config: t.app.settings });
  processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime, undefined, { comments });
  const created = await api(admin, peru, 'POST', '/comment-rules', {
    name: 'Precio del pack',
    kind: 'post',
    postId: POST,
    keywords: ['precio', 'envío'],
    replyText: '¡Hola! El pack familiar está a S/ 49.90. Te escribimos por aquí 😊',
    active: true,
  });
  expect(created.statusCode, created.body).toBe(201);
  priceRule = created.json()._id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('a comment that matches a rule', () => {
  let c: FakeComment;
  it('is answered privately once through the Graph API with the page token and recipient.comment_id', async () => {
    // upper case and without accent: the keyword «envío» matches «ENVIOS»
    c = await comment({ message: '¿Hacen ENVIOS a Arequipa? Info porfa', fromName: 'Kevin Torres' });
    const calls = fb.calls.filter((x) => x.commentId === c.commentId);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ kind: 'private', authorization: `Bearer ${PERU_TOKEN}`, body: { recipient: { comment_id: c.commentId }, message: { text: expect.stringContaining('S/ 49.90') } } });
    expect(fb.privateReplies.get(c.commentId)).toContain('pack familiar');
    const [reply] = await replyOf(c.commentId);
    expect(reply).toMatchObject({ status: 'sent', rule_id: priceRule, mode: 'private', reason: null });
  });

  it('makes the person a lead with a Messenger chat holding the comment and the reply, in /chat', async () => {
    const [reply] = await replyOf(c.commentId);
    const psid = fb.psidOf(PERU_PAGE, c.fromId);
    const [lead] = await t.sql<{ id: string; name: string; platform: string; platform_user_id: string }>('select id, name, platform, platform_user_id from leads where id = $1', [reply.lead_id]);
    expect(lead).toMatchObject({ name: 'Kevin Torres', platform: 'facebook', platform_user_id: psid });
    const messages = await t.sql<{ direction: string; text: string; status: string }>('select direction, text, status from chat_messages where chat_id = $1 order by sent_at, created_at', [reply.chat_id]);
    expect(messages).toEqual([
      { direction: 'in', text: expect.stringContaining('¿Hacen ENVIOS a Arequipa?'), status: 'received' },
      { direction: 'out', text: expect.stringContaining('S/ 49.90'), status: 'sent' },
    ]);
    const chats = await api(admin, peru, 'GET', '/chats/get_chats?limit=50');
    expect(chats.statusCode, chats.body).toBe(200);
    expect(JSON.stringify(chats.json())).toContain(reply.chat_id as string);
    // the comment is kept as answered and is not in the list of comments without response
    const [stored] = await t.sql<{ answered: boolean; author_name: string; permalink_url: string }>('select answered, author_name, permalink_url from comments_facebook where comment_id = $1', [c.commentId]);
    expect(stored).toMatchObject({ answered: true, author_name: 'Kevin Torres', permalink_url: `https://www.facebook.com/${PERU_PAGE}/posts/712345678901234` });
    expect(await unansweredOf(peru, c.commentId)).toBeUndefined();
    // the person writes back in Messenger: the same lead and chat
    const back = await deliver(t, '/api/webhooks/meta', {
      object: 'page',
      entry: [{ id: PERU_PAGE, time: Date.now(), messaging: [{ sender: { id: psid }, recipient: { id: PERU_PAGE }, timestamp: Date.now(), message: { mid: `m_back_${c.commentId}`, text: 'Sí, quiero 2' } }] }],
    });
    expect(back.statusCode).toBe(200);
    await settle();
    const [again] = await t.sql<{ n: number }>('select count(*)::int as n from chat_messages where chat_id = $1', [reply.chat_id]);
    expect(again.n).toBe(3);
  });

  it('shows on the rule’s log with its chat', async () => {
    const res = await api(admin, peru, 'GET', `/comment-rules/${priceRule}/replies`);
    expect(res.statusCode, res.body).toBe(200);
    const [first] = res.json().payload;
    expect(first).toMatchObject({ commentId: c.commentId, authorName: 'Kevin Torres', status: 'sent', by: 'rule', mode: 'private', chatId: expect.any(String) });
  });

  it('refuses a comment webhook without Meta’s signature or with another secret, storing nothing', async () => {
    const forged = fb.publish({ pageId: PERU_PAGE, postId: POST, fromId: '1099', message: 'precio?' });
    for (const options of [{ signature: null }, { secret: 'otro-secreto' }]) {
      const res = await deliver(t, '/api/webhooks/meta', feedWebhook(forged), options);
      expect(res.statusCode).toBe(401);
    }
    expect(await t.sql('select id from webhook_events where event_id = $1', [`comment:${forged.commentId}:add`])).toHaveLength(0);
    expect(fb.calls.some((x) => x.commentId === forged.commentId)).toBe(false);
  });

  it('is not answered again when Meta delivers the same webhook again (stored once)', async () => {
    const before = fb.calls.length;
    const res = await deliver(t, '/api/webhooks/meta', feedWebhook(c));
    expect(res.json()).toMatchObject({ received: 1, stored: 0 });
    await settle();
    expect(fb.calls.length).toBe(before);
    expect(await replyOf(c.commentId)).toHaveLength(1);
  });

  it('answers a person once per post: their second comment there waits in the list', async () => {
    const second = await comment({ message: 'Y el precio del delivery?', fromId: c.fromId, fromName: 'Kevin Torres' });
    expect(fb.calls.some((x) => x.commentId === second.commentId)).toBe(false);
    expect(await replyOf(second.commentId)).toHaveLength(0);
    expect(await unansweredOf(peru, second.commentId)).toBeDefined();
  });

  it('ignores a comment that matches no keyword, another post, an inactive rule and the page’s own comments', async () => {
    const none = await comment({ message: 'Qué bonito 😍' });
    const other = await comment({ message: 'precio?', postId: OTHER_POST });
    const own = await comment({ message: 'precio en inbox', fromId: PERU_PAGE, fromName: 'Demo Perú' });
    for (const x of [none, other, own]) expect(fb.calls.some((call) => call.commentId === x.commentId)).toBe(false);
    expect(await unansweredOf(peru, none.commentId)).toBeDefined();
    expect(await unansweredOf(peru, other.commentId)).toBeDefined();
    expect(await unansweredOf(peru, own.commentId)).toBeUndefined();
    // a rule for any post answers the other post once active
    const any = await api(admin, peru, 'POST', '/comment-rules', { name: 'Cualquier publicación', kind: 'post', keywords: ['PRECIO'], replyText: 'Te escribimos por Messenger', active: false });
    expect(any.statusCode).toBe(201);
    const idle = await comment({ message: 'precio por favor', postId: OTHER_POST });
    expect(await replyOf(idle.commentId)).toHaveLength(0);
    expect((await api(admin, peru, 'PUT', `/comment-rules/${any.json()._id}`, { active: true })).statusCode).toBe(200);
    const answered = await comment({ message: 'Precio por favor', postId: OTHER_POST });
    expect((await replyOf(answered.commentId))[0]).toMatchObject({ status: 'sent', rule_id: any.json()._id });
  });

  it('follows an edit and a removal of the comment', async () => {
    const x = await comment({ message: 'Hola' });
    await deliver(t, '/api/webhooks/meta', feedWebhook({ ...x, message: 'Hola, ¿atienden hoy?' }, 'edited'));
    await settle();
    expect((await t.sql<{ message: string }>('select message from comments_without_responses where comment_id = $1', [x.commentId]))[0].message).toBe('Hola, ¿atienden hoy?');
    await deliver(t, '/api/webhooks/meta', feedWebhook(x, 'remove'));
    await settle();
    expect(await unansweredOf(peru, x.commentId)).toBeUndefined();
    expect(await t.sql('select id from comments_facebook where comment_id = $1', [x.commentId])).toHaveLength(0);
  });
});

describe('Facebook refusing a private reply', () => {
  it.each([
    ['an expired page token', 401, { message: 'Error validating access token: Session has expired', code: 190, error_subcode: 463 }, /token de la página de Facebook venció/],
    ['a comment already answered', 400, { message: '(#10900) Activity already replied to', code: 10900 }, /solo permite una por comentario/],
    ['a closed window', 400, { message: '(#10903) This activity can’t be replied to', code: 10903 }, /más de 7 días/],
    ['HTTP 429', 429, { message: 'Too many calls', code: 1 }, /limitó las llamadas/],
    ['code 4 (app limit)', 400, { message: '(#4) Application request limit reached', code: 4 }, /limitó las llamadas/],
    ['code 17 (user limit)', 400, { message: '(#17) User request limit reached', code: 17 }, /limitó las llamadas/],
    ['code 32 (page limit)', 400, { message: '(#32) Page request limit reached', code: 32 }, /limitó las llamadas/],
    ['code 613 (rate limit)', 400, { message: '(#613) Calls to this api have exceeded the rate limit', code: 613 }, /limitó las llamadas/],
  ] as const)('%s: logged failed with a Spanish reason, the comment waits in the list, the queue goes on', async (_name, status, error, reason) => {
    fb.failNext(status, error);
    const c = await comment({ message: 'precio?' });
    const [reply] = await replyOf(c.commentId);
    expect(reply.status).toBe('failed');
    expect(reply.reason).toMatch(reason);
    expect(reply.reason).toMatch(/\(código \d+|\(HTTP 429\)/);
    expect(await unansweredOf(peru, c.commentId)).toBeDefined();
    const [event] = await t.sql<{ status: string }>("select status from webhook_events where event_id = $1", [`comment:${c.commentId}:add`]);
    expect(event.status).toBe('processed');
    const log = await api(admin, peru, 'GET', `/comment-rules/${priceRule}/replies`);
    expect(log.json().payload.find((r: { commentId: string }) => r.commentId === c.commentId)).toMatchObject({ status: 'failed', reason: expect.stringMatching(reason) });
  });

  it('a comment past the 7 days is not sent to Facebook (replayed late): it waits in the list', async () => {
    const old = await comment({ message: 'precio?', createdAt: new Date(Date.now() - 8 * 24 * 3600 * 1000) });
    expect(fb.calls.some((x) => x.commentId === old.commentId)).toBe(false);
    expect(await unansweredOf(peru, old.commentId)).toBeDefined();
    // answering privately from the list is refused by our own check, in Spanish
    const row = await unansweredOf(peru, old.commentId);
    const res = await api(admin, peru, 'POST', `/comments-without-responses/${row?.id}/reply`, { mode: 'private', text: 'Hola' });
    expect(res.statusCode).toBe(502);
    expect(res.json().errors.msg).toMatch(/7 días/);
  });
});

describe('/comentarios-sin-respuesta', () => {
  it('lists the comments no rule answered, newest first', async () => {
    const a = await comment({ message: 'Primer comentario sin regla 1' });
    const b = await comment({ message: 'Segundo comentario sin regla 2' });
    const res = await api(admin, peru, 'GET', '/comments-without-responses?limit=5');
    expect(res.statusCode).toBe(200);
    const ids = res.json().payload.map((r: { commentId?: string }) => r.commentId);
    expect(ids.indexOf(b.commentId)).toBeLessThan(ids.indexOf(a.commentId));
    expect(res.json().payload[0]).toMatchObject({ platform: 'facebook', authorName: 'Jessica Ccori', message: 'Segundo comentario sin regla 2' });
  });

  it('answers one privately: Messenger, a lead and chat, and it leaves the list with its own message', async () => {
    const c = await comment({ message: '¿Tienen yape?', fromName: 'Maribel Condori' });
    const row = await unansweredOf(peru, c.commentId);
    const res = await api(admin, peru, 'POST', `/comments-without-responses/${row?.id}/reply`, { mode: 'private', text: 'Sí, aceptamos Yape 🙌' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ msg: 'Respuesta enviada por Messenger', reply: { status: 'sent', mode: 'private', by: 'user', chatId: expect.any(String) } });
    expect(res.json().msg).not.toBe('Registro actualizado con éxito');
    expect(fb.privateReplies.get(c.commentId)).toBe('Sí, aceptamos Yape 🙌');
    expect(await unansweredOf(peru, c.commentId)).toBeUndefined();
    // once per comment: the same id again is a 404 (it left the list)
    const again = await api(admin, peru, 'POST', `/comments-without-responses/${row?.id}/reply`, { mode: 'private', text: 'Otra vez' });
    expect(again.statusCode).toBe(404);
  });

  it('answers one publicly under the comment', async () => {
    const c = await comment({ message: '¿Abren el domingo?' });
    const row = await unansweredOf(peru, c.commentId);
    const res = await api(admin, peru, 'POST', `/comments-without-responses/${row?.id}/reply`, { mode: 'public', text: 'Sí, de 10 a 2 🙂' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ msg: 'Respuesta publicada en Facebook', reply: { status: 'sent', mode: 'public' } });
    expect(fb.publicReplies.get(c.commentId)).toEqual(['Sí, de 10 a 2 🙂']);
    expect(await unansweredOf(peru, c.commentId)).toBeUndefined();
  });

  it('keeps a comment Facebook refused, with the reason, and refuses bad input in Spanish', async () => {
    const c = await comment({ message: 'Hola!!' });
    const row = await unansweredOf(peru, c.commentId);
    fb.failNext(401, { message: 'Error validating access token', code: 190 });
    const res = await api(admin, peru, 'POST', `/comments-without-responses/${row?.id}/reply`, { mode: 'public', text: 'Hola' });
    expect(res.statusCode).toBe(502);
    expect(res.json().errors.msg).toMatch(/token de la página de Facebook venció/);
    expect(await unansweredOf(peru, c.commentId)).toBeDefined();
    const bad = await api(admin, peru, 'POST', `/comments-without-responses/${row?.id}/reply`, { mode: 'grito', text: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toBe('Forma de responder: Elige una de las opciones disponibles');
  });
});

describe('a comment event that kept failing', () => {
  it('reads in «Eventos fallidos» as who commented what', async () => {
    await t.sql(
      `insert into webhook_events (provider, event_id, type, account_id, company_id, status, payload, last_error, attempts)
       values ('messenger', 'comment:712345678901234_dead:add', 'comment', $1, $2, 'failed', $3::jsonb, 'Base de datos: sin conexión', 6)`,
      [PERU_PAGE, peru, JSON.stringify({ verb: 'add', commentId: '712345678901234_dead', postId: POST, fromId: '1', fromName: 'Marco Paredes', message: '¿Precio?', createdTime: new Date().toISOString() })],
    );
    const res = await api(admin, peru, 'GET', '/webhooks/dead-letters');
    expect(res.statusCode, res.body).toBe(200);
    const letter = res.json().payload.find((d: { eventId: string }) => d.eventId === 'comment:712345678901234_dead:add');
    expect(letter).toMatchObject({ type: 'comment', summary: 'Marco Paredes comentó en Facebook: ¿Precio?', error: 'Base de datos: sin conexión' });
  });
});

describe('tenants', () => {
  it('a comment on Acme’s page is Acme’s and never meets Demo Perú’s rules', async () => {
    const c = await comment({ message: 'precio del envío?', postId: `${ACME_PAGE}_5550001` }, ACME_PAGE);
    expect(fb.calls.some((x) => x.commentId === c.commentId)).toBe(false);
    expect(await unansweredOf(acmeCo, c.commentId)).toBeDefined();
    expect(await unansweredOf(peru, c.commentId)).toBeUndefined();
  });

  it('refuses another company’s comment ids and rule ids', async () => {
    const c = await comment({ message: 'Consulta sin regla' });
    const row = await unansweredOf(peru, c.commentId);
    const answer = await api(acme, acmeCo, 'POST', `/comments-without-responses/${row?.id}/reply`, { mode: 'private', text: 'Hola' });
    expect(answer.statusCode).toBe(404);
    expect(fb.calls.some((x) => x.commentId === c.commentId)).toBe(false);
    const log = await api(acme, acmeCo, 'GET', `/comment-rules/${priceRule}/replies`);
    expect(log.statusCode).toBe(404);
    expect((await api(acme, acmeCo, 'GET', `/comment-rules/${priceRule}`)).statusCode).toBe(404);
    expect((await api(acme, acmeCo, 'PUT', `/comment-rules/${priceRule}`, { active: false })).statusCode).toBe(404);
  });
});
