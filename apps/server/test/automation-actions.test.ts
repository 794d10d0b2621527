import { AUTOMATION_MESSAGES_PER_CHAT_HOUR, type AutomationRuleOut, automationActionMessages, automationMessages } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers.js';
import { rulesHarness } from './rules-harness.js';

/**
 * The rules' assignment and Imagina actions (issue 29, decision 0077): «Asignar a un agente
 * disponible de un equipo» and «por turnos» deal the lead by the automatic assignment's turn
 * among the available agents, as the rule; «Enviar una plantilla Imagina» writes the template's
 * text with the chat's person in it, once, inside the 24-hour window.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9reglasAccionesPrueba8R3y';
const LINE = '109000000000129';
const WABA = '102290129340129';

type Rec = Record<string, unknown>;
const h = rulesHarness({ token: TOKEN, line: LINE, waba: WABA }, async (h) => {
  // automatic assignment off too: these tests count their rules' effects
  await h.t.sql('update assignment_settings set enabled = false where company_id = $1', [h.peru]);
});
const { call, ok, receive, runsOf, sentTexts, drain } = h;
let t: TestApp;
let peru: string;
let chile: string;
beforeAll(() => {
  ({ t, peru, chile } = h);
});
const leadOf = async (chatId: string) =>
  (await t.sql<{ id: string; agente_id: string | null; status: string }>('select l.id::text, l.agente_id::text, l.status from leads l join chats c on c.lead_id = l.id where c.id = $1', [chatId]))[0];
const idOf = (r: Rec) => r._id as string;


describe('«Asignar a un agente disponible de un equipo»', () => {
  let team: string;
  let ana: string;
  let beto: string;
  let carla: string;
  let dario: string;
  let rule: AutomationRuleOut;

  beforeAll(async () => {
    team = idOf(await ok('POST', '/equipos-de-ventas', { name: 'Mayoristas Sur' }));
    const agent = async (name: string, extra: Rec) => idOf(await ok('POST', '/agentes', { name, equipoDeVentasId: team, ...extra }));
    ana = await agent('Ana Sur', { active: true, available: true });
    beto = await agent('Beto Sur', { active: true, available: true });
    // in the team but not dealt to: away, and inactive
    carla = await agent('Carla Sur', { active: true, available: false });
    dario = await agent('Darío Sur', { active: false, available: true });
    // available, but of no team: never dealt a lead of the team
    await ok('POST', '/agentes', { name: 'Aaron Suelto', active: true, available: true });
    rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Mayoristas al equipo Sur',
      trigger: { event: 'message.received' },
      conditions: [
        { field: 'text', op: 'contains', value: 'mayorista' },
        { field: 'agent', op: 'none' },
      ],
      actions: [{ type: 'assign_team', teamId: team }],
    });
  });

  it('deals the lead to an available agent of the team, as the rule, and the next lead to the next one', async () => {
    const first = await receive('51934000001', 'Hola, soy mayorista de bodegas');
    const lead1 = await leadOf(first);
    expect([ana, beto]).toContain(lead1.agente_id);
    // the decision 0025 rule: an agent on a sin-asignar lead takes it out
    expect(lead1.status).toBe('informado-al-agente');
    const [event] = await t.sql<{ actor: { type: string; id?: string } }>(
      `select actor from domain_events where company_id = $1 and type = 'chat.assigned' and (payload->>'chatId' = $2 or payload->>'leadId' = $3) order by position desc limit 1`,
      [peru, first, lead1.id],
    );
    expect(event.actor).toEqual({ type: 'rule', id: rule._id });

    const second = await receive('51934000002', 'Precio mayorista por favor');
    const lead2 = await leadOf(second);
    expect([ana, beto]).toContain(lead2.agente_id);
    expect(lead2.agente_id).not.toBe(lead1.agente_id);
    // and round again
    const third = await receive('51934000003', 'Somos mayorista en Arequipa');
    expect((await leadOf(third)).agente_id).toBe(lead1.agente_id);

    const runs = await runsOf(rule._id);
    expect(runs).toHaveLength(3);
    expect(runs.every((r) => r.status === 'ok')).toBe(true);
    const names = new Map([
      [ana, 'Ana Sur'],
      [beto, 'Beto Sur'],
    ]);
    expect(runs[2].actions).toEqual([{ type: 'assign_team', ok: true, detail: `Asignado a ${names.get(lead1.agente_id as string)}` }]);
  });

  it('skips an agent who is «Ausente» or inactive, even when the turn falls on them', async () => {
    // everyone but Beto away or inactive: whoever was dealt last, Beto is next
    await t.sql('update agentes set available = false where id = $1', [ana]);
    const dealt = new Set<string | null>();
    for (const from of ['51934000011', '51934000012']) dealt.add((await leadOf(await receive(from, 'mayorista aquí'))).agente_id);
    expect([...dealt]).toEqual([beto]);
    expect([...dealt]).not.toContain(carla);
    expect([...dealt]).not.toContain(dario);
  });

  it('with nobody available in the team the run says so in Spanish and the lead is left as it was', async () => {
    await t.sql('update agentes set available = false where id = $1', [beto]);
    const [before] = await t.sql<{ last: string | null }>('select last_agente_id::text as last from assignment_settings where company_id = $1', [peru]);
    const chat = await receive('51934000021', 'mayorista sin atención');
    const lead = await leadOf(chat);
    expect(lead).toMatchObject({ agente_id: null, status: 'sin-asignar' });
    const [run] = await runsOf(rule._id);
    expect(run.chatId).toBe(chat);
    expect(run.status).toBe('error');
    expect(run.actions).toEqual([{ type: 'assign_team', ok: false, detail: automationActionMessages.noTeamAgent('Mayoristas Sur') }]);
    expect(run.error).toBe('No hay agentes disponibles en el equipo «Mayoristas Sur»: nadie activo y «Disponible»');
    // the turn did not move
    expect(await t.sql('select last_agente_id::text as last from assignment_settings where company_id = $1', [peru])).toEqual([before]);
    // the preview names the team
    const preview = await ok<{ actions: Array<{ wouldDo: string }> }>('POST', `/automation-rules/${rule._id}/test`, { chatId: chat });
    expect(preview.actions.map((a) => a.wouldDo)).toEqual(['Asignaría el chat al próximo agente disponible del equipo «Mayoristas Sur», por turnos']);
    await ok('DELETE', `/automation-rules/${rule._id}`);
  });

  it("another company's team in a rule is a 400 in Spanish and nothing is stored", async () => {
    const theirs = idOf(await ok('POST', '/equipos-de-ventas', { name: 'Santiago Centro' }, chile));
    const before = await t.sql<{ n: number }>('select count(*)::int as n from automation_rules');
    const res = await call('POST', '/automation-rules', { name: 'Ajena', trigger: { event: 'message.received' }, actions: [{ type: 'assign_team', teamId: theirs }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toBe(automationActionMessages.unknownTeam);
    expect(res.json().errors.details).toEqual([{ path: 'actions.0.teamId', msg: automationActionMessages.unknownTeam }]);
    expect(await t.sql<{ n: number }>('select count(*)::int as n from automation_rules')).toEqual(before);
  });
});

describe('«Asignar por turnos a un agente disponible»', () => {
  it("deals among all the company's available agents by the same turn, and refuses when none is", async () => {
    // only two available agents in the company, for this test
    await t.sql('update agentes set available = false where company_id = $1', [peru]);
    const eva = idOf(await ok('POST', '/agentes', { name: 'Eva Turno', active: true, available: true }));
    const fito = idOf(await ok('POST', '/agentes', { name: 'Fito Turno', active: true, available: true }));
    const rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Por turnos',
      trigger: { event: 'message.received' },
      conditions: [
        { field: 'text', op: 'contains', value: 'turno' },
        { field: 'agent', op: 'none' },
      ],
      actions: [{ type: 'assign_round_robin' }],
    });
    const a = (await leadOf(await receive('51934000031', 'pido turno'))).agente_id;
    const b = (await leadOf(await receive('51934000032', 'otro turno'))).agente_id;
    expect([a, b].sort()).toEqual([eva, fito].sort());
    await t.sql('update agentes set available = false where company_id = $1', [peru]);
    const chat = await receive('51934000033', 'turno sin nadie');
    expect((await leadOf(chat)).agente_id).toBeNull();
    const [run] = await runsOf(rule._id);
    expect(run.actions).toEqual([{ type: 'assign_round_robin', ok: false, detail: automationActionMessages.noAgentAvailable }]);
    await ok('DELETE', `/automation-rules/${rule._id}`);
  });
});

describe('two runs at once', () => {
  it('take different turns, even for a company that never dealt a lead before (its turn row written first)', async () => {
    const { act } = await import('../src/modules/automation/engine.js');
    const { engineDepsOf } = await import('../src/modules/automation/deps.js');
    const { contextOf } = await import('../src/modules/automation/engine.js');
    const chats = [await receive('51934000061', 'hola'), await receive('51934000062', 'hola')];
    await t.sql('update agentes set available = false where company_id = $1', [peru]);
    const pair = [idOf(await ok('POST', '/agentes', { name: 'Hilda Par', active: true, available: true })), idOf(await ok('POST', '/agentes', { name: 'Iván Par', active: true, available: true }))];
    await t.sql('delete from assignment_settings where company_id = $1', [peru]);
    const deps = engineDepsOf(t.app);
    const rule = { id: '00000000-0000-4000-8000-000000003100', company_id: peru, name: 'Por turnos', trigger_event: 'message.received' as const, match: 'all' as const, conditions: [], actions: [{ type: 'assign_round_robin' as const }] };
    const outcomes = await Promise.all(
      chats.map(async (chatId, k) =>
        act(deps, rule, await contextOf(t.app.database.db, peru, { chatId }), {
          id: `00000000-0000-4000-8000-00000000311${k}`,
          event: { id: `00000000-0000-4000-8000-00000000312${k}`, type: 'message.received', occurredAt: new Date().toISOString() },
          sentThisHour: 0,
          cap: 10,
        }),
      ),
    );
    expect(outcomes.map((o) => o.acted[0].ok)).toEqual([true, true]);
    const dealt = await Promise.all(chats.map(async (c) => (await leadOf(c)).agente_id));
    expect([...dealt].sort()).toEqual([...pair].sort());
    // the row written for the turn leaves the automatic assignment off, as the company had it
    expect(await t.sql('select enabled from assignment_settings where company_id = $1', [peru])).toEqual([{ enabled: false }]);
  });
});

describe('«Enviar una plantilla Imagina»', () => {
  let template: string;
  let rule: AutomationRuleOut;

  beforeAll(async () => {
    template = idOf(
      await ok('POST', '/imagina_template_messages', {
        name: 'bienvenida_regla',
        language: 'es_PE',
        category: 'UTILITY',
        body: 'Hola {{nombre}}, gracias por escribir a {{empresa}}. Enseguida te atendemos.',
        status: 'approved',
      }),
    );
    rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Bienvenida Imagina',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'text', op: 'contains', value: 'catálogo' }],
      actions: [{ type: 'send_imagina', templateId: template }],
    });
  });

  it("sends the template's text with the chat's person in it, once even when the event is handed twice", async () => {
    const from = '51934000041';
    const quiet = await receive(from, 'hola');
    await t.sql(`update leads set name = 'Marisol Cárdenas' where id = $1`, [(await leadOf(quiet)).id]);
    const [company] = await t.sql<{ name: string }>('select name from companies where id = $1', [peru]);
    const before = sentTexts().length;
    const chat = await receive(from, '¿Me pasas el catálogo?');
    expect(chat).toBe(quiet);
    const text = `Hola Marisol Cárdenas, gracias por escribir a ${company.name}. Enseguida te atendemos.`;
    expect(sentTexts().slice(before)).toEqual([text]);
    const [run] = await runsOf(rule._id);
    expect(run).toMatchObject({ chatId: chat, status: 'ok', actions: [{ type: 'send_imagina', ok: true }] });
    // in the chat, once, as the rule
    const [sent] = await t.sql<{ n: number }>(`select count(*)::int as n from chat_messages where chat_id = $1 and direction = 'out' and text = $2`, [chat, text]);
    expect(sent.n).toBe(1);

    // the same event handed again: no second run, no second message
    await t.sql(`update domain_events set dispatched_at = null where company_id = $1 and type = 'message.received' and payload->>'chatId' = $2`, [peru, chat]);
    await t.sql(`delete from domain_event_receipts where listener = 'automation' and position in (select position from domain_events where type = 'message.received' and payload->>'chatId' = $1)`, [chat]);
    await drain();
    // and the run itself done again, as after a crash mid-run: the message keeps its id
    await t.sql(`update automation_runs set status = 'running' where id = $1`, [run._id]);
    await t.sql(`update domain_events set dispatched_at = null where company_id = $1 and type = 'message.received' and payload->>'chatId' = $2`, [peru, chat]);
    await t.sql(`delete from domain_event_receipts where listener = 'automation' and position in (select position from domain_events where type = 'message.received' and payload->>'chatId' = $1)`, [chat]);
    await drain();
    expect(sentTexts().length - before).toBe(1);
    expect(await t.sql(`select count(*)::int as n from chat_messages where chat_id = $1 and direction = 'out' and text = $2`, [chat, text])).toEqual([{ n: 1 }]);
    expect(await runsOf(rule._id)).toHaveLength(1);
  });

  it("counts against the chat's rule messages of the hour, like a text", async () => {
    const chat = await receive('51934000044', 'hola');
    await t.sql(
      `insert into automation_runs (company_id, rule_id, event_id, event_type, chat_id, status, messages) values ($1, $2, gen_random_uuid(), 'message.received', $3, 'ok', $4)`,
      [peru, rule._id, chat, AUTOMATION_MESSAGES_PER_CHAT_HOUR],
    );
    const before = sentTexts().length;
    await receive('51934000044', '¿y el catálogo?');
    const [run] = await runsOf(rule._id);
    expect(run.chatId).toBe(chat);
    expect(run.actions).toEqual([{ type: 'send_imagina', ok: false, detail: automationMessages.tooManyMessages(AUTOMATION_MESSAGES_PER_CHAT_HOUR) }]);
    expect(sentTexts().length).toBe(before);
  });

  it('outside the 24-hour window it is refused with the reason, nothing sent', async () => {
    const chat = await receive('51934000042', 'hola');
    await t.sql(`update chat_windows set last_inbound_at = now() - interval '25 hours' where chat_id = $1`, [chat]);
    const late = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Imagina al asignar',
      trigger: { event: 'chat.assigned' },
      actions: [{ type: 'send_imagina', templateId: template }],
    });
    const someone = idOf(await ok('POST', '/agentes', { name: 'Gina Ventana', active: true, available: true }));
    const before = sentTexts().length;
    await ok('PUT', `/leads/${(await leadOf(chat)).id}`, { agenteId: someone });
    await drain();
    const [run] = await runsOf(late._id);
    expect(run.actions).toEqual([{ type: 'send_imagina', ok: false, detail: automationMessages.windowClosed }]);
    expect(sentTexts().length).toBe(before);
    await ok('DELETE', `/automation-rules/${late._id}`);
  });

  it('a variable the chat has no value for is refused naming it; a draft is refused; the preview names the template', async () => {
    const withEmail = idOf(
      await ok('POST', '/imagina_template_messages', { name: 'con_correo', language: 'es_PE', category: 'UTILITY', body: 'Te escribimos a {{email}}', status: 'approved' }),
    );
    const draft = idOf(await ok('POST', '/imagina_template_messages', { name: 'borrador_regla', language: 'es_PE', category: 'UTILITY', body: 'Hola {{nombre}}' }));
    const strict = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Imagina con correo',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'text', op: 'contains', value: 'correo' }],
      actions: [
        { type: 'send_imagina', templateId: withEmail },
        { type: 'send_imagina', templateId: draft },
      ],
    });
    const before = sentTexts().length;
    const chat = await receive('51934000043', 'mándame un correo');
    const [run] = await runsOf(strict._id);
    expect(run.actions).toEqual([
      { type: 'send_imagina', ok: false, detail: 'Falta el valor de {{email}} (Correo del cliente): la plantilla no se envió' },
      { type: 'send_imagina', ok: false, detail: automationActionMessages.imaginaDraft('borrador_regla') },
    ]);
    expect(sentTexts().length).toBe(before);
    const preview = await ok<{ actions: Array<{ wouldDo: string }> }>('POST', `/automation-rules/${strict._id}/test`, { chatId: chat });
    expect(preview.actions.map((a) => a.wouldDo)).toEqual(['Enviaría la plantilla Imagina «con_correo»', 'Enviaría la plantilla Imagina «borrador_regla»']);
    await ok('DELETE', `/automation-rules/${strict._id}`);
  });

  it("another company's Imagina template in a rule is a 400 in Spanish", async () => {
    const res = await call('POST', '/automation-rules', { name: 'Ajena', trigger: { event: 'message.received' }, actions: [{ type: 'send_imagina', templateId: template }] }, chile);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toBe(automationActionMessages.unknownImagina);
  });
});

describe('«Responder con productos del catálogo» (the assistant as an auto-reply)', () => {
  let rule: AutomationRuleOut;
  beforeAll(async () => {
    rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Precios por sí sola',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'text', op: 'contains', value: 'precio' }],
      actions: [{ type: 'reply_products' }],
    });
  });
  afterAll(async () => {
    await call('DELETE', `/automation-rules/${rule._id}`);
  });

  it('answers with the catalogue products the message names, at their price; a message that names none gets nothing and says why', async () => {
    const before = sentTexts().length;
    const chat = await receive('51934000061', 'Hola, ¿qué precio tiene la mochila escolar 20 L?');
    const sent = sentTexts().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('Mochila escolar 20 L');
    expect(sent[0]).toMatch(/S\/\s?89\.00/);
    const [run] = await runsOf(rule._id);
    expect(run).toMatchObject({ chatId: chat, status: 'ok', actions: [{ type: 'reply_products', ok: true }] });

    await receive('51934000062', '¿Me pasas el precio?');
    expect(sentTexts().length - before).toBe(1);
    const [nothing] = await runsOf(rule._id);
    expect(nothing.actions).toEqual([{ type: 'reply_products', ok: false, detail: automationActionMessages.noProducts }]);
  });
});
