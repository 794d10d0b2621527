import { resourceList } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tagTable } from '../src/plugins/openapi-operations.js';
import { resourceComponent } from '../src/plugins/openapi.js';
import { apiKeyPermissions } from '@mostrador/contract';
import { demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The OpenAPI document (decision 0074): public, 3.1, every operation named, summed up, tagged,
 * secured and with its 4xx answers; the ids stable (test/openapi/operation-ids.txt); and a client
 * generated from it (openapi-typescript + openapi-fetch) calls the API as an integrator would.
 */
type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, Json> };
  responses: Record<string, Json>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json & { required?: string[] }>; responses: Record<string, Json>; securitySchemes: Record<string, Json> };
}

let t: TestApp;
let admin: Signed;
let doc: Document;
const operations: Array<{ method: string; path: string; op: Operation }> = [];

beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  const res = await t.app.inject('/api/docs/json');
  expect(res.statusCode).toBe(200);
  doc = res.json() as Document;
  for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) operations.push({ method: method.toUpperCase(), path, op });
});
afterAll(() => t?.close());

describe('the document', () => {
  it('is public and OpenAPI 3.1', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(operations.length).toBeGreaterThan(400);
  });

  it('names every operation once, with a stable `area.action` id, a Spanish summary and one declared tag', async () => {
    const tags = new Set(tagTable.map((tag) => tag.name));
    const ids = new Map<string, string>();
    for (const { method, path, op } of operations) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*$/);
      expect(ids.get(op.operationId as string), `${where}: ${op.operationId} repetido`).toBeUndefined();
      ids.set(op.operationId as string, where);
      expect(op.summary?.trim(), where).toBeTruthy();
      expect(op.tags, where).toHaveLength(1);
      expect(tags.has(op.tags?.[0] as string), `${where}: etiqueta ${op.tags?.[0]}`).toBe(true);
    }
    const list = [...ids].map(([id, where]) => `${id} ${where}`).sort().join('\n');
    // a renamed id breaks the clients generated from it: change this file only on purpose (vitest -u)
    await expect(`${list}\n`).toMatchFileSnapshot('./openapi/operation-ids.txt');
  });

  it('secures every operation as the auth hook does, and documents its 4xx answers in the one error shape', () => {
    const company = JSON.stringify([{ sesion: [], compania: [] }, { claveApi: [] }]);
    for (const { method, path, op } of operations) {
      const where = `${method} ${path}`;
      const security = JSON.stringify(op.security);
      expect([company, JSON.stringify([{ sesion: [] }]), '[]'], where).toContain(security);
      const errors = Object.keys(op.responses).filter((code) => /^4\d\d$/.test(code));
      expect(errors, where).toContain('400');
      expect(errors, where).toContain('429');
      if (security !== '[]') expect(errors, where).toContain('401');
      if (path.includes('{')) expect(errors, where).toContain('404');
      for (const code of errors) expect(op.responses[code].$ref, `${where} ${code}`).toMatch(/^#\/components\/responses\//);
    }
    for (const path of ['/api/login', '/api/webhooks/whatsapp', '/api/orders/place', '/api/catalogo-digital/{id}']) {
      const item = doc.paths[path];
      for (const op of Object.values(item)) expect(op.security, path).toEqual([]);
    }
    expect(doc.paths['/api/leads'].get.security).toEqual([{ sesion: [], compania: [] }, { claveApi: [] }]);
    expect(doc.components.securitySchemes.compania).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Company-Id' });
    expect(doc.components.securitySchemes.claveApi).toMatchObject({ type: 'http', scheme: 'bearer' });
    const unauthorized = doc.components.responses.Unauthorized as { content: Record<string, { schema: Json; example: { errors: { msg: string } } }> };
    expect(unauthorized.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(unauthorized.content['application/json'].example.errors.msg).toMatch(/sesión|token|Inicia/i);
    // the docs themselves are not operations
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/docs'))).toBe(false);
  });

  it('names the error, the page and every resource of the contract, with what is always there required', () => {
    const schemas = doc.components.schemas;
    expect(schemas.Error.required).toEqual(['errors']);
    expect(schemas.Page.required).toEqual(expect.arrayContaining(['payload', 'totalDocs', 'totalPages', 'page', 'limit']));
    for (const resource of resourceList) {
      const record = schemas[resourceComponent(resource)];
      expect(record, resource.key).toBeDefined();
      expect(record.required, resource.key).toEqual(expect.arrayContaining(['_id', 'createdAt', 'updatedAt']));
    }
    expect(schemas.Leads.required).toEqual(expect.arrayContaining(['name', 'platform', 'status']));
    expect(schemas.Id).toMatchObject({ type: 'string', format: 'uuid' });
    const put = doc.paths['/api/leads/{id}'].put as Operation & { parameters: Array<{ name: string; schema: Json }> };
    expect(put.parameters.find((p) => p.name === 'id')?.schema).toEqual({ $ref: '#/components/schemas/Id' });
    const list = doc.paths['/api/leads'].get.responses['200'] as { content: Record<string, { schema: Json }> };
    expect(list.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LeadsPage' });
    expect(doc.paths['/api/leads'].post.requestBody?.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LeadsCreate' });
  });

  it('describes the CSV, raw and streamed bodies', () => {
    for (const path of ['/api/leads/import', '/api/retail-rocket-tags/{id}/import', '/api/marketplace-products/bulk/csv']) {
      expect(Object.keys(doc.paths[path].post.requestBody?.content ?? {}), path).toEqual(['text/csv']);
    }
    expect(Object.keys(doc.paths['/api/drive/files'].post.requestBody?.content ?? {})).toEqual(['application/octet-stream']);
    // an action without a body has none, even beside a plugin's CSV parser
    expect(doc.paths['/api/marketplace-products/bulk/{id}/apply'].post.requestBody).toBeUndefined();
    const exported = doc.paths['/api/leads/export'].get.responses['200'] as { content: Json };
    expect(Object.keys(exported.content)).toEqual(['text/csv']);
    expect(Object.keys((doc.paths['/api/events'].get.responses['200'] as { content: Json }).content)).toEqual(['text/event-stream']);
  });
});

/** The typed client and its calls (test/openapi/): imported at run time, they are type-checked by `npm run lint` against the generated types. */
interface Calls {
  leadRoundTrip(api: unknown): Promise<{ total: number; id: string; status: string; createdAt: string; refusal?: string; refusedStatus: number }>;
  placeOrder(api: unknown, key: string): Promise<{ token: string; code: string; status: number }>;
  dashboard(api: unknown): Promise<Json>;
}
interface ClientModule {
  apiClient(baseUrl: string, credential: { session: string; companyId: string } | { apiKey: string }, fetch: (request: Request) => Promise<Response>): unknown;
}
const typed = (name: string) => import(/* @vite-ignore */ `./openapi/${name}.js`);

/** fetch over app.inject: the client's requests reach the app as they would over the network. */
async function injectFetch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const res = await t.app.inject({
    method: request.method as 'GET',
    url: `${url.pathname}${url.search}`,
    headers: Object.fromEntries(request.headers),
    ...(body ? { payload: body } : {}),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  return new Response(res.statusCode === 204 || res.rawPayload.length === 0 ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
}

describe('a client generated from the document', () => {
  it('lists, creates and updates a lead, places an order and reads a metric', async () => {
    const { apiClient } = (await typed('client')) as ClientModule;
    const calls = (await typed('calls')) as Calls;
    // the integrator's one credential: an API key of Demo Perú (no session, no X-Company-Id)
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { authorization: `Bearer ${admin.token}`, 'x-company-id': admin.company('Demo Perú') },
      payload: { name: 'Cliente OpenAPI', permissions: apiKeyPermissions },
    });
    expect(made.statusCode).toBe(201);
    const credential = { apiKey: made.json().key as string };
    const api = apiClient('http://mostrador.test', credential, injectFetch);

    const lead = await calls.leadRoundTrip(api);
    expect(lead.total).toBeGreaterThan(0);
    expect(lead.status).toBe('informado-al-agente');
    expect(lead.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(lead.refusedStatus).toBe(400);
    expect(lead.refusal).toMatch(/Estado/);
    const stored = await t.sql<{ status: string }>('select status from leads where id = $1', [lead.id]);
    expect(stored[0].status).toBe('informado-al-agente');

    const order = await calls.placeOrder(api, `openapi-${Date.now()}`);
    expect(order.status).toBe(201);
    expect(order.code).toBeTruthy();

    const dashboard = await calls.dashboard(api);
    expect(dashboard).toHaveProperty('timezone');
  });
});
