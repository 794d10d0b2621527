import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signNotification } from '../src/integrations/mercadopago/signature.js';
import { type FakeMercadoPagoServer, notification, startFakeMercadoPago } from './fakes/mercadopago.js';
import { DEMO_APP_SECRET, deliver, wamid, whatsappEnvelope } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';
import { createWebhookProcessor } from '../src/modules/webhooks/process.js';

/**
 * Payments of the company's own orders (issue 30; decisions 0083, 0084): Mercado Pago's
 * credentials (sealed, never answered), the Checkout Pro link from the server's order, the
 * signed notification that moves the order to «Pagada» exactly once, what is refused and
 * flagged, another company's order, the manual proof, and the demo's sandbox checkout.
 */
let t: TestApp;
let mp: FakeMercadoPagoServer;
let admin: Signed;
let acme: Signed;
let chile: string;
let peru: string;
let acmeCo: string;
const TOKEN = 'APP_USR-7788-prod-token';
const SECRET = 'mp-clave-secreta-9f2c41';

type Rec = Record<string, unknown>;
/** Intl writes a no-break space between the symbol and the amount. */
const plain = (s: unknown) => String(s).replace(/\u00a0/g, ' ');
const call = (s: Signed, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, company = chile) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company), ...(payload ? { payload } : {}) });

let seq = 0;
async function newOrder(companyId: string, o: { total?: number; currency?: string; status?: string; chatId?: string | null } = {}) {
  const total = o.total ?? 25980;
  const items = [
    { productId: null, sku: 'TZ-01', name: 'Taza cerámica', quantity: 2, unitPrice: total / 4, total: total / 2 },
    { productId: null, sku: 'PL-01-M', name: 'Polera algodón', size: 'M', quantity: 1, unitPrice: total / 2, total: total / 2 },
  ];
  const [row] = await t.sql<{ id: string }>(
    `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, chat_id)
     values ($1, $2, $3, 'catalogo', 'Camila Rojas', '56987654321', '{}'::jsonb, $4::jsonb, $5, $5, $6, $7) returning id`,
    [companyId, `P-PAY${String(seq++).padStart(3, '0')}`, o.status ?? 'created', JSON.stringify(items), total, o.currency ?? 'CLP', o.chatId ?? null],
  );
  return row.id;
}
const statusOf = async (id: string) => (await t.sql<{ status: string }>('select status from orders where id = $1', [id]))[0]?.status;
const paidEvents = async (id: string) => Number((await t.sql<{ n: number }>(`select count(*)::int as n from domain_events where aggregate_id = $1 and type = 'order.paid'`, [id]))[0].n);
const paymentRows = async (id: string) => t.sql<Rec>('select * from order_payments where order_id = $1 order by created_at', [id]);
const paymentsOf = async (id: string, s = admin, company = chile) => (await call(s, 'GET', `/orders/${id}/payments`, undefined, company)).json().payload as Rec[];

beforeAll(async () => {
  mp = await startFakeMercadoPago(TOKEN);
  t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1', MERCADOPAGO_API_URL: mp.url, PUBLIC_URL: 'https://tienda.example.pe' });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  chile = admin.company('Demo Chile');
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
});
afterAll(async () => {
  await t?.close();
  await mp?.close();
});

