import { type AutomationRuleOut, type AutomationSettingsOut, automationMessages, formMessages } from '@mostrador/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Signed, TestApp } from './helpers.js';
import { rulesHarness } from './rules-harness.js';

/**
 * Automation rules' conditions on the agent's sales team, the chat's latest analysis (sentiment,
 * motive) and the person's country, and the company's cap of rule messages per chat and hour
 * (issue 29, decisions 0077 and 0080), on signed webhook fixtures and real rows.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9condicionesDePrueba8R3y';
const LINE = '109000000000030';
const WABA = '102290129340030';

type Rec = Record<string, unknown>;
const h = rulesHarness({ token: TOKEN, line: LINE, waba: WABA }, async (h) => {
  // no job works here: the analysis sweep would write its own analyses over the ones under test
  await h.t.app.jobs.stop();
  await h.t.app.jobs.start({ work: false });
});
const { call, ok, receive, runsOf, sentTexts } = h;
let t: TestApp;
let agent: Signed;
let peru: string;
let chile: string;
beforeAll(() => {
  ({ t, agent, peru, chile } = h);
});
const leadIdOf = async (chatId: string) => (await t.sql<{ id: string }>('select lead_id::text as id from chats where id = $1', [chatId]))[0].id;
const notesOf = async (chatId: string) => (await t.sql<{ text: string }>(`select text from chat_messages where chat_id = $1 and kind = 'note' order by sent_at, id`, [chatId])).map((n) => n.text);
const noteRule = (name: string, conditions: object[]) =>
  ok<AutomationRuleOut>('POST', '/automation-rules', { name, trigger: { event: 'message.received' }, conditions, actions: [{ type: 'note', text: name }] });
/** The chat's analysis, as the analysis job writes it (one row per chat: its latest). */
const analysed = (chatId: string, sentiment: string, motive: string) =>
  t.sql(
    `insert into chat_analyses (chat_id, company_id, sentiment, motive, quality, category, engine, messages, last_message_at, analyzed_at)
     values ($1, $2, $3, $4, 3, 'venta', 'embedded', 1, now(), now())
     on conflict (chat_id) do update set sentiment = excluded.sentiment, motive = excluded.motive, analyzed_at = now()`,
    [chatId, peru, sentiment, motive],
  );


