import { type DomainEvent, domainEventCatalogue, type RealtimeEvent } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpine, type Listener } from '../src/spine/dispatcher.js';
import { listenersOf } from '../src/spine/listeners.js';
import { emit } from '../src/spine/outbox.js';
import { pruneEvents } from '../src/spine/retention.js';
import { startChannelSuite, TEST_TOKEN } from './channel-suite.js';
import { deliver, whatsappStatus, whatsappText } from './fakes/meta.js';
import { type TestApp, until } from './helpers.js';

/**
 * The event spine (issue 27, decision 0068): events written with the change that caused them,
 * delivered at least once, in order per aggregate, once per listener, retried with their error
 * kept, replayed from a time, dropped when old; and what followed a customer's message now
 * follows its event.
 */

let t: TestApp;
let peru: string;
const LINE = '109000000000077';
const log = { warn: () => {}, error: () => {} };

beforeAll(async () => {
  ({ t, peru } = await startChannelSuite([
    { company: 'peru', url: '/api/channels/whatsapp', payload: { phoneNumberId: LINE, businessAccountId: '102290129340398', accessToken: TEST_TOKEN } },
  ]));
});
afterAll(async () => {
  await t?.close();
});

type EventRow = { position: number; type: string; aggregate_type: string; aggregate_id: string; actor: { type: string; id?: string }; payload: Record<string, unknown> };
const eventsOf = (company: string, after = 0) =>
  t.sql<EventRow>('select position, type, aggregate_type, aggregate_id, actor, payload from domain_events where company_id = $1 and position > $2 order by position', [
    company,
    after,
  ]);
const lastPosition = async () => Number((await t.sql<{ p: number | null }>('select max(position) as p from domain_events'))[0]?.p ?? 0);

/** The chat of the Peruvian customer with this phone (their first message made it). */
const chatOf = async (phone: string) =>
  (await t.sql<{ id: string }>(`select c.id from chats c join leads l on l.id = c.lead_id where c.company_id = $1 and l.telefono like $2`, [peru, `%${phone.slice(-9)}`]))[0];

async function receive(from: string, text: string) {
  const res = await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, text }));
  expect(res.statusCode, res.body).toBe(200);
  for (const id of await t.app.webhookProcessor.pendingIds()) await t.app.webhookProcessor.process(id);
}

describe('events are written with the change', () => {
  it("a new customer's first message: lead, chat and message events in its transaction, the provider as actor, payloads the catalogue accepts", async () => {
    const before = await lastPosition();
    await receive('51911000001', 'Hola, ¿tienen envío a Arequipa?');
    const events = await eventsOf(peru, before);
    expect(events.map((e) => e.type)).toEqual(['lead.created', 'chat.created', 'message.received']);
    const message = events[2];
    expect(message?.actor).toEqual({ type: 'provider', id: 'whatsapp' });
    expect(message?.aggregate_type).toBe('chat');
    expect(message?.payload).toMatchObject({ channel: 'whatsapp', kind: 'text', chatId: message?.aggregate_id });
    for (const e of events) expect(domainEventCatalogue[e.type as keyof typeof domainEventCatalogue].versions[1].safeParse(e.payload).success, e.type).toBe(true);
  });

  it('a change rolled back leaves no event; a burst of rows in one statement writes its events in that statement', async () => {
    const before = await lastPosition();
    const client = await t.database.pool.connect();
    try {
      await client.query('begin');
      await client.query(`insert into leads (company_id, name, platform, status) values ($1, 'Nadie', 'whatsapp', 'sin-asignar')`, [peru]);
      await client.query('rollback');
    } finally {
      client.release();
    }
    expect(await eventsOf(peru, before)).toEqual([]);
    // 300 leads by one insert: 300 events, in the same statement (no statement per event)
    await t.sql(
      `insert into leads (company_id, name, platform, status) select $1, 'Importado ' || g, 'whatsapp', 'sin-asignar' from generate_series(1, 300) g`,
      [peru],
    );
    const burst = await eventsOf(peru, before);
    expect(burst).toHaveLength(300);
    expect(new Set(burst.map((e) => e.type))).toEqual(new Set(['lead.created']));
  });

  it('a lead whose status, labels and agent change says each: status_changed, labelled, unlabelled, chat.assigned per chat', async () => {
    await receive('51911000002', 'Quiero cotizar');
    const [lead] = await t.sql<{ id: string }>(`select id from leads where company_id = $1 and telefono like '%911000002'`, [peru]);
    const [agent] = await t.sql<{ id: string }>(`select u.id from users u where u.email = 'agente@demo.com'`);
    const before = await lastPosition();
    await t.sql(`update leads set status = 'interesado', mostrador_labels = '["vip","mayorista"]'::jsonb, agente_id = $2 where id = $1`, [lead?.id, agent?.id]);
    await t.sql(`update leads set mostrador_labels = '["vip"]'::jsonb where id = $1`, [lead?.id]);
    const events = await eventsOf(peru, before);
    expect(events.map((e) => e.type)).toEqual(['lead.status_changed', 'lead.labelled', 'chat.assigned', 'lead.unlabelled']);
    expect(events[1]?.payload.labels).toEqual(['vip', 'mayorista']);
    expect(events[2]?.payload).toMatchObject({ leadId: lead?.id, agentId: agent?.id, previousAgentId: null });
    expect(events[3]?.payload.labels).toEqual(['mayorista']);
  });
});

