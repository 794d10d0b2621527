import { mailchimpMessages, type MailchimpSyncOut, type RealtimeEvent } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailchimpLabelSyncs } from '../src/db/join-tables.js';
import { connectionTest, connectionTestBoundMs } from '../src/integrations/connection-test.js';
import { createMailchimpClient, MailchimpError, type MailchimpClient, subscriberHash } from '../src/integrations/mailchimp/client.js';
import { createMailchimpSync } from '../src/modules/mailchimp/sync.js';
import { type FakeMailchimp, startFakeMailchimp } from './fakes/mailchimp.js';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * Mailchimp end to end (issue 15, decision 0051) against a fake Marketing API on a real port: the
 * connection test names what is wrong in Spanish, the labels of set_mostrador_labels_massive reach
 * Mailchimp as tags of upserted members (MD5 ids), never more than 10 requests at once, 429 and 5xx
 * retried, a member's refusal reported per contact while the others go, a crash resumed without
 * sending a done contact again, an audience pulled page by page — each company only its own.
 */
// biome-ignore lint/suspicious/noExplicitAny: the answers' JSON, read field by field as each assertion needs
type Rec = Record<string, any>;
const KEY = 'f00dcafe1234abcd5678-us21';
const LIST = 'ab12cd34ef';

let t: TestApp;
let fake: FakeMailchimp;
let admin: Signed;
let acme: Signed;
let co: string;
let acmeCo: string;
let account: Rec;
const events: RealtimeEvent[] = [];

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = co) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = co) => {
  const res = await call(method, url, payload, who, company);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
};
const finished = (id: string, company = co) =>
  until(
    async () => (await call('GET', `/mailchimp/syncs/${id}`, undefined, admin, company)).json() as MailchimpSyncOut,
    (s) => s.status === 'done' || s.status === 'failed',
    30_000,
  );

/** People of the company straight into clean_leads (labels by id). */
async function people(company: string, rows: Array<{ name: string; email?: string; telefono?: string; labels: string[]; optOut?: boolean }>) {
  for (const r of rows) {
    await t.sql(`insert into clean_leads (company_id, name, email, telefono, status, mostrador_labels, opt_out) values ($1, $2, $3, $4, 'sin-asignar', $5::jsonb, $6)`, [
      company,
      r.name,
      r.email ?? null,
      r.telefono ?? null,
      JSON.stringify(r.labels),
      r.optOut ?? null,
    ]);
  }
}

