import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentAudience } from '../src/modules/leads/segment-audience.js';
import { chunkPeople } from '../src/modules/sending/planning.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Segments that know the customer (issue 31, decision 0101): the latest analysed chat's sentiment
 * and motive, no open complaint, orders and paid revenue, days since the last order and message,
 * on a hand-built set of people (a label of their own keeps the demo's people out), in the
 * preview, in a saved segment and in the planning of a campaign chunk or a massive send.
 */
let t: TestApp;
let admin: Signed;
let peru: Record<string, string>;
let company: string;
let chile: string;
let label: string;
const people: Record<string, string> = {};
const leadOf: Record<string, string> = {};
let seq = 0;
type Rec = Record<string, unknown>;

const preview = async (filters: Rec) => t.app.inject({ method: 'POST', url: '/api/marketing-segments/preview', headers: peru, payload: { filters: { mostradorLabelIds: [label], ...filters } } });
/** Who the filters pick, by first name, sorted. */
const who = async (filters: Rec) => {
  const res = await preview(filters);
  expect(res.statusCode, res.body).toBe(200);
  return ((res.json().sample as Array<{ name: string }>).map((p) => p.name.split(' ')[0]) as string[]).sort();
};

async function person(name: string) {
  const [cl] = await t.sql<{ id: string }>(
    `insert into clean_leads (company_id, name, telefono, status, mostrador_labels) values ($1, $2, $3, 'contactado', jsonb_build_array($4::text)) returning id::text`,
    [company, `${name} Segmento`, `5198711${String(seq++).padStart(4, '0')}`, label],
  );
  const [lead] = await t.sql<{ id: string }>(
    `insert into leads (company_id, name, telefono, platform, status, clean_lead_id) values ($1, $2, $3, 'whatsapp', 'contactado', $4) returning id::text`,
    [company, `${name} Segmento`, `5198711${String(seq++).padStart(4, '0')}`, cl.id],
  );
  people[name] = cl.id;
  leadOf[name] = lead.id;
}

/** A chat of the lead (in `owner`'s company) with its analysis, its last analysed message `daysAgo`. */
async function analysedChat(owner: string, leadId: string, status: string, sentiment: string, motive: string, daysAgo: number) {
  const [chat] = await t.sql<{ id: string }>(
    `insert into chats (company_id, contact_name, platform, lead_id, status, unread_count) values ($1, 'Chat segmento', 'whatsapp', $2, $3, 0) returning id::text`,
    [owner, leadId, status],
  );
  await t.sql(
    `insert into chat_analyses (chat_id, company_id, sentiment, motive, quality, category, engine, messages, last_message_at, analyzed_at)
     values ($1, $2, $3, $4, 3, 'venta', 'embedded', 2, now() - make_interval(days => $5::int), now())`,
    [chat.id, owner, sentiment, motive, daysAgo],
  );
  return chat.id;
}

async function message(chatId: string, direction: 'in' | 'out', daysAgo: number) {
  await t.sql(
    `insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at) values ($1, $2, $3, 'text', 'Hola', 'read', now() - make_interval(days => $4::int))`,
    [company, chatId, direction, daysAgo],
  );
}

async function order(owner: string, leadId: string, status: string, total: number, currency: string, daysAgo: number) {
  await t.sql(
    `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id, created_at)
     values ($1, $2, $3, 'catalogo', 'Cliente segmento', '51987000000', '{}'::jsonb, '[]'::jsonb, $4, $4, $5, $6, now() - make_interval(days => $7::int))`,
    [owner, `SEG-${String(seq++).padStart(4, '0')}`, status, total, currency, leadId, daysAgo],
  );
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  peru = as(admin, admin.company('Demo Perú'));
  company = admin.company('Demo Perú');
  chile = admin.company('Demo Chile');
  const made = await t.app.inject({ method: 'POST', url: '/api/mostrador-labels', headers: peru, payload: { name: 'Dataset 0101', color: '#1C57A5' } });
  expect(made.statusCode, made.body).toBe(201);
  label = made.json()._id;
  for (const name of ['Ana', 'Beto', 'Caro', 'Dani', 'Eva']) await person(name);

  // Ana: a happy buyer (latest chat positive); an old complaint, resolved (its chat closed)
  await analysedChat(company, leadOf.Ana, 'closed', 'negative', 'reclamo', 60);
  const ana = await analysedChat(company, leadOf.Ana, 'open', 'positive', 'compra', 3);
  await message(ana, 'in', 3);
  await order(company, leadOf.Ana, 'paid', 100, 'PEN', 10);
  await order(company, leadOf.Ana, 'done', 50, 'USD', 40); // S/ 187.50 at the product's rate
  // Beto: an open complaint (negative, «reclamo», chat open); an unpaid order and a cancelled one
  const beto = await analysedChat(company, leadOf.Beto, 'open', 'negative', 'reclamo', 1);
  await message(beto, 'in', 1);
  await order(company, leadOf.Beto, 'created', 80, 'PEN', 5);
  await order(company, leadOf.Beto, 'cancelled', 500, 'PEN', 2);
  // Caro: a «reclamo» still waiting (snoozed), neutral; never ordered
  const caro = await analysedChat(company, leadOf.Caro, 'snoozed', 'neutral', 'reclamo', 20);
  await message(caro, 'in', 20);
  // Dani: unhappy about a delivery, but the chat is closed; one old shipped order; only our messages lately
  const dani = await analysedChat(company, leadOf.Dani, 'closed', 'negative', 'envio', 100);
  await message(dani, 'out', 1);
  await order(company, leadOf.Dani, 'shipped', 30, 'PEN', 100);
  // Eva: nothing of her own; another company's chat, analysis and orders name her lead and must never count
  await analysedChat(chile, leadOf.Eva, 'open', 'negative', 'reclamo', 1);
  await order(chile, leadOf.Eva, 'paid', 1000, 'PEN', 1);
  await order(chile, leadOf.Ana, 'paid', 1000, 'PEN', 1);
}, 120_000);
afterAll(async () => t?.close());