describe('what follows a customer message runs from its event', () => {
  it('the browsers hear message.created from the event, once, even when the event is delivered again', async () => {
    const heard: RealtimeEvent[] = [];
    const stop = t.app.realtime.subscribe(peru, (e) => heard.push(e));
    try {
      await receive('51911000003', 'Buenas tardes');
      // this customer's chat (an earlier test's message may still be on its way to the browsers)
      const chat = await chatOf('51911000003');
      const created = () => heard.filter((e) => e.type === 'message.created' && e.chat._id === chat?.id);
      await until(async () => created(), (list) => list.length === 1);
      const [event] = await t.sql<{ position: number }>(`select position from domain_events where company_id = $1 and type = 'message.received' order by position desc limit 1`, [peru]);
      // as after a crash between the listener's work and the spine's record of it
      await t.sql('update domain_events set dispatched_at = null where position = $1', [event?.position]);
      await t.app.spine.drain();
      expect(created()).toHaveLength(1);
      const receipts = await t.sql<{ listener: string }>('select listener from domain_event_receipts where position = $1 order by listener', [event?.position]);
      expect(receipts.map((r) => r.listener)).toEqual(['analysis.wake', 'attribution', 'automation', 'away-message', 'bots.answer', 'csat.answer', 'realtime', 'team-metrics', 'webhooks.fanout']);
      // a status the provider reports is heard as message.updated from its event
      const [sent] = await t.sql<{ id: string; chat_id: string }>(
        `insert into chat_messages (company_id, chat_id, direction, kind, text, provider_message_id, status)
         select company_id, id, 'out', 'text', 'Hola', 'wamid.spine-status', 'sent' from chats where company_id = $1 order by created_at desc limit 1 returning id, chat_id`,
        [peru],
      );
      const res = await deliver(t, '/api/webhooks/whatsapp', whatsappStatus({ phoneNumberId: LINE, id: 'wamid.spine-status', status: 'delivered' }));
      expect(res.statusCode).toBe(200);
      for (const id of await t.app.webhookProcessor.pendingIds()) await t.app.webhookProcessor.process(id);
      await until(
        async () => heard.filter((e) => e.type === 'message.updated' && e.message._id === sent?.id),
        (list) => list.length === 1,
      );
    } finally {
      stop();
    }
  });

  it('an order written by any path is heard by the open /ordenes from its events, each once', async () => {
    const heard: RealtimeEvent[] = [];
    const stop = t.app.realtime.subscribe(peru, (e) => heard.push(e));
    try {
      // an order written straight to the table (as an import or another module would): its event still says so
      const [order] = await t.sql<{ id: string }>(
        `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency)
         values ($1, 'SPINE-1', 'created', 'catalogo-digital', 'Rosa', '51911000010', '{}'::jsonb, '[]'::jsonb, 10, 10, 'PEN') returning id`,
        [peru],
      );
      await t.sql(`update orders set status = 'paid' where id = $1`, [order?.id]);
      const mine = () => heard.filter((e) => e.type === 'order.updated' && e.orderId === order?.id);
      await until(async () => mine(), (list) => list.length === 2);
      expect(mine().map((e) => e.type === 'order.updated' && [e.status, e.created])).toEqual([
        ['created', true],
        ['paid', false],
      ]);
      const types = await t.sql<{ type: string }>(`select type from domain_events where aggregate_id = $1 order by position`, [order?.id]);
      expect(types.map((r) => r.type)).toEqual(['order.created', 'order.status_changed', 'order.paid']);
      await t.sql(`update domain_events set dispatched_at = null where aggregate_id = $1`, [order?.id]);
      await t.app.spine.drain();
      expect(mine()).toHaveLength(2);
    } finally {
      stop();
    }
  });

  it("the product's own messages are heard from their events: an agent's once on redelivery, a campaign's burst not one by one", async () => {
    const heard: RealtimeEvent[] = [];
    const stop = t.app.realtime.subscribe(peru, (e) => heard.push(e));
    try {
      await receive('51911000011', 'Hola');
      const chat = await chatOf('51911000011');
      const [agent] = await t.sql<{ id: string }>(`select id from users where email = 'agente@demo.com'`);
      const createdOf = (ids: Set<string>) => heard.filter((e) => e.type === 'message.created' && ids.has(e.message._id));
      // an agent's message written by any path (a note, a reply, an import): heard, and once after a redelivery
      const [note] = await t.sql<{ id: string }>(
        `insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_by) values ($1, $2, 'out', 'note', 'Llamar mañana', 'received', $3) returning id`,
        [peru, chat?.id, agent?.id],
      );
      await until(async () => createdOf(new Set([note?.id as string])), (list) => list.length === 1);
      await t.sql(`update domain_events set dispatched_at = null where type = 'message.sent' and payload->>'messageId' = $1`, [note?.id]);
      await t.app.spine.drain();
      expect(createdOf(new Set([note?.id as string]))).toHaveLength(1);
      // two sends: one of 3 messages, one of 25 written in one statement (a campaign's claimed batch)
      const write = async (n: number) => {
        const [send] = await t.sql<{ id: string }>(
          `insert into sends (company_id, kind, name, status, content, planned) values ($1, 'massive', 'Spine ' || $2, 'processing', '{"text":"Oferta"}'::jsonb, true) returning id`,
          [peru, n],
        );
        const rows = await t.sql<{ id: string }>(
          `with r as (insert into send_recipients (company_id, send_id, dedupe_key, position, clean_lead_id, chat_id, name, status)
             select $1, $2, $2, g, gen_random_uuid(), $3, 'Cliente ' || g, 'sending' from generate_series(1, $4::int) g returning id, chat_id)
           insert into chat_messages (id, company_id, chat_id, direction, kind, text, status) select id, $1, chat_id, 'out', 'text', 'Oferta', 'pending' from r returning id`,
          [peru, send?.id, chat?.id, n],
        );
        return new Set(rows.map((r) => r.id));
      };
      const burst = await write(25);
      const small = await write(3);
      await until(async () => createdOf(small), (list) => list.length === 3);
      await t.app.spine.drain();
      expect(createdOf(burst)).toHaveLength(0);
      // the provider's statuses of a campaign's messages are still heard, one by one
      const [one] = [...burst];
      await t.sql(`update chat_messages set provider_message_id = 'wamid.spine-burst' where id = $1`, [one]);
      const res = await deliver(t, '/api/webhooks/whatsapp', whatsappStatus({ phoneNumberId: LINE, id: 'wamid.spine-burst', status: 'delivered' }));
      expect(res.statusCode).toBe(200);
      for (const id of await t.app.webhookProcessor.pendingIds()) await t.app.webhookProcessor.process(id);
      await until(async () => heard.filter((e) => e.type === 'message.updated' && e.message._id === one), (list) => list.length === 1);
    } finally {
      stop();
    }
  });

  it("the company's analysis is woken and the Facebook labels' job is sent from events", async () => {
    const all = listenersOf(t.app);
    const listenerOfAnalysis = all.find((l) => l.name === 'analysis.wake');
    const labels = all.find((l) => l.name === 'facebook-labels.wake');
    const at = new Date().toISOString();
    const event = (type: DomainEvent['type'], payload: object): DomainEvent =>
      ({ position: 1, id: crypto.randomUUID(), type, version: 1, companyId: peru, aggregate: { type: 'lead', id: 'x' }, actor: { type: 'system' }, payload, occurredAt: at }) as DomainEvent;
    const jobs = (name: string) => t.sql<{ n: number }>(`select count(*)::int as n from pgboss.job where name = $1 and created_on > $2`, [name, at]);
    // analysis is off in tests: the listener wakes nothing (its queue is not even defined)
    await listenerOfAnalysis?.handle([event('message.received', {})]);
    expect((await jobs('analysis.company'))[0]?.n).toBe(0);
    // a Messenger person whose page label is due: the labels' job is sent
    await t.sql(`insert into facebook_label_people (company_id, page_label_id, psid, wanted, due_at) values ($1, 'spine-label', 'spine-psid', true, now() - interval '1 second')`, [peru]);
    // what the listener itself sends (the queue's minute schedule sends the same job on its own)
    const sent: string[] = [];
    const send = t.app.jobs.send.bind(t.app.jobs);
    t.app.jobs.send = async (name, data, options) => {
      sent.push(name);
      return send(name, data, options);
    };
    try {
      await labels?.handle([event('lead.labelled', { leadId: 'x', platform: 'facebook', labels: ['vip'] })]);
      expect(sent).toEqual(['facebook-labels-people']);
      // nobody due: nothing sent
      await t.sql(`update facebook_label_people set due_at = null where company_id = $1`, [peru]);
      await labels?.handle([event('lead.unlabelled', { leadId: 'x', platform: 'facebook', labels: ['vip'] })]);
      expect(sent).toEqual(['facebook-labels-people']);
    } finally {
      t.app.jobs.send = send;
    }
  });
});

