import { type GoogleLeadsOut, googleMessages, type GooglePhoneOut, type GoogleSyncOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/lib/log-redact.js';
import { toE164 } from '../src/modules/google-people/sync.js';
import { type FakeGoogle, startFakeGoogle } from './fakes/google-people.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Google contacts of the business's phones (issue 15, decision 0052), against a fake of Google's
 * OAuth endpoints and People API: the OAuth client's secret is kept sealed and never answered;
 * the consent's state is sealed, bound to the phone and used once; the sync creates the phone's
 * leads 200 at a time, never twice, refreshes the token on a 401, waits out a 429, finds what a cut
 * run had sent, names what Google refuses, and a revoked grant asks to reconnect — each company
 * its own phones.
 */
const PUBLIC_URL = 'http://mostrador.test';
const CLIENT_ID = '731942065871-k3v9q2r8demo0lucho.apps.googleusercontent.com';
const CLIENT_SECRET = 'GOCSPX-Fq9wK2mZ7xLr4VtN8bHc1sPd0Ue';

let t: TestApp;
let google: FakeGoogle;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let phoneId: string;
let leadSeq = 0;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });
const phone = async (id = phoneId) => (await call('GET', `/google-people/phones/${id}`)).json() as GooglePhoneOut;

/** Leads of the phone, each with a Peruvian mobile written as stored (digits with the country code). */
async function addLeads(n: number, telefonoId = phoneId, telefono?: (i: number) => string | null) {
  const rows = Array.from({ length: n }, () => {
    const i = ++leadSeq;
    return { name: `Cliente ${i} Prueba`, telefono: telefono ? telefono(i) : `5199${String(1_000_000 + i).padStart(7, '0')}`, email: i % 3 ? `cliente${i}@gmail.com` : null };
  });
  await t.sql(
    `insert into leads (company_id, name, telefono, email, platform, status, telefono_id)
     select $1, x.name, x.telefono, x.email, 'whatsapp', 'sin-asignar', $2 from jsonb_to_recordset($3::jsonb) as x(name text, telefono text, email text)`,
    [peru, telefonoId, JSON.stringify(rows)],
  );
}

/** Starts a sync and waits for it to end. */
async function sync(id = phoneId): Promise<GoogleSyncOut> {
  const started = await call('POST', `/google-people/phones/${id}/sync`);
  expect(started.statusCode, started.body).toBe(202);
  let s = started.json() as GoogleSyncOut;
  for (let i = 0; i < 200 && (s.status === 'en-cola' || s.status === 'en-curso'); i++) {
    await new Promise((r) => setTimeout(r, 150));
    s = (await phone(id)).lastSync as GoogleSyncOut;
  }
  return s;
}