describe('segments by what the customer did', () => {
  it('the latest analysed chat’s sentiment and motive', async () => {
    expect(await who({})).toEqual(['Ana', 'Beto', 'Caro', 'Dani', 'Eva']);
    expect(await who({ lastSentiments: ['negative'] })).toEqual(['Beto', 'Dani']);
    expect(await who({ lastSentiments: ['positive'] })).toEqual(['Ana']);
    expect(await who({ lastMotives: ['reclamo'] })).toEqual(['Beto', 'Caro']);
    expect(await who({ lastSentiments: ['neutral', 'positive'], lastMotives: ['reclamo'] })).toEqual(['Caro']);
  });

  it('a person with an open complaint is skipped; a resolved one is not', async () => {
    expect(await who({ excludeOpenComplaint: true })).toEqual(['Ana', 'Dani', 'Eva']);
    expect(await who({ excludeOpenComplaint: false })).toEqual(['Ana', 'Beto', 'Caro', 'Dani', 'Eva']);
  });

  it('orders (not cancelled) and paid revenue in the company’s currency', async () => {
    expect(await who({ ordersMin: 1 })).toEqual(['Ana', 'Beto', 'Dani']);
    expect(await who({ ordersMin: 2 })).toEqual(['Ana']);
    expect(await who({ ordersMax: 0 })).toEqual(['Caro', 'Eva']);
    expect(await who({ ordersMin: 1, ordersMax: 1 })).toEqual(['Beto', 'Dani']);
    expect(await who({ revenueMin: 287.5 })).toEqual(['Ana']);
    expect(await who({ revenueMin: 287.51 })).toEqual([]);
    expect(await who({ revenueMin: 1, revenueMax: 100 })).toEqual(['Dani']);
    expect(await who({ revenueMax: 0 })).toEqual(['Beto', 'Caro', 'Eva']);
  });

  it('days since the last order and since their last message', async () => {
    expect(await who({ daysSinceOrderMin: 30 })).toEqual(['Dani']);
    expect(await who({ daysSinceOrderMax: 7 })).toEqual(['Beto']);
    expect(await who({ daysSinceOrderMin: 10, daysSinceOrderMax: 10 })).toEqual(['Ana']);
    expect(await who({ daysSinceOrderMin: 11, daysSinceOrderMax: 60 })).toEqual([]);
    expect(await who({ daysSinceMessageMax: 2 })).toEqual(['Beto']);
    expect(await who({ daysSinceMessageMin: 10 })).toEqual(['Caro']);
    expect(await who({ daysSinceMessageMin: 3, daysSinceMessageMax: 3 })).toEqual(['Ana']);
    // all together: bought twice, no open complaint, wrote this week
    expect(await who({ ordersMin: 2, excludeOpenComplaint: true, daysSinceMessageMax: 7, revenueMin: 100 })).toEqual(['Ana']);
  });

  it('a range with its minimum above its maximum is a Spanish 400, and nothing is saved', async () => {
    const cases: Array<[Rec, string, string]> = [
      [{ ordersMin: 3, ordersMax: 1 }, 'ordersMax', 'El mínimo de pedidos no puede ser mayor que el máximo'],
      [{ revenueMin: 500, revenueMax: 100 }, 'revenueMax', 'El mínimo de ingresos pagados no puede ser mayor que el máximo'],
      [{ daysSinceOrderMin: 30, daysSinceOrderMax: 7 }, 'daysSinceOrderMax', 'El mínimo de días desde el último pedido no puede ser mayor que el máximo'],
      [{ daysSinceMessageMin: 9, daysSinceMessageMax: 2 }, 'daysSinceMessageMax', 'El mínimo de días desde el último mensaje no puede ser mayor que el máximo'],
    ];
    for (const [filters, field, msg] of cases) {
      const res = await preview(filters);
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain(msg);
      const saved = await t.app.inject({ method: 'POST', url: '/api/marketing-segments', headers: peru, payload: { name: `Rango malo ${field}`, filters } });
      expect(saved.statusCode).toBe(400);
      expect(JSON.stringify(saved.json())).toContain(msg);
    }
    expect((await t.sql<{ n: number }>(`select count(*)::int as n from marketing_segments where name like 'Rango malo%'`))[0].n).toBe(0);
    const negative = await preview({ daysSinceMessageMin: -1 });
    expect(negative.statusCode).toBe(400);
    expect(JSON.stringify(negative.json())).toContain('Los días no pueden ser negativos');
    expect((await preview({ lastSentiments: ['furioso'] })).statusCode).toBe(400);
    expect((await preview({ daysSinceOrderMax: 1_000_000 })).statusCode).toBe(400);
  });

  it('a saved segment keeps the filters, and a campaign chunk and a massive send plan with them', async () => {
    const filters = { mostradorLabelIds: [label], excludeOpenComplaint: true, ordersMin: 1 };
    const res = await t.app.inject({ method: 'POST', url: '/api/marketing-segments', headers: peru, payload: { name: 'Compradores sin reclamo', filters } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().filters).toEqual(filters);
    const segmentId = res.json()._id as string;

    const db = t.database.db;
    const chunk = await chunkPeople(db, company, { segmentId, chunkPage: 0, chunkSize: 50, content: { text: 'Hola' }, createdBy: null });
    expect(chunk.map((p) => p.clean_lead_id).sort()).toEqual([people.Ana, people.Dani].sort());
    expect(await segmentAudience(db, company, filters)).toBe(2);

    // a massive send to filters: no open complaint and wrote in the last month
    const mass = await chunkPeople(db, company, {
      filters: { mostradorLabelIds: [label], excludeOpenComplaint: true, daysSinceMessageMax: 30 },
      chunkPage: 0,
      chunkSize: 50,
      content: { text: 'Hola' },
      createdBy: null,
    });
    expect(mass.map((p) => p.clean_lead_id)).toEqual([people.Ana]);
    // the campaign's plan counts the same people (GET programmed-chunks)
    await t.sql(
      `insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, body, body_examples, variable_fields)
       values ($1, 'waba-0101', '7101001', 'promo_0101', 'es_PE', 'MARKETING', 'APPROVED', 'Hola {{1}}', '["María"]', '["nombre"]')`,
      [company],
    );
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/marketing-campaigns',
      headers: peru,
      payload: { name: 'Campaña 0101', segmentId, channel: 'whatsapp', templateName: 'promo_0101', chunkSize: 1, status: 'pending' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const plan = await t.app.inject({ method: 'GET', url: `/api/marketing-campaigns/${made.json()._id}/programmed-chunks`, headers: peru });
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json()).toMatchObject({ audience: 2, chunkSize: 1, chunks: 2 });
    // the same filters in another company pick nobody of this one
    expect(await segmentAudience(db, chile, { lastSentiments: ['negative'], mostradorLabelIds: [label] })).toBe(0);
  });
});