describe('with the analysis on', () => {
  let on: TestApp;
  beforeAll(async () => {
    ({ t: on } = await startChannelSuite([{ company: 'peru', url: '/api/channels/whatsapp', payload: { phoneNumberId: LINE, accessToken: TEST_TOKEN } }], { ANALYSIS: 'on' }));
  });
  afterAll(async () => {
    await on?.close();
  });
  it("a customer's message wakes its company's analysis from the event, once however often the event is delivered", async () => {
    const peruOn = (await on.sql<{ id: string }>(`select id from companies where name = 'Demo Perú'`))[0]?.id;
    const woken: unknown[] = [];
    const send = on.app.jobs.send.bind(on.app.jobs);
    on.app.jobs.send = async (name, data, options) => {
      if (name === 'analysis.company') woken.push(data);
      return send(name, data, options);
    };
    const res = await deliver(on, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from: '51911000009', text: 'Hola' }));
    expect(res.statusCode).toBe(200);
    for (const id of await on.app.webhookProcessor.pendingIds()) await on.app.webhookProcessor.process(id);
    await on.app.spine.drain();
    expect(woken).toEqual([{ companyId: peruOn }]);
    const [event] = await on.sql<{ position: number }>(`select position from domain_events where type = 'message.received' order by position desc limit 1`);
    await on.sql('update domain_events set dispatched_at = null where position = $1', [event?.position]);
    await on.app.spine.drain();
    expect(woken).toHaveLength(1);
    const receipts = await on.sql<{ listener: string }>('select listener from domain_event_receipts where position = $1 order by listener', [event?.position]);
    expect(receipts.map((r) => r.listener)).toContain('analysis.wake');
  });
});

