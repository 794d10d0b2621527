import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/** Segments as they are edited (issue 13, decision 0039): POST /marketing-segments/preview and the saved filters. */
let t: TestApp;
let admin: Signed;
let acme: Signed;
let peru: Record<string, string>;
let chile: Record<string, string>;
let company: string;
type Rec = Record<string, unknown>;

const preview = async (filters: Rec, headers = peru) => t.app.inject({ method: 'POST', url: '/api/marketing-segments/preview', headers, payload: { filters } });
const count = async (where: string, params: unknown[] = []) =>
  (await t.sql<{ n: number }>(`select count(*)::int as n from clean_leads where company_id = $1 and ${where}`, [company, ...params]))[0].n;

beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  acme = await login(t, demo.acme);
  peru = as(admin, admin.company('Demo Perú'));
  chile = as(admin, admin.company('Demo Chile'));
  company = admin.company('Demo Perú');
}, 120_000);
afterAll(async () => t?.close());

describe('segment preview', () => {
  it('counts what the filters pick and shows the most recently updated few', async () => {
    const all = await preview({});
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().count).toBe(await count('true'));
    expect(all.json().count).toBeGreaterThan(10);
    const sample = all.json().sample as Array<{ updatedAt: string }>;
    expect(sample).toHaveLength(10);
    expect([...sample].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))).toEqual(sample);

    const some = await preview({ statuses: ['compra-realizada', 're-conectar'], countries: ['PE'] });
    const expected = await count(`status in ('compra-realizada', 're-conectar') and telefono like '51%'`);
    expect(expected).toBeGreaterThan(0);
    expect(some.json().count).toBe(expected);
    for (const lead of some.json().sample as Rec[]) {
      expect(['compra-realizada', 're-conectar']).toContain(lead.status);
      expect(String(lead.telefono)).toMatch(/^51/);
    }
    // an agent's clean leads
    const [{ agente_id: agent }] = await t.sql<{ agente_id: string }>(`select agente_id from clean_leads where company_id = $1 and agente_id is not null limit 1`, [company]);
    expect((await preview({ agenteIds: [agent] })).json().count).toBe(await count('agente_id = $2', [agent]));
  });

  it('frequency preferences read as /dias-frecuencia shows them; days of the company calendar, inclusive', async () => {
    const ids = (await t.sql<{ id: string }>(`select id from clean_leads where company_id = $1 order by id limit 4`, [company])).map((r) => r.id);
    await t.sql(`update clean_leads set contact_frequency_days = null, opt_out = false where company_id = $1`, [company]);
    await t.sql(`update clean_leads set contact_frequency_days = 7 where id = $1`, [ids[0]]);
    await t.sql(`update clean_leads set contact_frequency_days = 15 where id = $1`, [ids[1]]);
    await t.sql(`update clean_leads set contact_frequency_days = 30 where id = $1`, [ids[2]]);
    await t.sql(`update clean_leads set opt_out = true where id = $1`, [ids[3]]);
    const ofFrequency = async (f: string[]) => ((await preview({ frequencies: f })).json() as { count: number; sample: Rec[] });
    expect((await ofFrequency(['weekly'])).sample.map((l) => l._id)).toEqual([ids[0]]);
    expect((await ofFrequency(['biweekly', 'monthly'])).count).toBe(2);
    expect((await ofFrequency(['opt-out'])).sample.map((l) => l._id)).toEqual([ids[3]]);
    expect((await ofFrequency(['none'])).count).toBe((await count('true')) - 4);

    // calendar days of the company (Lima, UTC-5): 04:30 UTC on the 10th is still the 9th there
    await t.sql(`update clean_leads set created_at = '2020-03-10T04:30:00Z' where id = $1`, [ids[0]]);
    await t.sql(`update clean_leads set created_at = '2020-03-10T05:30:00Z' where id = $1`, [ids[1]]);
    const day = async (d: string) => ((await preview({ createdFrom: d, createdTo: d })).json().sample as Rec[]).map((l) => l._id);
    expect(await day('2020-03-09')).toEqual([ids[0]]);
    expect(await day('2020-03-10')).toEqual([ids[1]]);
    expect((await preview({ createdFrom: '2020-03-09', createdTo: '2020-03-10' })).json().count).toBe(2);
  });

  it('bad input is a Spanish 400; another company’s labels or agents are refused, not silently empty', async () => {
    const bad = await preview({ createdFrom: '2026-13-01' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('Escribe la fecha como AAAA-MM-DD');
    const backwards = await preview({ createdFrom: '2026-11-20', createdTo: '2026-11-01' });
    expect(backwards.statusCode).toBe(400);
    expect(JSON.stringify(backwards.json())).toContain('La fecha «desde» va antes de «hasta»');
    expect((await preview({ statuses: ['no-existe'] })).statusCode).toBe(400);
    expect((await preview({ desconocido: true })).statusCode).toBe(400);

    const made = await t.app.inject({ method: 'POST', url: '/api/mostrador-labels', headers: chile, payload: { name: 'Solo de Chile', color: '#1C57A5' } });
    expect(made.statusCode, made.body).toBe(201);
    const foreignLabel = made.json()._id as string;
    const label = await preview({ mostradorLabelIds: [foreignLabel] });
    expect(label.statusCode).toBe(400);
    expect(label.json().errors.msg).toBe('Alguna etiqueta no existe en esta compañía');
    const other = await t.app.inject({ method: 'POST', url: '/api/agentes', headers: chile, payload: { name: 'Agente de Chile', active: true } });
    expect(other.statusCode, other.body).toBe(201);
    const foreignAgent = other.json()._id as string;
    const agent = await preview({ agenteIds: [foreignAgent] });
    expect(agent.statusCode).toBe(400);
    expect(agent.json().errors.msg).toBe('Algún agente no existe en esta compañía');
    // and a saved segment refuses them too
    const saved = await t.app.inject({ method: 'POST', url: '/api/marketing-segments', headers: peru, payload: { name: 'Con agente ajeno', filters: { agenteIds: [foreignAgent] } } });
    expect(saved.statusCode).toBe(400);
    expect((await t.sql<{ n: number }>(`select count(*)::int as n from marketing_segments where name = 'Con agente ajeno'`))[0].n).toBe(0);
  });

  it('counts only the caller’s company; another corporation cannot preview', async () => {
    const chileCount = (await preview({}, chile)).json().count;
    expect(chileCount).toBe((await t.sql<{ n: number }>(`select count(*)::int as n from clean_leads where company_id = $1`, [admin.company('Demo Chile')]))[0].n);
    const acmeHeaders = as(acme, acme.company('Acme'));
    const theirs = await preview({}, acmeHeaders);
    expect(theirs.statusCode).toBe(200);
    const sampleIds = new Set(((await preview({})).json().sample as Rec[]).map((l) => l._id));
    for (const lead of theirs.json().sample as Rec[]) expect(sampleIds.has(lead._id)).toBe(false);
    const foreignCompany = await t.app.inject({ method: 'POST', url: '/api/marketing-segments/preview', headers: { ...acmeHeaders, 'x-company-id': company }, payload: { filters: {} } });
    expect([401, 403]).toContain(foreignCompany.statusCode);
  });

  it('a segment saved with the new filters keeps them', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/marketing-segments',
      headers: peru,
      payload: { name: 'Perú semanal 2026', filters: { countries: ['PE'], frequencies: ['weekly', 'none'], createdFrom: '2026-01-01' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().filters).toEqual({ countries: ['PE'], frequencies: ['weekly', 'none'], createdFrom: '2026-01-01' });
  });
});
