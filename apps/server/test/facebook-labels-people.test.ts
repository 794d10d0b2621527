import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxLabelClient } from '../src/integrations/meta/labels.js';
import type { FakeGraph } from './fakes/meta.js';
import { type FakeLabels, labelPages, startLabelPages } from './fakes/meta-labels.js';
import { as, type Signed, type TestApp, until } from './helpers.js';

/**
 * The page's labels on people (issue 15, decision 0057): a Messenger lead given a Mostrador label
 * linked to a page label gets that label at Facebook (`POST /{label-id}/label`), and loses it when
 * the label is taken off — sent by the job from what the labelling write recorded, against a fake
 * that checks what Facebook checks.
 */
const { pageId: PAGE, token: TOKEN } = labelPages.chile;
const { pageId: OTHER_PAGE, token: OTHER_TOKEN } = labelPages.acme;
const VIP = '9100001';
const MAYORISTA = '9100002';
const GONE = '9100099';
const ACME_LABEL = '9200001';

let t: TestApp;
let fake: FakeGraph;
let fb: FakeLabels;
let admin: Signed;
let chile: Record<string, string>;
let acmeHeaders: Record<string, string>;
type Rec = Record<string, unknown>;
const ids: Record<string, string> = {};
let psidSeq = 0;

async function ok(method: string, url: string, payload?: unknown, headers = chile): Promise<Rec> {
  const res = await t.app.inject({ method: method as 'GET', url: `/api${url}`, headers, payload: payload as object });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}
const id = (r: Rec) => r._id as string;
const on = (labelId: string, psid: string) => fb.people.get(labelId)?.has(psid) ?? false;

/** A Messenger lead of the page (a person who wrote to it: their PSID is the page's). */
async function messengerLead(name: string, labels: string[], headers = chile, page = PAGE, extra: Rec = {}) {
  const psid = String(6_100_000_000_000_000 + ++psidSeq);
  fb.psids.set(page, new Set([...(fb.psids.get(page) ?? []), psid]));
  const lead = await ok('POST', '/leads', { name, platform: 'facebook', status: 'sin-asignar', platformUserId: psid, mostradorLabels: labels, ...extra }, headers);
  expect(lead.platformUserId).toBe(psid);
  return { id: id(lead), psid, cleanLeadId: lead.cleanLeadId as string | undefined };
}

/** Labels a lead, then waits for the job to have sent everything due before it (the rows go by due time). */
async function settled() {
  const probe = await messengerLead(`Sonda ${psidSeq}`, [ids.vip]);
  await until(async () => on(VIP, probe.psid) && (await rowsOf(probe.psid))[0]?.applied === true, Boolean, 20_000, 'la sonda');
}

const rowsOf = (psid: string) => t.sql<{ page_label_id: string; wanted: boolean; applied: boolean; due: boolean; reason: string | null }>(
  'select page_label_id, wanted, applied, due_at is not null as due, reason from facebook_label_people where psid = $1 order by page_label_id',
  [psid],
);

