import type { Board, BoardMoveResult, Funnel } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The pipeline board (issue 31, decision 0099) on a real database: columns by status and by the
 * company's own stages, moves through the same rules as any status change (one history row each,
 * nothing written on a refusal), «Ver más», filters, the open orders' value, the funnel from a
 * hand-built history, and that nothing reaches another company.
 */
let t: TestApp;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
/** A company of its own for the suite, created empty. */
let co: string;

type Rec = Record<string, unknown> & { _id: string };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (s: Signed, method: Method, url: string, company: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company), payload });
async function ok<T = Rec>(s: Signed, method: Method, url: string, company: string, payload?: object): Promise<T> {
  const res = await call(s, method, url, company, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as T;
}
const board = (company = co, query = '') => ok<Board>(admin, 'GET', `/lead-board${query}`, company);
const column = (b: Board, stage: string) => {
  const c = b.columns.find((x) => x.stage === stage);
  if (!c) throw new Error(`no column ${stage}`);
  return c;
};
const historyOf = (leadId: string) =>
  t.sql<{ from_status: string | null; from_stage_id: string | null; to_status: string; to_stage_id: string | null; actor: { type: string; id?: string } }>(
    'select from_status, from_stage_id::text, to_status, to_stage_id::text, actor from lead_stage_history where lead_id = $1 order by at, id',
    [leadId],
  );
const leadRow = async (id: string) => (await t.sql('select status, stage_id::text, agente_id::text, updated_at from leads where id = $1', [id]))[0];
const auditCount = async (company: string) => Number((await t.sql<{ n: string }>('select count(*) as n from audit_log where company_id = $1', [company]))[0].n);

let quote: Rec;
let agentA: Rec;
const made: Record<string, Rec> = {};

beforeAll(async () => {
  t = await startTestApp();
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  co = (await ok(admin, 'POST', '/companies', peru, { name: 'Tablero SAC', country: 'PE' }))._id;
  quote = await ok(admin, 'POST', '/lead-stages', co, { name: 'Cotización enviada', mapsTo: 'informado-al-agente', position: 1 });
  agentA = await ok(admin, 'POST', '/agentes', co, { name: 'Rosa Huamán', email: 'rosa.huaman@gmail.com' });
  const plan: Array<[string, string, string, Record<string, unknown>?]> = [
    ['nuevo', 'María Quispe', 'sin-asignar'],
    ['asignado', 'Luis Paredes', 'informado-al-agente', { agenteId: agentA._id, platform: 'instagram' }],
    ['reconectar', 'Rosa Flores', 're-conectar', { agenteId: agentA._id }],
    ['comprado', 'Jorge Mamani', 'compra-realizada'],
    ['fallido', 'Carmen Rojas', 'compra-fallida'],
  ];
  for (const [key, name, status, extra] of plan) {
    made[key] = await ok(admin, 'POST', '/leads', co, { name, platform: 'whatsapp', status, ...extra });
  }
});
afterAll(async () => {
  await t?.close();
});

describe('columns: the five statuses, each followed by the company stages that map onto it', () => {
  it('answers every column in board order with its count, open orders and cards', async () => {
    const b = await board();
    expect(b.currency).toBe('PEN');
    expect(b.columns.map((c) => c.name)).toEqual(['Sin asignar', 'Re-conectar', 'Informado al agente', 'Cotización enviada', 'Compra realizada', 'Compra fallida']);
    expect(column(b, quote._id)).toMatchObject({ custom: true, status: 'informado-al-agente', count: 0, cards: [] });
    const assigned = column(b, 'informado-al-agente');
    expect(assigned.count).toBe(1);
    expect(assigned.cards[0]).toMatchObject({ _id: made.asignado._id, name: 'Luis Paredes', platform: 'instagram', agenteId: agentA._id, openOrderValue: 0 });
  });

  it('shows the value of the open orders of its leads in the company currency, not done or cancelled ones', async () => {
    const order = (code: string, status: string, total: number, currency = 'PEN') =>
      t.sql(
        `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id)
         values ($1, $2, $3, 'chat', 'Luis Paredes', '51955443322', '{"name":"Luis Paredes","telefono":"51955443322"}', '[]', $4, $4, $5, $6)`,
        [co, code, status, total, currency, made.asignado._id],
      );
    await order('P-BRD001', 'created', 120.5);
    await order('P-BRD002', 'paid', 79.5);
    await order('P-BRD003', 'done', 1000);
    await order('P-BRD004', 'cancelled', 1000);
    await order('P-BRD005', 'created', 1000, 'USD');
    const b = await board();
    expect(column(b, 'informado-al-agente').openOrderValue).toBe(200);
    expect(column(b, 'informado-al-agente').cards[0].openOrderValue).toBe(200);
    expect(column(b, 'sin-asignar').openOrderValue).toBe(0);
  });
});

describe('moving a card: the same write as a status change, one history row, nothing on a refusal', () => {
  it('into a company stage: the status it maps onto, so the spec list of that status still shows the lead', async () => {
    const before = (await historyOf(made.nuevo._id)).length;
    const moved = await ok<BoardMoveResult>(admin, 'POST', '/lead-board/move', co, { leadId: made.nuevo._id, toStage: quote._id, fromStage: 'sin-asignar' });
    expect(moved).toMatchObject({ moved: true, from: 'sin-asignar', to: quote._id, msg: 'Lead movido a «Cotización enviada»', lead: { status: 'informado-al-agente', stageId: quote._id } });
    const rows = await historyOf(made.nuevo._id);
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({ from_status: 'sin-asignar', from_stage_id: null, to_status: 'informado-al-agente', to_stage_id: quote._id, actor: { type: 'user', id: admin.user._id } });
    // /lead/informado-al-agente is GET /leads?status=informado-al-agente
    const listed = await ok<{ payload: Rec[] }>(admin, 'GET', '/leads?status=informado-al-agente', co);
    expect(listed.payload.map((l) => l._id)).toContain(made.nuevo._id);
    const b = await board();
    expect(column(b, quote._id)).toMatchObject({ count: 1, cards: [expect.objectContaining({ _id: made.nuevo._id })] });
    expect(column(b, 'sin-asignar').count).toBe(0);
    expect(column(b, 'informado-al-agente').count).toBe(1);
  });

  it('again to where it is: nothing written', async () => {
    const before = await historyOf(made.nuevo._id);
    const again = await ok<BoardMoveResult>(admin, 'POST', '/lead-board/move', co, { leadId: made.nuevo._id, toStage: quote._id });
    expect(again).toMatchObject({ moved: false, msg: 'El lead ya está en «Cotización enviada»' });
    expect(await historyOf(made.nuevo._id)).toEqual(before);
  });

  it('obeys the status rules of any status change: to «Sin asignar» the lead leaves its agent (decision 0025)', async () => {
    const moved = await ok<BoardMoveResult>(admin, 'POST', '/lead-board/move', co, { leadId: made.reconectar._id, toStage: 'sin-asignar' });
    expect(moved.msg).toBe('Lead movido a «Sin asignar»; ya no tiene agente');
    expect(moved.lead.agenteId).toBeUndefined();
    expect(await leadRow(made.reconectar._id)).toMatchObject({ status: 'sin-asignar', agente_id: null });
    // the same as PUT /leads/{id} does with the same status
    const other = await ok(admin, 'POST', '/leads', co, { name: 'Diego Torres', platform: 'web', status: 're-conectar', agenteId: agentA._id });
    const put = await ok(admin, 'PUT', `/leads/${other._id}`, co, { status: 'sin-asignar' });
    expect(put.agenteId).toBeUndefined();
    expect((await historyOf(made.reconectar._id)).at(-1)).toMatchObject({ from_status: 're-conectar', to_status: 'sin-asignar' });
  });

  it('a card someone else moved meanwhile is refused (409, Spanish), nothing written', async () => {
    const lead = await leadRow(made.comprado._id);
    const history = await historyOf(made.comprado._id);
    const audits = await auditCount(co);
    const res = await call(admin, 'POST', '/lead-board/move', co, { leadId: made.comprado._id, toStage: 'compra-fallida', fromStage: 're-conectar' });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toBe('Este lead ya no está en «Re-conectar»: alguien lo movió a «Compra realizada». Actualiza el tablero');
    expect(await leadRow(made.comprado._id)).toEqual(lead);
    expect(await historyOf(made.comprado._id)).toEqual(history);
    expect(await auditCount(co)).toBe(audits);
  });

  it('an unknown or foreign stage is a 400; a bad body too; nothing written', async () => {
    const foreign = await ok(admin, 'POST', '/lead-stages', peru, { name: 'Etapa de Perú', mapsTo: 'compra-realizada', position: 9 });
    const history = await historyOf(made.fallido._id);
    for (const body of [
      { leadId: made.fallido._id, toStage: foreign._id },
      { leadId: made.fallido._id, toStage: 'no-existe' },
      { leadId: 'x', toStage: 'sin-asignar' },
    ]) {
      const res = await call(admin, 'POST', '/lead-board/move', co, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.msg).toMatch(/etapa|Etapa|válid/);
    }
    expect(await historyOf(made.fallido._id)).toEqual(history);
    await ok(admin, 'DELETE', `/lead-stages/${foreign._id}`, peru);
  });

  it('a stage given with another status through PUT /leads is refused; a stage alone brings its status', async () => {
    const lead = await ok(admin, 'POST', '/leads', co, { name: 'Sofía Castillo', platform: 'whatsapp', status: 'compra-fallida' });
    const res = await call(admin, 'PUT', `/leads/${lead._id}`, co, { stageId: quote._id, status: 'compra-fallida' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toBe('La etapa «Cotización enviada» es parte de «Informado al agente»: el estado debe ser ese');
    expect(await leadRow(lead._id)).toMatchObject({ status: 'compra-fallida', stage_id: null });
    expect(await ok(admin, 'PUT', `/leads/${lead._id}`, co, { stageId: quote._id })).toMatchObject({ status: 'informado-al-agente', stageId: quote._id });
    // any other status change (the list, a rule's raw SQL) takes it out of the stage, into the new status's own column
    expect(await ok(admin, 'PUT', `/leads/${lead._id}`, co, { status: 'compra-realizada' })).toMatchObject({ status: 'compra-realizada' });
    expect(await leadRow(lead._id)).toMatchObject({ status: 'compra-realizada', stage_id: null });
    await t.sql(`update leads set status = 'compra-fallida' where id = $1`, [lead._id]);
    const rows = await historyOf(lead._id);
    expect(rows.map((r) => [r.to_status, r.to_stage_id])).toEqual([
      ['compra-fallida', null],
      ['informado-al-agente', quote._id],
      ['compra-realizada', null],
      ['compra-fallida', null],
    ]);
    expect(rows[2].actor).toEqual({ type: 'user', id: admin.user._id });
    expect(rows[3].actor).toEqual({ type: 'system' });
  });

  it('an agent may not move a lead another agent holds (404), nor see it on the board', async () => {
    const carlos = (await t.sql<{ id: string }>(`select id::text from agentes where company_id = $1 and user_id = (select id::text from users where email = 'agente@demo.com')`, [peru]))[0].id;
    const others = (await t.sql<{ id: string }>(`select id::text from agentes where company_id = $1 and id <> $2 and active is not false limit 1`, [peru, carlos]))[0].id;
    const held = await ok(admin, 'POST', '/leads', peru, { name: 'Ricardo Vargas', platform: 'whatsapp', status: 'informado-al-agente', agenteId: others });
    const history = await historyOf(held._id);
    const res = await call(agent, 'POST', '/lead-board/move', peru, { leadId: held._id, toStage: 'compra-realizada' });
    expect(res.statusCode).toBe(404);
    expect(await leadRow(held._id)).toMatchObject({ status: 'informado-al-agente' });
    expect(await historyOf(held._id)).toEqual(history);
    const seen = await ok<Board>(agent, 'GET', '/lead-board?limit=100', peru);
    const ids = seen.columns.flatMap((c) => c.cards.map((card) => card._id));
    expect(ids).not.toContain(held._id);
    expect(seen.columns.flatMap((c) => c.cards).every((card) => card.agenteId === undefined || card.agenteId === carlos)).toBe(true);
    // its own lead it moves
    const mine = await ok(admin, 'POST', '/leads', peru, { name: 'Renzo Chávez', platform: 'whatsapp', status: 'informado-al-agente', agenteId: carlos });
    expect((await ok<BoardMoveResult>(agent, 'POST', '/lead-board/move', peru, { leadId: mine._id, toStage: 'compra-realizada' })).moved).toBe(true);
    expect((await historyOf(mine._id)).at(-1)?.actor).toEqual({ type: 'user', id: agent.user._id });
  });

  it('deleting a stage returns its leads to their status column (one history row each)', async () => {
    const temp = await ok(admin, 'POST', '/lead-stages', co, { name: 'Temporal', mapsTo: 'compra-realizada', position: 3 });
    await ok(admin, 'POST', '/lead-board/move', co, { leadId: made.comprado._id, toStage: temp._id });
    expect(await leadRow(made.comprado._id)).toMatchObject({ status: 'compra-realizada', stage_id: temp._id });
    const before = (await historyOf(made.comprado._id)).length;
    await ok(admin, 'DELETE', `/lead-stages/${temp._id}`, co);
    expect(await leadRow(made.comprado._id)).toMatchObject({ status: 'compra-realizada', stage_id: null });
    expect((await historyOf(made.comprado._id)).length).toBe(before + 1);
    expect(column(await board(), 'compra-realizada').cards.map((c) => c._id)).toContain(made.comprado._id);
  });

  it('the kept counts agree with the leads after every kind of write', async () => {
    await t.sql(`update leads set status = 're-conectar' where company_id = $1 and status = 'compra-fallida'`, [co]);
    await t.sql(`delete from leads where id = $1`, [made.fallido._id]);
    const kept = await t.sql<{ status: string; stage_key: string; n: string }>(
      `select status, stage_key, sum(n)::text as n from lead_board_counts where company_id = $1 group by 1, 2 having sum(n) <> 0 order by 1, 2`,
      [co],
    );
    const counted = await t.sql<{ status: string; stage_key: string; n: string }>(
      `select status, coalesce(stage_id::text, '') as stage_key, count(*)::text as n from leads where company_id = $1 group by 1, 2 order by 1, 2`,
      [co],
    );
    expect(kept).toEqual(counted);
    // a filtered board counts the same leads the kept counts do, unfiltered
    const filtered = await board(co, '?platform=whatsapp');
    const all = await board();
    const whatsapp = Number((await t.sql<{ n: string }>(`select count(*) as n from leads where company_id = $1 and platform = 'whatsapp'`, [co]))[0].n);
    expect(filtered.columns.reduce((n, c) => n + c.count, 0)).toBe(whatsapp);
    expect(all.columns.reduce((n, c) => n + c.count, 0)).toBe(counted.reduce((n, r) => n + Number(r.n), 0));
  });
});

describe('open orders\' value kept per column (decision 0099)', () => {
  const kept = (company: string) =>
    t.sql<{ currency: string; status: string; stage_key: string; total: string }>(
      `select currency, status, stage_key, sum(total)::text as total from lead_board_values where company_id = $1
        group by 1, 2, 3 having sum(total) <> 0 order by 1, 2, 3`,
      [company],
    );
  const computed = (company: string) =>
    t.sql<{ currency: string; status: string; stage_key: string; total: string }>(
      `select o.currency, l.status, coalesce(l.stage_id::text, '') as stage_key, sum(o.total::numeric)::text as total
         from orders o join leads l on l.company_id = o.company_id and l.id = o.lead_id
        where o.company_id = $1 and o.status in ('created', 'paid', 'shipped')
        group by 1, 2, 3 having sum(o.total::numeric) <> 0 order by 1, 2, 3`,
      [company],
    );

  it('agrees with the orders after every kind of write to orders and leads, and the board shows it', async () => {
    const company = (await ok(admin, 'POST', '/companies', peru, { name: 'Tablero valores', country: 'PE' }))._id;
    const stage = await ok(admin, 'POST', '/lead-stages', company, { name: 'Negociando', mapsTo: 'informado-al-agente', position: 1 });
    const leads: string[] = [];
    for (const [i, status] of ['sin-asignar', 'informado-al-agente', 're-conectar', 'compra-realizada'].entries()) {
      leads.push((await ok(admin, 'POST', '/leads', company, { name: `Cliente ${i}`, platform: 'whatsapp', status }))._id);
    }
    const order = (code: string, lead: string | null, status: string, total: number, currency = 'PEN') =>
      t.sql<{ id: string }>(
        `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id)
         values ($1, $2, $3, 'chat', 'Cliente', '51955443322', '{"name":"Cliente","telefono":"51955443322"}', '[]', $4, $4, $5, $6) returning id`,
        [company, code, status, total, currency, lead],
      );
    // a pseudo-random but repeatable run of writes: orders in, out, repriced, moved between leads; leads moved and deleted
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const statuses = ['created', 'paid', 'shipped', 'done', 'cancelled'];
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const lead = leads[next(leads.length)];
      const step = next(6);
      if (step === 0 || ids.length === 0) {
        ids.push((await order(`V-${i}`, next(5) === 0 ? null : lead, statuses[next(5)], 10 + next(9000) / 100, next(4) === 0 ? 'USD' : 'PEN'))[0].id);
      } else if (step === 1) {
        await t.sql('update orders set status = $2 where id = $1', [ids[next(ids.length)], statuses[next(5)]]);
      } else if (step === 2) {
        await t.sql('update orders set total = $2 where id = $1', [ids[next(ids.length)], 5 + next(5000) / 100]);
      } else if (step === 3) {
        await t.sql('update orders set lead_id = $2 where id = $1', [ids[next(ids.length)], lead]);
      } else if (step === 4) {
        const to = [['sin-asignar', null], ['re-conectar', null], ['informado-al-agente', stage._id], ['informado-al-agente', null], ['compra-fallida', null]][next(5)];
        await t.sql('update leads set status = $2, stage_id = $3 where id = $1', [lead, to[0], to[1]]);
      } else {
        await t.sql('delete from orders where id = $1', [ids.splice(next(ids.length), 1)[0]]);
      }
      // a touch that changes nothing of an order's open value writes nothing
      if (i === 20) await t.sql('update orders set updated_at = now() where company_id = $1', [company]);
    }
    // two orders' statuses in one statement, and a lead deleted with its orders kept
    await t.sql(`update orders set status = case when status = 'created' then 'paid' else 'created' end where company_id = $1 and status in ('created', 'cancelled')`, [company]);
    await t.sql('delete from leads where id = $1', [leads[3]]);
    expect(await kept(company)).toEqual(await computed(company));
    // the unfiltered board (kept values) and a filtered one (counted) say the same per column
    const all = await board(company);
    const filtered = await board(company, '?platform=whatsapp');
    expect(all.columns.map((c) => [c.stage, c.openOrderValue])).toEqual(filtered.columns.map((c) => [c.stage, c.openOrderValue]));
    const pen = (await computed(company)).filter((r) => r.currency === 'PEN').reduce((n, r) => n + Number(r.total), 0);
    expect(all.columns.reduce((n, c) => n + c.openOrderValue, 0)).toBeCloseTo(pen, 6);
    expect(pen).toBeGreaterThan(0);
  });
});

describe('open orders\' value while a lead moves at the same time', () => {
  // PGlite has one connection: two open transactions at once exist only on PostgreSQL
  it.runIf(process.env.TEST_DATABASE_URL)('an order priced while its lead is being moved lands in the column the lead ends in', async () => {
    const company = (await ok(admin, 'POST', '/companies', peru, { name: 'Tablero carrera', country: 'PE' }))._id;
    const lead = (await ok(admin, 'POST', '/leads', company, { name: 'Cliente carrera', platform: 'whatsapp', status: 'sin-asignar' }))._id;
    const mover = await t.database.pool.connect();
    try {
      await mover.query('begin');
      await mover.query(`update leads set status = 're-conectar' where id = $1`, [lead]);
      // the order is written on another connection while the move is not committed
      const ordered = t.sql(
        `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id)
         values ($1, 'C-RACE1', 'created', 'chat', 'Cliente', '51955443322', '{"name":"Cliente","telefono":"51955443322"}', '[]', 75, 75, 'PEN', $2)`,
        [company, lead],
      );
      await new Promise((r) => setTimeout(r, 150));
      await mover.query('commit');
      await ordered;
    } finally {
      mover.release();
    }
    const b = await board(company);
    expect(column(b, 're-conectar').openOrderValue).toBe(75);
    expect(column(b, 'sin-asignar').openOrderValue).toBe(0);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('a lead moved while an order of it is being written carries that order once it commits', async () => {
    const company = (await ok(admin, 'POST', '/companies', peru, { name: 'Tablero carrera 2', country: 'PE' }))._id;
    const lead = (await ok(admin, 'POST', '/leads', company, { name: 'Cliente carrera', platform: 'whatsapp', status: 'sin-asignar' }))._id;
    const seller = await t.database.pool.connect();
    try {
      await seller.query('begin');
      await seller.query(
        `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id)
         values ($1, 'C-RACE2', 'created', 'chat', 'Cliente', '51955443322', '{"name":"Cliente","telefono":"51955443322"}', '[]', 60, 60, 'PEN', $2)`,
        [company, lead],
      );
      // the lead is moved on another connection while the order is not committed
      const moved = t.sql(`update leads set status = 're-conectar' where id = $1`, [lead]);
      await new Promise((r) => setTimeout(r, 150));
      await seller.query('commit');
      await moved;
    } finally {
      seller.release();
    }
    const b = await board(company);
    expect(column(b, 're-conectar').openOrderValue).toBe(60);
    expect(column(b, 'sin-asignar').openOrderValue).toBe(0);
  });
});

describe('«Ver más» and filters', () => {
  let company: string;
  beforeAll(async () => {
    company = (await ok(admin, 'POST', '/companies', peru, { name: 'Tablero grande', country: 'CL' }))._id;
    const label = await ok(admin, 'POST', '/mostrador-labels', company, { name: 'Mayorista', color: '#1e90ff' });
    const agente = await ok(admin, 'POST', '/agentes', company, { name: 'Daniela Mendoza', email: 'daniela.mendoza@gmail.com' });
    await t.sql(
      `insert into leads (company_id, name, platform, status, agente_id, mostrador_labels, created_at)
       select $1, 'Cliente ' || i, (array['whatsapp','instagram'])[1 + i % 2], 'informado-al-agente', $2::uuid,
              case when i % 5 = 0 then jsonb_build_array($3::text) else '[]'::jsonb end, now() - (i || ' minutes')::interval
         from generate_series(1, 45) as i`,
      [company, agente._id, label._id],
    );
    await t.sql(`insert into leads (company_id, name, platform, status) select $1, 'Nuevo ' || i, 'web', 'sin-asignar' from generate_series(1, 3) as i`, [company]);
    Object.assign(made, { bigLabel: label, bigAgent: agente });
  });

  it('pages a column by cursor: every card once, newest first', async () => {
    const first = await ok<Board>(admin, 'GET', '/lead-board?limit=20', company);
    const col = column(first, 'informado-al-agente');
    expect(first.currency).toBe('CLP');
    expect(col.count).toBe(45);
    expect(col.cards.map((c) => c.name).slice(0, 3)).toEqual(['Cliente 1', 'Cliente 2', 'Cliente 3']);
    const seen = col.cards.map((c) => c._id);
    let cursor = col.nextCursor;
    while (cursor) {
      const page = await ok<{ cards: Rec[]; nextCursor?: string }>(admin, 'GET', `/lead-board/columns/informado-al-agente?limit=20&cursor=${cursor}`, company);
      seen.push(...page.cards.map((c) => c._id));
      cursor = page.nextCursor;
    }
    expect(seen.length).toBe(45);
    expect(new Set(seen).size).toBe(45);
    expect(column(first, 'sin-asignar').nextCursor).toBeUndefined();
    const bad = await call(admin, 'GET', '/lead-board/columns/informado-al-agente?cursor=abc', company);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toBe('El cursor no es válido');
  });

  it('filters by agent, label and channel, counts included', async () => {
    const byChannel = await ok<Board>(admin, 'GET', '/lead-board?platform=instagram', company);
    expect(column(byChannel, 'informado-al-agente').count).toBe(23);
    expect(column(byChannel, 'sin-asignar').count).toBe(0);
    const byLabel = await ok<Board>(admin, 'GET', `/lead-board?mostradorLabels=${made.bigLabel._id}`, company);
    expect(column(byLabel, 'informado-al-agente').count).toBe(9);
    expect(column(byLabel, 'informado-al-agente').cards.every((c) => c.mostradorLabels.includes(made.bigLabel._id))).toBe(true);
    const byAgent = await ok<Board>(admin, 'GET', `/lead-board?agenteId=${made.bigAgent._id}&platform=whatsapp`, company);
    expect(byAgent.columns.reduce((n, c) => n + c.count, 0)).toBe(22);
    const badFilter = await call(admin, 'GET', '/lead-board?platform=fax', company);
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().errors.msg).toBeTruthy();
  });
});

describe('the funnel: conversion between stages and median time in each, from the history', () => {
  it('computes them on a hand-built history', async () => {
    const company = (await ok(admin, 'POST', '/companies', peru, { name: 'Embudo SAC', country: 'PE' }))._id;
    const stage = await ok(admin, 'POST', '/lead-stages', company, { name: 'Esperando pago', mapsTo: 'informado-al-agente', position: 1 });
    const leads = await t.sql<{ id: string }>(
      `insert into leads (company_id, name, platform, status) select $1, 'Lead ' || i, 'whatsapp', 'sin-asignar' from generate_series(1, 4) i returning id::text`,
      [company],
    );
    await t.sql('delete from lead_stage_history where company_id = $1', [company]);
    const day = (d: number, h = 0) => new Date(Date.UTC(2025, 2, d, h)).toISOString();
    // four leads: each came in «Sin asignar»; three were taken (after 2 h, 4 h and 6 h), two of them went on to the stage
    // (after 1 and 3 days) and one of those bought; one is still unassigned. Another before the range is not counted.
    const rows: Array<[number, string, string | null, string | null, string, string | null]> = [
      [0, day(1), null, null, 'sin-asignar', null],
      [0, day(1, 2), 'sin-asignar', null, 'informado-al-agente', null],
      [0, day(2, 2), 'informado-al-agente', null, 'informado-al-agente', stage._id],
      [0, day(4, 2), 'informado-al-agente', stage._id, 'compra-realizada', null],
      [1, day(1), null, null, 'sin-asignar', null],
      [1, day(1, 4), 'sin-asignar', null, 'informado-al-agente', null],
      [1, day(4, 4), 'informado-al-agente', null, 'informado-al-agente', stage._id],
      [2, day(1), null, null, 'sin-asignar', null],
      [2, day(1, 6), 'sin-asignar', null, 'informado-al-agente', null],
      [3, day(1), null, null, 'sin-asignar', null],
    ];
    for (const [i, at, fs, fst, ts, tst] of rows) {
      await t.sql(
        'insert into lead_stage_history (company_id, lead_id, at, from_status, from_stage_id, to_status, to_stage_id) values ($1, $2, $3, $4, $5, $6, $7)',
        [company, leads[i].id, at, fs, fst, ts, tst],
      );
    }
    await t.sql(`insert into lead_stage_history (company_id, lead_id, at, to_status) values ($1, $2, '2025-01-15T00:00:00Z', 'sin-asignar')`, [company, leads[3].id]);

    const funnel = await ok<Funnel>(admin, 'GET', '/lead-board/funnel?from=2025-03-01T00:00:00Z&to=2025-04-01T00:00:00Z', company);
    const of = (key: string) => funnel.stages.find((s) => s.stage === key);
    expect(funnel.stages.map((s) => s.name)).toEqual(['Sin asignar', 'Re-conectar', 'Informado al agente', 'Esperando pago', 'Compra realizada', 'Compra fallida']);
    expect(of('sin-asignar')).toMatchObject({ entered: 4, stillIn: 1, advanced: 3, conversion: 0.75, medianSeconds: 4 * 3600 });
    expect(of('sin-asignar')?.exits).toEqual([{ stage: 'informado-al-agente', count: 3, rate: 0.75 }]);
    expect(of('informado-al-agente')).toMatchObject({ entered: 3, stillIn: 1, advanced: 2, medianSeconds: 2 * 86_400 });
    expect(of(stage._id)).toMatchObject({ entered: 2, stillIn: 1, advanced: 1, conversion: 0.5, medianSeconds: 2 * 86_400 });
    expect(of('compra-realizada')).toMatchObject({ entered: 1, stillIn: 1, advanced: 0, medianSeconds: null });
    expect(of('re-conectar')).toMatchObject({ entered: 0, conversion: null, medianSeconds: null, exits: [] });

    // a narrower range counts only the entries in it
    const narrow = await ok<Funnel>(admin, 'GET', '/lead-board/funnel?from=2025-03-03T00:00:00Z&to=2025-04-01T00:00:00Z', company);
    expect(narrow.stages.find((s) => s.stage === stage._id)).toMatchObject({ entered: 1, stillIn: 1 });
    const bad = await call(admin, 'GET', '/lead-board/funnel?from=2025-04-01T00:00:00Z&to=2025-03-01T00:00:00Z', company);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toBe('La fecha inicial debe ser anterior a la final');
  });

  it('the demo company has history enough to show numbers', async () => {
    const recent = await ok<Funnel>(admin, 'GET', '/lead-board/funnel', peru);
    const unassigned = recent.stages.find((s) => s.stage === 'sin-asignar');
    expect(unassigned?.entered).toBeGreaterThan(10);
    expect(unassigned?.medianSeconds).toBeGreaterThan(0);
    expect(recent.stages.filter((s) => s.custom).map((s) => s.name)).toEqual(expect.arrayContaining(['Respondido por el bot', 'Cotización enviada', 'Esperando pago', 'Sin respuesta']));
    expect(recent.stages.filter((s) => s.custom).every((s) => s.entered > 0)).toBe(true);
  });
});

describe('tenant isolation', () => {
  it('another company sees none of it and moves nothing of it', async () => {
    const acmeBoard = await ok<Board>(acme, 'GET', '/lead-board?limit=100', acmeCo);
    const ids = acmeBoard.columns.flatMap((c) => c.cards.map((card) => card._id));
    expect(ids).not.toContain(made.asignado._id);
    expect(acmeBoard.columns.some((c) => c.stage === quote._id)).toBe(false);
    const before = await historyOf(made.asignado._id);
    const res = await call(acme, 'POST', '/lead-board/move', acmeCo, { leadId: made.asignado._id, toStage: 'compra-realizada' });
    expect(res.statusCode).toBe(404);
    expect(await historyOf(made.asignado._id)).toEqual(before);
    expect((await call(acme, 'GET', `/lead-board/columns/${quote._id}`, acmeCo)).statusCode).toBe(404);
    expect((await call(acme, 'PUT', `/lead-stages/${quote._id}`, acmeCo, { name: 'Robada' })).statusCode).toBe(404);
    expect((await call(acme, 'DELETE', `/lead-stages/${quote._id}`, acmeCo)).statusCode).toBe(404);
    // naming the other company in the header is refused before anything is read
    expect((await call(acme, 'GET', '/lead-board', co)).statusCode).toBeGreaterThanOrEqual(400);
  });
});