describe('Mercado Pago credentials', () => {
  it('are saved sealed, never answered, and the connection test names the account', async () => {
    const before = await call(admin, 'GET', '/payments/mercadopago/settings');
    expect(before.json()).toMatchObject({ configured: false, notificationUrl: `https://tienda.example.pe/api/webhooks/mercadopago/${chile}` });
    const missing = await call(admin, 'PUT', '/payments/mercadopago/settings', { sandbox: false });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.msg).toMatch(/access token/);
    const saved = await call(admin, 'PUT', '/payments/mercadopago/settings', { accessToken: TOKEN, webhookSecret: SECRET, publicKey: 'APP_USR-pk-1', sandbox: false });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ configured: true, accessTokenSet: true, webhookSecretSet: true, publicKey: 'APP_USR-pk-1', sandbox: false });
    expect(saved.body).not.toContain(TOKEN);
    expect(saved.body).not.toContain(SECRET);
    const [row] = await t.sql<Rec>('select access_token, webhook_secret from payment_settings where company_id = $1', [chile]);
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(JSON.stringify(row)).not.toContain(SECRET);
    // the audit log says who changed them, the secrets masked
    const [entry] = await t.sql<{ changes: Rec; actor: Rec }>(`select changes, actor from audit_log where entity = 'payment_settings' and company_id = $1 order by id desc limit 1`, [chile]);
    expect(entry).toMatchObject({ actor: { type: 'user', id: admin.user._id }, changes: { accessToken: { to: '••••' }, webhookSecret: { to: '••••' }, sandbox: { to: false } } });
    expect(JSON.stringify(entry)).not.toContain(TOKEN);
    const test = await call(admin, 'POST', '/payments/mercadopago/test');
    expect(test.json()).toEqual({ ok: true, msg: 'Conexión correcta con Mercado Pago: cuenta TIENDA_DEMO' });
    expect(mp.log.at(-1)).toMatchObject({ method: 'GET', path: '/users/me', auth: `Bearer ${TOKEN}` });
  });

  it('a wrong access token fails the test with a Spanish reason, not Mercado Pago\'s body', async () => {
    await call(acme, 'PUT', '/payments/mercadopago/settings', { accessToken: 'APP_USR-otro', webhookSecret: 'acme-secret', sandbox: false }, acmeCo);
    const test = await call(acme, 'POST', '/payments/mercadopago/test', undefined, acmeCo);
    expect(test.json().ok).toBe(false);
    expect(test.json().msg).toMatch(/^Mercado Pago rechazó el access token/);
    expect(test.body).not.toContain('invalid access token');
  });
});

