import { type GravityEntryOut, type GravityFormStatus, gravityMessages, type RealtimeEvent } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntryProcessor, GRAVITY_PROVIDER, gravityDefaults } from '../src/modules/forms/entries.js';
import { pullEntries } from '../src/modules/gravity-forms/sync.js';
import { createWebhookProcessor } from '../src/modules/webhooks/process.js';
import { contactForm, type FakeGravityServer, GF_KEY, GF_SECRET, startFakeGravity } from './fakes/gravity-forms.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Gravity Forms entries as leads (issue 15, decision 0050), against a fake WordPress site with
 * the REST API v2: the keys sealed and the connection test naming what is wrong; the webhook
 * checked by the form's secret, an entry stored once however often it arrives, mapped to a lead
 * (or added to the person's lead) with the form's labels; an entry with no phone and no e-mail
 * reported and kept as a dead letter, retried after fixing the mapping; the pull paging by id and
 * resuming after a failure; and each company seeing and touching only its own forms.
 */
let t: TestApp;
let fake: FakeGravityServer;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let labelId: string;
let formA: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });
const hook = (id: string, body: unknown, secret?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/webhooks/gravity-forms/${id}`,
    headers: { 'content-type': 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}), ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const entriesOf = async (formId: string, who = admin, company = peru) =>
  (await call('GET', `/gravity-forms/entries?formId=${formId}`, undefined, who, company)).json().payload as GravityEntryOut[];
const entryById = async (formId: string, entryId: number) =>
  until(
    async () => (await entriesOf(formId)).find((e) => e.entryId === entryId),
    (e) => Boolean(e && e.status !== 'pending'),
  );
const leadsWith = async (query: string, who = admin, company = peru) =>
  (await call('GET', `/leads?${query}`, undefined, who, company)).json().payload as Array<{ _id: string; name: string; telefono?: string; email?: string; platform: string; mostradorLabels?: string[]; details?: Array<{ message?: string }> }>;
async function createForm(body: Record<string, unknown>, who = admin, company = peru) {
  const res = await call('POST', '/gravity-forms', { name: 'Contacto del sitio', formId: 5, siteUrl: fake.url, consumerKey: GF_KEY, consumerSecret: GF_SECRET, ...body }, who, company);
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._id as string;
}

beforeAll(async () => {
  fake = await startFakeGravity([contactForm(5), contactForm(6)]);
  // the store's fake listens on 127.0.0.1: this suite is a self-hosted setup (decision 0060; test/outbound.test.ts runs with it off)
  t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1' });
  Object.assign(gravityDefaults, { backoffMs: 1, retries: 2, pageSize: 2 });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  labelId = (await call('GET', '/mostrador-labels')).json().payload[0]._id;
  formA = await createForm({ mostradorLabelIds: [labelId] });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('a form\'s settings', () => {
  it('keeps the keys sealed, reads the form from the site and suggests the mapping from its fields', async () => {
    const list = await call('GET', '/gravity-forms');
    expect(list.body).not.toContain(GF_SECRET);
    expect(list.json().payload.find((f: { _id: string }) => f._id === formA)).toMatchObject({ consumerKeySet: true, consumerSecretSet: true });
    const [row] = await t.sql<{ consumer_secret: string }>('select consumer_secret from gravity_forms where id = $1', [formA]);
    expect(row.consumer_secret).toMatch(/^v1\./);

    const test = (await call('POST', `/gravity-forms/${formA}/test`)).json();
    expect(test).toEqual({ ok: true, msg: 'Conexión correcta con «Contáctanos» en 127.0.0.1: 5 campos, 0 entradas' });
    const form = (await call('GET', '/gravity-forms')).json().payload.find((f: { _id: string }) => f._id === formA);
    expect(form.fieldMap).toEqual({ name: '1', email: '3', phone: '4', message: '6' });
    const fields = (await call('GET', `/gravity-forms/${formA}/fields`)).json();
    expect(fields.fields.map((f: { id: string }) => f.id)).toEqual(['1', '1.3', '1.6', '3', '4', '6', '8']);
  });

  it('says in Spanish which setting is wrong: the keys, the form id, the URL', async () => {
    const badKeys = await createForm({ name: 'Claves malas', consumerSecret: 'cs_otra' });
    expect((await call('POST', `/gravity-forms/${badKeys}/test`)).json()).toMatchObject({ ok: false, field: 'consumerKey', msg: expect.stringMatching(/clave o el secreto del consumidor no son válidos/) });
    const badForm = await createForm({ name: 'Id malo', formId: 99 });
    expect((await call('POST', `/gravity-forms/${badForm}/test`)).json()).toMatchObject({ ok: false, field: 'formId', msg: expect.stringContaining('no tiene el formulario 99') });
    const notWp = await createForm({ name: 'Otra web', siteUrl: `${fake.url}/otra` });
    expect((await call('POST', `/gravity-forms/${notWp}/test`)).json()).toMatchObject({ ok: false, field: 'siteUrl', msg: expect.stringContaining('revisa la URL') });
    const plain = await createForm({ name: 'Sin TLS', siteUrl: 'http://formularios.example.com' });
    expect((await call('POST', `/gravity-forms/${plain}/test`)).json()).toMatchObject({ ok: false, field: 'siteUrl', msg: expect.stringContaining('https://') });
    const noKeys = await createForm({ name: 'Sin claves', consumerKey: undefined, consumerSecret: undefined });
    const sync = await call('POST', `/gravity-forms/${noKeys}/sync`);
    expect(sync.statusCode).toBe(400);
    expect(sync.json().errors.msg).toContain('Faltan la clave y el secreto');
    for (const id of [badKeys, badForm, notWp, plain, noKeys]) expect((await call('DELETE', `/gravity-forms/${id}`)).statusCode).toBe(200);
  });
});

describe('the entry webhook', () => {
  let secret: string;

  it('refuses deliveries without the form\'s secret (401), and shows the secret once', async () => {
    const entry = fake.site.submit(5, { '1.3': 'Ana', '1.6': 'Torres', '3': 'x@y.pe', '4': '987111000' });
    expect((await hook(formA, entry)).statusCode).toBe(401);
    expect((await hook(formA, entry)).json().errors.msg).toBe(gravityMessages.noSecret);
    const made = (await call('POST', `/gravity-forms/${formA}/webhook-secret`)).json();
    secret = made.secret;
    expect(made).toMatchObject({ header: 'Authorization', value: `Bearer ${secret}`, webhookPath: `/api/webhooks/gravity-forms/${formA}` });
    const status = (await call('GET', `/gravity-forms/${formA}/status`)).json() as GravityFormStatus;
    expect(status).toMatchObject({ webhookSecretSet: true, webhookSecretHint: `…${secret.slice(-4)}` });
    expect(JSON.stringify(status)).not.toContain(secret);
    const [row] = await t.sql<{ webhook_secret: string }>('select webhook_secret from gravity_form_states where form_id = $1', [formA]);
    expect(row.webhook_secret).not.toContain(secret);
    const wrong = await hook(formA, entry, 'gfw_otro');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errors.msg).toBe(gravityMessages.badSecret);
    expect(await t.sql('select 1 from webhook_events where provider = $1 and account_id = $2', [GRAVITY_PROVIDER, formA])).toHaveLength(0);
  });

  it('turns an entry into a lead through the mapping, with the form\'s labels and the message, once however often it arrives', async () => {
    const entry = fake.site.submit(5, { '1.3': 'Rocío', '1.6': 'Vargas Llosa', '3': 'Rocio.Vargas@Gmail.com', '4': '987-222-333', '6': 'Quisiera una cotización de 20 cajas', '8': '' });
    const first = await hook(formA, entry, secret);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ received: 1, stored: 1, duplicate: false });
    const seen = await entryById(formA, Number(entry.id));
    expect(seen).toMatchObject({ status: 'created', source: 'webhook', name: 'Rocío Vargas Llosa', email: 'rocio.vargas@gmail.com', message: 'Quisiera una cotización de 20 cajas' });
    const phone = seen?.telefono;
    expect(phone).toBe('51987222333');
    const [lead] = await leadsWith(`email=${encodeURIComponent('rocio.vargas@gmail.com')}`);
    expect(lead).toMatchObject({ name: 'Rocío Vargas Llosa', platform: 'web', telefono: phone, mostradorLabels: [labelId] });
    expect(lead.details?.[0]?.message).toContain('Quisiera una cotización de 20 cajas');
    expect(seen?.leadId).toBe(lead._id);
    const [clean] = (await call('GET', `/clean-leads?email=${encodeURIComponent('rocio.vargas@gmail.com')}`)).json().payload ?? [];
    if (clean) expect(clean.mostradorLabels).toContain(labelId);

    // the add-on retries, the site resends: nothing more happens
    for (let i = 0; i < 3; i++) expect((await hook(formA, entry, secret)).json()).toMatchObject({ stored: 0, duplicate: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(await leadsWith(`email=${encodeURIComponent('rocio.vargas@gmail.com')}`)).toHaveLength(1);
    expect(await t.sql('select 1 from webhook_events where provider = $1 and event_id = $2', [GRAVITY_PROVIDER, `${formA}:${entry.id}`])).toHaveLength(1);

    // an entry of another form, or a body that is not an entry, is refused with the reason
    const other = await hook(formA, { ...entry, id: '9999', form_id: '6' }, secret);
    expect(other.statusCode).toBe(400);
    expect(other.json().errors.msg).toBe(gravityMessages.wrongForm('6', 5));
    expect((await hook(formA, { form_id: '5' }, secret)).json().errors.msg).toBe(gravityMessages.noEntryId);
    expect((await hook(formA, 'no es json', secret)).statusCode).toBe(400);
  });

  it('adds an entry of a person the company already has to that lead instead of making another', async () => {
    const entry = fake.site.submit(5, { '1.3': 'Rocío', '1.6': 'V.', '3': 'rocio.vargas@gmail.com', '4': '', '6': 'Ya les escribí: ¿hay stock?' });
    await hook(formA, entry, secret);
    const seen = await entryById(formA, Number(entry.id));
    expect(seen).toMatchObject({ status: 'merged' });
    const leads = await leadsWith(`email=${encodeURIComponent('rocio.vargas@gmail.com')}`);
    expect(leads).toHaveLength(1);
    expect(leads[0].name).toBe('Rocío Vargas Llosa');
    expect(seen?.leadId).toBe(leads[0]._id);
    expect(leads[0].details?.[0]?.message).toContain('¿hay stock?');
  });

  it('reports an entry with no phone and no e-mail, keeps it as a dead letter, and makes its lead once the mapping is fixed', async () => {
    const entry = fake.site.submit(5, { '1.3': 'Luis', '1.6': 'Campos', '3': '', '4': '', '6': 'Llámenme', '8': '955 000 111' });
    await hook(formA, entry, secret);
    const seen = await entryById(formA, Number(entry.id));
    expect(seen).toMatchObject({ status: 'rejected', reason: expect.stringContaining(gravityMessages.noContact) });
    const dead = (await call('GET', '/webhooks/dead-letters')).json().payload as Array<{ _id: string; provider: string; error?: string; summary?: string }>;
    const letter = dead.find((d) => d.provider === 'gravity-forms' && d.summary?.includes(`Entrada ${entry.id}`));
    expect(letter?.error).toContain('no tiene teléfono ni correo');
    expect(seen?.eventId).toBe(letter?._id);

    // the number came in «Número alterno»: mapped, the dead letter retried, the lead made
    const put = await call('PUT', `/gravity-forms/${formA}`, { fieldMap: { name: '1', email: '3', phone: '8', message: '6' } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call('POST', `/webhooks/dead-letters/${letter?._id}/replay`)).statusCode).toBe(200);
    const again = await until(
      async () => (await entriesOf(formA)).find((e) => e.entryId === Number(entry.id)),
      (e) => e?.status === 'created',
    );
    expect(again).toMatchObject({ status: 'created', telefono: '51955000111', name: 'Luis Campos' });
    expect(await leadsWith('telefono=51955000111')).toHaveLength(1);
    expect((await call('PUT', `/gravity-forms/${formA}`, { fieldMap: { name: '1', email: '3', phone: '4', message: '6' } })).statusCode).toBe(200);
    // a mapping must name form fields
    const bad = await call('PUT', `/gravity-forms/${formA}`, { fieldMap: { phone: 'telefono' } });
    expect(bad.statusCode).toBe(400);
  });

  it('tells the company\'s open screens of each entry once it is settled: a lead made, one joined, one rejected', async () => {
    const events: RealtimeEvent[] = [];
    const others: RealtimeEvent[] = [];
    const stops = [t.app.realtime.subscribe(peru, (e) => events.push(e)), t.app.realtime.subscribe(acmeCo, (e) => others.push(e))];
    const settledOf = (entryId: number) => events.find((e) => e.type === 'gravity.entry' && e.entryId === entryId);
    try {
      const made = fake.site.submit(5, { '1.3': 'Marta', '1.6': 'Quispe', '3': 'marta.quispe@gmail.com', '4': '987333444', '6': 'Precio por mayor' });
      const joined = fake.site.submit(5, { '1.3': 'Marta', '3': 'marta.quispe@gmail.com', '4': '', '6': 'Otra consulta' });
      const refused = fake.site.submit(5, { '1.3': 'Sin', '1.6': 'Datos', '3': '', '4': '' });
      for (const [entry, status] of [
        [made, 'created'],
        [joined, 'merged'],
        [refused, 'rejected'],
      ] as const) {
        expect((await hook(formA, entry, secret)).statusCode).toBe(200);
        await expect.poll(() => settledOf(Number(entry.id)), { timeout: 10_000, interval: 20 }).toEqual({ type: 'gravity.entry', formId: formA, entryId: Number(entry.id), status });
        // the event follows the commit: the screen that reads again on it finds the entry settled
        expect((await entriesOf(formA)).find((e) => e.entryId === Number(entry.id))?.status).toBe(status);
      }
      expect(others.filter((e) => e.type === 'gravity.entry')).toEqual([]);
    } finally {
      for (const stop of stops) stop();
    }
  });
});

describe('«Sincronizar entradas»', () => {
  it('reads the entries after the last one kept, page by page, and goes on from there after a failure', async () => {
    const formB = await createForm({ name: 'Cotizaciones', formId: 6 });
    await call('POST', `/gravity-forms/${formB}/test`);
    const ids = ['961000001', '961000002', '961000003', '961000004', '961000005'].map(
      (phone, i) => Number(fake.site.submit(6, { '1.3': `Cliente ${i + 1}`, '1.6': 'Prueba', '4': phone, '6': `Pedido ${i + 1}` }).id),
    );
    const processor = createWebhookProcessor(t.database.db, t.app.secrets, undefined, undefined, { providers: { [GRAVITY_PROVIDER]: createEntryProcessor(t.app.secrets) } });
    const deps = { db: t.database.db, secrets: t.app.secrets, processor };
    // the site fails for good after the first page (2 per page)
    fake.site.failIf = ({ path, query }) => (path.endsWith('/entries') && query.get('search')?.includes(`"value":"${ids[1]}"`) ? 503 : undefined);
    const pagesBefore = fake.site.pages.length;
    await expect(pullEntries(deps, peru, formB)).rejects.toMatchObject({ kind: 'server' });
    let status = (await call('GET', `/gravity-forms/${formB}/status`)).json() as GravityFormStatus;
    expect(status.sync).toMatchObject({ status: 'running', done: 2, created: 2, lastEntryId: ids[1], error: expect.stringContaining('(se reintentará)') });
    expect(await leadsWith('telefono=51961000003')).toHaveLength(0);

    fake.site.failIf = undefined;
    const done = await pullEntries(deps, peru, formB);
    expect(done).toMatchObject({ status: 'done', total: 5, done: 5, created: 5, merged: 0, rejected: 0, lastEntryId: ids[4] });
    const asked = fake.site.pages.slice(pagesBefore).filter((p) => p.formId === 6);
    // every page: the first 2 after the last id kept (the failed page asked again by the second pull, none twice)
    expect(asked.every((p) => p.pageSize === 2 && p.page === 1)).toBe(true);
    expect(asked.map((p) => p.afterId)).toEqual([0, ids[1], ids[3]]);
    for (const phone of ['51961000001', '51961000003', '51961000005']) expect(await leadsWith(`telefono=${phone}`)).toHaveLength(1);

    // through the screen's call: a job whose progress reaches the company's browsers
    const events: RealtimeEvent[] = [];
    const stop = t.app.realtime.subscribe(peru, (e) => events.push(e));
    fake.site.submit(6, { '1.3': 'Cliente', '1.6': 'Nuevo', '4': '961000006' });
    const queued = await call('POST', `/gravity-forms/${formB}/sync`);
    expect(queued.statusCode).toBe(202);
    status = await until(
      async () => (await call('GET', `/gravity-forms/${formB}/status`)).json() as GravityFormStatus,
      (s) => s.sync.status === 'done',
    );
    // the last event follows the commit (through NOTIFY on PostgreSQL)
    await expect.poll(() => events.some((e) => e.type === 'gravity.sync' && e.sync.formId === formB && e.sync.status === 'done'), { timeout: 5000, interval: 20 }).toBe(true);
    stop();
    expect(status.sync).toMatchObject({ done: 1, created: 1 });
    expect(status.entries).toMatchObject({ total: 6, created: 6 });
    expect(events.some((e) => e.type === 'gravity.sync' && e.sync.formId === formB && e.sync.status === 'done')).toBe(true);
  });

  it('does not process again an entry the webhook already brought', async () => {
    const before = (await entriesOf(formA)).length;
    const done = await pullEntries(
      { db: t.database.db, secrets: t.app.secrets, processor: createWebhookProcessor(t.database.db, t.app.secrets, undefined, undefined, { providers: { [GRAVITY_PROVIDER]: createEntryProcessor(t.app.secrets) } }) },
      peru,
      formA,
    );
    const after = await entriesOf(formA);
    // the entries the tests sent by webhook plus the first one (refused for its missing secret, read now)
    expect(after.length).toBe(before + 1);
    expect(after.filter((e) => e.source === 'webhook').length).toBe(before);
    expect(done.done).toBe(before + 1);
    expect(await leadsWith(`email=${encodeURIComponent('rocio.vargas@gmail.com')}`)).toHaveLength(1);
  });
});

describe('tenant isolation', () => {
  it('keeps each company\'s forms, entries, secrets and leads its own', async () => {
    for (const [method, url] of [
      ['GET', `/gravity-forms/${formA}/status`],
      ['POST', `/gravity-forms/${formA}/test`],
      ['GET', `/gravity-forms/${formA}/fields`],
      ['POST', `/gravity-forms/${formA}/webhook-secret`],
      ['POST', `/gravity-forms/${formA}/sync`],
    ] as const) {
      expect((await call(method, url, undefined, acme, acmeCo)).statusCode, url).toBe(404);
    }
    expect(await entriesOf(formA, acme, acmeCo)).toEqual([]);
    expect((await call('GET', '/gravity-forms/entries', undefined, acme, acmeCo)).json().payload).toEqual([]);
    // Acme cannot give its leads Demo Perú's labels
    const refs = await call('POST', '/gravity-forms', { name: 'Ajeno', formId: 5, siteUrl: fake.url, mostradorLabelIds: [labelId] }, acme, acmeCo);
    expect(refs.statusCode).toBe(400);
    // Acme's own form of the same site and id: its secret does not open Demo Perú's webhook
    const acmeForm = await createForm({ name: 'Contacto Acme', fieldMap: { name: '1', email: '3', phone: '4' } }, acme, acmeCo);
    const acmeSecret = (await call('POST', `/gravity-forms/${acmeForm}/webhook-secret`, undefined, acme, acmeCo)).json().secret as string;
    const entry = fake.site.submit(5, { '1.3': 'Intrusa', '3': 'intrusa@acme.cl', '4': '+56 9 1234 5678' });
    expect((await hook(formA, entry, acmeSecret)).statusCode).toBe(401);
    expect((await hook(acmeForm, entry, acmeSecret)).statusCode).toBe(200);
    const seen = await until(
      async () => (await entriesOf(acmeForm, acme, acmeCo)).find((e) => e.entryId === Number(entry.id)),
      (e) => Boolean(e && e.status !== 'pending'),
    );
    expect(seen?.status).toBe('created');
    expect(await leadsWith(`email=${encodeURIComponent('intrusa@acme.cl')}`, acme, acmeCo)).toHaveLength(1);
    expect(await leadsWith(`email=${encodeURIComponent('intrusa@acme.cl')}`)).toHaveLength(0);
    const acmeDead = (await call('GET', '/webhooks/dead-letters', undefined, acme, acmeCo)).json().payload as Array<{ provider: string }>;
    expect(acmeDead.some((d) => d.provider === 'gravity-forms')).toBe(false);
  });
});

describe('the demo\'s sandbox site', () => {
  it('starts with entries made into leads, one merged and one rejected, and a pull finds nothing new', async () => {
    const forms = (await call('GET', '/gravity-forms')).json().payload as Array<{ _id: string; name: string }>;
    const contact = forms.find((f) => f.name === 'Contacto web');
    expect(contact).toBeTruthy();
    const status = (await call('GET', `/gravity-forms/${contact?._id}/status`)).json() as GravityFormStatus;
    expect(status).toMatchObject({ sandbox: true, webhookSecretSet: true, entries: { rejected: 1 } });
    expect(status.entries.merged).toBeGreaterThanOrEqual(1);
    expect(status.entries.created).toBeGreaterThanOrEqual(5);
    const entries = await entriesOf(contact?._id as string);
    expect(entries.some((e) => e.source === 'webhook')).toBe(true);
    expect((await call('POST', `/gravity-forms/${contact?._id}/test`)).json()).toMatchObject({ ok: true, msg: expect.stringContaining('(sitio de prueba)') });
    expect((await call('POST', `/gravity-forms/${contact?._id}/sync`)).statusCode).toBe(202);
    const after = await until(
      async () => (await call('GET', `/gravity-forms/${contact?._id}/status`)).json() as GravityFormStatus,
      (s) => s.sync.status === 'done',
    );
    expect(after.sync).toMatchObject({ done: 0, created: 0 });
    const real = forms.find((f) => f.name === 'Libro de reclamaciones');
    expect((await call('POST', `/gravity-forms/${real?._id}/test`)).json()).toMatchObject({ ok: false, field: 'consumerKey' });
  });
});
