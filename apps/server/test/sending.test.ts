import { type ChunkDetail, type ProgrammedChunks, type RecipientOut, type SendOut, sendingMessages } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSendingEngine } from '../src/modules/sending/engine.js';
import { createWebhookProcessor, type WebhookProcessor } from '../src/modules/webhooks/process.js';
import type { CloudLine } from './fakes/cloud-line.js';
import { deliver, type FakeGraph } from './fakes/meta.js';
import { type LineApp, startLineApp } from './fixtures/line-app.js';
import { createLabel, whatsappPeople } from './fixtures/whatsapp-people.js';
import { as, type Signed, type TestApp } from './helpers.js';

/**
 * Campaign chunks through the sending engine (issue 13, decision 0041) against a fake WhatsApp
 * line that enforces throughput (130429), and the pair limit: every chunk call of SPEC §7,
 * exactly once per person, the pre-send check, pacing, stop within 2 s, resume, retry of the
 * failed only, a runner that died, and tenant isolation.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9campanasTokenDePrueba41';
const LINE = '109000000000041';
const WABA = '102290129340041';
const RATE = 20;

let lineApp: LineApp;
let t: TestApp;
let fake: FakeGraph;
let line: CloudLine;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let processor: WebhookProcessor;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });

async function campaign(name: string, label: string, chunkSize: number, templateName = 'promo_campana') {
  const seg = await call('POST', '/marketing-segments', { name: `Segmento ${name}`, filters: { mostradorLabelIds: [label] } });
  expect(seg.statusCode, seg.body).toBe(201);
  const c = await call('POST', '/marketing-campaigns', { name, segmentId: seg.json()._id, channel: 'whatsapp', templateName, chunkSize, status: 'pending' });
  expect(c.statusCode, c.body).toBe(201);
  return { id: c.json()._id as string, segment: seg.json()._id as string };
}

const label = (name: string) => createLabel(call, name);
/** People with a WhatsApp chat each, labelled `label`, created in this order: their numbers. */
const people = async (prefix: string, n: number, label: string) => (await whatsappPeople(t, peru, prefix, n, label)).map((p) => p.phone);