beforeAll(async () => {
  fake = await startFakeMailchimp({ latencyMs: 5 });
  fake.keys.set(KEY, new Map([[LIST, 'Clientes Bodega']]));
  t = await startTestApp({ MAILCHIMP_API_URL: fake.template });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  co = (await ok('POST', '/companies', { name: 'Bodega Mailchimp', country: 'PE', settings: { timezone: 'America/Lima' } }, admin, admin.company('Demo Perú')))._id;
  acmeCo = acme.company('Acme');
  t.app.realtime.subscribe(co, (event) => events.push(event));
  account = await ok('POST', '/mailchimps', { name: 'Boletín', serverPrefix: 'us21', listId: LIST, apiKey: KEY });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('the connection test', () => {
  it('says the audience when all is right, and in Spanish what is wrong: key, server prefix, audience', async () => {
    const good = await ok('POST', `/mailchimps/${account._id}/test`);
    expect(good).toMatchObject({ ok: true, audience: { name: 'Clientes Bodega', members: expect.any(Number) } });
    expect(good.msg).toContain('Clientes Bodega');

    const wrongKey = await ok('POST', '/mailchimps', { name: 'Clave vieja', serverPrefix: 'us21', listId: LIST, apiKey: 'deadbeef0000revocada-us21' });
    expect(await ok('POST', `/mailchimps/${wrongKey._id}/test`)).toEqual({ ok: false, problem: 'apiKey', msg: mailchimpMessages.keyInvalid });

    const wrongPrefix = await ok('POST', '/mailchimps', { name: 'Otro servidor', serverPrefix: 'us14', listId: LIST, apiKey: KEY });
    const prefix = await ok('POST', `/mailchimps/${wrongPrefix._id}/test`);
    expect(prefix).toMatchObject({ ok: false, problem: 'serverPrefix' });
    expect(prefix.msg).toContain('us21');

    const wrongList = await ok('POST', '/mailchimps', { name: 'Sin audiencia', serverPrefix: 'us21', listId: 'zz99zz99zz', apiKey: KEY });
    expect(await ok('POST', `/mailchimps/${wrongList._id}/test`)).toEqual({ ok: false, problem: 'listId', msg: mailchimpMessages.listMissing });

    // a key of another data center reaching the wrong one: Mailchimp's 403 «Wrong Datacenter»
    fake.keys.set('cafe00000000000000-us14', new Map([[LIST, 'Chile']]));
    const wrongDc = await createMailchimpClient({ urlTemplate: fake.template })
      .ping({ apiKey: 'cafe00000000000000-us14', serverPrefix: 'us21', listId: LIST })
      .catch((e) => e);
    expect(wrongDc).toBeInstanceOf(MailchimpError);
    expect(wrongDc).toMatchObject({ kind: 'datacenter', reason: mailchimpMessages.serverPrefix });

    for (const id of [wrongKey._id, wrongPrefix._id, wrongList._id]) await ok('DELETE', `/mailchimps/${id}`);
  });

  it('never shows the key back: only its last four characters', async () => {
    const res = await call('GET', '/mailchimp/accounts');
    expect(res.json().payload).toEqual([{ _id: account._id, name: 'Boletín', serverPrefix: 'us21', listId: LIST, keyHint: '…us21', sandbox: false }]);
    expect(res.body).not.toContain(KEY.slice(0, 10));
    expect((await call('GET', '/mailchimps')).body).not.toContain(KEY.slice(0, 10));
  });
});

describe('the client', () => {
  const acct = () => ({ apiKey: KEY, serverPrefix: 'us21', listId: LIST });

  it('keeps at most 10 requests of a key in flight, however many are asked at once', async () => {
    const c = createMailchimpClient({ urlTemplate: fake.template, backoffMs: 5 });
    fake.reset();
    fake.latencyMs = 60;
    await Promise.all(Array.from({ length: 60 }, (_, i) => c.upsertMember(acct(), { email: `concurrente${i}@gmail.com`, firstName: 'Ana' })));
    fake.latencyMs = 5;
    expect(fake.tooMany).toBe(0);
    expect(fake.maxInFlight).toBeLessThanOrEqual(10);
    // and it does use them: far more than one at a time
    expect(fake.maxInFlight).toBeGreaterThanOrEqual(6);
    expect(fake.upserts.size).toBe(60);
  });

  it('upserts by the MD5 of the lower-cased e-mail with status_if_new and merge fields, and tags', async () => {
    const c = createMailchimpClient({ urlTemplate: fake.template });
    fake.reset();
    await c.upsertMember(acct(), { email: '  Rosa.Quispe@Hotmail.com ', firstName: 'Rosa', lastName: 'Quispe', phone: '+51999111222' });
    await c.tagMember(acct(), 'rosa.quispe@hotmail.com', ['Cliente frecuente', 'Mayorista']);
    expect(fake.requests.map((r) => `${r.method} ${r.path.split('?')[0]} ${r.status}`)).toEqual([
      `PUT /us21/3.0/lists/${LIST}/members/${subscriberHash('rosa.quispe@hotmail.com')} 200`,
      `POST /us21/3.0/lists/${LIST}/members/${subscriberHash('rosa.quispe@hotmail.com')}/tags 204`,
    ]);
    expect(fake.lists.get(LIST)?.get('rosa.quispe@hotmail.com')).toMatchObject({
      status: 'subscribed',
      mergeFields: { FNAME: 'Rosa', LNAME: 'Quispe', PHONE: '+51999111222' },
      tags: ['Cliente frecuente', 'Mayorista'],
    });
  });

  it('retries 429 and 5xx with backoff, and gives up with the reason after its tries', async () => {
    const c = createMailchimpClient({ urlTemplate: fake.template, backoffMs: 5, retries: 4 });
    fake.reset();
    fake.failNext = { status: 429, count: 2 };
    await c.upsertMember(acct(), { email: 'reintento@gmail.com' });
    fake.failNext = { status: 503, count: 1 };
    await c.tagMember(acct(), 'reintento@gmail.com', ['Vuelve']);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 429, 200, 503, 204]);
    fake.failNext = { status: 500, count: 4 };
    expect(await c.ping(acct()).catch((e) => e)).toMatchObject({ kind: 'server', reason: mailchimpMessages.unavailable });
  });
});