describe('delivery', () => {
  /** A spine of its own on the suite's database (the app's is stopped for these). */
  function spineWith(listeners: Listener[], options: { maxAttempts?: number } = {}) {
    return createSpine(t.database, listeners, { log, retryDelay: () => 0, ...options });
  }
  const recorder = (name: string, fail: (e: DomainEvent) => boolean = () => false) => {
    const seen: string[] = [];
    const listener: Listener = {
      name,
      on: ['lead.updated'],
      async handle(events) {
        for (const e of events) {
          if (fail(e)) throw new Error(`No se pudo con ${(e.payload as { leadId: string }).leadId}`);
          seen.push((e.payload as { leadId: string }).leadId);
        }
      },
    };
    return { seen, listener };
  };
  const updated = (aggregateId: string, leadId = aggregateId) => ({ type: 'lead.updated' as const, companyId: peru, aggregateId, payload: { leadId } });

  beforeAll(async () => {
    await t.app.spine.stop();
    // what the app wrote so far is its listeners' business, not these tests'
    await t.sql('update domain_events set dispatched_at = now() where dispatched_at is null');
  });

  it('in order per aggregate: a failure is kept with its error and retried, the events behind it wait, other aggregates go on', async () => {
    let failures = 2;
    const { seen, listener } = recorder('test.order', (e) => (e.payload as { leadId: string }).leadId === 'a1' && failures-- > 0);
    const spine = spineWith([listener]);
    await emit(t.database.db, [updated('A', 'a1'), updated('A', 'a2'), updated('B', 'b1'), updated('A', 'a3')]);
    // a1 fails twice (a2 and a3 wait behind it) while b1 is delivered; then a1, a2, a3 in order
    await spine.drain();
    expect(seen).toEqual(['b1', 'a1', 'a2', 'a3']);
    expect(await t.sql('select * from domain_event_failures where listener = $1', ['test.order'])).toEqual([]);
    await spine.stop();
  });

  it('given up after its tries: the error stays for an admin and the aggregate goes on', async () => {
    const { seen, listener } = recorder('test.giveup', (e) => (e.payload as { leadId: string }).leadId === 'g1');
    const spine = spineWith([listener], { maxAttempts: 3 });
    await emit(t.database.db, [updated('G', 'g1'), updated('G', 'g2')]);
    await spine.drain();
    expect(seen).toEqual(['g2']);
    const [kept] = await t.sql<{ attempts: number; last_error: string; given_up_at: Date | null }>(
      'select attempts, last_error, given_up_at from domain_event_failures where listener = $1',
      ['test.giveup'],
    );
    expect(kept).toMatchObject({ attempts: 3, last_error: 'Error: No se pudo con g1' });
    expect(kept?.given_up_at).not.toBeNull();
    expect(await spine.failures()).toContainEqual({ listener: 'test.giveup', retrying: 0, given_up: 1, last_error: 'Error: No se pudo con g1' });
    await spine.stop();
  });

  it('once per listener: an event delivered again is not handed over again; a replay from a time is', async () => {
    const { seen, listener } = recorder('test.once');
    const spine = spineWith([listener]);
    const since = new Date();
    await emit(t.database.db, [updated('R', 'r1'), updated('R', 'r2')]);
    await spine.drain();
    await t.sql(`update domain_events set dispatched_at = null where occurred_at >= $1`, [since]);
    await spine.drain();
    expect(seen).toEqual(['r1', 'r2']);
    expect(await spine.replay('test.once', since)).toBe(2);
    expect(seen).toEqual(['r1', 'r2', 'r1', 'r2']);
    await spine.stop();
  });

  it('an event the catalogue refuses never reaches a listener and is kept with the reason', async () => {
    const { seen, listener } = recorder('test.invalid');
    const spine = spineWith([listener]);
    await t.sql(
      `insert into domain_events (company_id, type, aggregate_type, aggregate_id, payload) values ($1, 'lead.updated', 'lead', 'X', '{"leadId": 42}')`,
      [peru],
    );
    await spine.drain();
    expect(seen).toEqual([]);
    const [kept] = await t.sql<{ last_error: string; given_up_at: Date | null }>('select last_error, given_up_at from domain_event_failures where listener = $1', ['test.invalid']);
    expect(kept?.last_error).toMatch(/^Datos no válidos: leadId/);
    expect(kept?.given_up_at).not.toBeNull();
    await spine.stop();
  });

  it('one process dispatches at a time; when it stops another takes over', async () => {
    const first = recorder('test.lease');
    const second = recorder('test.lease');
    const a = spineWith([first.listener]);
    const b = spineWith([second.listener]);
    await emit(t.database.db, [updated('L', 'l1')]);
    await a.drain();
    await emit(t.database.db, [updated('L', 'l2')]);
    await expect(b.drain()).rejects.toThrow('Otro proceso reparte los eventos');
    await a.stop();
    await b.drain();
    expect(first.seen).toEqual(['l1']);
    expect(second.seen).toEqual(['l2']);
    await b.stop();
  });

  it('retention drops delivered events older than the window in short statements, keeping those still being retried', async () => {
    await t.sql(
      `insert into domain_events (company_id, type, aggregate_type, aggregate_id, payload, occurred_at, dispatched_at)
       select $1, 'lead.updated', 'lead', 'old' || g, jsonb_build_object('leadId', 'old' || g), now() - interval '40 days', now() - interval '40 days' from generate_series(1, 5) g`,
      [peru],
    );
    const old = await t.sql<{ position: number }>(`select position from domain_events where aggregate_id like 'old%' order by position`);
    await t.sql(`insert into domain_event_receipts (listener, position) select 'test.retention', unnest($1::bigint[])`, [old.map((r) => r.position)]);
    await t.sql(`insert into domain_event_failures (listener, position, aggregate) values ('test.retention', $1, 'lead:old1')`, [old[0]?.position]);
    const recent = await t.sql<{ n: number }>(`select count(*)::int as n from domain_events where occurred_at > now() - interval '30 days'`);
    expect(await pruneEvents(t.database.pool, 30, 2)).toBe(4);
    expect(await t.sql(`select aggregate_id from domain_events where aggregate_id like 'old%'`)).toEqual([{ aggregate_id: 'old1' }]);
    expect((await t.sql<{ n: number }>(`select count(*)::int as n from domain_event_receipts where listener = 'test.retention'`))[0]?.n).toBe(1);
    expect((await t.sql<{ n: number }>(`select count(*)::int as n from domain_events where occurred_at > now() - interval '30 days'`))[0]?.n).toBe(recent[0]?.n);
  });
});