describe('payment link', () => {
  it("is a Checkout Pro preference of the server's order: its lines and prices, our order id, our notification URL; the same link again", async () => {
    const id = await newOrder(chile);
    const res = await call(admin, 'POST', `/orders/${id}/payment-link`);
    expect(res.statusCode, res.body).toBe(200);
    const { url, preferenceId } = res.json();
    expect(url).toBe(`${mp.url}/checkout/v1/redirect/${preferenceId}`);
    const sent = mp.log.filter((l) => l.path === '/checkout/preferences').at(-1);
    expect(sent?.auth).toBe(`Bearer ${TOKEN}`);
    expect(sent?.body).toMatchObject({
      external_reference: id,
      notification_url: `https://tienda.example.pe/api/webhooks/mercadopago/${chile}`,
      items: [
        { title: 'Taza cerámica', quantity: 2, unit_price: 6495, currency_id: 'CLP' },
        { title: 'Polera algodón · Talla M', quantity: 1, unit_price: 12990, currency_id: 'CLP' },
      ],
    });
    const again = await call(admin, 'POST', `/orders/${id}/payment-link`);
    expect(again.json().url).toBe(url);
    expect(mp.log.filter((l) => l.path === '/checkout/preferences' && l.body?.external_reference === id)).toHaveLength(1);
    expect((await paymentsOf(id)).map((p) => [p.status, p.statusLabel, p.url])).toEqual([['link', 'Enlace enviado', url]]);
  });

  it('is refused with a Spanish 409 for an order no longer «Creada», or without credentials', async () => {
    const paid = await newOrder(chile, { status: 'paid' });
    const res = await call(admin, 'POST', `/orders/${paid}/payment-link`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toMatch(/está pagada: solo se cobra con enlace una orden creada/);
    const other = await newOrder(peru, { currency: 'PEN', total: 120 });
    await t.sql(`delete from payment_settings where company_id = $1`, [peru]);
    const none = await call(admin, 'POST', `/orders/${other}/payment-link`, undefined, peru);
    expect(none.statusCode).toBe(409);
    expect(none.json().errors.msg).toMatch(/Configura Mercado Pago/);
  });
});

describe('notification', () => {
  async function linked(o: Parameters<typeof newOrder>[1] = {}) {
    const id = await newOrder(chile, o);
    const link = await call(admin, 'POST', `/orders/${id}/payment-link`);
    expect(link.statusCode, link.body).toBe(200);
    return { id, preferenceId: link.json().preferenceId as string };
  }

  it('a signed notification of an approved payment of the total moves the order to «Pagada»', async () => {
    const { id, preferenceId } = await linked();
    const payment = mp.account.pay(preferenceId);
    const res = await t.app.inject(notification(chile, payment.id, SECRET));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, result: 'moved' });
    expect(await statusOf(id)).toBe('paid');
    expect(await paidEvents(id)).toBe(1);
    expect(mp.log.at(-1)).toMatchObject({ method: 'GET', path: `/v1/payments/${payment.id}`, auth: `Bearer ${TOKEN}` });
    const approved = (await paymentsOf(id)).find((p) => p.providerPaymentId === payment.id);
    expect(approved).toMatchObject({ provider: 'mercadopago', status: 'approved', statusLabel: 'Aprobado', amount: 25980, currency: 'CLP', method: 'visa' });
    expect(approved?.flaggedReason).toBeUndefined();
  });

  it('100 concurrent replays (new request ids) and the same one again: paid once, one order.paid, one payment row', async () => {
    const { id, preferenceId } = await linked();
    const payment = mp.account.pay(preferenceId);
    const answers = await Promise.all(Array.from({ length: 100 }, () => t.app.inject(notification(chile, payment.id, SECRET))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(100).fill(200));
    expect(answers.filter((a) => a.json().result === 'moved')).toHaveLength(1);
    const same = notification(chile, payment.id, SECRET, { requestId: 'f7b2a1d4-0b1c-4ec2-aaaa-9e8b1d2f3c4d' });
    await t.app.inject(same);
    const fetched = mp.log.length;
    const replay = await t.app.inject(same);
    expect(replay.json()).toEqual({ received: true, result: 'unchanged' });
    // a known notification is answered without asking Mercado Pago again
    expect(mp.log.length).toBe(fetched);
    expect(await statusOf(id)).toBe('paid');
    expect(await paidEvents(id)).toBe(1);
    expect((await paymentRows(id)).filter((r) => r.provider_payment_id === payment.id)).toHaveLength(1);
  });

  it('a bad, missing or foreign signature is a 401 and writes nothing', async () => {
    const { id, preferenceId } = await linked();
    const payment = mp.account.pay(preferenceId);
    const good = notification(chile, payment.id, SECRET);
    const cases = [
      { ...good, headers: { ...good.headers, 'x-signature': signNotification('otra-clave', payment.id, good.headers['x-request-id']) } },
      { ...good, headers: { 'content-type': 'application/json', 'x-request-id': good.headers['x-request-id'] } },
      { ...good, headers: { ...good.headers, 'x-request-id': 'otra-solicitud' } },
      { ...good, url: good.url.replace(payment.id, String(Number(payment.id) + 1)) },
      { ...good, headers: { ...good.headers, 'x-signature': 'ts=1,v1=zz' } },
      // rightly signed, but captured four days ago and replayed, or dated ahead of the clock
      { ...good, headers: { ...good.headers, 'x-signature': signNotification(SECRET, payment.id, good.headers['x-request-id'], String(Math.floor(Date.now() / 1000) - 4 * 86400)) } },
      { ...good, headers: { ...good.headers, 'x-signature': signNotification(SECRET, payment.id, good.headers['x-request-id'], String(Math.floor(Date.now() / 1000) + 3600)) } },
    ];
    for (const c of cases) {
      const res = await t.app.inject(c);
      expect(res.statusCode).toBe(401);
      expect(res.json().errors.msg).toBe('La firma de la notificación de Mercado Pago no es válida');
    }
    expect(await statusOf(id)).toBe('created');
    expect((await paymentRows(id)).map((r) => r.status)).toEqual(['link']);
  });

  it('a retry Mercado Pago signed a day ago (or with its ts in milliseconds) is still taken', async () => {
    const { id, preferenceId } = await linked();
    const payment = mp.account.pay(preferenceId);
    const late = notification(chile, payment.id, SECRET, { ts: String(Math.floor(Date.now() / 1000) - 86400) });
    expect((await t.app.inject(late)).json().result).toBe('moved');
    const inMs = notification(chile, payment.id, SECRET, { requestId: 'a1b2c3d4-0000-4ec2-aaaa-9e8b1d2f3c4d', ts: String(Date.now()) });
    expect((await t.app.inject(inMs)).statusCode).toBe(200);
    expect(await statusOf(id)).toBe('paid');
  });

  it('an approved payment of another amount or currency is refused and flagged on the order', async () => {
    const { id, preferenceId } = await linked();
    const less = mp.account.pay(preferenceId, { amount: 20000 });
    const res = await t.app.inject(notification(chile, less.id, SECRET));
    expect(res.json().result).toBe('flagged');
    const dollars = mp.account.pay(preferenceId, { currency: 'USD' });
    await t.app.inject(notification(chile, dollars.id, SECRET));
    expect(await statusOf(id)).toBe('created');
    expect(await paidEvents(id)).toBe(0);
    const flagged = (await paymentsOf(id)).filter((p) => p.flaggedReason);
    expect(flagged.map((p) => plain(p.flaggedReason))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^El pago de \$\s?20\.000 no coincide con el total de la orden \(\$\s?25\.980\): la orden no se marcó pagada/),
        expect.stringMatching(/^El pago de USD 25,980\.00 no coincide con el total/),
      ]),
    );
  });

  it('a rejected payment is recorded, the order stays «Creada»; a refund of the paying payment is shown, the order stays paid', async () => {
    const { id, preferenceId } = await linked();
    const refused = mp.account.pay(preferenceId, { status: 'rejected' });
    expect((await t.app.inject(notification(chile, refused.id, SECRET))).json().result).toBe('recorded');
    expect(await statusOf(id)).toBe('created');
    const ok = mp.account.pay(preferenceId);
    expect((await t.app.inject(notification(chile, ok.id, SECRET))).json().result).toBe('moved');
    mp.account.refund(ok.id);
    expect((await t.app.inject(notification(chile, ok.id, SECRET))).json().result).toBe('flagged');
    expect(await statusOf(id)).toBe('paid');
    const list = await paymentsOf(id);
    expect(list.find((p) => p.providerPaymentId === refused.id)).toMatchObject({ status: 'rejected', statusLabel: 'Rechazado' });
    expect(list.find((p) => p.providerPaymentId === ok.id)).toMatchObject({
      status: 'refunded',
      statusLabel: 'Reembolsado',
      flaggedReason: 'Mercado Pago reembolsó este pago: la orden sigue pagada; cancélala si corresponde',
    });
    expect(await paidEvents(id)).toBe(1);
  });

  it("another company's order in external_reference does nothing; another company's route does not take the notification", async () => {
    const acmeOrder = await newOrder(acmeCo);
    const foreign = mp.account.pay('', { externalReference: acmeOrder, amount: 25980, currency: 'CLP' });
    const res = await t.app.inject(notification(chile, foreign.id, SECRET));
    expect(res.json()).toEqual({ received: true, result: 'ignored' });
    expect(await statusOf(acmeOrder)).toBe('created');
    expect(await paymentRows(acmeOrder)).toEqual([]);
    expect(await t.sql('select 1 from order_payments where provider_payment_id = $1', [foreign.id])).toEqual([]);
    // Chile's notification sent to Acme's address: Acme's secret does not verify it
    const { id, preferenceId } = await linked();
    const pay = mp.account.pay(preferenceId);
    const cross = notification(chile, pay.id, SECRET);
    expect((await t.app.inject({ ...cross, url: cross.url.replace(chile, acmeCo) })).statusCode).toBe(401);
    expect(await statusOf(id)).toBe('created');
    // and another company's order is not readable through the payments list
    expect((await call(acme, 'GET', `/orders/${id}/payments`, undefined, acmeCo)).statusCode).toBe(404);
  });
});