async function connect(id = phoneId): Promise<string> {
  const saved = await call('POST', `/google-people/phones/${id}/credentials`, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  expect(saved.statusCode, saved.body).toBe(200);
  const back = new URL(await google.consent(saved.json().url));
  const res = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  expect(res.statusCode).toBe(302);
  return String(res.headers.location);
}

beforeAll(async () => {
  google = await startFakeGoogle();
  google.clients.set(CLIENT_ID, { secret: CLIENT_SECRET, redirectUris: [`${PUBLIC_URL}/api/google-people/callback`] });
  t = await startTestApp({ ...google.env, PUBLIC_URL });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  const created = await call('POST', '/telefonos', { numero: '51911222333' });
  expect(created.statusCode, created.body).toBe(201);
  phoneId = created.json()._id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await google?.close();
});

describe('connecting a phone to Google', () => {
  it('keeps the client id and secret sealed, never answers the secret, and builds Google’s consent URL', async () => {
    const bad = await call('POST', `/google-people/phones/${phoneId}/credentials`, { clientId: 'no es un client id', clientSecret: CLIENT_SECRET });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toMatch(/Client ID/);

    const saved = await call('POST', `/google-people/phones/${phoneId}/credentials`, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(CLIENT_SECRET);
    expect(saved.headers['cache-control']).toBe('no-store');
    const url = new URL(saved.json().url);
    expect(`${url.origin}${url.pathname}`).toBe(google.env.GOOGLE_OAUTH_AUTH_URL);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${PUBLIC_URL}/api/google-people/callback`,
      response_type: 'code',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('scope')?.split(' ')).toContain('https://www.googleapis.com/auth/contacts');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.toString()).not.toContain(CLIENT_SECRET);

    // at rest: sealed; in every answer: never
    const [row] = await t.sql<{ c: string }>('select credenciales::text as c from telefonos where id = $1', [phoneId]);
    expect(row.c).not.toContain(CLIENT_SECRET);
    expect(row.c).not.toContain(CLIENT_ID);
    for (const path of [`/telefonos/${phoneId}`, '/telefonos', `/google-people/phones/${phoneId}`, '/google-people/phones']) {
      const res = await call('GET', path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).not.toContain(CLIENT_SECRET);
    }
    expect((await call('GET', `/telefonos/${phoneId}`)).json().credencialesSet).toBe(true);
    expect(await phone()).toMatchObject({ state: 'falta-autorizar', clientIdHint: '731942065871…', sandbox: false });
  });

  it("refuses another company's phone (404) and keeps nothing there", async () => {
    const other = await call('POST', `/google-people/phones/${phoneId}/credentials`, { clientId: CLIENT_ID, clientSecret: 'GOCSPX-otraEmpresa' }, acme, acmeCo);
    expect(other.statusCode).toBe(404);
    expect(other.json().errors.msg).toBe(googleMessages.phoneMissing);
    for (const [method, path] of [
      ['GET', `/google-people/phones/${phoneId}`],
      ['GET', `/google-people/phones/${phoneId}/leads`],
      ['POST', `/google-people/phones/${phoneId}/authorize`],
      ['POST', `/google-people/phones/${phoneId}/sync`],
      ['DELETE', `/google-people/phones/${phoneId}`],
    ] as const) {
      expect((await call(method, path, undefined, acme, acmeCo)).statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await call('GET', '/google-people/phones', undefined, acme, acmeCo)).body).not.toContain(phoneId);
    expect((await call('POST', '/google-people/phones/no-es-un-id/credentials', { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })).statusCode).toBe(400);
  });

  it('refuses a forged, tampered, missing or replayed state, and connects with the real one', async () => {
    const consent = (await call('POST', `/google-people/phones/${phoneId}/authorize`)).json().url as string;
    const back = new URL(await google.consent(consent));
    const state = back.searchParams.get('state') as string;
    const code = back.searchParams.get('code') as string;
    const tampered = `${state.slice(0, 20)}${state[20] === 'A' ? 'B' : 'A'}${state.slice(21)}`;
    for (const q of [`code=${code}&state=v1.Zm9yamFkbw`, `code=${code}&state=${tampered}`, `code=${code}`, `code=${code}&state=${encodeURIComponent('{"t":"x"}')}`]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/google-people/callback?${q}` });
      expect(res.statusCode, q).toBe(302);
      expect(res.headers.location, q).toBe('/telefonos?google=estado-invalido');
    }
    expect((await phone()).state).toBe('falta-autorizar');

    const ok = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toBe(`/telefonos?google=conectado&telefono=${phoneId}`);
    expect(ok.headers['referrer-policy']).toBe('no-referrer');
    // the same state again: used once
    const replay = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(replay.headers.location).toBe('/telefonos?google=estado-invalido');
    expect(await phone()).toMatchObject({ state: 'conectado', googleContactEmail: google.email });
    const [row] = await t.sql<{ c: string }>('select credenciales::text as c from telefonos where id = $1', [phoneId]);
    expect(row.c).not.toMatch(/ya29\.|1\/\/fake/);
  });

  it('says why when the person cancels in Google or the code is refused', async () => {
    const consent = (await call('POST', `/google-people/phones/${phoneId}/authorize`)).json().url as string;
    const state = new URL(consent).searchParams.get('state') as string;
    const denied = await t.app.inject({ method: 'GET', url: `/api/google-people/callback?error=access_denied&state=${encodeURIComponent(state)}` });
    expect(denied.headers.location).toBe(`/telefonos?google=cancelado&telefono=${phoneId}`);
    const again = (await call('POST', `/google-people/phones/${phoneId}/authorize`)).json().url as string;
    const s2 = new URL(again).searchParams.get('state') as string;
    const badCode = await t.app.inject({ method: 'GET', url: `/api/google-people/callback?code=4/0inventado&state=${encodeURIComponent(s2)}` });
    expect(badCode.headers.location).toBe(`/telefonos?google=codigo-invalido&telefono=${phoneId}`);
    // the tokens of the earlier consent still hold
    expect((await phone()).state).toBe('conectado');
  });
});

