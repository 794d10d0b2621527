import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fc, it as itProp } from '@fast-check/vitest';
import { LEAD_IMPORT_MAX_ROWS, type LeadImportResult } from '@mostrador/contract';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { csvField, detectEncoding, parseCsv } from '../src/modules/leads/csv.js';
import { EXPORT_BATCH, exportErrorLine } from '../src/modules/leads/csv-routes.js';
import { cleanName } from '../src/modules/leads/merge.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let acme: Signed;
let peru: string;
let chile: string;
let acmeCo: string;

beforeAll(async () => {
  t = await startTestApp();
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  chile = admin.company('Demo Chile');
  acmeCo = acme.company('Acme');
});
afterAll(async () => {
  await t?.close();
});

const BOM = '\uFEFF';

async function exportCsv(s: Signed, company: string, url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: as(s, company) });
  expect(res.statusCode, res.body).toBe(200);
  const text = res.body;
  const records = parseCsv(text.replace(BOM, '')).map((r) => r.fields);
  const [header, ...all] = records;
  // each row's e-mail and phone (SPEC §5's columns), found by their titles
  const rows = all.map((r) => [r[header.indexOf('email')], r[header.indexOf('telefono')]]);
  return { res, text, header, rows, all };
}

async function importCsv(s: Signed, company: string, csv: string | Buffer, contentType = 'text/csv') {
  return t.app.inject({
    method: 'POST',
    url: '/api/leads/import',
    headers: { ...as(s, company), 'content-type': contentType },
    payload: csv,
  });
}

async function imported(s: Signed, company: string, csv: string | Buffer) {
  const res = await importCsv(s, company, csv);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LeadImportResult;
}

const leadsWith = (company: string, where: string, values: unknown[]) =>
  t.sql<{ id: string; name: string; telefono: string | null; email: string | null; platform: string; mostrador_labels: string[] | null; clean_lead_id: string | null }>(
    `select id, name, telefono, email, platform, mostrador_labels, clean_lead_id from leads where company_id = $1 and ${where} order by created_at, telefono`,
    [company, ...values],
  );
const cleanLeadsWith = (company: string, where: string, values: unknown[]) =>
  t.sql<{ id: string; name: string; telefono: string | null; email: string | null; mostrador_labels: string[] | null; details: Array<{ source?: string }> }>(
    `select id, name, telefono, email, mostrador_labels, details from clean_leads where company_id = $1 and ${where} order by created_at`,
    [company, ...values],
  );

