import { type ConversionEventOut, conversionsMessages } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/integrations/meta/audiences.js';
import { createConversionsClient } from '../src/integrations/meta/conversions.js';
import { recordConversions } from '../src/modules/conversions-api/record.js';
import { sendDueConversions } from '../src/modules/conversions-api/send.js';
import { conversionEventProblem, type FakeConversions, fakeConversions } from './fakes/meta-conversions.js';
import { type FakeGraph, startFakeGraph } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * Meta's Conversions API for business messaging (issue 31, decision 0098), against a fake of the
 * dataset's events endpoint that checks Meta's payload rules: off by default, a paid order of a
 * click-to-WhatsApp lead is one Purchase however often it is heard, a qualified status is a
 * LeadSubmitted, a Messenger lead carries page and PSID, organic and week-old leads are skipped
 * with their reason, a 500 is retried and a 400 fails in Spanish — each company its own log.
 */
const TOKEN = 'EAAGconversionsTokenDePruebaParaCapi98';
const DATASET = '778899001122334';
const WABA = '102290129340398';
const WA_LINE = '109000000098001';
const PAGE = '230000000098002';
const IG = '178410000098003';

let t: TestApp;
let fake: FakeGraph;
let capi: FakeConversions;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let seq = 0;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, who: Signed = admin, company = peru) => t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });
const turnOn = (company = peru, who = admin) => call('PUT', '/conversions-api/settings', { enabled: true, datasetId: DATASET, accessToken: TOKEN }, who, company);

async function newLead(company: string, o: { platform?: 'whatsapp' | 'facebook' | 'instagram'; clickedDaysAgo?: number | null; ctwaClid?: string; email?: string } = {}) {
  const n = seq++;
  const platform = o.platform ?? 'whatsapp';
  const psid = platform === 'whatsapp' ? `5198770${String(n).padStart(4, '0')}` : `71000000000${n}`;
  const [lead] = await t.sql<{ id: string }>(
    `insert into leads (company_id, name, platform, status, platform_user_id, telefono, email) values ($1, $2, $3, 'sin-asignar', $4, $5, $6) returning id::text`,
    [company, `Cliente CAPI ${n}`, platform, psid, platform === 'whatsapp' ? psid : null, o.email ?? null],
  );
  if (o.clickedDaysAgo !== null) {
    const referral = platform === 'whatsapp' ? { sourceType: 'ad', sourceId: '120220000000001', ctwaClid: o.ctwaClid ?? `ARAkLkA8rmlFeiCktEJQ-${n}` } : { source: 'ADS', type: 'OPEN_THREAD', adId: '120220000000002' };
    await t.sql(`insert into lead_referrals (company_id, lead_id, platform, referral, created_at) values ($1, $2, $3, $4::jsonb, now() - make_interval(days => $5))`, [
      company,
      lead.id,
      platform,
      JSON.stringify(referral),
      o.clickedDaysAgo ?? 1,
    ]);
  }
  return { id: lead.id, psid };
}

async function paidOrder(company: string, leadId: string, total = 149.9, currency = 'PEN') {
  const [o] = await t.sql<{ id: string }>(
    `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id)
     values ($1, $2, 'created', 'catalogo', 'Cliente CAPI', '51987000000', '{}'::jsonb, '[]'::jsonb, $3, $3, $4, $5) returning id::text`,
    [company, `P-CAPI${String(seq++).padStart(3, '0')}`, total, currency, leadId],
  );
  await t.sql(`update orders set status = 'paid' where id = $1`, [o.id]);
  return o.id;
}

/** The listener took every `type` event of the aggregate (its receipts). */
const heard = (aggregateId: string, type: string, n = 1) =>
  until(
    async () =>
      Number(
        (
          await t.sql<{ n: number }>(
            `select count(*)::int as n from domain_event_receipts r join domain_events d on d.position = r.position where r.listener = 'conversions-api.record' and d.aggregate_id = $1 and d.type = $2`,
            [aggregateId, type],
          )
        )[0].n,
      ),
    (v) => v >= n,
    20_000,
    `${type} escuchado`,
  );
const rowsOf = (company: string, where = 'true', values: unknown[] = []) =>
  t.sql<{ id: string; event_id: string; event_name: string; status: string; reason: string | null; payload: Record<string, unknown> | null; lead_id: string; attempts: number }>(
    `select id::text, event_id, event_name, status, reason, payload, lead_id::text, attempts from conversion_events where company_id = $1 and ${where} order by created_at`,
    [company, ...values],
  );