beforeAll(async () => {
  ({ t, fake, fb, admin, chile, acmeHeaders } = await startLabelPages());
  fb.labels.set(PAGE, [
    { id: VIP, name: 'VIP' },
    { id: MAYORISTA, name: 'Mayorista FB' },
  ]);
  fb.labels.set(OTHER_PAGE, [{ id: ACME_LABEL, name: 'Cliente Acme' }]);
  for (const name of ['vip', 'mayorista', 'suelta', 'borrada']) ids[name] = id(await ok('POST', '/mostrador-labels', { name: `FB ${name}`, color: '#1e90ff' }));
  ids.acme = id(await ok('POST', '/mostrador-labels', { name: 'FB acme', color: '#1e90ff' }, acmeHeaders));
  await ok('POST', '/facebook-labels', { name: 'VIP página', facebookLabelId: VIP, foreignLabelId: ids.vip });
  await ok('POST', '/facebook-labels', { name: 'Mayorista página', facebookLabelId: MAYORISTA, foreignLabelId: ids.mayorista });
  // a label whose page label was deleted at Facebook since the last sync
  await ok('POST', '/facebook-labels', { name: 'Borrada en la página', facebookLabelId: GONE, foreignLabelId: ids.borrada });
  await ok('POST', '/facebook-labels', { name: 'Cliente Acme', facebookLabelId: ACME_LABEL, foreignLabelId: ids.acme }, acmeHeaders);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('the page’s labels on people', () => {
  it('a Messenger lead labelled through the API gets the page label at Facebook; taking it off removes it', async () => {
    const ana = await messengerLead('Ana Messenger', []);
    await ok('PUT', `/leads/${ana.id}`, { mostradorLabels: [ids.vip, ids.mayorista] });
    await until(async () => on(VIP, ana.psid) && on(MAYORISTA, ana.psid) && (await rowsOf(ana.psid)).every((r) => r.applied), Boolean, 20_000, 'las dos etiquetas');
    const puts = fb.tags.filter((c) => c.psid === ana.psid);
    expect(puts.map((c) => [c.action, c.labelId, c.status]).sort()).toEqual([
      ['put', VIP, 200],
      ['put', MAYORISTA, 200],
    ]);
    expect(puts.every((c) => c.authorization === `Bearer ${TOKEN}`)).toBe(true);

    await ok('PUT', `/leads/${ana.id}`, { mostradorLabels: [ids.vip] });
    await until(async () => !on(MAYORISTA, ana.psid) && (await rowsOf(ana.psid)).every((r) => r.wanted === r.applied && !r.due), Boolean, 20_000, 'la etiqueta quitada');
    expect(fb.tags.filter((c) => c.psid === ana.psid && c.action === 'remove').map((c) => c.labelId)).toEqual([MAYORISTA]);
    expect(on(VIP, ana.psid)).toBe(true);

    const status = await ok('GET', '/facebook-labels/people');
    const counts = Object.fromEntries((status.labels as Rec[]).map((l) => [l.facebookLabelId, l]));
    expect(counts[VIP]).toMatchObject({ pending: 0, failed: 0 });
    expect(counts[VIP].applied).toBeGreaterThanOrEqual(1);
    expect(counts[MAYORISTA]).toMatchObject({ applied: 0, pending: 0 });
  });

  it('labels given to the person (massive labels) reach their Messenger lead too', async () => {
    const marcador = id(await ok('POST', '/mostrador-labels', { name: 'FB marcador', color: '#777777' }));
    const person = await ok('POST', '/clean-leads', { name: 'Luis Masivo', status: 'sin-asignar', email: 'luis.masivo@example.com', mostradorLabels: [marcador] });
    const luis = await messengerLead('Luis Masivo', [], chile, PAGE, { cleanLeadId: id(person) });
    expect(luis.cleanLeadId).toBe(id(person));
    const segment = await ok('POST', '/marketing-segments', { name: 'Marcados FB', filters: { mostradorLabelIds: [marcador] } });
    await ok('POST', '/clean-leads/set_mostrador_labels_massive', { segmentId: id(segment), mostradorLabelIds: [ids.mayorista] });
    await until(async () => on(MAYORISTA, luis.psid), Boolean, 20_000, 'la etiqueta masiva');
  });

  it('a label linked later goes to the Messenger people who already carry it; a page label no longer ours forgets its people', async () => {
    const tarde = id(await ok('POST', '/mostrador-labels', { name: 'FB tarde', color: '#777777' }));
    const nora = await messengerLead('Nora Antes', [tarde]);
    expect(await rowsOf(nora.psid)).toEqual([]);
    fb.labels.get(PAGE)?.push({ id: '9100005', name: 'Tarde FB' });
    const row = await ok('POST', '/facebook-labels', { name: 'Tarde página', facebookLabelId: '9100005', foreignLabelId: tarde });
    await until(async () => on('9100005', nora.psid) && (await rowsOf(nora.psid))[0]?.applied === true, Boolean, 20_000, 'la etiqueta enlazada después');
    await ok('DELETE', `/facebook-labels/${id(row)}`);
    expect(await rowsOf(nora.psid)).toEqual([]);
  });

  it('a WhatsApp lead, or a label with no page label, sends nothing; a label put then taken off before sending sends nothing', async () => {
    const before = fb.tags.length;
    const wa = await ok('POST', '/leads', { name: 'Wendy WhatsApp', platform: 'whatsapp', status: 'sin-asignar', telefono: '56911223344', platformUserId: '56911223344', mostradorLabels: [ids.vip] });
    const loose = await messengerLead('Sin enlace', [ids.suelta]);
    // put and taken off in one transaction: the job never sees the label wanted
    const undone = await messengerLead('Arrepentida', []);
    await t.sql(`begin; update leads set mostrador_labels = '["${ids.vip}"]'::jsonb where id = '${undone.id}'; update leads set mostrador_labels = '[]'::jsonb where id = '${undone.id}'; commit`);
    await settled();
    const since = fb.tags.slice(before);
    expect(since.some((c) => c.psid === '56911223344' || c.psid === loose.psid || c.psid === undone.psid)).toBe(false);
    expect(await rowsOf('56911223344')).toEqual([]);
    expect(await rowsOf(loose.psid)).toEqual([]);
    expect(await rowsOf(undone.psid)).toEqual([{ page_label_id: VIP, wanted: false, applied: false, due: false, reason: null }]);
    expect(id(wa)).toBeTruthy();
  });

  it('a label the page no longer has, or a person not of the page, is refused for good in Spanish, and the other labels still go', async () => {
    const eva = await messengerLead('Eva Borrada', [ids.borrada, ids.vip]);
    await until(async () => on(VIP, eva.psid), Boolean, 20_000, 'la etiqueta VIP');
    await until(async () => (await rowsOf(eva.psid)).some((r) => r.reason), Boolean, 20_000, 'el rechazo');
    const gone = (await rowsOf(eva.psid)).find((r) => r.page_label_id === GONE);
    expect(gone).toMatchObject({ applied: false, due: false });
    expect(gone?.reason).toContain('La etiqueta ya no existe en la página de Facebook');

    // someone whose PSID is not one of the page's people
    const stranger = await ok('POST', '/leads', { name: 'Otro Página', platform: 'facebook', status: 'sin-asignar', platformUserId: '6199999999999999', mostradorLabels: [ids.vip] });
    await until(async () => (await rowsOf('6199999999999999')).some((r) => r.reason), Boolean, 20_000, 'el rechazo de la persona');
    expect((await rowsOf('6199999999999999'))[0].reason).toContain('La persona no está disponible en esta página');

    const status = await ok('GET', '/facebook-labels/people');
    const failures = status.failures as Rec[];
    expect(failures).toContainEqual(expect.objectContaining({ facebookLabelId: GONE, leadName: 'Eva Borrada', action: 'put', retrying: false }));
    expect(failures).toContainEqual(expect.objectContaining({ facebookLabelId: VIP, leadId: id(stranger), retrying: false }));
    expect((status.labels as Rec[]).find((l) => l.facebookLabelId === GONE)).toMatchObject({ applied: 0, failed: 1 });
  });

  it('throttling and an expired token keep the work with a Spanish reason, do not stop other pages, and go with «Reintentar»', async () => {
    fb.throttled.set(PAGE, 1);
    const rosa = await messengerLead('Rosa Limitada', [ids.mayorista]);
    await until(async () => (await rowsOf(rosa.psid)).some((r) => r.reason), Boolean, 20_000, 'el límite');
    expect((await rowsOf(rosa.psid))[0]).toMatchObject({ wanted: true, applied: false, due: true });
    expect((await rowsOf(rosa.psid))[0].reason).toContain('Facebook limitó las llamadas de la página');

    await ok('PUT', '/channels/meta', { pageId: PAGE, pageName: 'Demo Chile', accessToken: 'EAAB-vencido-0123456789abc' });
    const beto = await messengerLead('Beto Vencido', [ids.vip]);
    await until(async () => (await rowsOf(beto.psid)).some((r) => r.reason), Boolean, 20_000, 'el token vencido');
    expect((await rowsOf(beto.psid))[0]).toMatchObject({ wanted: true, applied: false, due: true });
    expect((await rowsOf(beto.psid))[0].reason).toContain('El token de la página de Facebook venció');
    // another company's page is not held up
    const carla = await messengerLead('Carla Acme', [ids.acme], acmeHeaders, OTHER_PAGE);
    await until(async () => on(ACME_LABEL, carla.psid), Boolean, 20_000, 'la etiqueta de Acme');
    const status = await ok('GET', '/facebook-labels/people');
    expect(status.failures as Rec[]).toContainEqual(expect.objectContaining({ leadName: 'Beto Vencido', retrying: true }));

    await ok('PUT', '/channels/meta', { pageId: PAGE, pageName: 'Demo Chile', accessToken: TOKEN });
    const retried = await ok('POST', '/facebook-labels/people/retry');
    expect(retried.retried).toBeGreaterThanOrEqual(2);
    expect(retried.msg).toContain('Se reintentarán');
    await until(async () => on(VIP, beto.psid) && on(MAYORISTA, rosa.psid) && (await rowsOf(beto.psid))[0]?.applied === true, Boolean, 20_000, 'los reintentos');
    expect(await rowsOf(beto.psid)).toEqual([{ page_label_id: VIP, wanted: true, applied: true, due: false, reason: null }]);
  });

  it('another company never sends with or about ours', async () => {
    const before = fb.tags.length;
    // Acme cannot give its lead Chile's label, nor see Chile's people
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: acmeHeaders,
      payload: { name: 'Intruso', platform: 'facebook', status: 'sin-asignar', platformUserId: '6188888888888888', mostradorLabels: [ids.vip] },
    });
    expect(res.statusCode).toBe(400);
    const acmeStatus = await ok('GET', '/facebook-labels/people', undefined, acmeHeaders);
    expect((acmeStatus.labels as Rec[]).map((l) => l.facebookLabelId)).toEqual([ACME_LABEL]);
    expect((acmeStatus.failures as Rec[]).length).toBe(0);
    await settled();
    const since = fb.tags.slice(before);
    expect(since.filter((c) => c.labelId === ACME_LABEL)).toEqual([]);
    expect(since.every((c) => c.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(fb.tags.filter((c) => c.labelId === ACME_LABEL).every((c) => c.authorization === `Bearer ${OTHER_TOKEN}`)).toBe(true);
  });
});

describe('the demo’s sandbox page', () => {
  it('the demo shows how many of its Messenger people each page label is on', async () => {
    const peru = as(admin, admin.company('Demo Perú'));
    const status = await ok('GET', '/facebook-labels/people', undefined, peru);
    const labels = status.labels as Array<{ facebookLabelId: string; applied: number }>;
    expect(labels.map((l) => l.facebookLabelId).sort()).toEqual(['5432109876543210', '5432109876543212']);
    expect(labels.every((l) => l.applied > 0)).toBe(true);
    expect(status.failures).toEqual([]);
  });

  it('puts and removes labels without the internet', async () => {
    const sandbox = createSandboxLabelClient();
    await sandbox.tag({ pageId: PAGE }, VIP, '61', true);
    await sandbox.tag({ pageId: PAGE }, VIP, '61', true);
    expect([...(sandbox.tagged.get(VIP) ?? [])]).toEqual(['61']);
    await sandbox.tag({ pageId: PAGE }, VIP, '61', false);
    expect(sandbox.tagged.get(VIP)?.size).toBe(0);
  });
});