describe('csv helpers', () => {
  it('quotes what needs quoting and never writes a formula', () => {
    expect(csvField('a@b.pe')).toBe('a@b.pe');
    expect(csvField('Pérez, Ana')).toBe('"Pérez, Ana"');
    expect(csvField('dice "hola"')).toBe('"dice ""hola"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(undefined)).toBe('');
  });

  it('reads quoted fields with delimiters, quotes and line breaks, CRLF and ; files', () => {
    expect(parseCsv('a,b\r\n"x, y","di ""no""\notra línea"\r\n').map((r) => r.fields)).toEqual([
      ['a', 'b'],
      ['x, y', 'di "no"\notra línea'],
    ]);
    expect(parseCsv('nombre;telefono\nAna;987 654 321').map((r) => r.fields)).toEqual([
      ['nombre', 'telefono'],
      ['Ana', '987 654 321'],
    ]);
  });
});

describe('GET /leads/export and /clean-leads/export', () => {
  it('answers a UTF-8 CSV with BOM, every column of the lead screen in its order, and an attachment name', async () => {
    const { res, text, header, rows } = await exportCsv(admin, peru, '/api/leads/export');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    // the bytes: a UTF-8 BOM, then the header row
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.startsWith(`${BOM}nombre,telefono,email,canal,estado,agente,etiquetas,creado,actualizado\r\n`)).toBe(true);
    expect(header).toEqual(['nombre', 'telefono', 'email', 'canal', 'estado', 'agente', 'etiquetas', 'creado', 'actualizado']);
    const [{ n }] = await t.sql<{ n: number }>('select count(*) as n from leads where company_id = $1', [peru]);
    expect(rows).toHaveLength(Number(n));
    const clean = await exportCsv(admin, peru, '/api/clean-leads/export');
    expect(clean.res.headers['content-disposition']).toMatch(/filename="leads-limpios-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(clean.header).toEqual(['nombre', 'telefono', 'email', 'canales', 'estado', 'agente', 'etiquetas', 'creado', 'actualizado']);
  });

  it('writes names, agent, label names, channel, status and dates as a person reads them, accents intact', async () => {
    const [agente] = await t.sql<{ id: string }>(
      `insert into agentes (company_id, name, active) values ($1, 'Begoña Núñez', true) returning id`,
      [peru],
    );
    const labels = await t.sql<{ id: string }>(
      `insert into mostrador_labels (company_id, name, color) values ($1, 'Ñandú VIP', '#FF0000'), ($1, 'Año nuevo 2025', '#00FF00') returning id`,
      [peru],
    );
    const [cl] = await t.sql<{ id: string }>(
      `insert into clean_leads (company_id, name, telefono, email, status, agente_id, mostrador_labels, created_at, updated_at)
       values ($1, 'José Peña Muñoz', '51987650001', 'jose.pena@correo.pe', 'compra-realizada', $2, $3::jsonb, '2025-03-14T15:30:00Z', '2025-03-15T02:05:00Z') returning id`,
      [peru, agente.id, JSON.stringify(labels.map((l) => l.id))],
    );
    await t.sql(
      `insert into leads (company_id, name, telefono, email, platform, status, agente_id, mostrador_labels, clean_lead_id, created_at, updated_at)
       values ($1, 'José Peña Muñoz', '51987650001', 'jose.pena@correo.pe', 'whatsapp', 'compra-realizada', $2, $3::jsonb, $4, '2025-03-14T15:30:00Z', '2025-03-15T02:05:00Z'),
              ($1, 'José Peña Muñoz', null, 'jose.pena@correo.pe', 'instagram', 'sin-asignar', null, '[]'::jsonb, $4, '2025-03-14T16:00:00Z', '2025-03-14T16:00:00Z')`,
      [peru, agente.id, JSON.stringify(labels.map((l) => l.id)), cl.id],
    );
    const { text, all } = await exportCsv(admin, peru, '/api/leads/export?filter=Jos%C3%A9%20Pe%C3%B1a');
    // Demo Perú keeps Lima's time (UTC-5): 15:30Z is 10:30, 02:05Z the next day is 21:05 the day before
    expect(all).toEqual([
      ['José Peña Muñoz', '51987650001', 'jose.pena@correo.pe', 'WhatsApp', 'Compra realizada', 'Begoña Núñez', 'Año nuevo 2025, Ñandú VIP', '2025-03-14 10:30', '2025-03-14 21:05'],
      ['José Peña Muñoz', '', 'jose.pena@correo.pe', 'Instagram', 'Sin asignar', '', '', '2025-03-14 11:00', '2025-03-14 11:00'],
    ]);
    // the accents are UTF-8 bytes, the label list one quoted cell
    expect(text).toContain('José Peña Muñoz,51987650001,jose.pena@correo.pe,WhatsApp,Compra realizada,Begoña Núñez,"Año nuevo 2025, Ñandú VIP"');
    const clean = await exportCsv(admin, peru, '/api/clean-leads/export?filter=Jos%C3%A9%20Pe%C3%B1a');
    expect(clean.all).toEqual([
      ['José Peña Muñoz', '51987650001', 'jose.pena@correo.pe', 'Instagram, WhatsApp', 'Compra realizada', 'Begoña Núñez', 'Año nuevo 2025, Ñandú VIP', '2025-03-14 10:30', '2025-03-14 21:05'],
    ]);
    // the file reads back: importing it merges into the same lead, nothing rejected
    const back = await imported(admin, peru, Buffer.from(text.split('\r\n').slice(0, 2).join('\r\n'), 'utf8'));
    expect(back).toMatchObject({ created: 0, merged: 1, rejected: [] });
  });

  it('applies the list filters: search, status, platform, labels, dates', async () => {
    await t.sql(
      `insert into leads (company_id, name, telefono, email, platform, status, mostrador_labels, created_at)
       values ($1, 'Filtro Uno', '51900000001', 'filtro.uno@correo.pe', 'instagram', 'compra-fallida', $2::jsonb, '2024-01-10T10:00:00Z'),
              ($1, 'Filtro Dos', '51900000002', null, 'whatsapp', 'compra-fallida', '[]'::jsonb, '2024-02-10T10:00:00Z'),
              ($1, 'Filtro Tres', null, null, 'web', 'compra-fallida', '[]'::jsonb, '2024-02-11T10:00:00Z')`,
      [peru, JSON.stringify(['0f1a2b3c-0000-4000-8000-000000000001'])],
    );
    const search = await exportCsv(admin, peru, '/api/leads/export?filter=Filtro');
    // every lead the list shows, one without e-mail or phone too (its name, channel, status…)
    expect(search.rows).toEqual([
      ['filtro.uno@correo.pe', '51900000001'],
      ['', '51900000002'],
      ['', ''],
    ]);
    expect(search.all[2].slice(0, 5)).toEqual(['Filtro Tres', '', '', 'Web', 'Compra fallida']);
    expect((await exportCsv(admin, peru, '/api/leads/export?filter=Filtro&platform=instagram')).rows).toEqual([['filtro.uno@correo.pe', '51900000001']]);
    expect((await exportCsv(admin, peru, '/api/leads/export?filter=Filtro&status=sin-asignar')).rows).toEqual([]);
    expect(
      (await exportCsv(admin, peru, '/api/leads/export?mostradorLabels=["0f1a2b3c-0000-4000-8000-000000000001"]')).rows,
    ).toEqual([['filtro.uno@correo.pe', '51900000001']]);
    expect(
      (await exportCsv(admin, peru, '/api/leads/export?filter=Filtro&from=2024-02-01T00:00:00Z&to=2024-03-01T00:00:00Z')).rows,
    ).toEqual([
      ['', '51900000002'],
      ['', ''],
    ]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/leads/export?status=nada', headers: as(admin, peru) });
    expect(bad.statusCode).toBe(400);
  });

  it('a clean lead matches a platform through its leads', async () => {
    const [cl] = await t.sql<{ id: string }>(
      `insert into clean_leads (company_id, name, email, status) values ($1, 'Persona Plataforma', 'persona.plataforma@correo.pe', 'sin-asignar') returning id`,
      [peru],
    );
    await t.sql(
      `insert into leads (company_id, name, email, platform, status, clean_lead_id) values ($1, 'Persona Plataforma', 'persona.plataforma@correo.pe', 'facebook', 'sin-asignar', $2)`,
      [peru, cl.id],
    );
    const fb = await exportCsv(admin, peru, '/api/clean-leads/export?filter=Persona%20Plataforma&platform=facebook');
    expect(fb.rows).toEqual([['persona.plataforma@correo.pe', '']]);
    const ig = await exportCsv(admin, peru, '/api/clean-leads/export?filter=Persona%20Plataforma&platform=instagram');
    expect(ig.rows).toEqual([]);
  });

  it('exports the records /all answers for the same filters (one where for both)', async () => {
    const label = '0f1a2b3c-0000-4000-8000-000000000002';
    const [cl] = await t.sql<{ id: string }>(
      `insert into clean_leads (company_id, name, telefono, status) values ($1, 'Mismo Filtro Limpio', '51911000009', 'compra-fallida') returning id`,
      [peru],
    );
    await t.sql(
      `insert into leads (company_id, name, telefono, email, platform, status, mostrador_labels, clean_lead_id, created_at)
       values ($1, 'Mismo Filtro A', '51911000001', 'mismo.a@correo.pe', 'instagram', 'compra-fallida', $2::jsonb, $3, '2024-03-01T10:00:00Z'),
              ($1, 'Mismo Filtro B', null, 'mismo.b@correo.pe', 'instagram', 'compra-fallida', $2::jsonb, null, '2024-03-02T10:00:00Z'),
              ($1, 'Mismo Filtro C', '51911000003', null, 'instagram', 'compra-fallida', '[]'::jsonb, null, '2024-03-03T10:00:00Z'),
              ($1, 'Mismo Filtro D', '51911000004', null, 'whatsapp', 'compra-fallida', $2::jsonb, null, '2024-03-04T10:00:00Z'),
              ($1, 'Mismo Filtro E', '51911000005', null, 'instagram', 'sin-asignar', $2::jsonb, null, '2024-03-05T10:00:00Z'),
              ($1, 'Mismo Filtro F', null, null, 'instagram', 'compra-fallida', $2::jsonb, null, '2024-03-06T10:00:00Z'),
              ($1, 'Otro Nombre', '51911000007', null, 'instagram', 'compra-fallida', $2::jsonb, null, '2024-03-07T10:00:00Z')`,
      [peru, JSON.stringify([label]), cl.id],
    );
    const sameAsAll = async (kind: 'leads' | 'clean-leads', filters: string) => {
      const exported = (await exportCsv(admin, peru, `/api/${kind}/export?${filters}`)).rows;
      const all = await t.app.inject({ method: 'GET', url: `/api/${kind}/all?${filters}`, headers: as(admin, peru) });
      expect(all.statusCode, all.body).toBe(200);
      const listed = (all.json().payload as Array<{ email?: string; telefono?: string }>).map((r) => [r.email ?? '', r.telefono ?? '']);
      const sorted = (rows: string[][]) => rows.map((r) => r.join(',')).sort();
      expect(sorted(exported)).toEqual(sorted(listed));
      return exported;
    };
    const filters = 'status=compra-fallida&platform=instagram&filter=Mismo%20Filtro';
    expect(await sameAsAll('leads', filters)).toHaveLength(4);
    expect(await sameAsAll('leads', `${filters}&mostradorLabels=${label}&from=2024-03-02T00:00:00Z&to=2024-03-10T00:00:00Z`)).toEqual([
      ['mismo.b@correo.pe', ''],
      ['', ''],
    ]);
    // a clean lead is on a platform through its leads, in both
    expect(await sameAsAll('clean-leads', filters)).toEqual([['', '51911000009']]);
    expect(await sameAsAll('clean-leads', 'status=compra-fallida&platform=whatsapp&filter=Mismo%20Filtro')).toEqual([]);
  });

  it('streams every row once across batches, ties on created_at included', async () => {
    const total = EXPORT_BATCH * 2 + 123;
    await t.sql(
      `insert into leads (company_id, name, telefono, platform, status, created_at)
       select $1, 'Masivo ' || i, (56900000000 + i)::text, 'web', 'sin-asignar', '2024-05-01T00:00:00.123456Z'
         from generate_series(1, $2::int) i`,
      [chile, total],
    );
    const { rows } = await exportCsv(admin, chile, '/api/leads/export?filter=Masivo');
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r[1])).size).toBe(total);
  });

  it('exports only the caller company', async () => {
    await t.sql(`insert into leads (company_id, name, email, platform, status) values ($1, 'Solo Acme', 'solo.acme@acme.cl', 'web', 'sin-asignar')`, [
      acmeCo,
    ]);
    const mine = await exportCsv(acme, acmeCo, '/api/leads/export?filter=solo.acme');
    expect(mine.rows).toEqual([['solo.acme@acme.cl', '']]);
    const theirs = await exportCsv(admin, peru, '/api/leads/export?filter=solo.acme');
    expect(theirs.rows).toEqual([]);
    // a company the user is not a member of
    const denied = await t.app.inject({ method: 'GET', url: '/api/leads/export', headers: as(admin, acmeCo) });
    expect(denied.statusCode).toBe(401);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/clean-leads/export' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /leads/import', () => {
  it('creates leads and clean leads, normalising phones with the company country and recognising headers', async () => {
    const csv = [
      'Nombre,Teléfono,CORREO,Plataforma,Etiquetas,Notas',
      'Ana Importada,987 111 222,ANA.TORRES@correo.pe,,"Cliente frecuente, mayorista",vip',
      'Beto Importado,+56 9 8765 4321,,instagram,,',
      'Carla Importada,,carla.diaz@correo.pe,Messenger,,',
    ].join('\r\n');
    const result = await imported(admin, peru, csv);
    expect(result).toMatchObject({ created: 3, merged: 0, rejected: [] });
    expect(result.msg).toMatch(/^Importación terminada/);

    const [ana] = await leadsWith(peru, 'name = $2', ['Ana Importada']);
    expect(ana).toMatchObject({ telefono: '51987111222', email: 'ana.torres@correo.pe', platform: 'whatsapp' });
    const labels = await t.sql<{ id: string; name: string }>(
      `select id, name from mostrador_labels where company_id = $1 and name in ('Cliente frecuente', 'Mayorista')`,
      [peru],
    );
    expect(new Set(ana.mostrador_labels)).toEqual(new Set(labels.map((l) => l.id)));
    const [anaClean] = await cleanLeadsWith(peru, 'id = $2', [ana.clean_lead_id]);
    expect(anaClean).toMatchObject({ telefono: '51987111222', email: 'ana.torres@correo.pe' });
    expect(new Set(anaClean.mostrador_labels)).toEqual(new Set(labels.map((l) => l.id)));
    expect(anaClean.details[0].source).toBe('importación');

    const [beto] = await leadsWith(peru, 'name = $2', ['Beto Importado']);
    expect(beto).toMatchObject({ telefono: '56987654321', platform: 'instagram' });
    const [carla] = await leadsWith(peru, 'name = $2', ['Carla Importada']);
    expect(carla).toMatchObject({ telefono: null, email: 'carla.diaz@correo.pe', platform: 'facebook' });
  });

  it('reads ; files in Windows-1252 (Excel) and uses the Chilean code in a Chilean company', async () => {
    const csv = Buffer.from('nombre;celular;email\r\nJosé Núñez;9 8765 1111;\r\n', 'latin1');
    const result = await imported(admin, chile, csv);
    expect(result).toMatchObject({ created: 1, merged: 0, rejected: [] });
    const [jose] = await leadsWith(chile, 'telefono = $2', ['56987651111']);
    expect(jose.name).toBe('José Núñez');
  });

  it('merges into the existing lead and clean lead by phone or e-mail, and duplicates inside the file', async () => {
    // an earlier WhatsApp lead of the person, as inbound made it
    const [cl] = await t.sql<{ id: string }>(
      `insert into clean_leads (company_id, name, telefono, status, details) values ($1, 'WhatsApp 3344', '51955443344', 'sin-asignar', '[]'::jsonb) returning id`,
      [peru],
    );
    await t.sql(
      `insert into leads (company_id, name, telefono, platform, status, clean_lead_id) values ($1, 'WhatsApp 3344', '51955443344', 'whatsapp', 'sin-asignar', $2)`,
      [peru, cl.id],
    );
    const csv = [
      'telefono,email,nombre,etiquetas',
      '955 443 344,rosa.merge@correo.pe,Rosa Merge,Mayorista',
      ',ROSA.MERGE@correo.pe,Rosa M.,',
      '999888777,nuevo.dup@correo.pe,Nuevo Dup,',
      '+51 999 888 777,,Nuevo Dup,Cliente frecuente',
    ].join('\n');
    const result = await imported(admin, peru, csv);
    expect(result).toMatchObject({ created: 1, merged: 3, rejected: [] });

    const rosa = await leadsWith(peru, 'telefono = $2', ['51955443344']);
    expect(rosa).toHaveLength(1);
    expect(rosa[0]).toMatchObject({ email: 'rosa.merge@correo.pe', name: 'Rosa M.', clean_lead_id: cl.id });
    const rosaClean = await cleanLeadsWith(peru, 'telefono = $2 or email = $3', ['51955443344', 'rosa.merge@correo.pe']);
    expect(rosaClean).toHaveLength(1);
    expect(rosaClean[0]).toMatchObject({ id: cl.id, email: 'rosa.merge@correo.pe' });

    const dup = await leadsWith(peru, 'telefono = $2', ['51999888777']);
    expect(dup).toHaveLength(1);
    expect(dup[0].email).toBe('nuevo.dup@correo.pe');
    expect(dup[0].mostrador_labels).toHaveLength(1);
    expect(await cleanLeadsWith(peru, 'telefono = $2', ['51999888777'])).toHaveLength(1);

    // importing the same file again creates nothing
    const again = await imported(admin, peru, csv);
    expect(again).toMatchObject({ created: 0, merged: 4 });
  });

  it('reports each rejected row with its number and a Spanish reason, and imports the rest', async () => {
    const csv = [
      'nombre,telefono,email,etiquetas,plataforma',
      'Sin Contacto,,,,',
      'Mal Teléfono,12,,,',
      'Mal Correo,,no-es-un-correo,,',
      '',
      'Mala Etiqueta,987000111,,"Mayorista, Inexistente",',
      'Mala Plataforma,987000112,,,tiktok',
      'Buena Fila,987000113,,,',
    ].join('\n');
    const result = await imported(admin, peru, csv);
    expect(result.created).toBe(2);
    expect(result.rejected).toEqual([
      { row: 2, reason: 'Falta teléfono o email' },
      { row: 3, reason: 'Teléfono inválido' },
      { row: 4, reason: 'Email inválido' },
      { row: 7, reason: 'Plataforma desconocida: tiktok' },
    ]);
    // a label the company does not have: the row is imported with its known labels, and a warning says so
    expect(result.warnings).toEqual([{ row: 6, reason: 'Etiqueta desconocida, no se asignó: Inexistente' }]);
    expect(result.msg).toMatch(/1 aviso$/);
    const [mala] = await leadsWith(peru, 'name = $2', ['Mala Etiqueta']);
    const [mayorista] = await t.sql<{ id: string }>(`select id from mostrador_labels where company_id = $1 and name = 'Mayorista'`, [peru]);
    expect(mala.mostrador_labels).toEqual([mayorista.id]);
  });

  it('refuses files that cannot be imported with a Spanish 400', async () => {
    const cases: Array<[string, RegExp]> = [
      ['', /vacío/],
      ['   \n  ', /vacío/],
      ['nombre,telefono\n', /no tiene filas/],
      ['nombre,apellido\nAna,Torres', /telefono.*email/],
    ];
    for (const [csv, message] of cases) {
      const res = await importCsv(admin, peru, csv);
      expect(res.statusCode, csv).toBe(400);
      expect(res.json().errors.msg).toMatch(message);
    }
    const rows = Array.from({ length: LEAD_IMPORT_MAX_ROWS + 1 }, (_, i) => `${51_900_000_000 + i}`);
    const tooMany = await importCsv(admin, peru, `telefono\n${rows.join('\n')}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors.msg).toMatch(/más de 20\.000 filas/);
    const json = await importCsv(admin, peru, JSON.stringify({ a: 1 }), 'application/json');
    expect(json.statusCode).toBe(415);
  });

  it('writes nothing when the import fails halfway', async () => {
    await t.sql(`create function fail_import_boom() returns trigger language plpgsql as $$
      begin if new.name = 'BOOM' then raise exception 'boom'; end if; return new; end $$`);
    await t.sql('create trigger fail_import_boom before insert on leads for each row execute function fail_import_boom()');
    try {
      const before = await t.sql<{ n: number }>('select (select count(*) from leads) + (select count(*) from clean_leads) as n');
      const res = await importCsv(admin, peru, 'nombre,telefono\nAntes Del Fallo,987123001\nBOOM,987123002\nDespués,987123003');
      expect(res.statusCode).toBe(500);
      const after = await t.sql<{ n: number }>('select (select count(*) from leads) + (select count(*) from clean_leads) as n');
      expect(after[0].n).toBe(before[0].n);
      expect(await leadsWith(peru, 'telefono = $2', ['51987123001'])).toHaveLength(0);
    } finally {
      await t.sql('drop trigger fail_import_boom on leads');
      await t.sql('drop function fail_import_boom');
    }
  });

  it('keeps companies apart: same phone in another company, labels of another company unknown', async () => {
    await imported(admin, peru, 'nombre,telefono\nCompartido Perú,+56 9 1111 2222');
    const result = await imported(acme, acmeCo, 'nombre,telefono\nCompartido Acme,9 1111 2222');
    expect(result).toMatchObject({ created: 1, merged: 0 });
    expect((await leadsWith(peru, 'telefono = $2', ['56911112222']))[0].name).toBe('Compartido Perú');
    expect((await leadsWith(acmeCo, 'telefono = $2', ['56911112222']))[0].name).toBe('Compartido Acme');
    // Acme's labels are its own: Demo Perú's label names are unknown there unless Acme has them too
    await t.sql(`insert into mostrador_labels (company_id, name, color) values ($1, 'Solo Perú', '#111111')`, [peru]);
    const foreign = await imported(acme, acmeCo, 'telefono,etiquetas\n911113333,Solo Perú');
    expect(foreign).toMatchObject({ created: 1, rejected: [], warnings: [{ row: 2, reason: 'Etiqueta desconocida, no se asignó: Solo Perú' }] });
    expect(await t.sql(`select 1 from mostrador_labels where company_id = $1 and name = 'Solo Perú'`, [acmeCo])).toHaveLength(0);
    const denied = await importCsv(admin, acmeCo, 'telefono\n911113333');
    expect(denied.statusCode).toBe(401);
  });
});

/** A CSV text: fields quoted when needed, quotes doubled (as Excel writes them). */
const csvText = (rows: string[][], delimiter: string, eol = '\r\n') =>
  rows.map((r) => r.map((f) => (/["\r\n,;\t]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(delimiter)).join(eol) + eol;

/** The encodings and separators spreadsheets save a CSV in: rows → bytes. */
const saved = {
  'UTF-8 sin BOM, coma': (rows: string[][]) => Buffer.from(csvText(rows, ','), 'utf8'),
  'UTF-8 con BOM, punto y coma': (rows: string[][]) => Buffer.from(`\uFEFF${csvText(rows, ';')}`, 'utf8'),
  'Windows-1252, punto y coma': (rows: string[][]) => iconv.encode(csvText(rows, ';'), 'windows-1252'),
  'Texto Unicode (UTF-16LE con BOM, tabulaciones)': (rows: string[][]) => iconv.encode(csvText(rows, '\t'), 'utf16le', { addBOM: true }),
  'UTF-16BE con BOM, tabulaciones': (rows: string[][]) => iconv.encode(csvText(rows, '\t'), 'utf16be', { addBOM: true }),
} as const;

describe('POST /leads/import: encodings, separators and broken files', () => {
  const template = (n: number) => [
    ['nombre', 'telefono', 'email'],
    ['José Peña', `98770${n}001`, ''],
    ['María Ñuñoa', `98770${n}002`, `maria.nunoa${n}@correo.pe`],
  ];

  it.each(Object.entries(saved).map(([format, encode], i) => [format, encode, i] as const))('imports a file saved as %s', async (_format, encode, i) => {
    const result = await imported(admin, peru, encode(template(i)));
    expect(result).toMatchObject({ created: 2, merged: 0, rejected: [], warnings: [] });
    expect((await leadsWith(peru, 'telefono = $2', [`5198770${i}001`]))[0].name).toBe('José Peña');
    expect((await leadsWith(peru, 'telefono = $2', [`5198770${i}002`]))[0]).toMatchObject({ name: 'María Ñuñoa', email: `maria.nunoa${i}@correo.pe` });
  });

  it('imports a file saved by Excel for Mac as "CSV (Macintosh)": Mac Roman, CR line ends', async () => {
    // bytes as Excel for Mac writes them: é is 0x8E, ñ 0x96, ¿ 0xC0, ¡ 0xC1, lines end in CR alone
    const bytes = readFileSync(new URL('./fixtures/leads-excel-mac-roman.csv', import.meta.url));
    expect([...bytes.subarray(0, 32)].slice(27, 32)).toEqual([0x0d, 0x4a, 0x6f, 0x73, 0x8e]);
    expect(bytes.includes(0x0a)).toBe(false);
    expect(detectEncoding(bytes)).toBe('macintosh');
    const result = await imported(admin, peru, bytes);
    expect(result).toMatchObject({ created: 4, merged: 0, rejected: [], warnings: [] });
    const names = await leadsWith(peru, 'telefono like $2', ['51987715%']);
    expect(names.map((l) => [l.telefono, l.name, l.email])).toEqual([
      ['51987715001', 'José Peña', 'jose.pena.mac@correo.pe'],
      ['51987715002', 'María Ñuñoa Ibáñez', null],
      ['51987715003', 'Raúl Gómez Úbeda', 'raul.gomez.mac@correo.pe'],
      ['51987715004', 'Bodega ¡Olé! ¿Abierta?', null],
    ]);
  });

  it('tells Mac Roman from Windows-1252 by which reads as Spanish, Windows-1252 on a tie', () => {
    const windows = [
      'nombre;telefono\r\nJosé Peña;1\r\nÑuñoa – “Tienda” O’Brien;2\r\nPEÑA ÁVILA;3\r\n¿Qué? ¡Sí!;4\r\n',
      'nombre\r\nLucía\r\n',
      'nombre\nÑandú\n',
      // typographic marks only (Windows-1252's 0x93/0x94/0x96 are ì î ñ in Mac Roman): still Windows-1252
      'nombre\r\n“Hola” – adiós\r\n',
      'nombre\r\nCafé\r',
      'nombre\r\n“Hola”\r\n',
      'precio\r\n€ 10\r\n',
    ];
    for (const text of windows) expect(detectEncoding(iconv.encode(text, 'windows-1252')), text).toBe('windows-1252');
    const mac = ['nombre\rJosé Peña\r¿Qué? ¡Sí!\r', 'nombre\r\nÑuñoa Úbeda\r\n', 'nombre;notas\rAna;¡Llamar!\r', 'PEÑA ÁVILA\r', 'Raúl Gómez'];
    for (const text of mac) expect(detectEncoding(iconv.encode(text, 'macintosh')), text).toBe('macintosh');
    // ASCII reads the same in both; UTF-8 stays UTF-8
    expect(detectEncoding(Buffer.from('nombre\rAna\r'))).toBe('utf8');
    expect(detectEncoding(Buffer.from('nombre\rJosé Peña\r', 'utf8'))).toBe('utf8');
  });

  it('imports UTF-16LE without a BOM (zeros in every other byte)', async () => {
    const result = await imported(admin, peru, iconv.encode('nombre\ttelefono\r\nÁngel Sin Bom\t987709001\r\n', 'utf16le'));
    expect(result).toMatchObject({ created: 1, rejected: [] });
    expect((await leadsWith(peru, 'telefono = $2', ['51987709001']))[0].name).toBe('Ángel Sin Bom');
  });

  it('counts spreadsheet rows, not text lines, when a quoted cell has line breaks', async () => {
    const csv = [
      'nombre;telefono;notas',
      '"Ana\nde las\nNieves";987710001;"una nota; con ""comillas""\ny dos líneas"',
      'Sin Teléfono;;',
      '',
      '"Beto\r\nSegunda";12;',
      'Carla;987710003;',
    ].join('\r\n');
    const result = await imported(admin, peru, csv);
    expect(result.created).toBe(2);
    expect(result.rejected).toEqual([
      { row: 3, reason: 'Falta teléfono o email' },
      { row: 5, reason: 'Teléfono inválido' },
    ]);
    expect((await leadsWith(peru, 'telefono = $2', ['51987710001']))[0].name).toBe('Ana de las Nieves');
  });

  it('strips NUL characters from cells, in UTF-8 and in UTF-16, and imports the rows', async () => {
    const text = (n: number, delimiter: string) =>
      ['nombre,telefono,email', `Nu\u0000la Ceros,98${n}\u000011001,nula${n}\u0000@correo.pe`, `Otra\u0000,98${n}11002,`].join('\r\n').replaceAll(',', delimiter);
    for (const bytes of [Buffer.from(text(77, ','), 'utf8'), iconv.encode(text(78, '\t'), 'utf16le', { addBOM: true })]) {
      const result = await imported(admin, peru, bytes);
      expect(result).toMatchObject({ created: 2, rejected: [] });
    }
    expect((await leadsWith(peru, 'telefono = $2', ['51987711001']))[0]).toMatchObject({ name: 'Nula Ceros', email: 'nula77@correo.pe' });
    expect((await leadsWith(peru, 'telefono = $2', ['51987811002']))[0].name).toBe('Otra');
  });

  it('refuses a file that is not text with a Spanish 400 and writes nothing', async () => {
    const before = await t.sql<{ n: number }>('select count(*)::int as n from leads');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 7)]);
    const xlsx = Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1'), Buffer.from('[Content_Types].xml telefono,email')]);
    const random = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919 + 13) % 256));
    for (const [bytes, what] of [
      [png, /PNG/],
      [xlsx, /xlsx/],
      [random, /no es un CSV de texto/],
    ] as const) {
      const res = await importCsv(admin, peru, bytes);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.msg).toMatch(/^El archivo no es un CSV de texto/);
      expect(res.json().errors.msg).toMatch(what);
    }
    expect(await t.sql<{ n: number }>('select count(*)::int as n from leads')).toEqual(before);
  });

  it('rejects a row with a 100,000-character cell and imports the others', async () => {
    const csv = `nombre,telefono\r\nAntes Larga,987712001\r\n"${'x'.repeat(100_000)}",987712002\r\nDespués Larga,987712003\r\n`;
    const result = await imported(admin, peru, csv);
    expect(result.created).toBe(2);
    expect(result.rejected).toEqual([{ row: 3, reason: 'La columna "nombre" tiene más de 1000 caracteres' }]);
    expect(await leadsWith(peru, 'telefono = $2', ['51987712002'])).toHaveLength(0);
  });

  it('refuses a quote that never closes, naming its row', async () => {
    const res = await importCsv(admin, peru, 'nombre,telefono\r\nBien,987713001\r\n"Sin cerrar,987713002\r\nOtra,987713003\r\n');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toMatch(/^La fila 3 abre comillas/);
    expect(await leadsWith(peru, 'telefono = $2', ['51987713001'])).toHaveLength(0);
  });

  // a fixed seed and a few runs: the same cases every time, a few seconds
  let phone = 96_000_000;
  const nameChars = fc.constantFrom(...'aeñoÑÁéíÜ  ,;"\'\n\t-=@'.split(''), '😀', '👩‍💻', 'ß');
  const lead = fc.record({
    name: fc.array(nameChars, { maxLength: 14 }).map((c) => c.join('')),
    withEmail: fc.boolean(),
    format: fc.constantFrom('plain', 'spaced', 'plus'),
  });
  itProp.prop([fc.array(lead, { minLength: 1, maxLength: 6 })], { seed: 20_240_610, numRuns: 12 })(
    'round-trips random leads in every encoding and separator (property)',
    async (leads) => {
      for (const encode of Object.values(saved)) {
        const rows = leads.map((l) => {
          phone += 1;
          const n = String(phone);
          const written = l.format === 'plain' ? `9${n}` : l.format === 'spaced' ? `9${n.slice(0, 2)} ${n.slice(2, 5)} ${n.slice(5)}` : `+51 9${n}`;
          const windows = encode === saved['Windows-1252, punto y coma'];
          // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole Latin-1 range is kept
          const name = windows ? l.name.replace(/[^\u0000-\u00ff]/gu, '') : l.name;
          return { name, written, telefono: `519${n}`, email: l.withEmail ? `prop.${n}@correo.pe` : '' };
        });
        const result = await imported(admin, peru, encode([['nombre', 'telefono', 'email'], ...rows.map((r) => [r.name, r.written, r.email])]));
        expect(result).toMatchObject({ created: rows.length, merged: 0, rejected: [] });
        const stored = await leadsWith(peru, 'telefono in (select jsonb_array_elements_text($2::jsonb))', [JSON.stringify(rows.map((r) => r.telefono))]);
        expect(stored.map((l) => [l.telefono, l.email ?? ''])).toEqual(rows.map((r) => [r.telefono, r.email]));
        expect(stored.map((l) => l.name)).toEqual(rows.map((r) => cleanName(r.name) || r.email || r.telefono));
      }
    },
    60_000,
  );
});

describe('GET /leads/export: nothing breaks, nothing is lost', () => {
  it('refuses a filter with NUL with a 400 naming the field, before any CSV', async () => {
    for (const url of ['/api/leads/export?filter=a%00b', '/api/clean-leads/export?filter=%00']) {
      const res = await t.app.inject({ method: 'GET', url, headers: as(admin, peru) });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      // the API's own guard (decision 0021) or the export's, whichever comes first: a Spanish 400 naming the field
      expect(res.json().errors).toMatchObject({ code: 'VALIDATION', msg: expect.stringMatching(/carácter nulo/) });
      expect(res.json().errors.msg).toMatch(/«filter»/);
    }
  });

  it('a batch that fails mid-stream ends the file with a visible error line and cuts the transfer short', async () => {
    const total = EXPORT_BATCH + 10;
    await t.sql(
      `insert into leads (company_id, name, telefono, platform, status)
       select $1, 'Corte ' || i, (56930000000 + i)::text, 'web', 'sin-asignar' from generate_series(1, $2::int) i`,
      [chile, total],
    );
    const db = t.database.db;
    const select = db.select.bind(db);
    let calls = 0;
    const spy = vi.spyOn(db, 'select').mockImplementation(((...args: Parameters<typeof select>) => {
      calls += 1;
      if (calls === 2) throw new Error('conexión perdida (inyectada)');
      return select(...args);
    }) as typeof select);
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const { status, body, complete } = await new Promise<{ status?: number; body: string; complete: boolean }>((resolve) => {
        const req = http.get(
          { host: '127.0.0.1', port, path: '/api/leads/export?filter=Corte', headers: as(admin, chile) },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => {
              body += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode, body, complete: res.complete }));
            res.on('error', () => resolve({ status: res.statusCode, body, complete: false }));
            res.on('aborted', () => resolve({ status: res.statusCode, body, complete: false }));
          },
        );
        req.on('error', () => resolve({ body: '', complete: false }));
      });
      expect(status).toBe(200);
      // the file is not complete, and says so in its last line
      expect(complete).toBe(false);
      const lines = body.trimEnd().split('\r\n');
      expect(lines).toHaveLength(1 + EXPORT_BATCH + 1);
      expect(lines.at(-1)).toBe(exportErrorLine(EXPORT_BATCH).trimEnd());
      expect(lines.at(-1)).toMatch(/^# ERROR: la exportación se interrumpió después de 2000 filas/);
    } finally {
      spy.mockRestore();
    }
    // without the failure, the whole file
    const whole = await exportCsv(admin, chile, '/api/leads/export?filter=Corte');
    expect(whole.rows).toHaveLength(total);
    expect(whole.text).not.toMatch(/# ERROR/);
  });

  it('a query that fails on the first batch is a JSON error, not a broken file', async () => {
    const spy = vi.spyOn(t.database.db, 'select').mockImplementationOnce(() => {
      throw new Error('base de datos caída (inyectada)');
    });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/leads/export', headers: as(admin, peru) });
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    } finally {
      spy.mockRestore();
    }
  });
});