describe('the labels sync', () => {
  let group: Rec;
  let vip: Rec;
  let nuevo: Rec;
  let sync: MailchimpSyncOut;

  beforeAll(async () => {
    group = await ok('POST', '/mostrador-labels', { name: 'Grupo prueba', color: '#123456' });
    vip = await ok('POST', '/mostrador-labels', { name: 'VIP', color: '#aa0000' });
    nuevo = await ok('POST', '/mostrador-labels', { name: 'Recién llegado', color: '#00aa00' });
    await people(co, [
      { name: 'Carmen Vargas', email: 'carmen.vargas@gmail.com', telefono: '51999111222', labels: [group._id] },
      { name: 'Jorge Linares', email: 'Jorge.Linares@Outlook.com', labels: [group._id, nuevo._id] },
      { name: 'Rosa Quispe', email: 'rosa.q@hotmail.com', labels: [group._id] },
      { name: 'Luis Torres', email: 'luis.torres@yahoo.es', labels: [group._id] },
      { name: 'Ana Huamán', email: 'ana.huaman@gmail.com', labels: [group._id] },
      { name: 'Pedro Sin Correo', telefono: '51988777666', labels: [group._id] },
      { name: 'Lucía No Molestar', email: 'lucia@gmail.com', labels: [group._id], optOut: true },
      { name: 'Miguel Dado De Baja', email: 'miguel.baja@gmail.com', labels: [group._id] },
      // not in the segment: never sent
      { name: 'Fuera Del Grupo', email: 'fuera@gmail.com', labels: [] },
    ]);
    // Acme's person with the same label name: another company, never sent
    const acmeLabel = await ok('POST', '/mostrador-labels', { name: 'Grupo prueba', color: '#123456' }, acme, acmeCo);
    await people(acmeCo, [{ name: 'De Acme', email: 'acme.person@gmail.com', labels: [acmeLabel._id] }]);
    fake.memberErrors.set('miguel.baja@gmail.com', {
      status: 400,
      title: 'Member In Compliance State',
      detail: 'miguel.baja@gmail.com is already a list member in compliance state due to unsubscribe, bounce, or compliance review.',
    });
  });

  it('sends the labelled people with their labels as tags, reports each contact, and shows progress live', async () => {
    fake.reset();
    fake.latencyMs = 10;
    const segment = await ok('POST', '/marketing-segments', { name: 'Grupo prueba', filters: { mostradorLabelIds: [group._id] } });
    const res = await ok('POST', '/clean-leads/set_mostrador_labels_massive', { segmentId: segment._id, mostradorLabelIds: [vip._id], hasToSendToMailchimp: true });
    expect(res.mailchimpSyncId).toBeDefined();
    sync = await finished(res.mailchimpSyncId);
    fake.latencyMs = 5;
    expect(sync).toMatchObject({ kind: 'labels', status: 'done', total: 8, done: 8, ok: 5, failed: 1, skipped: 2, audienceNames: ['Boletín'], labelNames: ['VIP'], segmentName: 'Grupo prueba' });
    expect(sync.requests).toBeGreaterThanOrEqual(11);

    // at Mailchimp: the five, by their lower-cased e-mail, tagged with all their labels
    const members = fake.lists.get(LIST) as Map<string, Rec>;
    expect(members.get('jorge.linares@outlook.com')).toMatchObject({ status: 'subscribed', mergeFields: { FNAME: 'Jorge', LNAME: 'Linares' } });
    expect([...(members.get('jorge.linares@outlook.com')?.tags ?? [])].sort()).toEqual(['Grupo prueba', 'Recién llegado', 'VIP']);
    expect(members.get('carmen.vargas@gmail.com')?.mergeFields.PHONE).toBe('+51999111222');
    for (const gone of ['lucia@gmail.com', 'fuera@gmail.com', 'acme.person@gmail.com', 'miguel.baja@gmail.com']) expect(members.has(gone), gone).toBe(false);
    expect(fake.tooMany).toBe(0);

    // the report: errors first, with the reason in Spanish
    const report = await ok('GET', `/mailchimp/syncs/${sync._id}/report`);
    expect(report.totalDocs).toBe(8);
    expect(report.payload[0]).toMatchObject({ name: 'Miguel Dado De Baja', email: 'miguel.baja@gmail.com', outcome: 'error', audienceName: 'Boletín' });
    expect(report.payload[0].reason).toMatch(/estado de cumplimiento/);
    const skipped = await ok('GET', `/mailchimp/syncs/${sync._id}/report?outcome=skipped`);
    expect(skipped.payload.map((r: Rec) => [r.name, r.reason]).sort()).toEqual([
      ['Lucía No Molestar', 'Pidió no recibir mensajes (opt-out): no se envía a Mailchimp'],
      ['Pedro Sin Correo', mailchimpMessages.noEmail],
    ]);
    expect((await call('GET', `/mailchimp/syncs/${sync._id}/report?outcome=raro`)).statusCode).toBe(400);

    // the contacts and tags screens
    const contacts = await ok('GET', '/mailchimp-contacts?limit=50');
    expect(contacts.payload.map((c: Rec) => c.email).sort()).toEqual(['ana.huaman@gmail.com', 'carmen.vargas@gmail.com', 'jorge.linares@outlook.com', 'luis.torres@yahoo.es', 'rosa.q@hotmail.com']);
    expect(contacts.payload.find((c: Rec) => c.email === 'rosa.q@hotmail.com')).toMatchObject({ status: 'subscribed', tags: expect.arrayContaining(['Grupo prueba', 'VIP']) });
    expect((await ok('GET', '/mailchimp-tags?limit=50')).payload.map((x: Rec) => x.name).sort()).toEqual(['Grupo prueba', 'Recién llegado', 'VIP']);

    // progress went out on /api/events: running with counts, then done
    const mine = events.filter((e): e is Extract<RealtimeEvent, { type: 'mailchimp.sync' }> => e.type === 'mailchimp.sync' && e.sync._id === sync._id);
    expect(mine.some((e) => e.sync.status === 'running')).toBe(true);
    expect(mine.at(-1)?.sync).toMatchObject({ status: 'done', done: 8 });
    expect((await ok('GET', '/mailchimp/syncs')).payload[0]._id).toBe(sync._id);
  });

  it('resumes after a crash without sending a done contact again', async () => {
    const db = t.database.db;
    await people(co, Array.from({ length: 23 }, (_, i) => ({ name: `Persona ${i}`, email: `persona${i}@gmail.com`, labels: [nuevo._id] })));
    const [row] = await db.insert(mailchimpLabelSyncs).values({ companyId: co, labelIds: [nuevo._id], count: 0 }).returning();
    const real = createMailchimpClient({ urlTemplate: fake.template });
    let calls = 0;
    // the process «dies» at the 15th upsert: an error that is not Mailchimp's
    const crashing: MailchimpClient = {
      ...real,
      upsertMember: (a, m, c) => {
        calls++;
        if (calls === 15) return Promise.reject(new Error('proceso detenido'));
        return real.upsertMember(a, m, c);
      },
    };
    fake.reset();
    const log = { warn: () => {} };
    await expect(createMailchimpSync({ db, secrets: t.app.secrets, client: crashing, log, chunk: 6 }).run(row.id)).rejects.toThrow('proceso detenido');
    const half = await ok('GET', `/mailchimp/syncs/${row.id}`);
    expect(half.status).toBe('running');
    expect(half.done).toBeGreaterThan(0);
    expect(half.done).toBeLessThan(24);
    // someone labelled after the sync started is not in it: its people were taken at the start
    await people(co, [{ name: 'Llegó Tarde', email: 'tarde@gmail.com', labels: [nuevo._id] }]);

    await createMailchimpSync({ db, secrets: t.app.secrets, client: real, log, chunk: 6 }).run(row.id);
    const done = await ok('GET', `/mailchimp/syncs/${row.id}`);
    expect(done).toMatchObject({ status: 'done', total: 24, done: 24, ok: 24 });
    // every person upserted exactly once across the two runs
    expect([...fake.upserts.values()].every((n) => n === 1)).toBe(true);
    expect(fake.upserts.size).toBe(24);
    const [{ n }] = await t.sql<{ n: number }>('select count(*)::int as n from mailchimp_sync_contacts where sync_id = $1', [row.id]);
    expect(n).toBe(24);
    expect(fake.upserts.has('tarde@gmail.com')).toBe(false);
    // the list of people served the run and is gone; the report stays
    const [{ left }] = await t.sql<{ left: number }>('select count(*)::int as left from mailchimp_sync_people where sync_id = $1', [row.id]);
    expect(left).toBe(0);
  });

  it('ends failed with the reason when the key stops working, keeping what was done', async () => {
    const db = t.database.db;
    const [row] = await db.insert(mailchimpLabelSyncs).values({ companyId: co, labelIds: [vip._id], count: 0 }).returning();
    const saved = fake.keys.get(KEY) as Map<string, string>;
    fake.keys.delete(KEY);
    try {
      await createMailchimpSync({ db, secrets: t.app.secrets, client: createMailchimpClient({ urlTemplate: fake.template }), log: { warn: () => {} } }).run(row.id);
    } finally {
      fake.keys.set(KEY, saved);
    }
    const failed = await ok('GET', `/mailchimp/syncs/${row.id}`);
    expect(failed).toMatchObject({ status: 'failed', message: `Boletín: ${mailchimpMessages.keyInvalid}` });
  });

  it('fails with what to do when the company has no Mailchimp credentials', async () => {
    const other = (await ok('POST', '/companies', { name: 'Bodega Sin Mailchimp', country: 'PE' }, admin, admin.company('Demo Perú')))._id;
    const label = await ok('POST', '/mostrador-labels', { name: 'Algo', color: '#000000' }, admin, other);
    const segment = await ok('POST', '/marketing-segments', { name: 'Todos' }, admin, other);
    const res = await ok('POST', '/clean-leads/set_mostrador_labels_massive', { segmentId: segment._id, mostradorLabelIds: [label._id], hasToSendToMailchimp: true }, admin, other);
    expect(await finished(res.mailchimpSyncId, other)).toMatchObject({ status: 'failed', message: mailchimpMessages.noAccounts });
  });

  it('is its company\'s only: another company sees none of it', async () => {
    for (const url of [`/mailchimp/syncs/${sync._id}`, `/mailchimp/syncs/${sync._id}/report`]) {
      expect((await call('GET', url, undefined, acme, acmeCo)).statusCode, url).toBe(404);
    }
    expect((await call('POST', `/mailchimps/${account._id}/test`, undefined, acme, acmeCo)).statusCode).toBe(404);
    expect((await call('POST', `/mailchimps/${account._id}/pull`, undefined, acme, acmeCo)).statusCode).toBe(404);
    expect((await ok('GET', '/mailchimp/syncs', undefined, acme, acmeCo)).payload.map((s: Rec) => s._id)).not.toContain(sync._id);
    expect((await ok('GET', '/mailchimp/accounts', undefined, acme, acmeCo)).payload.map((a: Rec) => a._id)).not.toContain(account._id);
    expect((await ok('GET', '/mailchimp-contacts?limit=50', undefined, acme, acmeCo)).payload.map((c: Rec) => c.email)).not.toContain('carmen.vargas@gmail.com');
  });
});

