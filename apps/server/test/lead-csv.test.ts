import { LEAD_IMPORT_MAX_ROWS, type LeadImportResult } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField, parseCsv } from '../src/modules/leads/csv.js';
import { EXPORT_BATCH } from '../src/modules/leads/csv-routes.js';
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
  const records = [...parseCsv(text.replace(BOM, ''))];
  return { res, text, header: records[0], rows: records.slice(1) };
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
    `select id, name, telefono, email, platform, mostrador_labels, clean_lead_id from leads where company_id = $1 and ${where} order by created_at`,
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
    expect([...parseCsv('a,b\r\n"x, y","di ""no""\notra línea"\r\n')]).toEqual([
      ['a', 'b'],
      ['x, y', 'di "no"\notra línea'],
    ]);
    expect([...parseCsv('nombre;telefono\nAna;987 654 321')]).toEqual([
      ['nombre', 'telefono'],
      ['Ana', '987 654 321'],
    ]);
  });
});

describe('GET /leads/export and /clean-leads/export', () => {
  it('answers a UTF-8 CSV with BOM, the email,telefono header and an attachment name', async () => {
    const { res, text, header, rows } = await exportCsv(admin, peru, '/api/leads/export');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(text.startsWith(`${BOM}email,telefono\r\n`)).toBe(true);
    expect(header).toEqual(['email', 'telefono']);
    const [{ n }] = await t.sql<{ n: number }>(
      'select count(*) as n from leads where company_id = $1 and (email is not null or telefono is not null)',
      [peru],
    );
    expect(rows).toHaveLength(n);
    const clean = await exportCsv(admin, peru, '/api/clean-leads/export');
    expect(clean.res.headers['content-disposition']).toMatch(/filename="leads-limpios-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(clean.header).toEqual(['email', 'telefono']);
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
    // the lead with neither email nor phone has nothing to export
    expect(search.rows).toEqual([
      ['filtro.uno@correo.pe', '51900000001'],
      ['', '51900000002'],
    ]);
    expect((await exportCsv(admin, peru, '/api/leads/export?filter=Filtro&platform=instagram')).rows).toEqual([['filtro.uno@correo.pe', '51900000001']]);
    expect((await exportCsv(admin, peru, '/api/leads/export?filter=Filtro&status=sin-asignar')).rows).toEqual([]);
    expect(
      (await exportCsv(admin, peru, '/api/leads/export?mostradorLabels=["0f1a2b3c-0000-4000-8000-000000000001"]')).rows,
    ).toEqual([['filtro.uno@correo.pe', '51900000001']]);
    expect(
      (await exportCsv(admin, peru, '/api/leads/export?filter=Filtro&from=2024-02-01T00:00:00Z&to=2024-03-01T00:00:00Z')).rows,
    ).toEqual([['', '51900000002']]);
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
      const listed = (all.json().payload as Array<{ email?: string; telefono?: string }>)
        .filter((r) => r.email || r.telefono)
        .map((r) => [r.email ?? '', r.telefono ?? '']);
      const sorted = (rows: string[][]) => rows.map((r) => r.join(',')).sort();
      expect(sorted(exported)).toEqual(sorted(listed));
      return exported;
    };
    const filters = 'status=compra-fallida&platform=instagram&filter=Mismo%20Filtro';
    expect(await sameAsAll('leads', filters)).toHaveLength(3);
    expect(await sameAsAll('leads', `${filters}&mostradorLabels=${label}&from=2024-03-02T00:00:00Z&to=2024-03-10T00:00:00Z`)).toEqual([['mismo.b@correo.pe', '']]);
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
    expect(result.created).toBe(1);
    expect(result.rejected).toEqual([
      { row: 2, reason: 'Falta teléfono o email' },
      { row: 3, reason: 'Teléfono inválido' },
      { row: 4, reason: 'Email inválido' },
      { row: 6, reason: 'Etiqueta desconocida: Inexistente' },
      { row: 7, reason: 'Plataforma desconocida: tiktok' },
    ]);
    expect(await leadsWith(peru, 'name = $2', ['Mala Etiqueta'])).toHaveLength(0);
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
    expect(foreign.rejected).toEqual([{ row: 2, reason: 'Etiqueta desconocida: Solo Perú' }]);
    const denied = await importCsv(admin, acmeCo, 'telefono\n911113333');
    expect(denied.statusCode).toBe(401);
  });
});
