import { AUTOMATION_MESSAGES_PER_CHAT_HOUR, type AutomationRuleOut, automationActionMessages, automationMessages } from '@mostrador/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliver, whatsappText } from './fakes/meta.js';
import { as, type Signed, type TestApp } from './helpers.js';
import { rulesHarness } from './rules-harness.js';

/**
 * Automation rules (issue 29, decision 0077) on signed webhook fixtures: a customer's message
 * sets off a rule through the spine, the rule's actions change the lead and write in the chat as
 * the rule, once per event; a chain of rules is cut; another company's ids are refused.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9reglasTokenDePrueba7Q2x';
const LINE = '109000000000029';
const WABA = '102290129340029';

let cotizacion: string;
let ventas: string;
type Rec = Record<string, unknown>;
const h = rulesHarness({ token: TOKEN, line: LINE, waba: WABA }, async (h) => {
  cotizacion = ((await h.ok('POST', '/mostrador-labels', { name: 'Cotización', color: '#1e90ff' })) as Rec)._id as string;
  ventas = ((await h.ok('POST', '/agentes', { name: 'Equipo Ventas', active: true, available: true })) as Rec)._id as string;
});
const { call, ok, receive, runsOf, sentTexts } = h;
let t: TestApp;
let agent: Signed;
let peru: string;
let chile: string;
beforeAll(() => {
  ({ t, agent, peru, chile } = h);
});
const leadOf = async (chatId: string) =>
  (await t.sql<{ id: string; agente_id: string | null; mostrador_labels: string[] | null; status: string }>(
    'select l.id::text, l.agente_id::text, l.mostrador_labels, l.status from leads l join chats c on c.lead_id = l.id where c.id = $1',
    [chatId],
  ))[0];

describe('a rule set off by a customer message', () => {
  let rule: AutomationRuleOut;

  it("«message contains 'precio' → label «Cotización» + assign to Ventas + answer» fires once, accent- and case-blind, as the rule", async () => {
    rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Cotizaciones a Ventas',
      trigger: { event: 'message.received' },
      match: 'all',
      conditions: [
        { field: 'text', op: 'contains', value: 'precio' },
        { field: 'channel', op: 'is', value: 'whatsapp' },
      ],
      actions: [
        { type: 'add_label', labelId: cotizacion },
        { type: 'assign_agent', agentId: ventas },
        { type: 'send_text', text: 'Gracias, un asesor te envía la cotización en minutos.' },
      ],
    });
    expect(rule).toMatchObject({ enabled: true, position: expect.any(Number), runsToday: 0, lastRunAt: null });

    const quiet = await receive('51933000001', 'Hola, buenas tardes');
    expect((await leadOf(quiet)).mostrador_labels ?? []).not.toContain(cotizacion);

    const before = sentTexts().length;
    const chat = await receive('51933000002', '¿Cuál es el PRÉCIO del combo familiar?');
    const lead = await leadOf(chat);
    expect(lead.mostrador_labels).toContain(cotizacion);
    expect(lead.agente_id).toBe(ventas);
    expect(sentTexts().slice(before)).toEqual(['Gracias, un asesor te envía la cotización en minutos.']);

    // the events its changes emitted name the rule as their actor
    const actors = await t.sql<{ type: string; actor: { type: string; id?: string } }>(
      `select type, actor from domain_events where company_id = $1 and type in ('lead.labelled', 'chat.assigned', 'message.sent') and (payload->>'leadId' = $2 or payload->>'chatId' = $3) order by position`,
      [peru, lead.id, chat],
    );
    expect(actors.map((a) => a.type).sort()).toEqual(['chat.assigned', 'lead.labelled', 'message.sent']);
    for (const a of actors) expect(a.actor).toEqual({ type: 'rule', id: rule._id });

    // its run: the event, each condition as evaluated, each action's result
    const [run] = await runsOf(rule._id);
    expect(run).toMatchObject({ eventType: 'message.received', chatId: chat, status: 'ok', depth: 1, error: null });
    expect(run.conditions.map((c) => [c.field, c.passed])).toEqual([
      ['text', true],
      ['channel', true],
    ]);
    expect(run.actions.map((a) => [a.type, a.ok])).toEqual([
      ['add_label', true],
      ['assign_agent', true],
      ['send_text', true],
    ]);
    const listed = (await ok<{ payload: AutomationRuleOut[] }>('GET', '/automation-rules')).payload.find((r) => r._id === rule._id);
    expect(listed?.runsToday).toBe(1);
    expect(listed?.lastRunAt).not.toBeNull();

    // the same event handed again (as after a crash before the spine's receipt): no second run, no second message
    await t.sql(`update domain_events set dispatched_at = null where company_id = $1 and type = 'message.received' and payload->>'chatId' = $2`, [peru, chat]);
    await t.sql(`delete from domain_event_receipts where listener = 'automation' and position in (select position from domain_events where type = 'message.received' and payload->>'chatId' = $1)`, [chat]);
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    expect(await runsOf(rule._id)).toHaveLength(1);
    expect(sentTexts().length - before).toBe(1);
  });

  it('outside the 24-hour window a text is refused with the reason, kept in the run; the other actions still go', async () => {
    const chat = await receive('51933000003', 'hola');
    await t.sql(`update chat_windows set last_inbound_at = now() - interval '25 hours' where chat_id = $1`, [chat]);
    const late = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Nota y saludo al reasignar',
      trigger: { event: 'chat.assigned' },
      conditions: [{ field: 'agent', op: 'any' }],
      actions: [
        { type: 'send_text', text: 'Te atiende un asesor' },
        { type: 'note', text: 'Asignado por regla' },
      ],
    });
    const before = sentTexts().length;
    const lead = await leadOf(chat);
    await ok('PUT', `/leads/${lead.id}`, { agenteId: ventas });
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    const [run] = await runsOf(late._id);
    expect(run.status).toBe('error');
    expect(run.actions).toEqual([
      { type: 'send_text', ok: false, detail: automationMessages.windowClosed },
      { type: 'note', ok: true },
    ]);
    expect(run.error).toBe(automationMessages.windowClosed);
    expect(sentTexts().length).toBe(before);
    const notes = await t.sql<{ text: string }>(`select text from chat_messages where chat_id = $1 and kind = 'note'`, [chat]);
    expect(notes.map((n) => n.text)).toEqual(['Asignado por regla']);
    await ok('DELETE', `/automation-rules/${late._id}`);
  });

  it('a rule never sets itself off again, and a chain of rules is cut after 3', async () => {
    const [a, b, z] = await Promise.all(['Ida', 'Vuelta', 'Visto'].map(async (name) => ((await ok('POST', '/mostrador-labels', { name, color: '#777777' })) as Rec)._id as string));
    // a rule whose own change would set it off again: it runs once
    const self = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Marca lo etiquetado',
      trigger: { event: 'lead.labelled' },
      conditions: [{ field: 'label', op: 'has_not', value: a }],
      actions: [{ type: 'add_label', labelId: z }],
    });
    const first = await leadOf(await receive('51933000004', 'hola'));
    await ok('PUT', `/leads/${first.id}`, { mostradorLabels: [cotizacion] });
    for (let i = 0; i < 4; i++) await t.app.spine.drain();
    expect((await runsOf(self._id)).map((r) => [r.status, r.depth])).toEqual([['ok', 1]]);
    await ok('DELETE', `/automation-rules/${self._id}`);

    // two rules that answer each other for ever: each one's change is the other's event
    const ping = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Ida a vuelta',
      trigger: { event: 'lead.labelled' },
      conditions: [{ field: 'label', op: 'has', value: a }],
      actions: [
        { type: 'remove_label', labelId: a },
        { type: 'add_label', labelId: b },
      ],
    });
    const pong = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Vuelta a ida',
      trigger: { event: 'lead.labelled' },
      conditions: [{ field: 'label', op: 'has', value: b }],
      actions: [
        { type: 'remove_label', labelId: b },
        { type: 'add_label', labelId: a },
      ],
    });
    const lead = await leadOf(await receive('51933000014', 'hola'));
    await ok('PUT', `/leads/${lead.id}`, { mostradorLabels: [a] });
    for (let i = 0; i < 8; i++) await t.app.spine.drain();
    // the person's change → ping (1) → pong (2) → ping (3) → pong is cut (4)
    expect((await runsOf(ping._id)).map((r) => [r.status, r.depth])).toEqual([
      ['ok', 3],
      ['ok', 1],
    ]);
    const cut = await runsOf(pong._id);
    expect(cut.map((r) => [r.status, r.depth])).toEqual([
      ['skipped', 4],
      ['ok', 2],
    ]);
    expect(cut[0].error).toBe(automationMessages.chainCut);
    expect((await leadOf(await receive('51933000014', 'sigo aquí'))).mostrador_labels).toEqual([b]);
    for (const r of [ping, pong]) await ok('DELETE', `/automation-rules/${r._id}`);
  });

  it('at most a limited number of rule messages per chat and hour', async () => {
    const chat = await receive('51933000005', 'hola');
    await t.sql(
      `insert into automation_runs (company_id, rule_id, event_id, event_type, chat_id, status, messages) values ($1, $2, gen_random_uuid(), 'message.received', $3, 'ok', $4)`,
      [peru, rule._id, chat, AUTOMATION_MESSAGES_PER_CHAT_HOUR],
    );
    const before = sentTexts().length;
    await receive('51933000005', 'y el precio?');
    const [run] = await runsOf(rule._id);
    expect(run.chatId).toBe(chat);
    expect(run.actions.find((a) => a.type === 'send_text')).toEqual({ type: 'send_text', ok: false, detail: automationMessages.tooManyMessages(AUTOMATION_MESSAGES_PER_CHAT_HOUR) });
    expect(sentTexts().length).toBe(before);
  });

  it('a disabled rule does nothing; the preview says what it would do to a chat without doing it', async () => {
    await ok('PUT', `/automation-rules/${rule._id}`, { ...rule, enabled: false, _id: undefined });
    const chat = await receive('51933000006', 'precio por favor');
    expect((await leadOf(chat)).mostrador_labels ?? []).not.toContain(cotizacion);
    const preview = await ok<{ matched: boolean; actions: Array<{ type: string; wouldDo: string }> }>('POST', `/automation-rules/${rule._id}/test`, { chatId: chat });
    expect(preview.matched).toBe(true);
    expect(preview.actions.map((a) => a.wouldDo)).toEqual([
      'Agregaría la etiqueta «Cotización»',
      'Asignaría el chat a Equipo Ventas',
      'Enviaría: «Gracias, un asesor te envía la cotización en minutos.»',
    ]);
    expect((await leadOf(chat)).mostrador_labels ?? []).not.toContain(cotizacion);
  });
});

describe('order notifications: a template when an order moves', () => {
  it("an order paid in a chat gets the company's template with the chat's data, once per move, even outside the window", async () => {
    const [template] = await t.sql<{ id: string }>(
      `insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, body, body_examples, variable_fields)
       values ($1, $2, '7300029', 'pedido_pagado', 'es_PE', 'UTILITY', 'APPROVED', 'Hola {{1}}, recibimos el pago de tu pedido {{2}}.', '["María","P-1"]', '["nombre","pedido"]')
       returning id::text`,
      [peru, WABA],
    );
    const rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Aviso: pedido pagado',
      trigger: { event: 'order.status_changed' },
      conditions: [{ field: 'order_status', op: 'is', value: 'paid' }],
      actions: [{ type: 'send_template', templateId: template.id, bodyValues: ['{nombre}', '{pedido}'] }],
    });
    const chat = await receive('51933000031', 'Quiero dos packs');
    await t.sql(`update chat_windows set last_inbound_at = now() - interval '30 hours' where chat_id = $1`, [chat]);
    const lead = await leadOf(chat);
    await t.sql(`update leads set name = 'Rosa Quispe' where id = $1`, [lead.id]);
    const [order] = await t.sql<{ id: string }>(
      `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, chat_id, lead_id)
       values ($1, 'PED-2931', 'created', 'whatsapp', 'Rosa', '51933000031', '{}'::jsonb, '[]'::jsonb, 10, 10, 'PEN', $2, $3) returning id::text`,
      [peru, chat, lead.id],
    );
    const templatesSent = () => h.fake.requests.filter((r) => r.method === 'POST' && (r.body as { type?: string }).type === 'template');
    const before = templatesSent().length;
    await t.sql(`update orders set status = 'paid' where id = $1`, [order.id]);
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    // set to the status it already has: no move, no second notice
    await t.sql(`update orders set status = 'paid' where id = $1`, [order.id]);
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    const sent = templatesSent().slice(before);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0].body)).toContain('pedido_pagado');
    expect(JSON.stringify(sent[0].body)).toContain('Rosa Quispe');
    expect(JSON.stringify(sent[0].body)).toContain('PED-2931');
    const [run] = await runsOf(rule._id);
    expect(run).toMatchObject({ eventType: 'order.status_changed', chatId: chat, status: 'ok' });
    // another company's template is refused when the rule is saved
    const res = await call('POST', '/automation-rules', {
      name: 'Ajena',
      trigger: { event: 'order.status_changed' },
      actions: [{ type: 'send_template', templateId: template.id }],
    }, chile);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toBe(automationMessages.unknownTemplate);
    await ok('DELETE', `/automation-rules/${rule._id}`);
  });
});

describe('telling the agent in the product', () => {
  it('«Avisar al agente asignado» puts a notice under the agent’s bell, once, with a link to the chat', async () => {
    const [carlos] = await t.sql<{ id: string; user_id: string }>(`select id::text, user_id::text from agentes where company_id = $1 and email = 'agente@demo.com'`, [peru]);
    const rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Cliente molesto',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'text', op: 'contains', value: 'reclamo' }],
      actions: [{ type: 'notify_agent', text: '{nombre} escribió un reclamo' }],
    });
    const chat = await receive('51933000041', 'hola');
    const lead = await leadOf(chat);
    await t.sql(`update leads set agente_id = $2, name = 'Lucía Torres' where id = $1`, [lead.id, carlos.id]);
    await receive('51933000041', 'Quiero poner un reclamo por mi pedido');
    const [told] = await runsOf(rule._id);
    expect(told.actions, JSON.stringify(told)).toEqual([{ type: 'notify_agent', ok: true }]);
    const res = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: as(agent, peru) });
    expect(res.statusCode, res.body).toBe(200);
    const mine = (res.json().payload as Array<{ title: string; body: string; link: string }>).filter((n) => n.title === 'Regla «Cliente molesto»');
    expect(mine).toEqual([expect.objectContaining({ body: 'Lucía Torres escribió un reclamo', link: `/chat?chatId=${chat}` })]);
    // no agent: the run says why
    const loose = await receive('51933000042', 'un reclamo más');
    const [run] = await runsOf(rule._id);
    expect(run.chatId).toBe(loose);
    expect(run.actions).toEqual([{ type: 'notify_agent', ok: false, detail: automationMessages.noAgent }]);
    await ok('DELETE', `/automation-rules/${rule._id}`);
  });
});

describe('a burst in one round', () => {
  it('two messages of one chat handed in the same round: the second sees what the rule did for the first', async () => {
    const seen = ((await ok('POST', '/mostrador-labels', { name: 'Saludado', color: '#777777' })) as Rec)._id as string;
    const rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Saludo una vez',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'label', op: 'has_not', value: seen }],
      actions: [
        { type: 'add_label', labelId: seen },
        { type: 'note', text: 'Saludar al cliente' },
      ],
    });
    const from = '51933000051';
    for (const text of ['Hola', '¿Están atendiendo?']) expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, text }))).statusCode).toBe(200);
    for (const id of await t.app.webhookProcessor.pendingIds()) await t.app.webhookProcessor.process(id);
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    const [row] = await t.sql<{ chat_id: string }>('select chat_id::text from lead_identities where platform_user_id = $1', [from]);
    const notes = await t.sql<{ n: number }>(`select count(*)::int as n from chat_messages where chat_id = $1 and kind = 'note'`, [row.chat_id]);
    expect(notes[0].n).toBe(1);
    expect(await runsOf(rule._id)).toHaveLength(1);
    await ok('DELETE', `/automation-rules/${rule._id}`);
  });
});

describe('what a rule may name', () => {
  it("another company's label or agent, nested in the actions, is a 400 in Spanish and nothing is stored", async () => {
    const chileLabel = ((await ok('POST', '/mostrador-labels', { name: 'Solo Chile', color: '#777777' }, chile)) as Rec)._id as string;
    const before = await t.sql<{ n: number }>('select count(*)::int as n from automation_rules');
    const res = await call('POST', '/automation-rules', {
      name: 'Ajena',
      trigger: { event: 'message.received' },
      actions: [{ type: 'add_label', labelId: chileLabel }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toBe(automationMessages.unknownLabel);
    expect(await t.sql<{ n: number }>('select count(*)::int as n from automation_rules')).toEqual(before);
  });

  it('a comparison that does not fit its condition, a bad expression, no actions: 400 with the field', async () => {
    const bad = await call('POST', '/automation-rules', {
      name: 'Mal',
      trigger: { event: 'message.received' },
      conditions: [
        { field: 'channel', op: 'contains', value: 'whats' },
        { field: 'text', op: 'matches', value: '(precio' },
      ],
      actions: [],
    });
    expect(bad.statusCode).toBe(400);
    const text = bad.body;
    expect(text).toContain(automationMessages.opForField);
    expect(text).toContain(automationMessages.badRegex);
    expect(text).toContain('Agrega al menos una acción');
  });

  it('an agent without the automation module is refused; a rule of another company is a 404', async () => {
    expect((await call('GET', '/automation-rules', undefined, peru, agent)).statusCode).toBe(401);
    const theirs = await ok<AutomationRuleOut>('POST', '/automation-rules', { name: 'De Chile', trigger: { event: 'chat.created' }, actions: [{ type: 'resolve' }] }, chile);
    expect((await call('GET', `/automation-rules/${theirs._id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/automation-rules/${theirs._id}`)).statusCode).toBe(404);
  });
});

describe('timer rules', () => {
  const fire = async () => {
    const { fireTimers } = await import('../src/modules/automation/timers.js');
    const { engineDepsOf } = await import('../src/modules/automation/deps.js');
    return fireTimers(engineDepsOf(t.app));
  };
  const timersOf = (chatId: string) => t.sql<{ rule_id: string; due_at: Date }>('select rule_id::text, due_at from automation_timers where chat_id = $1', [chatId]);
  /** The clock moves on: the chat's times and its timers' due times go back by `hours`. */
  const hoursPass = async (chatId: string, hours: number) => {
    await t.sql(`update automation_timers set due_at = due_at - make_interval(hours => $2) where chat_id = $1`, [chatId, hours]);
    await t.sql(`update chat_windows set last_inbound_at = last_inbound_at - make_interval(hours => $2) where chat_id = $1`, [chatId, hours]);
  };
  let followUp: AutomationRuleOut;

  beforeAll(async () => {
    followUp = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Seguimiento a las 23 horas',
      trigger: { timer: { kind: 'no_customer_reply', minutes: 23 * 60 } },
      conditions: [{ field: 'window_open', op: 'is', value: true }],
      actions: [{ type: 'send_text', text: '¿Pudiste ver la propuesta? Quedo atento.' }],
    });
    expect(followUp.trigger).toEqual({ timer: { kind: 'no_customer_reply', minutes: 1380 } });
  });

  it("«no customer reply 23 h after the agent's last message → a text» sends exactly one message, even fired twice at once", async () => {
    const chat = await receive('51933000021', 'Quiero la propuesta para mi tienda');
    expect((await call('POST', `/chats/${chat}/messages`, { text: 'Te la envío en un momento' })).statusCode).toBeLessThan(300);
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    const [timer] = await timersOf(chat);
    expect(timer.rule_id).toBe(followUp._id);
    expect(Math.abs(new Date(timer.due_at).getTime() - (Date.now() + 23 * 3_600_000))).toBeLessThan(120_000);
    // before its time nothing fires
    expect(await fire()).toBe(0);
    await hoursPass(chat, 23);
    const before = sentTexts().length;
    const [a, b] = await Promise.all([fire(), fire()]);
    expect(a + b).toBe(1);
    expect(sentTexts().slice(before)).toEqual(['¿Pudiste ver la propuesta? Quedo atento.']);
    expect(await timersOf(chat)).toEqual([]);
    // its own message does not set it again (no follow-up of the follow-up)
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    expect(await timersOf(chat)).toEqual([]);
    const [run] = await runsOf(followUp._id);
    expect(run).toMatchObject({ eventType: 'timer.no_customer_reply', chatId: chat, status: 'ok' });
  });

  it('none if the customer wrote at 22 h', async () => {
    const chat = await receive('51933000022', 'Hola, ¿me cotizas?');
    expect((await call('POST', `/chats/${chat}/messages`, { text: 'Claro, ¿cuántas unidades?' })).statusCode).toBeLessThan(300);
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    expect(await timersOf(chat)).toHaveLength(1);
    await hoursPass(chat, 22);
    await receive('51933000022', 'Unas 40 cajas');
    expect(await timersOf(chat)).toEqual([]);
    await hoursPass(chat, 2);
    const before = sentTexts().length;
    expect(await fire()).toBe(0);
    expect(sentTexts().length).toBe(before);
  });

  it('a timer a dead process had claimed is fired again after its lease, once', async () => {
    const chat = await receive('51933000023', 'Hola');
    expect((await call('POST', `/chats/${chat}/messages`, { text: 'Hola, ¿en qué te ayudo?' })).statusCode).toBeLessThan(300);
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    await hoursPass(chat, 23);
    // as if a process claimed it and died before firing it
    await t.sql(`update automation_timers set claimed_at = now() where chat_id = $1`, [chat]);
    const before = sentTexts().length;
    expect(await fire()).toBe(0);
    await t.sql(`update automation_timers set claimed_at = now() - interval '10 minutes' where chat_id = $1`, [chat]);
    expect(await fire()).toBe(1);
    expect(await fire()).toBe(0);
    expect(sentTexts().length - before).toBe(1);
  });

  it('a batch of idle chats: each action once for all of them, and a crash before the outcomes adds nothing when taken again', async () => {
    const [label] = await t.sql<{ id: string }>(`insert into mostrador_labels (company_id, name, color) values ($1, 'Inactivo', '#888888') returning id::text`, [peru]);
    const idle = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Cerrar inactivos',
      trigger: { timer: { kind: 'no_activity', minutes: 7 * 24 * 60 } },
      actions: [
        { type: 'add_label', labelId: label.id },
        { type: 'note', text: 'Cerrado por inactividad' },
        { type: 'resolve' },
      ],
    });
    // 60 chats with their leads, and one without a lead; all their timers due
    const chats = await t.sql<{ id: string; lead_id: string | null }>(
      `with l as (insert into leads (company_id, name, platform, status) select $1, 'Inactivo ' || g, 'whatsapp', 'sin-asignar' from generate_series(1, 60) g returning id)
       insert into chats (company_id, contact_name, platform, lead_id, status)
       select $1, 'Inactivo', 'whatsapp', id, 'open' from l union all select $1, 'Sin lead', 'whatsapp', null, 'open'
       returning id::text, lead_id::text`,
      [peru],
    );
    const seed = () =>
      t.sql(
        `insert into automation_timers (id, company_id, rule_id, subject, chat_id, due_at)
         select md5(c.id::text || 'timer')::uuid, $1, $2, 'chat:' || c.id, c.id, '2026-11-01T12:00:00.123456Z' from unnest($3::uuid[]) as c(id)
         on conflict (rule_id, subject) do nothing`,
        [peru, idle._id, chats.map((c) => c.id)],
      );
    await seed();
    expect(await fire()).toBe(61);
    // fired timers are gone (their time, written by SQL, to the microsecond)
    expect(await t.sql('select id from automation_timers where rule_id = $1 and chat_id = any($2::uuid[])', [idle._id, chats.map((c) => c.id)])).toEqual([]);
    const ids = chats.map((c) => c.id);
    const state = () =>
      t.sql<{ closed: number; notes: number; labelled: number; runs: number; ok: number }>(
        `select (select count(*)::int from chats where id = any($1::uuid[]) and status = 'closed') as closed,
                (select count(*)::int from chat_messages where chat_id = any($1::uuid[]) and kind = 'note' and text = 'Cerrado por inactividad') as notes,
                (select count(*)::int from leads l join chats c on c.lead_id = l.id where c.id = any($1::uuid[]) and l.mostrador_labels @> jsonb_build_array($2::text)) as labelled,
                (select count(*)::int from automation_runs where rule_id = $3) as runs,
                (select count(*)::int from automation_runs where rule_id = $3 and status = 'ok') as ok`,
        [ids, label.id, idle._id],
      );
    expect((await state())[0]).toEqual({ closed: 61, notes: 61, labelled: 60, runs: 61, ok: 60 });
    // the chat without a lead: its label refused in Spanish, its note and resolve done
    const lone = chats.find((c) => !c.lead_id) as { id: string };
    const [run] = (await runsOf(idle._id)).filter((r) => r.chatId === lone.id);
    expect(run.status).toBe('error');
    expect(run.actions.map((a) => [a.type, a.ok])).toEqual([
      ['add_label', false],
      ['note', true],
      ['resolve', true],
    ]);
    expect(run.error).toBe('El evento no tiene un lead en el que actuar');
    // as if the process died after the actions, before writing the outcomes and dropping the timers
    await t.sql(`update automation_runs set status = 'running' where rule_id = $1`, [idle._id]);
    await t.sql(`update chats set status = 'open' where id = $1`, [ids[0]]);
    await seed();
    expect(await fire()).toBe(61);
    // nothing twice: one note each, the runs the same; the chat reopened meanwhile is resolved again
    expect((await state())[0]).toEqual({ closed: 61, notes: 61, labelled: 60, runs: 61, ok: 60 });
    // and once done, the same firing never runs again
    await seed();
    expect(await fire()).toBe(0);
    await ok('DELETE', `/automation-rules/${idle._id}`);
  });

  it('«Esperar y luego seguir»: the run waits, then goes on from the next action once, even taken again after a crash; a rule switched off meanwhile stops', async () => {
    // a wait cannot be the last action
    const last = await call('POST', '/automation-rules', { name: 'Mal', trigger: { event: 'message.received' }, actions: [{ type: 'note', text: 'x' }, { type: 'wait', minutes: 5 }] });
    expect(last.statusCode).toBe(400);
    expect(last.body).toContain(automationActionMessages.waitLast);
    const rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Nota, espera y seguimiento',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'text', op: 'contains', value: 'catálogo de espera' }],
      actions: [
        { type: 'note', text: 'Pidió el catálogo' },
        { type: 'wait', minutes: 30 },
        { type: 'send_text', text: '¿Pudiste revisar el catálogo?' },
      ],
    });
    const before = sentTexts().length;
    const chat = await receive('51933000031', 'Hola, ¿me pasas el catálogo de espera?');
    const [waiting] = await runsOf(rule._id);
    expect(waiting).toMatchObject({ chatId: chat, status: 'waiting' });
    expect(waiting.actions.map((a) => [a.type, a.ok])).toEqual([
      ['note', true],
      ['wait', true],
    ]);
    const waits = () => t.sql<{ run_id: string; resume_at: number; due_at: Date }>('select run_id::text, resume_at, due_at from automation_timers where rule_id = $1', [rule._id]);
    const [timer] = await waits();
    expect(timer).toMatchObject({ run_id: waiting._id, resume_at: 2 });
    expect(Math.abs(new Date(timer.due_at).getTime() - (Date.now() + 30 * 60_000))).toBeLessThan(60_000);
    // before its time nothing goes on
    expect(await fire()).toBe(0);
    expect(sentTexts().length).toBe(before);
    await t.sql(`update automation_timers set due_at = now() - interval '1 second' where rule_id = $1`, [rule._id]);
    expect(await fire()).toBe(1);
    expect(sentTexts().slice(before)).toEqual(['¿Pudiste revisar el catálogo?']);
    const [done] = await runsOf(rule._id);
    expect(done.status).toBe('ok');
    expect(done.actions.map((a) => [a.type, a.ok])).toEqual([
      ['note', true],
      ['wait', true],
      ['send_text', true],
    ]);
    expect(await waits()).toEqual([]);
    // as if the process died after the send, before writing the outcome and dropping the timer: taken again, nothing twice
    await t.sql(`update automation_runs set status = 'running', actions = $2::jsonb where id = $1`, [done._id, JSON.stringify(waiting.actions)]);
    await t.sql(`insert into automation_timers (company_id, rule_id, subject, chat_id, due_at, run_id, resume_at) values ($1, $2, $3, $4, now() - interval '1 second', $5, 2)`, [
      peru,
      rule._id,
      `run:${done._id}:1`,
      chat,
      done._id,
    ]);
    expect(await fire()).toBe(1);
    expect(sentTexts().slice(before)).toEqual(['¿Pudiste revisar el catálogo?']);
    expect((await runsOf(rule._id))[0].actions).toHaveLength(3);
    // a rule switched off while a run waits: the run stops, saying why
    const second = await receive('51933000032', 'El catálogo de espera, por favor');
    const [held] = (await runsOf(rule._id)).filter((r) => r.chatId === second);
    expect(held.status).toBe('waiting');
    await ok('PUT', `/automation-rules/${rule._id}`, { name: rule.name, trigger: rule.trigger, match: rule.match, conditions: rule.conditions, actions: rule.actions, enabled: false });
    await t.sql(`update automation_timers set due_at = now() - interval '1 second' where rule_id = $1`, [rule._id]);
    expect(await fire()).toBe(0);
    const [stopped] = (await runsOf(rule._id)).filter((r) => r.chatId === second);
    expect(stopped).toMatchObject({ status: 'skipped', error: automationActionMessages.waitDisabled });
    expect(sentTexts().slice(before)).toEqual(['¿Pudiste revisar el catálogo?']);
    await ok('DELETE', `/automation-rules/${rule._id}`);
  });

  it('an order left in a status: set when it moves there, cancelled when it moves on', async () => {
    const review = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Pedir reseña',
      trigger: { timer: { kind: 'order_status_age', minutes: 3 * 24 * 60, status: 'done' } },
      actions: [{ type: 'note', text: 'Pedirle una reseña' }],
    });
    const orderTimers = () => t.sql<{ order_id: string }>('select order_id::text from automation_timers where rule_id = $1', [review._id]);
    const [order] = await t.sql<{ id: string }>(
      `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency)
       values ($1, 'REGLA-1', 'created', 'catalogo-digital', 'Rosa', '51911000010', '{}'::jsonb, '[]'::jsonb, 10, 10, 'PEN') returning id::text`,
      [peru],
    );
    await t.sql(`update orders set status = 'done' where id = $1`, [order.id]);
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    expect((await orderTimers()).map((r) => r.order_id)).toEqual([order.id]);
    await t.sql(`update orders set status = 'cancelled' where id = $1`, [order.id]);
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    expect(await orderTimers()).toEqual([]);
    // a timer needs its order's status; a window timer must be shorter than the window
    const bad = await call('POST', '/automation-rules', { name: 'Mal', trigger: { timer: { kind: 'order_status_age', minutes: 60 } }, actions: [{ type: 'resolve' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Elige el estado del pedido');
    await ok('DELETE', `/automation-rules/${review._id}`);
  });
});
