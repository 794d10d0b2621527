import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * RetailRocket tags (issue 15, decision 0055): a segment's export imported on its tag — its
 * people matched or created as leads and people, each given the Mostrador label of the tag's name.
 */
let t: TestApp;
let admin: Signed;
let acme: Signed;
let chile: Record<string, string>;
let company: string;

const importSegment = (tagId: string, csv: string | Buffer, headers = chile, contentType = 'text/csv') =>
  t.app.inject({ method: 'POST', url: `/api/retail-rocket-tags/${tagId}/import`, headers: { ...headers, 'content-type': contentType }, payload: csv });
const labelOf = async (name: string) =>
  (await t.sql<{ id: string }>('select id::text from mostrador_labels where company_id = $1 and name = $2', [company, name]))[0]?.id;

let tag: string;
beforeAll(async () => {
  t = await startTestApp();
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  company = admin.company('Demo Chile');
  chile = as(admin, company);
  const res = await t.app.inject({ method: 'POST', url: '/api/retail-rocket-tags', headers: chile, payload: { name: 'Carrito abandonado', segmentId: '7782' } });
  expect(res.statusCode, res.body).toBe(201);
  tag = res.json()._id;
}, 120_000);
afterAll(async () => t?.close());

describe('«Importar segmento» of a RetailRocket tag', () => {
  it('creates and merges the segment’s people, each with the tag’s label, made on the way', async () => {
    await t.sql(`insert into leads (company_id, name, platform, status, telefono) values ($1, 'Rosa Antigua', 'whatsapp', 'sin-asignar', '56911112222')`, [company]);
    const csv = 'nombre;telefono;email\nRosa Antigua;+56 9 1111 2222;\nPedro Nuevo;;pedro.nuevo@correo.cl\nSin Datos;;\n';
    const res = await importSegment(tag, csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 1, merged: 1 });
    expect(res.json().rejected).toHaveLength(1);
    expect(res.json().msg).toContain('Todos llevan la etiqueta «Carrito abandonado»');
    const label = await labelOf('Carrito abandonado');
    expect(label).toBeTruthy();
    const people = await t.sql<{ name: string; labels: string[] }>(
      `select name, mostrador_labels as labels from clean_leads where company_id = $1 and name in ('Rosa Antigua', 'Pedro Nuevo') order by name`,
      [company],
    );
    expect(people.map((p) => [p.name, p.labels.includes(label as string)])).toEqual([
      ['Pedro Nuevo', true],
      ['Rosa Antigua', true],
    ]);
    const [rosa] = await t.sql<{ n: number; labels: string[] }>(`select count(*)::int as n, max(mostrador_labels::text) as labels from leads where company_id = $1 and telefono = '56911112222'`, [company]);
    expect(rosa.n).toBe(1);
    expect(rosa.labels).toContain(label);
  });

  it('uses the company’s label of that name when it has one; a second import adds nobody twice', async () => {
    const before = await labelOf('Carrito abandonado');
    const again = await importSegment(tag, 'nombre,telefono\nRosa Antigua,56911112222\n');
    expect(again.json()).toMatchObject({ created: 0, merged: 1 });
    expect(await labelOf('Carrito abandonado')).toBe(before);
    const [{ n }] = await t.sql<{ n: number }>(`select count(*)::int as n from mostrador_labels where company_id = $1 and name = 'Carrito abandonado'`, [company]);
    expect(n).toBe(1);
  });

  it('refuses what cannot be imported in Spanish and writes nothing; another company’s tag is not found', async () => {
    expect((await importSegment(tag, '')).json().errors.msg).toBe('El archivo está vacío');
    const json = await importSegment(tag, JSON.stringify({ a: 1 }), chile, 'application/json');
    expect(json.statusCode).toBe(415);
    expect(json.json().errors.msg).toContain('CSV');
    const acmeTag = (
      await t.app.inject({ method: 'POST', url: '/api/retail-rocket-tags', headers: as(acme, acme.company('Acme')), payload: { name: 'Solo Acme' } })
    ).json()._id as string;
    const foreign = await importSegment(acmeTag, 'nombre,telefono\nIntruso,56900000000\n');
    expect(foreign.statusCode).toBe(404);
    expect(await labelOf('Solo Acme')).toBeUndefined();
    const [{ n }] = await t.sql<{ n: number }>(`select count(*)::int as n from leads where name = 'Intruso'`);
    expect(n).toBe(0);
  });
});