const sentOf = (eventId: string) => until(async () => capi.received.filter((e) => e.event_id === eventId), (v) => v.length > 0, 20_000, `evento ${eventId} recibido`);
const sendNow = (company = peru) => sendDueConversions({ db: t.database.db, secrets: t.app.secrets, client: createConversionsClient(fake.url), log: t.app.log }, company);

beforeAll(async () => {
  capi = fakeConversions(TOKEN, DATASET);
  fake = await startFakeGraph(TOKEN, capi.route);
  t = await startTestApp({ GRAPH_API_URL: fake.url });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  for (const [company, line, page, ig] of [
    [peru, WA_LINE, PAGE, IG],
    [acmeCo, '109000000098101', '230000000098102', '178410000098103'],
  ]) {
    await t.sql(
      `insert into channels (company_id, kind, provider_id, business_account_id) values ($1, 'whatsapp', $2, $3)
       on conflict (company_id, kind) do update set business_account_id = excluded.business_account_id`,
      [company, line, WABA],
    );
    await t.sql(`insert into channels (company_id, kind, provider_id, page_id) values ($1, 'messenger', $2, $2) on conflict (company_id, kind) do update set provider_id = excluded.provider_id`, [company, page]);
    await t.sql(`insert into channels (company_id, kind, provider_id, page_id) values ($1, 'instagram', $2, $3) on conflict (company_id, kind) do update set provider_id = excluded.provider_id`, [company, ig, page]);
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('the Conversions API', () => {
  it('is off by default: a paid order of an ad lead sends nothing and writes nothing', async () => {
    const settings = await call('GET', '/conversions-api/settings');
    expect(settings.json()).toEqual({ enabled: false, tokenSet: false, qualifiedStatus: 'informado-al-agente', sendQualified: true });
    const lead = await newLead(peru);
    const order = await paidOrder(peru, lead.id);
    await heard(order, 'order.paid');
    expect(await rowsOf(peru)).toEqual([]);
    expect(capi.calls).toBe(0);
  });

  it('is turned on only with a dataset and a token, which is sealed and never shown', async () => {
    const noDataset = await call('PUT', '/conversions-api/settings', { enabled: true, accessToken: TOKEN });
    expect(noDataset.statusCode).toBe(400);
    expect(noDataset.json().errors.details).toEqual([{ path: 'datasetId', msg: conversionsMessages.needsDataset }]);
    const saved = await turnOn();
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ enabled: true, datasetId: DATASET, tokenSet: true, tokenHint: '…pi98', qualifiedStatus: 'informado-al-agente', sendQualified: true });
    expect(saved.body).not.toContain(TOKEN);
    const [row] = await t.sql<{ access_token: string }>('select access_token from conversion_settings where company_id = $1', [peru]);
    expect(row.access_token).not.toContain(TOKEN);
    // saved again without a token: the stored one stays
    const kept = await call('PUT', '/conversions-api/settings', { enabled: true, datasetId: DATASET });
    expect(kept.json().tokenSet).toBe(true);
    // the qualified status is the company's: another one is kept until changed again
    expect((await call('PUT', '/conversions-api/settings', { enabled: true, qualifiedStatus: 'compra-realizada' })).json().qualifiedStatus).toBe('compra-realizada');
    expect((await call('PUT', '/conversions-api/settings', { enabled: true })).json()).toMatchObject({ qualifiedStatus: 'compra-realizada', datasetId: DATASET, tokenSet: true });
    expect((await call('PUT', '/conversions-api/settings', { enabled: true, qualifiedStatus: 'informado-al-agente' })).json().qualifiedStatus).toBe('informado-al-agente');
    // a role without the integrations' permission neither reads nor changes it
    const agent = await login(t, demo.agent);
    const refused = await call('GET', '/conversions-api/settings', undefined, agent, agent.user.companyId);
    expect(refused.json().errors.code).toBe('FORBIDDEN');
    expect(refused.body).not.toContain(DATASET);
  });

  it('sends a paid order of a click-to-WhatsApp lead as one Purchase with the payload Meta asks', async () => {
    const lead = await newLead(peru, { ctwaClid: 'ARAkLkA8rmlFeiCktEJQ-PURCHASE', email: '  Maria.Quispe@Gmail.com ' });
    const order = await paidOrder(peru, lead.id, 149.9, 'PEN');
    const [event] = await sentOf(`purchase:order:${order}`);
    expect(conversionEventProblem(event)).toBeNull();
    expect(event).toMatchObject({
      event_name: 'Purchase',
      action_source: 'business_messaging',
      messaging_channel: 'whatsapp',
      user_data: { whatsapp_business_account_id: WABA, ctwa_clid: 'ARAkLkA8rmlFeiCktEJQ-PURCHASE', ph: [sha256Hex(lead.psid)], em: [sha256Hex('maria.quispe@gmail.com')], external_id: [sha256Hex(lead.id)] },
      custom_data: { currency: 'PEN', value: 149.9 },
    });
    expect(Math.abs(Number(event.event_time) - Date.now() / 1000)).toBeLessThan(120);
    const [row] = await until(() => rowsOf(peru, 'order_id = $2', [order]), (r) => r[0]?.status === 'sent');
    const log = (await call('GET', '/conversions-api/events?status=sent')).json().data as ConversionEventOut[];
    expect(log.find((e) => e._id === row.id)).toMatchObject({ eventName: 'Purchase', status: 'sent', eventsReceived: expect.any(Number), fbtraceId: expect.stringMatching(/^Fake\d+Trace$/), value: 149.9, currency: 'PEN' });
  });

  it('writes one event when order.paid is heard twice or the order is paid twice', async () => {
    const lead = await newLead(peru);
    const order = await paidOrder(peru, lead.id);
    await heard(order, 'order.paid');
    await t.sql(`update orders set status = 'created' where id = $1`, [order]);
    await t.sql(`update orders set status = 'paid' where id = $1`, [order]);
    await heard(order, 'order.paid', 2);
    const [again] = await t.sql<{ id: string; position: number; occurred_at: Date }>(`select id::text, position, occurred_at from domain_events where aggregate_id = $1 and type = 'order.paid' limit 1`, [order]);
    const replay = { position: Number(again.position), id: again.id, type: 'order.paid' as const, version: 1, companyId: peru, aggregate: { type: 'order' as const, id: order }, actor: { type: 'system' as const }, payload: { orderId: order, code: 'X', total: 1, currency: 'PEN' }, occurredAt: new Date(again.occurred_at).toISOString() };
    await recordConversions(t.database.db, [replay, replay]);
    await sentOf(`purchase:order:${order}`);
    expect(await rowsOf(peru, 'order_id = $2', [order])).toHaveLength(1);
    expect(capi.received.filter((e) => e.event_id === `purchase:order:${order}`)).toHaveLength(1);
  });

  it("sends a LeadSubmitted when the lead reaches the company's qualified status", async () => {
    const lead = await newLead(peru);
    await t.sql(`update leads set status = 're-conectar' where id = $1`, [lead.id]);
    await heard(lead.id, 'lead.status_changed');
    expect(await rowsOf(peru, 'lead_id = $2', [lead.id])).toEqual([]);
    await t.sql(`update leads set status = 'informado-al-agente' where id = $1`, [lead.id]);
    const [event] = await sentOf(`qualified:lead:${lead.id}`);
    expect(event).toMatchObject({ event_name: 'LeadSubmitted', messaging_channel: 'whatsapp', action_source: 'business_messaging' });
    expect(event.custom_data).toBeUndefined();
  });

  it('sends a Messenger lead with the page id and the page-scoped user id, an Instagram one with the account and the IGSID', async () => {
    const lead = await newLead(peru, { platform: 'facebook' });
    const order = await paidOrder(peru, lead.id, 80, 'PEN');
    const [event] = await sentOf(`purchase:order:${order}`);
    expect(event).toMatchObject({ messaging_channel: 'messenger', user_data: { page_id: PAGE, page_scoped_user_id: lead.psid } });
    expect((event.user_data as Record<string, unknown>).ctwa_clid).toBeUndefined();

    // Instagram: the account's id and the IGSID
    const ig = await newLead(peru, { platform: 'instagram' });
    const igOrder = await paidOrder(peru, ig.id, 60, 'PEN');
    const [igEvent] = await sentOf(`purchase:order:${igOrder}`);
    expect(igEvent).toMatchObject({ messaging_channel: 'instagram', user_data: { instagram_business_account_id: IG, ig_sid: ig.psid } });
  });

  it('skips an organic lead and a click older than 7 days, saying why', async () => {
    const organic = await newLead(peru, { clickedDaysAgo: null });
    const old = await newLead(peru, { clickedDaysAgo: 8 });
    const [o1, o2] = [await paidOrder(peru, organic.id), await paidOrder(peru, old.id)];
    await heard(o1, 'order.paid');
    await heard(o2, 'order.paid');
    expect((await rowsOf(peru, 'order_id = $2', [o1]))[0]).toMatchObject({ status: 'skipped', reason: conversionsMessages.organic, payload: null });
    expect((await rowsOf(peru, 'order_id = $2', [o2]))[0]).toMatchObject({ status: 'skipped', reason: conversionsMessages.tooOld, payload: null });
    expect(capi.received.some((e) => e.event_id === `purchase:order:${o1}` || e.event_id === `purchase:order:${o2}`)).toBe(false);
    const skipped = (await call('GET', '/conversions-api/events?status=skipped')).json().data as ConversionEventOut[];
    expect(skipped.map((e) => e.reason)).toEqual(expect.arrayContaining([conversionsMessages.organic, conversionsMessages.tooOld]));
  });

  it('tries a 500 again after a wait and sends it; a 400 fails with the reason in Spanish and no remote text', async () => {
    capi.fail.push({ status: 500, code: 2, type: 'OAuthException', message: 'An unexpected error has occurred. Please retry your request later.' });
    const lead = await newLead(peru);
    const order = await paidOrder(peru, lead.id);
    const [waiting] = await until(() => rowsOf(peru, 'order_id = $2', [order]), (r) => r[0]?.attempts === 1 && r[0].status === 'pending' && r[0].reason !== null);
    expect(waiting.reason).toMatch(/se reintentará/);
    // the wait is over
    await t.sql(`update conversion_events set next_attempt_at = now() where id = $1`, [waiting.id]);
    await sendNow();
    expect((await rowsOf(peru, 'order_id = $2', [order]))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    expect(capi.received.filter((e) => e.event_id === `purchase:order:${order}`)).toHaveLength(1);

    const secret = 'Invalid parameter: secreto-interno-de-meta';
    capi.fail.push({ status: 400, code: 100, type: 'OAuthException', message: secret });
    const refused = await paidOrder(peru, (await newLead(peru)).id);
    const [failed] = await until(() => rowsOf(peru, 'order_id = $2', [refused]), (r) => r[0]?.status === 'failed');
    expect(failed.reason).toBe('Meta rechazó un dato del evento o el conjunto de datos no existe (código 100, tipo OAuthException)');
    const listed = await call('GET', '/conversions-api/events?status=failed');
    expect(listed.body).not.toContain('secreto-interno');
    expect((listed.json().data as ConversionEventOut[]).find((e) => e._id === failed.id)).toMatchObject({ status: 'failed', errorCode: 100, errorType: 'OAuthException' });
    // a retry sends it again, now that Meta takes it
    const retried = await call('POST', `/conversions-api/events/${failed.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    await sentOf(`purchase:order:${refused}`);
    const skipped = (await rowsOf(peru, "status = 'skipped'"))[0];
    expect((await call('POST', `/conversions-api/events/${skipped.id}/retry`)).statusCode).toBe(409);
  });

  it("never lists another company's events, nor retries them", async () => {
    expect((await turnOn(acmeCo, acme)).statusCode).toBe(200);
    const lead = await newLead(acmeCo);
    const order = await paidOrder(acmeCo, lead.id, 25980, 'CLP');
    await sentOf(`purchase:order:${order}`);
    const [theirs] = await rowsOf(acmeCo);
    const mine = (await call('GET', '/conversions-api/events')).json().data as ConversionEventOut[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.some((e) => e._id === theirs.id)).toBe(false);
    expect(((await call('GET', '/conversions-api/events', undefined, acme, acmeCo)).json().data as ConversionEventOut[]).map((e) => e._id)).toEqual([theirs.id]);
    expect((await call('POST', `/conversions-api/events/${theirs.id}/retry`)).statusCode).toBe(404);
  });

  it('pages the log newest first', async () => {
    const first = (await call('GET', '/conversions-api/events')).json();
    expect(first.nextCursor).toBeUndefined();
    const all = first.data as ConversionEventOut[];
    expect([...all].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((e) => e._id)).toEqual(all.map((e) => e._id));
    expect((await call('GET', '/conversions-api/events?cursor=nope')).statusCode).toBe(400);
  });
});
