import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedAnalyzer } from '../src/modules/analysis/embedded.js';
import { createAnalysisJobs } from '../src/modules/analysis/jobs.js';
import { deliver, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Two clocks in one chat (issue 32, decision 0106): a reply written with the server's time and
 * the customer's later messages, delivered late, carrying the provider's earlier timestamps. What
 * is new for the analysis and which message is the inbox's preview must not depend on which clock
 * wrote a row: before the fix those messages never moved the chat's last-message time, so the
 * analysis never read them and the reply stayed the preview.
 */
const LINE = '109000000000106';

describe('a reply stamped after later customer messages', () => {
  let t: TestApp;
  let admin: Signed;
  let peru: string;

  beforeAll(async () => {
    t = await startTestApp({ SEED: 'false' });
    admin = await login(t, demo.admin);
    peru = admin.company('Demo Perú');
    const res = await t.app.inject({ method: 'PUT', url: '/api/channels/whatsapp', headers: as(admin, peru), payload: { phoneNumberId: LINE } });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });
  /** Processes every stored webhook event now (the queue may be processing them too: each is done once). */
  async function settle() {
    for (const id of await t.app.webhookProcessor.pendingIds()) await t.app.webhookProcessor.process(id);
    await t.app.spine.drain();
  }

  it('the customer’s late messages are analysed and become the preview', async () => {
    const from = '51944400106';
    const sent = Date.now();
    // the customer writes at T−120 s…
    await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, name: 'Lucía Relojes', text: 'hola, tienen la casaca negra en M?', at: new Date(sent - 120_000) }));
    await settle();
    const [chat] = await t.sql<{ id: string }>("select id from chats where company_id = $1 and contact_name = 'Lucía Relojes'", [peru]);
    expect(chat).toBeDefined();
    // …the business answers now (the server's clock)…
    const reply = await t.app.inject({ method: 'POST', url: `/api/chats/${chat.id}/messages`, headers: as(admin, peru), payload: { text: 'Hola Lucía, te paso con una asesora' } });
    expect(reply.statusCode, reply.body).toBeLessThan(300);
    const jobs = createAnalysisJobs({ db: t.database.db, jobs: t.app.jobs, analyzer: embeddedAnalyzer, log: t.app.log });
    await jobs.analyzeCompany(peru, [chat.id]);
    const [first] = await t.sql<{ messages: number }>('select messages from chat_analyses where chat_id = $1', [chat.id]);
    expect(first.messages).toBe(2);

    // …and the customer's complaint, written at T−60 s (before the reply), reaches us only now
    await deliver(
      t,
      '/api/webhooks/whatsapp',
      whatsappText({ phoneNumberId: LINE, from, text: 'ya pasó una semana y mi pedido no llega, pésimo servicio', at: new Date(sent - 60_000) }),
    );
    await settle();
    const [row] = await t.sql<{ last_message_preview: string }>('select last_message_preview from chats where id = $1', [chat.id]);
    expect(row.last_message_preview).toBe('ya pasó una semana y mi pedido no llega, pésimo servicio');
    // the company's dirty chats include it: the analysis reads all three messages
    await jobs.analyzeCompany(peru);
    const [again] = await t.sql<{ messages: number; sentiment: string }>('select messages, sentiment from chat_analyses where chat_id = $1', [chat.id]);
    expect(again).toEqual({ messages: 3, sentiment: 'negative' });
    // and once read, it is clean: nothing to do until something new arrives
    expect(await jobs.analyzeCompany(peru)).toEqual({ analyzed: 0, more: false });
  });

  it('a customer message delivered out of order (older than their last one) does not take the preview', async () => {
    const from = '51944400107';
    const now = Date.now();
    await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, name: 'Mario Orden', text: 'segundo mensaje', at: new Date(now - 10_000) }));
    await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, text: 'primer mensaje', at: new Date(now - 20_000) }));
    await settle();
    // found by the person's number: the two may be processed in either order (two lanes), and only the first carries the name
    const rows = await t.sql<{ last_message_preview: string }>(
      'select c.last_message_preview from chats c join leads l on l.company_id = c.company_id and l.id = c.lead_id where c.company_id = $1 and l.telefono = $2',
      [peru, from],
    );
    expect(rows).toEqual([{ last_message_preview: 'segundo mensaje' }]);
  });
});