describe('«Sincronizar con Google»', () => {
  it('creates 450 leads in three calls of 200, 200 and 50, each with its E.164 phone, and keeps each resourceName', async () => {
    google.reset();
    await addLeads(450);
    const s = await sync();
    expect(s).toMatchObject({ status: 'terminada', total: 450, done: 450, created: 450, failed: 0, requests: 3 });
    expect(s.message).toBe(googleMessages.done(450, 0));
    expect(google.batches).toEqual([200, 200, 50]);
    expect(google.people).toHaveLength(450);
    expect(google.people.every((p) => /^\+5199\d{7}$/.test(p.phones[0]) && p.name.startsWith('Cliente '))).toBe(true);
    expect(await phone()).toMatchObject({ leads: 450, synced: 450 });
    const leads = (await call('GET', `/google-people/phones/${phoneId}/leads?limit=5`)).json() as GoogleLeadsOut;
    expect(leads.total).toBe(450);
    expect(leads.payload.every((l) => /^people\/c\d+$/.test(l.resourceName ?? ''))).toBe(true);
  });

  it('creates nothing twice: a second sync with no new leads calls Google for nothing, a new lead alone', async () => {
    const again = await sync();
    expect(again).toMatchObject({ status: 'terminada', total: 0, requests: 0, message: googleMessages.nothingToSync });
    expect(google.batches).toEqual([200, 200, 50]);
    await addLeads(5);
    expect(await sync()).toMatchObject({ status: 'terminada', created: 5, requests: 1 });
    expect(google.batches).toEqual([200, 200, 50, 5]);
    expect(google.people).toHaveLength(455);
  });

  it('refreshes the access token on a 401 with the refresh token, and keeps the new one sealed', async () => {
    const [before] = await t.sql<{ c: string }>('select credenciales::text as c from telefonos where id = $1', [phoneId]);
    google.expireAccessTokens();
    const refreshes = google.refreshes;
    await addLeads(3);
    expect(await sync()).toMatchObject({ status: 'terminada', created: 3 });
    expect(google.refreshes).toBe(refreshes + 1);
    const [after] = await t.sql<{ c: string }>('select credenciales::text as c from telefonos where id = $1', [phoneId]);
    expect(after.c).not.toBe(before.c);
    const kept = t.app.secrets.open<{ access_token: string; refresh_token: string }>(JSON.parse(after.c));
    expect(kept.access_token).toMatch(/^ya29\.fake-/);
    expect(kept.refresh_token).toMatch(/^1\/\/fake-/);
    // a second sync uses the refreshed token without refreshing again
    await addLeads(1);
    await sync();
    expect(google.refreshes).toBe(refreshes + 1);
  });

  it('waits out 429s and sends the batch again', async () => {
    google.rateLimitNext = 2;
    await addLeads(2);
    expect(await sync()).toMatchObject({ status: 'terminada', created: 2, requests: 3 });
    expect(google.requests.filter((r) => r.status === 429)).toHaveLength(2);
  });

  it('names the leads Google refuses or that have no usable phone, and creates the rest', async () => {
    const before = google.people.length;
    await addLeads(1, phoneId, () => null);
    await addLeads(1, phoneId, () => '5112');
    await addLeads(6);
    const refused = `+5199${String(1_000_000 + leadSeq).padStart(7, '0')}`;
    google.refuse.add(refused);
    const s = await sync();
    expect(s).toMatchObject({ status: 'terminada', created: 5, failed: 3 });
    expect(google.people.length).toBe(before + 5);
    const leads = (await call('GET', `/google-people/phones/${phoneId}/leads?limit=100`)).json() as GoogleLeadsOut;
    const problems = leads.payload.filter((l) => l.problem).map((l) => l.problem).sort();
    expect(problems).toEqual([googleMessages.badPhone, googleMessages.noPhone, googleMessages.refused].sort());
    google.refuse.clear();
  });

  it('resumes a batch whose answer was lost: finds it by external id instead of creating it again', async () => {
    await addLeads(4);
    const before = google.people.length;
    google.failAfterCreateNext = 1;
    const lost = await sync();
    expect(lost).toMatchObject({ status: 'fallida', message: googleMessages.unavailable });
    // Google made them (the 4 and the lead it refused before), but the answer never came
    expect(google.people.length).toBe(before + 5);
    const resumed = await sync();
    expect(resumed).toMatchObject({ status: 'terminada', created: 5 });
    // found among the account's contacts by their external id: none created again
    expect(google.people.length).toBe(before + 5);
    expect(google.requests.some((r) => r.path === '/v1/people/me/connections' && r.status === 200)).toBe(true);
    const leads = (await call('GET', `/google-people/phones/${phoneId}/leads?limit=4`)).json() as GoogleLeadsOut;
    expect(leads.payload.every((l) => l.resourceName)).toBe(true);
  });

  it('a revoked grant (invalid_grant) marks the phone «Reconectar con Google» with the reason', async () => {
    google.revokeRefreshTokens();
    await addLeads(1);
    const s = await sync();
    expect(s).toMatchObject({ status: 'fallida', message: googleMessages.invalidGrant });
    expect(await phone()).toMatchObject({ state: 'reconectar', reason: googleMessages.invalidGrant });
    const refused = await call('POST', `/google-people/phones/${phoneId}/sync`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.msg).toBe(googleMessages.invalidGrant);
    // reconnecting makes it whole again, and the pending lead is created
    expect(await connect()).toBe(`/telefonos?google=conectado&telefono=${phoneId}`);
    expect((await phone()).state).toBe('conectado');
    expect(await sync()).toMatchObject({ status: 'terminada', created: 1 });
  });
});