describe('the pull of an audience', () => {
  it('brings its members 1000 a page into the contacts, with status and tags', async () => {
    const members = fake.lists.get(LIST) as Map<string, Rec>;
    for (let i = 0; i < 1500; i++) {
      const email = `suscrito${i}@outlook.com`;
      members.set(email, { email, status: i % 10 === 0 ? 'unsubscribed' : 'subscribed', mergeFields: { FNAME: 'Suscrito', LNAME: String(i) }, tags: i % 2 ? ['Newsletter'] : [] });
    }
    fake.reset();
    const res = await call('POST', `/mailchimps/${account._id}/pull`);
    expect(res.statusCode).toBe(202);
    const sync = await finished(res.json().sync._id);
    expect(sync).toMatchObject({ kind: 'pull', status: 'done', mailchimpId: account._id, total: members.size, done: members.size });
    const pages = fake.requests.filter((r) => r.path.includes('/members?'));
    expect(pages.length).toBe(Math.ceil(members.size / 1000));
    expect(pages.every((r) => r.path.includes('count=1000'))).toBe(true);
    const [{ n }] = await t.sql<{ n: number }>('select count(*)::int as n from mailchimp_contacts where company_id = $1', [co]);
    expect(n).toBe(members.size);
    const [one] = await t.sql<{ status: string; tags: string[]; name: string }>('select status, tags, name from mailchimp_contacts where company_id = $1 and email = $2', [co, 'suscrito10@outlook.com']);
    expect(one).toEqual({ status: 'unsubscribed', tags: [], name: 'Suscrito 10' });
  }, 60_000);
});

// last in the file: the stalled requests are answered only long after, and would count as in flight for the tests above
describe('the connection test when Mailchimp cannot be reached', () => {
  it('answers within 10 s: two tries of 3 s, not the sync\'s six tries (16–18 s)', async () => {
    // the policy every connection test shares: what an owner waits at most per request
    expect(connectionTest).toEqual({ retries: 2, backoffMs: 250, maxBackoffMs: 250, timeoutMs: 3_000 });
    expect(connectionTestBoundMs()).toBe(6_250);
    // a Mailchimp that takes every request and never answers
    fake.reset();
    fake.latencyMs = 30_000;
    try {
      const started = Date.now();
      const res = await ok('POST', `/mailchimps/${account._id}/test`);
      const took = Date.now() - started;
      expect(res).toEqual({ ok: false, problem: 'network', msg: expect.stringContaining(mailchimpMessages.network) });
      // the ping was tried twice and nothing followed it (the sync's client tries six times)
      expect(fake.received).toBe(2);
      expect(took).toBeLessThan(10_000);
    } finally {
      fake.latencyMs = 5;
    }
  }, 20_000);
});
