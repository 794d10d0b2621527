import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxLabelClient } from '../src/integrations/meta/labels.js';
import type { FakeGraph } from './fakes/meta.js';
import { type FakeLabels, labelPages, startLabelPages } from './fakes/meta-labels.js';
import { as, type Signed, type TestApp } from './helpers.js';

/** /etiquetas-facebook «Sincronizar con Facebook» (issue 15, decision 0057) against a fake of the page's labels. */
const { pageId: PAGE, token: TOKEN } = labelPages.chile;
const { pageId: OTHER_PAGE, token: OTHER_TOKEN } = labelPages.acme;

let t: TestApp;
let fake: FakeGraph;
let fb: FakeLabels;
let admin: Signed;
let acme: Signed;
let chile: Record<string, string>;
type Rec = Record<string, unknown>;

const call = (headers: Record<string, string>, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url: `/api${url}`, headers, payload: payload as object });
/** The company's Facebook labels as [name, Facebook id]: the list's pages, all of them. */
async function labelsOf(headers: Record<string, string>) {
  const out: unknown[][] = [];
  for (let page = 1; ; page++) {
    const body = (await call(headers, 'GET', `/facebook-labels?limit=100&page=${page}`)).json() as { payload: Rec[]; totalPages: number };
    out.push(...body.payload.map((l) => [l.name, l.facebookLabelId ?? null]));
    if (page >= body.totalPages) break;
  }
  return out.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

beforeAll(async () => {
  ({ t, fake, fb, admin, acme, chile } = await startLabelPages());
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('«Sincronizar con Facebook» of /etiquetas-facebook', () => {
  it('brings the page’s labels (page after page), links ours by name, and creates ours at the page', async () => {
    // the page has 130 labels made in its Page Inbox: two pages of 100
    fb.labels.set(PAGE, Array.from({ length: 130 }, (_, i) => ({ id: String(9_000_000 + i), name: i === 0 ? 'VIP' : `Etiqueta ${i}` })));
    expect((await call(chile, 'POST', '/facebook-labels', { name: 'vip' })).statusCode).toBe(201);
    expect((await call(chile, 'POST', '/facebook-labels', { name: 'Pidió factura' })).statusCode).toBe(201);
    const res = await call(chile, 'POST', '/facebook-labels/sync');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 129, linked: 1, pushed: 1, renamed: 0, missing: 0, pageLabels: 131 });
    expect(res.json().msg).toBe('Etiquetas sincronizadas con Facebook: 129 nuevas desde la página, 1 enlazadas por nombre, 1 creadas en la página');
    const gets = fb.calls.filter((c) => c.method === 'GET');
    expect(gets).toHaveLength(2);
    expect(gets.every((c) => c.authorization === `Bearer ${TOKEN}`)).toBe(true);
    // ours, made at the page with Facebook's name field
    const made = fb.calls.filter((c) => c.method === 'POST');
    expect(made.map((c) => c.body)).toEqual([{ page_label_name: 'Pidió factura' }]);
    const mine = await labelsOf(chile);
    expect(mine).toContainEqual(['vip', '9000000']);
    expect(mine).toContainEqual(['Etiqueta 129', '9000129']);
    expect(mine.find(([name]) => name === 'Pidió factura')?.[1]).toBe(fb.labels.get(PAGE)?.at(-1)?.id);
    expect(mine).toHaveLength(131);
  });

  it('a second sync changes nothing; a rename and a deletion at the page are followed', async () => {
    const again = await call(chile, 'POST', '/facebook-labels/sync');
    expect(again.json()).toMatchObject({ created: 0, linked: 0, pushed: 0, renamed: 0, missing: 0, msg: 'Las etiquetas ya coinciden con las 131 de la página' });
    const page = fb.labels.get(PAGE) ?? [];
    page[1].name = 'Mayorista';
    page.splice(2, 1);
    const moved = await call(chile, 'POST', '/facebook-labels/sync');
    expect(moved.json()).toMatchObject({ renamed: 1, missing: 1, created: 0, pushed: 0 });
    const mine = await labelsOf(chile);
    expect(mine).toContainEqual(['Mayorista', '9000001']);
    expect(mine.some(([name]) => name === 'Etiqueta 2')).toBe(false);
    expect(mine).toHaveLength(130);
  });

  it('says in Spanish what Facebook refuses, and changes nothing', async () => {
    const before = await labelsOf(chile);
    fb.noTerms.add(PAGE);
    const terms = await call(chile, 'POST', '/facebook-labels/sync');
    fb.noTerms.delete(PAGE);
    expect(terms.statusCode).toBe(502);
    expect(terms.json().errors.msg).toContain('aceptar las Condiciones de contactos de la página');
    expect((await call(chile, 'PUT', '/channels/meta', { pageId: PAGE, pageName: 'Demo Chile', accessToken: 'EAAB-vencido-0123456789abc' })).statusCode).toBe(200);
    const expired = await call(chile, 'POST', '/facebook-labels/sync');
    expect(expired.statusCode).toBe(502);
    expect(expired.json().errors.msg).toContain('El token de la página de Facebook venció');
    expect((await call(chile, 'PUT', '/channels/meta', { pageId: PAGE, pageName: 'Demo Chile', accessToken: TOKEN })).statusCode).toBe(200);
    expect(await labelsOf(chile)).toEqual(before);
  });

  it('needs a connected page, and each company syncs its own page only', async () => {
    const peru = as(admin, admin.company('Demo Perú'));
    expect((await call(peru, 'DELETE', '/channels/messenger')).statusCode).toBe(200);
    const none = await call(peru, 'POST', '/facebook-labels/sync');
    expect(none.statusCode).toBe(409);
    expect(none.json().errors.msg).toContain('no tiene una página de Facebook conectada');
    fb.labels.set(OTHER_PAGE, [{ id: '777', name: 'Solo de Acme' }]);
    const acmeHeaders = as(acme, acme.company('Acme'));
    expect((await call(acmeHeaders, 'POST', '/facebook-labels/sync')).json()).toMatchObject({ created: 1 });
    expect((await labelsOf(chile)).some(([name]) => name === 'Solo de Acme')).toBe(false);
    expect(fb.calls.filter((c) => c.pageId === OTHER_PAGE).every((c) => c.authorization === `Bearer ${OTHER_TOKEN}`)).toBe(true);
  });
});

describe('the demo’s sandbox page', () => {
  it('answers without the internet and keeps what Mostrador creates; the demo’s labels match it', async () => {
    const peru = as(admin, admin.company('Demo Perú'));
    const seeded = (await labelsOf(peru)).filter(([, fbId]) => fbId);
    const sandbox = createSandboxLabelClient();
    const onPage = await sandbox.list({ pageId: PAGE });
    for (const [name, fbId] of seeded) expect(onPage).toContainEqual({ id: fbId, name });
    const made = await sandbox.create({ pageId: PAGE }, 'Nueva');
    expect((await sandbox.list({ pageId: PAGE })).map((l) => l.id)).toContain(made.id);
  });
});