describe('the demo sandbox', () => {
  it('has a phone connected to the sandbox Google with leads already synced, and one to reconnect', async () => {
    const phones = ((await call('GET', '/google-people/phones')).json() as { payload: GooglePhoneOut[] }).payload;
    const sandbox = phones.find((p) => p.sandbox && p.state === 'conectado');
    expect(sandbox).toBeDefined();
    expect(sandbox?.synced).toBeGreaterThan(0);
    expect(sandbox?.lastSync?.status).toBe('terminada');
    expect(phones.some((p) => p.state === 'reconectar' && p.reason)).toBe(true);
    expect(phones.some((p) => p.state === 'sin-conectar')).toBe(true);

    const id = sandbox?.telefonoId as string;
    await addLeads(3, id);
    const before = google.requests.length;
    const s = await sync(id);
    expect(s.status).toBe('terminada');
    expect(s.created).toBeGreaterThanOrEqual(3);
    expect(google.requests.length).toBe(before);

    // the sandbox consent answers on our own origin, back to the callback
    const url = (await call('POST', `/google-people/phones/${id}/authorize`)).json().url as string;
    expect(url.startsWith('/api/google-people/sandbox/consent?')).toBe(true);
    const consent = await t.app.inject({ method: 'GET', url });
    expect(consent.statusCode).toBe(302);
    const back = await t.app.inject({ method: 'GET', url: String(consent.headers.location) });
    expect(back.headers.location).toBe(`/telefonos?google=conectado&telefono=${id}`);
  });
});

describe('what the log and Google are given', () => {
  it('describes the routes in the OpenAPI', async () => {
    const paths = Object.keys((await t.app.inject('/api/docs/json')).json().paths);
    for (const p of ['/api/google-people/phones', '/api/google-people/phones/{id}', '/api/google-people/phones/{id}/leads', '/api/google-people/phones/{id}/credentials', '/api/google-people/phones/{id}/authorize', '/api/google-people/phones/{id}/sync', '/api/google-people/callback']) {
      expect(paths, p).toContain(p);
    }
  });


  it('never logs the secret of the spec route nor an OAuth code or state', () => {
    expect(redactUrl(`/telefonos/googlepeople/abc/${CLIENT_ID}/${CLIENT_SECRET}`)).toBe('/telefonos/googlepeople/abc/[oculto]');
    expect(redactUrl(`/telefonos/googlepeople/abc/${CLIENT_ID}/${CLIENT_SECRET}?x=1`)).toBe('/telefonos/googlepeople/abc/[oculto]?x=1');
    expect(redactUrl('/api/google-people/callback?code=4/0abc&state=v1.xyz&scope=a')).toBe('/api/google-people/callback?code=[oculto]&state=[oculto]&scope=a');
    expect(redactUrl('/telefonos/googlepeople/abc')).toBe('/telefonos/googlepeople/abc');
    expect(redactUrl('/api/leads?page=2')).toBe('/api/leads?page=2');
  });

  it('writes phones in E.164: stored digits with their code, else a number of the company’s country', () => {
    expect(toE164('51987654321', 'PE')).toBe('+51987654321');
    expect(toE164('987654321', 'PE')).toBe('+51987654321');
    expect(toE164('+56 9 8765 4321', 'PE')).toBe('+56987654321');
    expect(toE164('3001234567', 'CO')).toBe('+573001234567');
    expect(toE164('5112', 'PE')).toBeUndefined();
    expect(toE164(null, 'PE')).toBeUndefined();
  });
});
