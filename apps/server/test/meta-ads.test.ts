import { metaAdsMessages, type MetaAdAccountOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdsClient } from '../src/integrations/meta/ads.js';
import { syncAdSpend } from '../src/modules/meta-ads/sync.js';
import { type FakeAdAccount, fakeAdAccount } from './fakes/meta-ads.js';
import { type FakeGraph, startFakeGraph } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The company's Meta ad account and its spend (issue 14, meta_ad_spend, decision 0047), against a
 * fake Marketing API: Meta is asked before anything is kept, the token is sealed and never shown,
 * insights are read page by page into ad_spend_daily (the window replaced), failures are said in
 * Spanish and stored, and the metric answers the synced spend — each company its own.
 */
const TOKEN = 'EAAGadsReadTokenDePruebaParaMetricas47';
const ACCOUNT = 'act_2233445566';

let t: TestApp;
let fake: FakeGraph;
let ads: FakeAdAccount;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let demoAccount: MetaAdAccountOut;
let demoCampaigns: Array<{ campaignName: string; leads: number; chats: number; costPerLead: number | null }>;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });
const today = new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ads = fakeAdAccount(TOKEN, ACCOUNT);
  fake = await startFakeGraph(TOKEN, ads.route);
  t = await startTestApp({ GRAPH_API_URL: fake.url });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  demoAccount = (await call('GET', '/meta-ads/account')).json() as MetaAdAccountOut;
  demoCampaigns = (await call('POST', '/metrics/meta_ad_spend', { days: 180 })).json().campaigns;
  // the demo's own sandbox account is replaced by the one under test
  await t.sql('delete from meta_ad_accounts where company_id = $1', [peru]);
  await t.sql('delete from ad_spend_daily where company_id = $1', [peru]);
  await t.sql('delete from meta_ads where company_id = $1', [peru]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('the Meta ad account', () => {
  it('is saved only after Meta confirms it, says what is wrong in Spanish, and never shows the token', async () => {
    const badToken = await call('PUT', '/meta-ads/account', { adAccountId: ACCOUNT, accessToken: 'EAAGotroTokenQueVencioHaceTiempo000' });
    expect(badToken.statusCode).toBe(400);
    expect(badToken.json().errors.details).toEqual([{ path: 'accessToken', msg: metaAdsMessages.tokenInvalid }]);
    const badAccount = await call('PUT', '/meta-ads/account', { adAccountId: '9999999999', accessToken: TOKEN });
    expect(badAccount.statusCode).toBe(400);
    expect(badAccount.json().errors.details).toEqual([{ path: 'adAccountId', msg: metaAdsMessages.noAccount }]);
    expect(((await call('GET', '/meta-ads/account')).json() as MetaAdAccountOut).configured).toBe(false);
    expect((await call('PUT', '/meta-ads/account', { adAccountId: 'cuenta', accessToken: TOKEN })).statusCode).toBe(400);

    ads.rows = [];
    const saved = await call('PUT', '/meta-ads/account', { adAccountId: '2233445566', accessToken: TOKEN });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ configured: true, adAccountId: ACCOUNT, name: 'Bodega Lucho Ads', currency: 'PEN', tokenHint: '…as47', sandbox: false });
    expect(saved.body).not.toContain(TOKEN);
    const [row] = await t.sql<{ access_token: string }>('select access_token from meta_ad_accounts where company_id = $1', [peru]);
    expect(row.access_token).not.toContain(TOKEN);
  });

  it('syncs the spend per campaign and day page by page, replacing the window, and the metric answers it', async () => {
    ads.rows = [
      { day: daysAgo(3), adId: '9001', campaignId: '1201', campaignName: 'Clic a WhatsApp · 2x1', spend: '8.50', impressions: '3000', clicks: '60' },
      { day: daysAgo(3), adId: '9002', campaignId: '1201', campaignName: 'Clic a WhatsApp · 2x1', spend: '4.00', impressions: '1000', clicks: '20' },
      { day: daysAgo(3), adId: '9003', campaignId: '1202', campaignName: 'Messenger · Canastas', spend: '7.25', impressions: '2100', clicks: '30' },
      { day: daysAgo(2), adId: '9001', campaignId: '1201', campaignName: 'Clic a WhatsApp · 2x1', spend: '10.00', impressions: '3500', clicks: '70' },
      { day: daysAgo(1), adId: '9001', campaignId: '1201', campaignName: 'Clic a WhatsApp · 2x1', spend: '9.75', impressions: '3300', clicks: '66' },
      { day: daysAgo(1), adId: '9003', campaignId: '1202', campaignName: 'Messenger · Canastas', spend: '5.00', impressions: '1500', clicks: '21' },
    ];
    ads.calls.length = 0;
    const client = createAdsClient(t.app.settings.graphApiUrl);
    const kept = await syncAdSpend(t.database.db, t.app.secrets, client, peru);
    // six ad-days on three pages of two (the cursor followed on our own base, not Meta's host), kept as five campaign-days
    expect(kept).toBe(5);
    expect(ads.calls.filter((c) => c.includes('/insights'))).toHaveLength(3);
    const map = await t.sql<{ ad_id: string; campaign_id: string }>('select ad_id, campaign_id from meta_ads where company_id = $1 order by ad_id', [peru]);
    expect(map.map((m) => [m.ad_id, m.campaign_id])).toEqual([
      ['9001', '1201'],
      ['9002', '1201'],
      ['9003', '1202'],
    ]);

    const metric = await call('POST', '/metrics/meta_ad_spend', { from: daysAgo(10), to: today });
    expect(metric.statusCode, metric.body).toBe(200);
    const campaigns = metric.json().campaigns as Array<{ campaignId: string; spend: number; clicks: number; currency: string }>;
    expect(campaigns.map((c) => [c.campaignId, c.spend, c.clicks, c.currency])).toEqual([
      ['1201', 32.25, 216, 'PEN'],
      ['1202', 12.25, 51, 'PEN'],
    ]);

    // a lead whose first message came from ad 9002 (campaign 1201) two days ago, with its chat and an order: attributed to 1201
    const [lead] = await t.sql<{ id: string }>(
      `insert into leads (company_id, name, telefono, platform, status, platform_user_id) values ($1, 'Lucía del anuncio', '51911222333', 'whatsapp', 'sin-asignar', '51911222333') returning id`,
      [peru],
    );
    await t.sql(`insert into lead_referrals (company_id, lead_id, platform, referral, created_at) values ($1, $2, 'whatsapp', '{"sourceId":"9002","sourceType":"ad","ctwaClid":"abc"}', now() - interval '2 days')`, [peru, lead.id]);
    await t.sql(`insert into lead_referrals (company_id, lead_id, platform, referral, created_at) values ($1, $2, 'whatsapp', '{"sourceId":"9003","sourceType":"ad"}', now() - interval '1 day')`, [peru, lead.id]);
    await t.sql(`insert into chats (company_id, contact_name, platform, lead_id, status, unread_count) values ($1, 'Lucía del anuncio', 'whatsapp', $2, 'open', 0)`, [peru, lead.id]);
    const withLead = (await call('POST', '/metrics/meta_ad_spend', { from: daysAgo(10), to: today })).json().campaigns as Array<{ campaignId: string; leads: number; chats: number; costPerLead: number | null; costPerOrder: number | null }>;
    // the lead counts for its first ad's campaign only (the later ad of 1202 does not take it)
    expect(withLead.map((c) => [c.campaignId, c.leads, c.chats, c.costPerLead, c.costPerOrder])).toEqual([
      ['1201', 1, 1, 32.25, null],
      ['1202', 0, 0, null, null],
    ]);
    // another company's campaign filter sees none of it
    expect((await call('POST', '/metrics/meta_ad_spend', { from: daysAgo(10), to: today }, acme, acmeCo)).json().campaigns).toEqual([]);

    // Meta revised a day and dropped another: the window is Meta's again
    ads.rows = ads.rows.filter((r) => !(r.campaignId === '1202' && r.day === daysAgo(1))).map((r) => (r.campaignId === '1201' && r.day === daysAgo(1) ? { ...r, spend: '11.00' } : r));
    expect(await syncAdSpend(t.database.db, t.app.secrets, client, peru)).toBe(4);
    const again = (await call('POST', '/metrics/meta_ad_spend', { from: daysAgo(10), to: today })).json().campaigns as Array<{ campaignId: string; spend: number }>;
    expect(again.map((c) => [c.campaignId, c.spend])).toEqual([
      ['1201', 33.5],
      ['1202', 7.25],
    ]);
    const account = (await call('GET', '/meta-ads/account')).json() as MetaAdAccountOut;
    expect(account).toMatchObject({ days: 3, campaigns: 2 });
    expect(account.lastSyncAt).toBeDefined();
    expect(account.lastSyncError).toBeUndefined();
  });

  it('keeps the spend and says why when Meta refuses a sync (expired token, rate limit)', async () => {
    const client = createAdsClient(t.app.settings.graphApiUrl);
    ads.fail = { status: 400, code: 17, message: 'User request limit reached' };
    await expect(syncAdSpend(t.database.db, t.app.secrets, client, peru)).rejects.toMatchObject({ msg: metaAdsMessages.rateLimited });
    ads.fail = { status: 401, code: 190, message: 'Error validating access token: Session has expired' };
    await expect(syncAdSpend(t.database.db, t.app.secrets, client, peru)).rejects.toMatchObject({ msg: metaAdsMessages.tokenInvalid });
    ads.fail = undefined;
    const account = (await call('GET', '/meta-ads/account')).json() as MetaAdAccountOut;
    expect(account).toMatchObject({ lastSyncError: metaAdsMessages.tokenInvalid, days: 3 });
    // «Sincronizar» queues the job (202) and the job clears the error
    const sync = await call('POST', '/meta-ads/sync');
    expect(sync.statusCode).toBe(202);
    expect(sync.json().msg).toBe(metaAdsMessages.syncQueued);
    for (let i = 0; i < 100; i++) {
      if (!((await call('GET', '/meta-ads/account')).json() as MetaAdAccountOut).lastSyncError) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(((await call('GET', '/meta-ads/account')).json() as MetaAdAccountOut).lastSyncError).toBeUndefined();
  });

  it('belongs to its company: another company sees none, cannot sync or delete it, and its metric has no spend', async () => {
    expect(((await call('GET', '/meta-ads/account', undefined, acme, acmeCo)).json() as MetaAdAccountOut).configured).toBe(false);
    expect((await call('POST', '/meta-ads/sync', undefined, acme, acmeCo)).statusCode).toBe(404);
    expect((await call('DELETE', '/meta-ads/account', undefined, acme, acmeCo)).statusCode).toBe(404);
    const metric = (await call('POST', '/metrics/meta_ad_spend', { from: daysAgo(10), to: today }, acme, acmeCo)).json();
    expect(metric.campaigns).toEqual([]);
    expect(((await call('GET', '/meta-ads/account')).json() as MetaAdAccountOut).configured).toBe(true);
    const gone = await call('DELETE', '/meta-ads/account');
    expect(gone.json().msg).toBe(metaAdsMessages.removed);
  });
});

describe('the demo', () => {
  it('has a sandbox ad account with months of spend per campaign', () => {
    expect(demoAccount).toMatchObject({ configured: true, sandbox: true, campaigns: 3, currency: 'USD' });
    expect(demoAccount.days).toBeGreaterThan(150);
    // a third of its recent leads came from the campaigns' ads: each campaign says what it brought and at what cost
    expect(demoCampaigns.map((c) => c.campaignName)).toEqual(['Clic a WhatsApp · Gaseosas 2x1', 'Messenger · Canastas Día de la Madre', 'Reconocimiento · Bodega del barrio']);
    expect(demoCampaigns.every((c) => c.leads > 0 && c.chats > 0 && c.costPerLead !== null)).toBe(true);
  });
});
