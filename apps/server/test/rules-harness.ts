import type { AutomationRunOut } from '@mostrador/contract';
import { afterAll, beforeAll, expect } from 'vitest';
import { deliver, type FakeGraph, startFakeGraph, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Rec = Record<string, unknown>;

/**
 * What the automation rules' suites share (automation-rules, -actions, -conditions): a test app
 * whose WhatsApp line (its own token, line and account, so the suites never share a fake) sends
 * through a fake Graph API; the demo admin and agent signed in; the demo's own rules switched off
 * (the suites count their rules' effects); a customer's signed message delivered and handed to
 * the spine. Registers its beforeAll/afterAll; a suite's own beforeAll, declared after, sees it ready.
 */
export function rulesHarness(line: { token: string; line: string; waba: string }, setup?: (h: RulesHarness) => Promise<void>) {
  const h = {} as RulesHarness;
  const call = (method: Method, url: string, payload?: object, company = h.peru, who = h.admin) =>
    h.t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });
  async function ok<T = Rec>(method: Method, url: string, payload?: object, company = h.peru): Promise<T> {
    const res = await call(method, url, payload, company);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return (res.body ? res.json() : undefined) as T;
  }
  const drain = async () => {
    // the spine hands the events to the rules (and what the rules' changes emit, to them again)
    for (let i = 0; i < 4; i++) await h.t.app.spine.drain();
  };
  /** A customer's signed WhatsApp text, processed and handed to the spine: answers its chat. */
  async function receive(from: string, text: string): Promise<string> {
    expect((await deliver(h.t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: line.line, from, text }))).statusCode).toBe(200);
    for (const id of await h.t.app.webhookProcessor.pendingIds()) await h.t.app.webhookProcessor.process(id);
    await drain();
    const [row] = await h.t.sql<{ chat_id: string }>('select chat_id::text from lead_identities where platform_user_id = $1', [from]);
    return row.chat_id;
  }
  Object.assign(h, {
    call,
    ok,
    drain,
    receive,
    /** The texts the fake Graph API was asked to send, in order. */
    sentTexts: () => h.fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).map((r) => (r.body as { text?: { body?: string } }).text?.body),
    runsOf: async (ruleId: string) => (await ok<{ payload: AutomationRunOut[] }>('GET', `/automation-rules/${ruleId}/runs`)).payload,
  });
  beforeAll(async () => {
    h.fake = await startFakeGraph(line.token);
    h.t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: h.fake.url });
    [h.admin, h.agent] = await Promise.all([login(h.t, demo.admin), login(h.t, demo.agent)]);
    h.peru = h.admin.company('Demo Perú');
    h.chile = h.admin.company('Demo Chile');
    expect((await call('PUT', '/channels/whatsapp', { phoneNumberId: line.line, businessAccountId: line.waba, accessToken: line.token })).statusCode).toBe(200);
    await h.t.sql('update automation_rules set enabled = false where company_id = $1', [h.peru]);
    await setup?.(h);
  }, 120_000);
  afterAll(async () => {
    await h.t?.close();
    await h.fake?.close();
  });
  return h;
}

export interface RulesHarness {
  t: TestApp;
  fake: FakeGraph;
  admin: Signed;
  agent: Signed;
  peru: string;
  chile: string;
  call: (method: Method, url: string, payload?: object, company?: string, who?: Signed) => ReturnType<TestApp['app']['inject']>;
  ok: <T = Rec>(method: Method, url: string, payload?: object, company?: string) => Promise<T>;
  drain: () => Promise<void>;
  receive: (from: string, text: string) => Promise<string>;
  sentTexts: () => Array<string | undefined>;
  runsOf: (ruleId: string) => Promise<AutomationRunOut[]>;
}