async function waitChunk(id: string, done: (s: SendOut) => boolean, ms = 30_000): Promise<SendOut> {
  const until = Date.now() + ms;
  for (;;) {
    const s = (await call('GET', `/sends/${id}`)).json() as SendOut;
    if (done(s)) return s;
    if (Date.now() > until) throw new Error(`el bloque no terminó: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const finished = (s: SendOut) => ['sent', 'error', 'sent_with_some_errors', 'stopped'].includes(s.status);
const sendsTo = (phones: string[]) => line.log.filter((l) => phones.includes(l.to));

beforeAll(async () => {
  lineApp = await startLineApp({ token: TOKEN, phoneNumberId: LINE, waba: WABA, env: { WHATSAPP_THROUGHPUT: String(RATE) } });
  ({ t, fake, line, admin, acme, peru, acmeCo } = lineApp);
  processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
  await t.sql(
    `insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, body, body_examples, variable_fields)
     values ($1, $2, '7100001', 'promo_campana', 'es_PE', 'MARKETING', 'APPROVED', 'Hola {{1}}, esta semana tenemos 2x1 en gaseosas.', '["María"]', '["nombre"]'),
            ($1, $2, '7100002', 'promo_pendiente', 'es_PE', 'MARKETING', 'PENDING', 'Hola {{1}}', '["María"]', '["nombre"]')`,
    [peru, WABA],
  );
}, 120_000);
afterAll(() => lineApp?.close());

describe('a campaign chunk', () => {
  it('goes once to each person of its page with their own values; who is left out says why; the thread shows it', async () => {
    const tag = await label('Campaña de prueba A');
    const phones = await people('51977410', 12, tag);
    const c = await campaign('Gaseosas 2x1', tag, 5);
    // one person asked not to receive messages
    await t.sql(`update clean_leads set opt_out = true where company_id = $1 and telefono = $2`, [peru, phones[1]]);

    const before = (await call('POST', '/marketing-campaigns/chunk_detail', { campaignId: c.id, chunkPage: 0 })).json() as ChunkDetail;
    expect(before.chunk).toBeUndefined();
    expect(before.payload.map((p) => p.status)).toEqual(['queued', 'skipped', 'queued', 'queued', 'queued']);
    expect(before.payload[1].reason).toBe(sendingMessages.optedOut);

    const sent = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 5, segment: c.segment, campaign: c.id });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json().msg).toBe(sendingMessages.chunkQueued);
    const chunk = await waitChunk(sent.json().chunk._id, finished);
    expect(chunk).toMatchObject({ status: 'sent', chunkPage: 0, counts: { total: 5, sent: 4, skipped: 1, failed: 0, queued: 0 } });

    const out = sendsTo(phones);
    expect(out.map((l) => l.to).sort()).toEqual([phones[0], phones[2], phones[3], phones[4]]);
    expect(new Set(out.map((l) => l.callbackData)).size).toBe(4);
    const sentTemplate = fake.requests.find((r) => (r.body as { to?: string })?.to === phones[0])?.body as { template: { name: string; components: Array<{ parameters: Array<{ text: string }> }> } };
    expect(sentTemplate.template.name).toBe('promo_campana');
    expect(sentTemplate.template.components[0].parameters[0].text).toBe(`Persona ${tag} 1`);

    // the person's chat shows the template as sent, with the provider's id
    const [message] = await t.sql<{ text: string; status: string; provider_message_id: string }>(
      `select m.text, m.status, m.provider_message_id from chat_messages m join send_recipients r on r.id = m.id where r.send_id = $1 and r.phone = $2`,
      [chunk._id, phones[0]],
    );
    expect(message).toMatchObject({ status: 'sent', text: `Hola Persona ${tag} 1, esta semana tenemos 2x1 en gaseosas.` });
    expect(message.provider_message_id).toMatch(/^wamid\./i);

    const report = (await call('GET', `/sends/${chunk._id}/recipients?status=skipped`)).json() as { payload: RecipientOut[]; total: number };
    expect(report.total).toBe(1);
    expect(report.payload[0]).toMatchObject({ telefono: phones[1], reason: sendingMessages.optedOut });

    // the same chunk again is refused; the campaign reads sent
    const again = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 5, segment: c.segment, campaign: c.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.msg).toBe(sendingMessages.chunkExists);
    expect((await call('GET', `/marketing-campaigns/${c.id}`)).json().status).toBe('sent');

    // page 2 (the last two), with one number WhatsApp cannot deliver to: sent with some errors; retry sends that one only
    line.failFor.set(phones[11], { code: 131026, message: 'Message undeliverable' });
    const last = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 2, chunkSize: 5, segment: c.segment, campaign: c.id });
    const lastChunk = await waitChunk(last.json().chunk._id, finished);
    expect(lastChunk).toMatchObject({ status: 'sent_with_some_errors', counts: { total: 2, sent: 1, failed: 1 } });
    const failed = (await call('GET', `/sends/${lastChunk._id}/recipients?status=failed`)).json() as { payload: RecipientOut[] };
    expect(failed.payload[0].reason).toMatch(/131026|no entregable|no se pudo entregar/i);
    expect((await call('GET', `/marketing-campaigns/${c.id}`)).json().status).toBe('sent_with_some_errors');

    line.failFor.delete(phones[11]);
    const retry = await call('POST', '/marketing-campaigns/retry_failed_chunk', { campaignId: c.id, chunkPage: 2 });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().msg).toBe(sendingMessages.retryQueued(1));
    expect(await waitChunk(lastChunk._id, (s) => s.status === 'sent')).toMatchObject({ counts: { sent: 2, failed: 0 } });
    expect(sendsTo([phones[10]])).toHaveLength(1);
    expect(sendsTo([phones[11]])).toHaveLength(1);
    expect((await call('POST', '/marketing-campaigns/retry_failed_chunk', { campaignId: c.id, chunkPage: 2 })).json().errors.msg).toBe(sendingMessages.nothingToRetry);

    const plan = (await call('GET', `/marketing-campaigns/${c.id}/programmed-chunks`)).json() as ProgrammedChunks;
    expect(plan).toMatchObject({ audience: 12, chunkSize: 5, chunks: 3, status: 'sent' });
    expect(plan.payload.map((p) => p.chunkPage).sort()).toEqual([0, 2]);
  });

  it('is paced to the line: never over its limit, throttled calls retried, each person once', async () => {
    const tag = await label('Campaña de prueba B');
    const phones = await people('51977420', 40, tag);
    const c = await campaign('Ritmo de la línea', tag, 40);
    line.ratePerSecond = 15; // below the engine's 20/s: Meta answers 130429 and the engine backs off
    try {
      const res = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 40, segment: c.segment, campaign: c.id });
      const chunk = await waitChunk(res.json().chunk._id, finished, 60_000);
      expect(chunk).toMatchObject({ status: 'sent', counts: { sent: 40, failed: 0 } });
    } finally {
      line.ratePerSecond = Infinity;
    }
    const out = sendsTo(phones);
    expect(out).toHaveLength(40);
    expect(new Set(out.map((l) => l.to)).size).toBe(40);
    const perSecond = new Map<number, number>();
    for (const l of out) perSecond.set(Math.floor(l.at / 1000), (perSecond.get(Math.floor(l.at / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(15);
    expect(line.refused.throughput).toBeGreaterThan(0);
  }, 90_000);

  it('stops within 2 s, keeps the rest queued, and a resume sends only those', async () => {
    const tag = await label('Campaña de prueba C');
    const phones = await people('51977430', 60, tag);
    const c = await campaign('Detener y reanudar', tag, 60);
    const res = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 60, segment: c.segment, campaign: c.id });
    const id = res.json().chunk._id as string;
    await waitChunk(id, (s) => s.counts.sent >= 5);
    const stop = await call('POST', '/marketing-campaigns/stop_manually_chunk', { campaignId: c.id, chunkPage: 0 });
    expect(stop.statusCode, stop.body).toBe(200);
    const stoppedAt = Date.now();
    const stopped = await waitChunk(id, (s) => s.status === 'stopped', 5000);
    expect(Date.now() - stoppedAt).toBeLessThanOrEqual(2000);
    const lastCall = Math.max(...sendsTo(phones).map((l) => l.at));
    expect(lastCall - stoppedAt).toBeLessThanOrEqual(2000);
    expect(stopped.counts.queued).toBeGreaterThan(0);
    const sentBefore = sendsTo(phones).length;
    await new Promise((r) => setTimeout(r, 1200));
    expect(sendsTo(phones)).toHaveLength(sentBefore);

    // resuming a chunk that is not stopped is refused; a stopped one finishes, nobody twice
    const resume = await call('POST', '/marketing-campaigns/resume_chunk', { campaignId: c.id, chunkPage: 0 });
    expect(resume.statusCode, resume.body).toBe(200);
    expect(resume.json().msg).toBe(sendingMessages.chunkResumed);
    expect(await waitChunk(id, finished)).toMatchObject({ status: 'sent', counts: { sent: 60 } });
    expect(sendsTo(phones)).toHaveLength(60);
    expect(new Set(sendsTo(phones).map((l) => l.to)).size).toBe(60);
    expect((await call('POST', '/marketing-campaigns/resume_chunk', { campaignId: c.id, chunkPage: 0 })).json().errors.msg).toBe(sendingMessages.notStopped);
  }, 90_000);

  it('is programmed for later, listed, and stopped before its time (one, or all of the campaign)', async () => {
    const tag = await label('Campaña de prueba D');
    await people('51977440', 3, tag);
    const c = await campaign('Programada', tag, 1);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    for (const page of [0, 1, 2]) {
      const res = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: page, chunkSize: 1, segment: c.segment, campaign: c.id, scheduledAt: at });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().chunk.status).toBe('scheduled');
      expect(res.json().msg).toMatch(/^Bloque programado para /);
    }
    const plan = (await call('GET', `/marketing-campaigns/${c.id}/programmed-chunks`)).json() as ProgrammedChunks;
    expect(plan.payload.map((p) => p.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    // a programmed chunk has not chosen its people yet: its detail says who they would be now
    const preview = (await call('POST', '/marketing-campaigns/chunk_detail', { campaignId: c.id, chunkPage: 2 })).json() as ChunkDetail;
    expect(preview).toMatchObject({ chunk: { status: 'scheduled' }, total: 1, payload: [{ status: 'queued', name: `Persona ${tag} 3` }] });
    const one = await call('POST', '/marketing-campaigns/stop_scheduled_chunk', { campaignId: c.id, chunkPage: 1 });
    expect(one.json()).toMatchObject({ msg: sendingMessages.chunkStopped, chunk: { status: 'stopped', chunkPage: 1 } });
    expect((await call('POST', '/marketing-campaigns/stop_scheduled_chunk', { campaignId: c.id, chunkPage: 1 })).json().errors.msg).toBe(sendingMessages.notScheduled);
    const all = await call('POST', '/marketing-campaigns/stop_all_scheduled_chunks_for_campaign', { campaignId: c.id });
    expect(all.json()).toEqual({ msg: sendingMessages.scheduledStopped(2), stopped: 2 });
    expect((await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 3, chunkSize: 1, segment: c.segment, campaign: c.id, scheduledAt: '2020-01-01T10:00:00Z' })).statusCode).toBe(400);
  });

  it('refuses what cannot go out, in Spanish, writing nothing', async () => {
    const tag = await label('Campaña de prueba E');
    await people('51977450', 1, tag);
    const pendingTemplate = await campaign('Plantilla sin aprobar', tag, 10, 'promo_pendiente');
    const res = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 10, segment: pendingTemplate.segment, campaign: pendingTemplate.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toBe(sendingMessages.templateNotApproved('promo_pendiente', 'PENDING'));
    const other = await campaign('Otro segmento', tag, 10);
    const mismatch = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 10, segment: pendingTemplate.segment, campaign: other.id });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.msg).toBe(sendingMessages.segmentMismatch);
    const tooBig = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 5000, segment: other.segment, campaign: other.id });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().errors.msg).toContain('1000');
    const beyond = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 1, chunkSize: 10, segment: other.segment, campaign: other.id });
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json().errors.msg).toBe(sendingMessages.emptyChunk);
    const [{ n }] = await t.sql<{ n: number }>('select count(*)::int as n from sends where campaign_id in ($1, $2)', [pendingTemplate.id, other.id]);
    expect(n).toBe(0);
  });

  it('belongs to its company: another company’s user gets a 404 for each call', async () => {
    const tag = await label('Campaña de prueba F');
    await people('51977460', 1, tag);
    const c = await campaign('Solo Perú', tag, 10);
    const res = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 10, segment: c.segment, campaign: c.id, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    const id = res.json().chunk._id as string;
    const asAcme = (method: 'GET' | 'POST', url: string, payload?: object) => call(method, url, payload, acme, acmeCo);
    for (const r of [
      await asAcme('POST', '/marketing-campaigns/chunk_detail', { campaignId: c.id, chunkPage: 0 }),
      await asAcme('GET', `/marketing-campaigns/${c.id}/programmed-chunks`),
      await asAcme('POST', '/marketing-campaigns/stop_scheduled_chunk', { campaignId: c.id, chunkPage: 0 }),
      await asAcme('POST', '/marketing-campaigns/stop_all_scheduled_chunks_for_campaign', { campaignId: c.id }),
      await asAcme('POST', '/marketing-campaigns/send_chunk', { chunkPage: 1, chunkSize: 10, segment: c.segment, campaign: c.id }),
      await asAcme('GET', `/sends/${id}`),
      await asAcme('GET', `/sends/${id}/recipients`),
    ]) {
      expect(r.statusCode, r.body).toBe(404);
    }
    expect((await call('GET', `/sends/${id}`)).json().status).toBe('scheduled');
  });
});

describe('the demo', () => {
  it('has a campaign sent in two chunks weeks ago, with what the phones reported since', async () => {
    const list = (await call('GET', '/marketing-campaigns?limit=50')).json().payload as Array<{ _id: string; name: string; status: string }>;
    const mothers = list.find((c) => c.name === 'Campaña Día de la Madre');
    expect(mothers?.status).toBe('sent_with_some_errors');
    const plan = (await call('GET', `/marketing-campaigns/${mothers?._id}/programmed-chunks`)).json() as ProgrammedChunks;
    expect(plan.payload.map((p) => p.chunkPage)).toEqual([0, 1]);
    expect(plan.chunks).toBeGreaterThan(2);
    for (const chunk of plan.payload) {
      expect(chunk.status).toBe('sent_with_some_errors');
      expect(chunk.counts.read).toBeGreaterThan(0);
      expect(chunk.counts.delivered).toBeGreaterThan(0);
      expect(chunk.counts.failed).toBeGreaterThan(0);
      expect(Date.now() - new Date(chunk.startedAt as string).getTime()).toBeGreaterThan(7 * 86_400_000);
    }
  });
});

describe('a runner that died', () => {
  it('settles what WhatsApp reported by its callback data, sends the rest once, loses nothing', async () => {
    const tag = await label('Campaña de prueba G');
    const phones = await people('51977470', 6, tag);
    const c = await campaign('Caída del proceso', tag, 6);
    const res = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 6, segment: c.segment, campaign: c.id, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    const id = res.json().chunk._id as string;
    const engine = createSendingEngine({ db: t.database.db, secrets: t.app.secrets, realtime: t.app.realtime, jobs: t.app.jobs, config: t.app.settings, log: t.app.log, reconcileAfterMs: 500 });
    const [send] = await t.sql<Record<string, unknown>>('select * from sends where id = $1', [id]);
    await engine.plan(send as never);
    // as a runner leaves them when killed: three claimed with their chat messages pending; WhatsApp took the first two
    const rows = await t.sql<{ id: string; chat_id: string; phone: string }>('select id, chat_id, phone from send_recipients where send_id = $1 order by position', [id]);
    await t.sql(`update sends set status = 'processing', started_at = now() where id = $1`, [id]);
    await t.sql(`update send_recipients set status = 'sending', attempts = 1, claimed_at = now() - interval '1 minute' where id = any($1)`, [rows.slice(0, 3).map((r) => r.id)]);
    for (const r of rows.slice(0, 3)) {
      await t.sql(`insert into chat_messages (id, company_id, chat_id, direction, kind, text, status, sent_at) values ($1, $2, $3, 'out', 'text', 'Hola', 'pending', now())`, [r.id, peru, r.chat_id]);
    }
    const accepted = rows.slice(0, 2).map((r, i) => ({ id: `wamid.CAIDA${i}`, status: 'sent', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: r.phone, biz_opaque_callback_data: r.id }));
    const statuses = {
      object: 'whatsapp_business_account',
      entry: [{ id: WABA, changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '51987000000', phone_number_id: LINE }, statuses: accepted } }] }],
    };
    expect((await deliver(t, '/api/webhooks/whatsapp', statuses)).statusCode).toBe(200);
    for (const pid of await processor.pendingIds()) await processor.process(pid);

    await engine.run(peru);
    const done = await waitChunk(id, finished);
    expect(done).toMatchObject({ status: 'sent', counts: { sent: 6, failed: 0, queued: 0, sending: 0 } });
    // WhatsApp got the third to sixth now, never the first two again
    expect(sendsTo(phones).map((l) => l.to).sort()).toEqual(phones.slice(2).sort());
    const settled = await t.sql<{ provider_message_id: string }>('select provider_message_id from chat_messages where id = any($1) order by provider_message_id', [rows.slice(0, 2).map((r) => r.id)]);
    expect(settled.map((m) => m.provider_message_id)).toEqual(['wamid.CAIDA0', 'wamid.CAIDA1']);
  });
});
