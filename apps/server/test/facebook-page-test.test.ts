import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTestMessages } from '../src/integrations/meta/page-check.js';
import { type FakeGraph, type FakeGraphRoute, startFakeGraph } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * «Probar conexión» of the Facebook page (decision 0061): the token was stored without asking
 * Graph and nothing could tell the owner it had expired. The fake Graph answers `/me` and the
 * page's conversations by token, as Graph does: a page token its page, 190/463 for an expired one,
 * code 10 for a token without pages_messaging.
 */
const PAGE = '777000000000061';
const tokens = {
  ok: 'EAAGpaginaValida0000000000061',
  expired: 'EAAGpaginaVencida000000000061',
  noPermission: 'EAAGpaginaSinPermiso0000000061',
  user: 'EAAGtokenDeUsuario00000000061',
};

const route: FakeGraphRoute = ({ method, path, headers }, { json, graphError }) => {
  const token = String(headers.authorization ?? '').replace(/^Bearer /, '');
  const me = method === 'GET' && path.startsWith('/v21.0/me?');
  const conversations = method === 'GET' && path.startsWith(`/v21.0/${PAGE}/conversations?`);
  if (!me && !conversations) return false;
  if (token === tokens.expired) {
    graphError(400, { message: 'Error validating access token: Session has expired on Tuesday, 01-Dec-26 10:00:00 PST.', code: 190, error_subcode: 463 });
  } else if (token === tokens.user) {
    if (me) json(200, { id: '10229000000000042', name: 'Ana Pérez' });
    else graphError(400, { message: '(#210) A page access token is required to request this resource.', code: 210 });
  } else if (token === tokens.ok || token === tokens.noPermission) {
    if (me) json(200, { id: PAGE, name: 'Bodega Sur' });
    else if (token === tokens.ok) json(200, { data: [{ id: 't_1' }], paging: {} });
    else graphError(403, { message: "(#10) This endpoint requires the 'pages_messaging' permission to manage the object", code: 10 });
  } else {
    graphError(401, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
  }
  return true;
};

let t: TestApp;
let fake: FakeGraph;
let admin: Signed;
let company: string;
const call = (method: 'POST' | 'PUT', url: string, payload?: object, who: Signed = admin, co = company) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, co), payload });
const withToken = async (accessToken: string) => {
  const saved = await call('PUT', '/channels/meta', { pageId: PAGE, pageName: 'Bodega Sur', accessToken });
  expect(saved.statusCode, saved.body).toBe(200);
  const res = await call('POST', '/channels/meta/test');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  fake = await startFakeGraph('no-es-este', route);
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  admin = await login(t, demo.admin);
  company = (await call('POST', '/companies', { name: 'Bodega Sur', country: 'PE' }, admin, admin.company('Demo Perú'))).json()._id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('POST /channels/meta/test', () => {
  it('says so when the page has no page connected yet', async () => {
    const none = await call('POST', '/channels/meta/test');
    expect(none.statusCode).toBe(404);
    expect(none.json().errors.msg).toBe('La compañía no tiene una página de Facebook conectada: guarda primero su id y su token');
  });

  it('asks Graph with the stored token: a valid page token passes, and names its page', async () => {
    expect(await withToken(tokens.ok)).toEqual({ ok: true, msg: pageTestMessages.ok('Bodega Sur'), page: { id: PAGE, name: 'Bodega Sur' } });
    const asked = fake.requests.filter((r) => r.authorization === `Bearer ${tokens.ok}`).map((r) => r.path);
    expect(asked).toEqual(['/v21.0/me?fields=id,name', `/v21.0/${PAGE}/conversations?fields=id&limit=1`]);
  });

  it('says in Spanish what is wrong: an expired token, a token without the permission, a token of someone else', async () => {
    expect(await withToken(tokens.expired)).toEqual({ ok: false, problem: 'token', msg: `${pageTestMessages.expired} (código 190/463)` });
    expect(await withToken(tokens.noPermission)).toEqual({ ok: false, problem: 'permissions', msg: `${pageTestMessages.permissions} (código 10)`, page: { id: PAGE, name: 'Bodega Sur' } });
    const user = await withToken(tokens.user);
    expect(user).toMatchObject({ ok: false, problem: 'page', msg: pageTestMessages.otherPage('Ana Pérez', '10229000000000042', PAGE) });
    expect(user.msg).not.toContain(tokens.user);
  });

  it('is for those who may see the integrations: an agent is refused in Spanish', async () => {
    const agent = await login(t, demo.agent);
    const res = await call('POST', '/channels/meta/test', undefined, agent, agent.user.companyId);
    expect(res.statusCode).toBe(401);
    expect(res.json().errors.msg).toContain('No tienes permiso');
  });
});