describe("the assigned agent's sales team", () => {
  it('«team is Norte» acts on a chat whose agent is of Norte, «no team» on one with no agent; the run shows the team found', async () => {
    const norte = (await ok('POST', '/equipos-de-ventas', { name: 'Equipo Norte' }))._id as string;
    const sur = (await ok('POST', '/equipos-de-ventas', { name: 'Equipo Sur' }))._id as string;
    const rosa = (await ok('POST', '/agentes', { name: 'Rosa del Norte', active: true, available: true, equipoDeVentasId: norte }))._id as string;
    const luis = (await ok('POST', '/agentes', { name: 'Luis del Sur', active: true, available: true, equipoDeVentasId: sur }))._id as string;
    const isNorte = await noteRule('Para Norte', [{ field: 'team', op: 'is', value: norte }]);
    const notNorte = await noteRule('No es Norte', [{ field: 'team', op: 'is_not', value: norte }]);
    const noTeam = await noteRule('Sin equipo', [{ field: 'team', op: 'none' }]);

    const chat = await receive('51934000001', 'Hola');
    expect(await notesOf(chat)).toEqual(['No es Norte', 'Sin equipo']);

    const lead = await leadIdOf(chat);
    await t.sql('update leads set agente_id = $2 where id = $1', [lead, rosa]);
    await receive('51934000001', '¿Siguen ahí?');
    expect((await notesOf(chat)).slice(2)).toEqual(['Para Norte']);
    const [run] = await runsOf(isNorte._id);
    expect(run.conditions).toEqual([{ field: 'team', op: 'is', value: norte, actual: norte, passed: true }]);

    await t.sql('update leads set agente_id = $2 where id = $1', [lead, luis]);
    await receive('51934000001', 'Hola de nuevo');
    expect((await notesOf(chat)).slice(3)).toEqual(['No es Norte']);
    expect((await runsOf(notNorte._id))[0].conditions[0]).toMatchObject({ actual: sur, passed: true });
    expect(await runsOf(noTeam._id)).toHaveLength(1);
    for (const r of [isNorte, notNorte, noTeam]) await ok('DELETE', `/automation-rules/${r._id}`);
  });

  it("another company's team is a 400 in Spanish and nothing is stored", async () => {
    const theirs = (await ok('POST', '/equipos-de-ventas', { name: 'Equipo de Santiago' }, chile))._id as string;
    const before = await t.sql<{ n: number }>('select count(*)::int as n from automation_rules');
    const res = await call('POST', '/automation-rules', {
      name: 'Ajena',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'team', op: 'is', value: theirs }],
      actions: [{ type: 'resolve' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toBe(automationMessages.unknownTeam);
    expect(res.json().errors.details).toEqual([{ path: 'conditions.0.value', msg: 'Ese equipo de ventas no es de esta compañía' }]);
    expect(await t.sql<{ n: number }>('select count(*)::int as n from automation_rules')).toEqual(before);
  });
});

describe("the chat's latest analysis", () => {
  it('«sentiment is negative» fires for a chat whose latest analysis is negative, not for a positive one, nor once it turns positive', async () => {
    const angry = await receive('51934000011', 'Hola');
    const happy = await receive('51934000012', 'Hola');
    await analysed(angry, 'negative', 'reclamo');
    await analysed(happy, 'positive', 'precio');
    const rule = await noteRule('Cliente molesto', [{ field: 'sentiment', op: 'is', value: 'negative' }]);
    const calm = await noteRule('Cliente tranquilo', [{ field: 'sentiment', op: 'is_not', value: 'negative' }]);

    await receive('51934000011', 'Sigo esperando mi pedido');
    await receive('51934000012', 'Gracias, todo bien');
    expect(await notesOf(angry)).toEqual(['Cliente molesto']);
    expect(await notesOf(happy)).toEqual(['Cliente tranquilo']);
    const [run] = await runsOf(rule._id);
    expect(run).toMatchObject({ chatId: angry, conditions: [{ field: 'sentiment', op: 'is', value: 'negative', actual: 'negative', passed: true }] });

    // the analysis of the chat changes: the rule reads the latest
    await analysed(angry, 'positive', 'compra');
    await receive('51934000011', 'Ya llegó, gracias');
    expect(await notesOf(angry)).toEqual(['Cliente molesto', 'Cliente tranquilo']);
    expect(await runsOf(rule._id)).toHaveLength(1);

    // a chat never analysed has no sentiment: «is negative» does not hold, «is not negative» does
    const fresh = await receive('51934000013', 'Buenas');
    expect(await notesOf(fresh)).toEqual(['Cliente tranquilo']);
    expect((await runsOf(calm._id))[0].conditions[0]).toMatchObject({ actual: null, passed: true });
    for (const r of [rule, calm]) await ok('DELETE', `/automation-rules/${r._id}`);
  });

  it('«motive is precio» and «motive contains "devolucion"» (accents and case aside, its code or its Spanish label)', async () => {
    const complaint = await receive('51934000021', 'Hola');
    const quote = await receive('51934000022', 'Hola');
    const never = await receive('51934000023', 'Hola');
    await analysed(complaint, 'negative', 'reclamo');
    await analysed(quote, 'neutral', 'precio');
    const isPrice = await noteRule('Motivo precio', [{ field: 'motive', op: 'is', value: 'precio' }]);
    // «Reclamo o devolución» is the label of 'reclamo'
    const returns = await noteRule('Motivo devolución', [{ field: 'motive', op: 'contains', value: 'DEVOLUCION' }]);
    const byCode = await noteRule('Motivo reclamo', [{ field: 'motive', op: 'contains', value: 'Reclamo' }]);

    for (const from of ['51934000021', '51934000022', '51934000023']) await receive(from, 'Una consulta más');
    expect(await notesOf(complaint)).toEqual(['Motivo devolución', 'Motivo reclamo']);
    expect(await notesOf(quote)).toEqual(['Motivo precio']);
    expect(await notesOf(never)).toEqual([]);
    expect((await runsOf(returns._id))[0].conditions).toEqual([{ field: 'motive', op: 'contains', value: 'DEVOLUCION', actual: 'reclamo', passed: true }]);

    // «is» takes one of the motives
    const bad = await call('POST', '/automation-rules', {
      name: 'Mal',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'motive', op: 'is', value: 'cualquier cosa' }],
      actions: [{ type: 'resolve' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.details).toEqual([{ path: 'conditions.0.value', msg: formMessages.option }]);
    for (const r of [isPrice, returns, byCode]) await ok('DELETE', `/automation-rules/${r._id}`);
  });
});

describe("the person's country, by the lead's phone", () => {
  it('«country is Chile» acts on a +56 number and not on a +51 one; «is not Chile» the other way round', async () => {
    const chileans = await noteRule('Desde Chile', [{ field: 'country', op: 'is', value: 'CL' }]);
    const others = await noteRule('No desde Chile', [{ field: 'country', op: 'is_not', value: 'CL' }]);
    const fromChile = await receive('56934000031', 'Hola, ¿envían a Santiago?');
    const fromPeru = await receive('51934000031', 'Hola, ¿envían a Arequipa?');
    expect(await notesOf(fromChile)).toEqual(['Desde Chile']);
    expect(await notesOf(fromPeru)).toEqual(['No desde Chile']);
    expect((await runsOf(chileans._id))[0].conditions).toEqual([{ field: 'country', op: 'is', value: 'CL', actual: 'CL', passed: true }]);
    expect((await runsOf(others._id))[0].conditions[0]).toMatchObject({ actual: 'PE', passed: true });

    const bad = await call('POST', '/automation-rules', {
      name: 'Mal',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'country', op: 'is', value: 'AR' }],
      actions: [{ type: 'resolve' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.details).toEqual([{ path: 'conditions.0.value', msg: formMessages.option }]);
    for (const r of [chileans, others]) await ok('DELETE', `/automation-rules/${r._id}`);
  });
});

describe("the company's cap of rule messages per chat and hour", () => {
  it('reads 10 until saved; 1–100 in Spanish; an agent without the module may not read it', async () => {
    expect(await ok<AutomationSettingsOut>('GET', '/automation-rules/settings', undefined, chile)).toEqual({ messagesPerChatHour: 10, saved: false, updatedAt: null });
    for (const [value, msg] of [
      [0, 'Al menos 1 mensaje'],
      [101, 'Como mucho 100 mensajes'],
      [2.5, 'Indica un número entero de mensajes'],
      ['diez', 'Indica cuántos mensajes'],
    ] as const) {
      const res = await call('PUT', '/automation-rules/settings', { messagesPerChatHour: value });
      expect(res.statusCode, String(value)).toBe(400);
      expect(res.json().errors.msg).toBe(msg);
    }
    expect((await call('GET', '/automation-rules/settings', undefined, peru, agent)).statusCode).toBe(401);
    expect((await call('PUT', '/automation-rules/settings', { messagesPerChatHour: 50 }, peru, agent)).statusCode).toBe(401);
    // another company's setting is its own
    expect((await ok<AutomationSettingsOut>('PUT', '/automation-rules/settings', { messagesPerChatHour: 30 }, chile)).messagesPerChatHour).toBe(30);
    expect((await ok<AutomationSettingsOut>('GET', '/automation-rules/settings')).messagesPerChatHour).toBe(10);
  });

  it('a company with cap 1 gets one rule message in a chat, then the run records the refusal with its number', async () => {
    const saved = await ok<AutomationSettingsOut>('PUT', '/automation-rules/settings', { messagesPerChatHour: 1 });
    expect(saved).toMatchObject({ messagesPerChatHour: 1, saved: true });
    expect(await ok<AutomationSettingsOut>('GET', '/automation-rules/settings')).toMatchObject({ messagesPerChatHour: 1, saved: true });
    const [logged] = await t.sql<{ action: string; changes: Rec }>(`select action, changes from audit_log where company_id = $1 and entity = 'automation_settings' order by at desc limit 1`, [peru]);
    expect(logged.action).toBe('update');
    expect(JSON.stringify(logged.changes)).toContain('messages_per_chat_hour');

    const rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Respuesta al tope',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'text', op: 'contains', value: 'tope' }],
      actions: [
        { type: 'send_text', text: 'Te respondemos enseguida.' },
        { type: 'note', text: 'Pidió el tope' },
      ],
    });
    const before = sentTexts().length;
    const chat = await receive('51934000041', 'tope uno');
    expect(sentTexts().slice(before)).toEqual(['Te respondemos enseguida.']);
    await receive('51934000041', 'tope dos');
    expect(sentTexts().length - before).toBe(1);
    const [run] = await runsOf(rule._id);
    expect(run.chatId).toBe(chat);
    expect(run.status).toBe('error');
    expect(run.actions).toEqual([
      { type: 'send_text', ok: false, detail: automationMessages.tooManyMessages(1) },
      { type: 'note', ok: true },
    ]);
    expect(run.error).toBe('Esta conversación ya recibió 1 mensaje de reglas en la última hora: el máximo de la compañía es 1');

    // raised again, the next message goes
    await ok('PUT', '/automation-rules/settings', { messagesPerChatHour: 2 });
    await receive('51934000041', 'tope tres');
    expect(sentTexts().length - before).toBe(2);
    await ok('DELETE', `/automation-rules/${rule._id}`);
  });
});
