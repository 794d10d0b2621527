import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Labels routed to agents (/etiquetas-y-agentes, decision 0054): a lead or person nobody holds
 * that gets a label goes to an agent of the chat groups holding that label, whichever path
 * labels it — the lead's form, a new lead, massive labels.
 */
let t: TestApp;
let admin: Signed;
let chile: Record<string, string>;
let peru: Record<string, string>;
type Rec = Record<string, unknown>;

async function ok(method: string, url: string, payload?: unknown, headers = chile): Promise<Rec> {
  const res = await t.app.inject({ method: method as 'GET', url: `/api${url}`, headers, payload: payload as object });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}
const id = (r: Rec) => r._id as string;

let mayorista: string;
let reclamo: string;
let suelto: string;
let lucia: string;
let marco: string;
let ausente: string;
let baja: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  chile = as(admin, admin.company('Demo Chile'));
  peru = as(admin, admin.company('Demo Perú'));
  mayorista = id(await ok('POST', '/mostrador-labels', { name: 'Mayorista', color: '#1e90ff' }));
  reclamo = id(await ok('POST', '/mostrador-labels', { name: 'Reclamo', color: '#dc143c' }));
  suelto = id(await ok('POST', '/mostrador-labels', { name: 'Sin ruta', color: '#777777' }));
  lucia = id(await ok('POST', '/agentes', { name: 'Lucía Ventas', active: true, available: true }));
  marco = id(await ok('POST', '/agentes', { name: 'Marco Ventas', active: true, available: true }));
  ausente = id(await ok('POST', '/agentes', { name: 'Paula Ausente', active: true, available: false }));
  baja = id(await ok('POST', '/agentes', { name: 'Rita De Baja', active: true, available: true }));
  await ok('POST', '/users/chat_groups', { name: 'Mayoristas', color: '#1e90ff', mostradorLabelIds: [mayorista], agenteIds: [lucia, marco, baja] });
  await ok('POST', '/users/chat_groups', { name: 'Reclamos', color: '#dc143c', mostradorLabelIds: [reclamo], agenteIds: [ausente, baja] });
  // Rita left the team after she was put in both groups
  await ok('PUT', `/agentes/${baja}`, { active: false });
}, 120_000);
afterAll(async () => t?.close());

describe('labels routed to agents', () => {
  it('a labelled lead nobody holds goes to an active agent of the label, and its status says so', async () => {
    const lead = await ok('POST', '/leads', { name: 'Bodega Don Pepe', platform: 'whatsapp', status: 'sin-asignar', telefono: '56911110001' });
    expect(lead.agenteId).toBeUndefined();
    const labelled = await ok('PUT', `/leads/${id(lead)}`, { mostradorLabels: [mayorista] });
    expect([lucia, marco]).toContain(labelled.agenteId);
    expect(labelled.status).toBe('informado-al-agente');
    // a new lead created with the label is routed at once
    const born = await ok('POST', '/leads', { name: 'Minimarket Sol', platform: 'facebook', status: 'sin-asignar', mostradorLabels: [mayorista] });
    expect([lucia, marco]).toContain(born.agenteId);
  });

  it('never takes a lead from the agent who holds it, nor routes back one whose agent was just removed', async () => {
    const held = await ok('POST', '/leads', { name: 'Cliente De Marco', platform: 'whatsapp', status: 'sin-asignar', agenteId: marco });
    expect((await ok('PUT', `/leads/${id(held)}`, { mostradorLabels: [mayorista] })).agenteId).toBe(marco);
    const freed = await ok('PUT', `/leads/${id(held)}`, { agenteId: null, mostradorLabels: [mayorista, reclamo] });
    expect(freed.agenteId).toBeUndefined();
  });

  it('prefers an available agent, falls back to an absent one, never an inactive one; a label with no agents routes nothing', async () => {
    const complaint = await ok('POST', '/leads', { name: 'Reclamo De Ana', platform: 'whatsapp', status: 'sin-asignar', mostradorLabels: [reclamo] });
    expect(complaint.agenteId).toBe(ausente);
    const loose = await ok('POST', '/leads', { name: 'Sin Ruta', platform: 'whatsapp', status: 'sin-asignar', mostradorLabels: [suelto] });
    expect(loose.agenteId).toBeUndefined();
    expect(loose.status).toBe('sin-asignar');
    const [{ n }] = await t.sql<{ n: number }>('select count(*)::int as n from leads where agente_id = $1', [baja]);
    expect(n).toBe(0);
  });

  it('massive labels spread the people over the label’s agents', async () => {
    const company = admin.company('Demo Chile');
    const grupo = id(await ok('POST', '/mostrador-labels', { name: 'Lista de junio', color: '#777777' }));
    await t.sql(
      `insert into clean_leads (company_id, name, status, telefono, mostrador_labels)
       select $1, 'Persona ruta ' || g, 'sin-asignar', (56922000000 + g)::text, jsonb_build_array($2::text) from generate_series(1, 60) g`,
      [company, grupo],
    );
    const segment = await ok('POST', '/marketing-segments', { name: 'Ruta', filters: { mostradorLabelIds: [grupo] } });
    await ok('POST', '/clean-leads/set_mostrador_labels_massive', { segmentId: id(segment), mostradorLabelIds: [mayorista] });
    const spread = await t.sql<{ agente_id: string | null; status: string; n: number }>(
      `select agente_id::text, status, count(*)::int as n from clean_leads where company_id = $1 and name like 'Persona ruta %' group by 1, 2 order by 1`,
      [company],
    );
    expect(spread.map((r) => r.agente_id).sort()).toEqual([lucia, marco].sort());
    expect(spread.every((r) => r.status === 'informado-al-agente' && r.n >= 15)).toBe(true);
    expect(spread.reduce((s, r) => s + r.n, 0)).toBe(60);
  });

  it('the demo routes «Mayorista» to Carlos and Ana', async () => {
    const [mayoristaPeru] = await t.sql<{ id: string }>(`select id::text from mostrador_labels where company_id = $1 and name = 'Mayorista'`, [admin.company('Demo Perú')]);
    const [carlosAna] = await t.sql<{ ids: string[] }>(
      `select array_agg(id::text order by id) as ids from agentes where company_id = $1 and email in ('agente@demo.com', 'admin@demo.com')`,
      [admin.company('Demo Perú')],
    );
    const lead = await ok('POST', '/leads', { name: 'Bodega Nueva', platform: 'whatsapp', status: 'sin-asignar', mostradorLabels: [mayoristaPeru.id] }, peru);
    expect(carlosAna.ids).toContain(lead.agenteId);
    await ok('DELETE', `/leads/${id(lead)}`, undefined, peru);
  });

  it('is the company’s own: another company’s groups route nothing here', async () => {
    const label = id(await ok('POST', '/mostrador-labels', { name: 'Mayorista Perú', color: '#1e90ff' }, peru));
    const lead = await ok('POST', '/leads', { name: 'Cliente Perú', platform: 'whatsapp', status: 'sin-asignar', mostradorLabels: [label] }, peru);
    expect(lead.agenteId).toBeUndefined();
  });
});