describe('manual proof', () => {
  it('marks the order paid with amount, method and an image of its chat; kept with who and when', async () => {
    const [image] = await t.sql<{ id: string; chat_id: string }>(`select id, chat_id from chat_messages where company_id = $1 and kind = 'image' limit 1`, [peru]);
    const [text] = await t.sql<{ id: string }>(`select id from chat_messages where company_id = $1 and kind = 'text' limit 1`, [peru]);
    const id = await newOrder(peru, { total: 120, currency: 'PEN', chatId: image.chat_id });
    const other = await call(admin, 'POST', `/orders/${id}/mark-paid`, { amount: 100, method: 'yape' }, peru);
    expect(other.statusCode).toBe(400);
    expect(plain(other.json().errors.msg)).toBe('El monto (S/ 100.00) no es el total de la orden (S/ 120.00): escribe una nota que explique la diferencia');
    const notImage = await call(admin, 'POST', `/orders/${id}/mark-paid`, { amount: 120, method: 'yape', proofMessageId: text.id }, peru);
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().errors.msg).toBe('El comprobante debe ser una imagen del chat de esta orden');
    const zero = await call(admin, 'POST', `/orders/${id}/mark-paid`, { amount: 0, method: 'yape' }, peru);
    expect(zero.statusCode).toBe(400);
    expect(await statusOf(id)).toBe('created');

    // the pictures of the order's chat are offered as the proof; another company sees none of them
    const offered = await call(admin, 'GET', `/orders/${id}/proof-images`, undefined, peru);
    expect(offered.statusCode, offered.body).toBe(200);
    expect(offered.json().payload.map((p: Rec) => p._id)).toContain(image.id);
    expect(offered.json().payload.every((p: Rec) => typeof p.mediaUrl === 'string')).toBe(true);
    expect((await call(acme, 'GET', `/orders/${id}/proof-images`, undefined, acmeCo)).statusCode).toBe(404);
    const res = await call(admin, 'POST', `/orders/${id}/mark-paid`, { amount: 120, method: 'yape', proofMessageId: image.id, note: 'Captura enviada por el chat' }, peru);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payment).toMatchObject({ provider: 'manual', status: 'approved', amount: 120, currency: 'PEN', method: 'yape', methodLabel: 'Yape', proofMessageId: image.id, byName: 'Ana Administradora' });
    expect(res.json().payment.proofUrl).toEqual(expect.any(String));
    expect(await statusOf(id)).toBe('paid');
    expect(await paidEvents(id)).toBe(1);
    const again = await call(admin, 'POST', `/orders/${id}/mark-paid`, { amount: 120, method: 'efectivo' }, peru);
    expect(again.statusCode).toBe(409);
    const history = await paymentsOf(id, admin, peru);
    expect(history).toHaveLength(1);
    const audits = await t.sql<{ entity: string; actor: Rec }>(`select entity, actor from audit_log where entity_id = $1 or entity_id = $2 order by id`, [id, history[0]._id]);
    expect(audits.map((a) => a.entity)).toEqual(['order_payments', 'orders']);
    // another amount with a note saying why is allowed (decision 0084)
    const partial = await newOrder(peru, { total: 120, currency: 'PEN' });
    const withNote = await call(admin, 'POST', `/orders/${partial}/mark-paid`, { amount: 110, method: 'transferencia', note: 'Descuento de S/ 10 acordado en el chat' }, peru);
    expect(withNote.statusCode, withNote.body).toBe(200);
    expect(withNote.json().payment).toMatchObject({ amount: 110, note: 'Descuento de S/ 10 acordado en el chat' });
  });

  it('the chat of a paid order reads it in its thread, once: an internal note with the amount, how and who', async () => {
    const [chat] = await t.sql<{ id: string }>(`select id from chats where company_id = $1 and platform = 'whatsapp' order by id limit 1`, [peru]);
    const id = await newOrder(peru, { total: 120, currency: 'PEN', chatId: chat.id });
    const [{ now: startedAt }] = await t.sql<{ now: string }>('select now()::text as now');
    const res = await call(admin, 'POST', `/orders/${id}/mark-paid`, { amount: 120, method: 'yape' }, peru);
    expect(res.statusCode, res.body).toBe(200);
    await t.app.spine.drain();
    const notes = async () =>
      t.sql<{ text: string; direction: string }>(`select text, direction from chat_messages where chat_id = $1 and kind = 'note' and provider_message_id = $2`, [chat.id, `mostrador-payment:${id}`]);
    const [code] = await t.sql<{ code: string }>('select code from orders where id = $1', [id]);
    expect((await notes()).map((n) => plain(n.text))).toEqual([`💳 Pedido ${code.code} pagado: S/ 120.00 por Yape — lo registró Ana Administradora`]);
    expect((await notes())[0].direction).toBe('out');
    // the event heard again (a redelivery after a crash) writes no second note
    expect(await t.app.spine.replay('payments.chat-note', new Date(startedAt))).toBeGreaterThanOrEqual(1);
    expect(await notes()).toHaveLength(1);
    // the thread answers it as an internal note the agents read, not a message to the customer
    const thread = await call(admin, 'GET', `/chats/${chat.id}/messages`, undefined, peru);
    expect(thread.statusCode, thread.body).toBe(200);
    expect(JSON.stringify(thread.json())).toContain(`Pedido ${code.code} pagado`);
  });

  it('takes a proof uploaded from the device (an image or a PDF in Drive), not another company\'s file nor two proofs', async () => {
    const upload = async (s: Signed, company: string, name: string, bytes: Buffer) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/drive/files?name=${encodeURIComponent(name)}&folder=Comprobantes`,
        headers: { ...as(s, company), 'content-type': 'application/octet-stream' },
        payload: bytes,
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json().file as { _id: string; path: string };
    };
    const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
    const pdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(64), Buffer.from('\n%%EOF')]);
    const mine = await upload(admin, peru, 'yape-camila.png', png());
    const receipt = await upload(admin, peru, 'transferencia.pdf', pdf());
    const foreign = await upload(acme, acmeCo, 'ajeno.png', png());
    const [image] = await t.sql<{ id: string; chat_id: string }>(`select id, chat_id from chat_messages where company_id = $1 and kind = 'image' limit 1`, [peru]);
    const id = await newOrder(peru, { total: 80, currency: 'PEN', chatId: image.chat_id });
    const other = await call(admin, 'POST', `/orders/${id}/mark-paid`, { amount: 80, method: 'plin', proofFileId: foreign._id }, peru);
    expect(other.statusCode).toBe(400);
    expect(other.json().errors.msg).toBe('El comprobante subido debe ser una imagen o un PDF de la compañía');
    const both = await call(admin, 'POST', `/orders/${id}/mark-paid`, { amount: 80, method: 'plin', proofFileId: mine._id, proofMessageId: image.id }, peru);
    expect(both.statusCode).toBe(400);
    expect(both.json().errors.msg).toBe('Elige un solo comprobante: una imagen del chat o un archivo subido');
    expect(await statusOf(id)).toBe('created');
    const res = await call(admin, 'POST', `/orders/${id}/mark-paid`, { amount: 80, method: 'plin', proofFileId: mine._id }, peru);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payment).toMatchObject({ proofFileId: mine._id, proofUrl: mine.path, proofMimeType: 'image/png', methodLabel: 'Plin' });
    expect((await paymentsOf(id, admin, peru))[0]).toMatchObject({ proofFileId: mine._id, proofUrl: mine.path });
    // the proof's address serves its bytes
    expect((await t.app.inject({ method: 'GET', url: mine.path })).statusCode).toBe(200);
    const second = await newOrder(peru, { total: 80, currency: 'PEN' });
    const withPdf = await call(admin, 'POST', `/orders/${second}/mark-paid`, { amount: 80, method: 'transferencia', proofFileId: receipt._id }, peru);
    expect(withPdf.statusCode, withPdf.body).toBe(200);
    expect(withPdf.json().payment).toMatchObject({ proofMimeType: 'application/pdf' });
  });

  it("another company's order cannot be marked paid", async () => {
    const id = await newOrder(chile);
    const res = await call(acme, 'POST', `/orders/${id}/mark-paid`, { amount: 25980, method: 'efectivo' }, acmeCo);
    expect(res.statusCode).toBe(404);
    expect(await statusOf(id)).toBe('created');
  });
});

describe('the demo sandbox', () => {
  it('the link opens the product\'s own checkout; «Pagar» delivers a signed notification and the order is paid', async () => {
    const saved = await call(admin, 'PUT', '/payments/mercadopago/settings', { accessToken: 'sandbox-mp-peru', webhookSecret: 'sandbox-clave-peru', sandbox: true }, peru);
    expect(saved.statusCode, saved.body).toBe(200);
    const fetchedBefore = mp.log.length;
    const id = await newOrder(peru, { total: 120, currency: 'PEN' });
    const link = await call(admin, 'POST', `/orders/${id}/payment-link`, undefined, peru);
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toMatchObject({ sandbox: true });
    const url = new URL(link.json().url);
    expect(url.origin).toBe('https://tienda.example.pe');
    expect(url.pathname).toMatch(/^\/pago-sandbox\//);
    const page = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(page.statusCode).toBe(200);
    expect(plain(page.body)).toContain('Pagar S/ 120.00 (sandbox)');
    expect(page.body).toContain('Rechazar');
    const rejected = await t.app.inject({ method: 'POST', url: `${url.pathname}/rechazar`, headers: { 'content-type': 'text/plain' }, payload: 'accion=rechazar' });
    expect(rejected.body).toContain('Pago rechazado');
    expect(await statusOf(id)).toBe('created');
    const paid = await t.app.inject({ method: 'POST', url: `${url.pathname}/pagar`, headers: { 'content-type': 'text/plain' }, payload: 'accion=pagar' });
    expect(paid.statusCode).toBe(200);
    expect(paid.body).toContain('¡Pago aprobado!');
    expect(await statusOf(id)).toBe('paid');
    expect((await paymentsOf(id, admin, peru)).map((p) => p.status).sort()).toEqual(['approved', 'link', 'rejected']);
    // no request left the server
    expect(mp.log.length).toBe(fetchedBefore);
    const test = await call(admin, 'POST', '/payments/mercadopago/test', undefined, peru);
    expect(test.json().ok).toBe(true);
  });

  it("the seeded orders show every state, and a seeded link opens the sandbox's checkout", async () => {
    const [waiting] = await t.sql<{ id: string }>(`select id from orders where company_id = $1 and code = 'P-D00100'`, [peru]);
    const link = await call(admin, 'POST', `/orders/${waiting.id}/payment-link`, undefined, peru);
    expect(link.json().url).toBe('https://tienda.example.pe/pago-sandbox/123456789-demo-p-d00100-1');
    const page = await t.app.inject({ method: 'GET', url: '/pago-sandbox/123456789-demo-p-d00100-1' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Pedido P-D00100');
    expect((await t.app.inject({ method: 'GET', url: '/pago-sandbox/no-existe-1' })).statusCode).toBe(404);
    const states = await t.sql<{ status: string; flagged: boolean }>(
      `select p.status, p.flagged_reason is not null as flagged from order_payments p join orders o on o.id = p.order_id
       where p.company_id = $1 and o.code like 'P-D%' order by o.code, p.created_at`,
      [peru],
    );
    expect(new Set(states.map((s) => `${s.status}${s.flagged ? ' flagged' : ''}`))).toEqual(new Set(['link', 'rejected', 'approved flagged', 'approved', 'refunded flagged']));
  });
});

describe('the order to the customer, with its link, in one action', () => {
  it('sends the summary and the Checkout Pro link in the chat; another chat\'s order is not found', async () => {
    const LINE = '109000000000780';
    expect((await call(admin, 'PUT', '/channels/whatsapp', { phoneNumberId: LINE })).statusCode).toBe(200);
    const from = '56933330001';
    const payload = whatsappEnvelope(LINE, from, 'Camila Rojas', [{ from, id: wamid(), timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'Hola, ¿me mandas el link de pago?' } }]);
    expect((await deliver(t, '/api/webhooks/whatsapp', payload, { secret: DEMO_APP_SECRET })).statusCode).toBe(200);
    const processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
    for (const id of await processor.pendingIds()) await processor.process(id);
    const [chat] = await t.sql<{ id: string }>("select chat_id as id from lead_identities where company_id = $1 and platform = 'whatsapp' and platform_user_id = $2", [chile, from]);
    const orderId = await newOrder(chile, { total: 25980, chatId: chat.id });

    const sent = await call(admin, 'POST', `/chats/${chat.id}/orders/${orderId}/send`, { paymentLink: true });
    expect(sent.statusCode, sent.body).toBe(200);
    const out = sent.json();
    expect(out.url).toMatch(/^https?:\/\//);
    expect(plain(out.text)).toContain('¡Hola Camila! Este es tu pedido P-PAY');
    expect(plain(out.text)).toContain('• 2 × Taza cerámica — $12.990');
    expect(plain(out.text)).toContain('*Total: $25.980*');
    expect(out.text).toContain(`Paga aquí con Mercado Pago: ${out.url}`);
    const [message] = await t.sql<{ text: string; sent_by: string; direction: string }>('select text, sent_by, direction from chat_messages where id = $1', [out.messageId]);
    expect(message).toEqual({ text: out.text, sent_by: admin.user._id, direction: 'out' });
    // the link is the order's preference, made once
    expect((await paymentRows(orderId)).filter((p) => p.status === 'link')).toHaveLength(1);

    const summaryOnly = await call(admin, 'POST', `/chats/${chat.id}/orders/${orderId}/send`, { paymentLink: false });
    expect(summaryOnly.statusCode).toBe(200);
    expect(summaryOnly.json().url).toBeUndefined();
    expect(summaryOnly.json().text).not.toContain('Mercado Pago');

    const otherOrder = await newOrder(chile, { chatId: null });
    expect((await call(admin, 'POST', `/chats/${chat.id}/orders/${otherOrder}/send`, { paymentLink: false })).statusCode).toBe(404);
    expect((await call(acme, 'POST', `/chats/${chat.id}/orders/${orderId}/send`, { paymentLink: false }, acmeCo)).statusCode).toBe(404);
    expect((await call(admin, 'POST', `/chats/${chat.id}/orders/${orderId}/send`, { paymentLink: 'si' })).statusCode).toBe(400);
  });
});
