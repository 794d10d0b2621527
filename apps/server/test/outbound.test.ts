import { lookup as dnsLookup } from 'node:dns';
import { type AddressInfo, createServer, type Server } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionTest } from '../src/integrations/connection-test.js';
import { createGraphTemplateClient } from '../src/integrations/meta/templates.js';
import { internalRange, OutboundRefusal, outboundFetch, outboundSettings, urlRefusal } from '../src/integrations/outbound.js';
import { type FakeInternalService, startInternalService } from './fakes/internal-service.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Server-side request forgery (issue 26, decision 0060): a company's admin types an address —
 * a store, a site, an API or LLM base URL, a template's example file — and the server calls it.
 * A fake internal service on every loopback form records what reaches it and answers a planted
 * secret: with OUTBOUND_ALLOW_PRIVATE_URLS off (the default) no form of loopback, no name that
 * resolves to it and no redirect gets a request, the answer is a Spanish 4xx, and the secret
 * never comes back; with it on, the same fake is reached and its body is still not repeated.
 */

/** A public-looking name the injected resolver answers with 127.0.0.1 (DNS rebinding, an internal name). */
const REBOUND = 'tienda-publica.example';
const resolver = ((hostname: string, options: object, callback: (e: Error | null, a: unknown, f?: number) => void) => {
  if (hostname === REBOUND) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  if (hostname === 'mixta.example') return callback(null, [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }]);
  return dnsLookup(hostname, options as never, callback as never);
}) as unknown as typeof dnsLookup;

/** Every way of writing loopback a URL parser and a resolver accept. */
const loopbackForms = ['127.0.0.1', 'localhost', '0.0.0.0', '2130706433', '0x7f000001', '[::1]', '[::ffff:127.0.0.1]', '127.1', REBOUND];

let svc: FakeInternalService;
beforeAll(async () => {
  svc = await startInternalService();
  outboundSettings.lookup = resolver;
});
afterAll(async () => {
  outboundSettings.lookup = dnsLookup;
  await svc?.close();
});

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const v4 = (a: number, b: number, c: number, d: number) => `${a}.${b}.${c}.${d}`;
const hex = (n: number) => n.toString(16);

describe('address classification', () => {
  const internal: Array<[string, (x: [number, number, number, number]) => string]> = [
    ['loopback 127/8', ([, b, c, d]) => v4(127, b, c, d)],
    ['private 10/8', ([, b, c, d]) => v4(10, b, c, d)],
    ['private 172.16/12', ([, b, c, d]) => v4(172, 16 + (b % 16), c, d)],
    ['private 192.168/16', ([, , c, d]) => v4(192, 168, c, d)],
    ['link-local 169.254/16 (cloud metadata)', ([, , c, d]) => v4(169, 254, c, d)],
    ['CGNAT 100.64/10', ([, b, c, d]) => v4(100, 64 + (b % 64), c, d)],
    ['this network 0/8', ([, b, c, d]) => v4(0, b, c, d)],
    ['multicast 224/4', ([a, b, c, d]) => v4(224 + (a % 16), b, c, d)],
    ['reserved 240/4 and broadcast', ([a, b, c, d]) => v4(240 + (a % 16), b, c, d)],
    ['documentation 192.0.2/24, 198.51.100/24, 203.0.113/24', ([a, , , d]) => [v4(192, 0, 2, d), v4(198, 51, 100, d), v4(203, 0, 113, d)][a % 3]],
  ];
  it.each(internal)('%s is refused, and so is its IPv4-mapped IPv6 form', (_name, make) => {
    fc.assert(
      fc.property(ipv4, (x) => {
        const address = make(x);
        const [a, b, c, d] = address.split('.').map(Number);
        expect(internalRange(address)).toBeDefined();
        expect(internalRange(`::ffff:${address}`)).toBeDefined();
        expect(internalRange(`::ffff:${hex((a << 8) | b)}:${hex((c << 8) | d)}`)).toBeDefined();
      }),
    );
  });

  it('IPv6 loopback, unspecified, unique-local, link-local, multicast, documentation and IPv4-compatible are refused', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    const tail = fc.array(group, { minLength: 7, maxLength: 7 }).map((g) => g.map(hex).join(':'));
    for (const fixed of ['::1', '::', '::127.0.0.1', '::7f00:1']) expect(internalRange(fixed), fixed).toBeDefined();
    fc.assert(
      fc.property(group, tail, (first, rest) => {
        expect(internalRange(`${hex(0xfc00 | (first & 0x1ff))}:${rest}`)).toBeDefined(); // fc00::/7
        expect(internalRange(`${hex(0xfe80 | (first & 0x3f))}:${rest}`)).toBeDefined(); // fe80::/10
        expect(internalRange(`${hex(0xff00 | (first & 0xff))}:${rest}`)).toBeDefined(); // ff00::/8
        expect(internalRange(`2001:db8:${rest.split(':').slice(1).join(':')}`)).toBeDefined(); // documentation
      }),
    );
  });

  it('public unicast addresses are reached: IPv4 outside the special ranges, IPv6 global unicast, and their mapped forms', () => {
    fc.assert(
      fc.property(ipv4, ([a, b, c, d]) => {
        // 1.0.0.0–9.255.255.255 and 11–99: no special range there
        const first = [1 + (a % 9), 11 + (a % 89)][b % 2];
        const address = v4(first, b, c, d);
        expect(internalRange(address)).toBeUndefined();
        expect(internalRange(`::ffff:${address}`)).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0x2400, max: 0x2dff }), fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 }), (first, rest) => {
        expect(internalRange(`${hex(first)}:${rest.map(hex).join(':')}`)).toBeUndefined();
      }),
    );
  });
});

describe('the outbound client', () => {
  it('refuses every loopback form where the connection is made, with no private targets allowed, and the service gets nothing', async () => {
    outboundSettings.allowPrivate = false;
    for (const host of loopbackForms) {
      const url = `http://${host}:${svc.port}/wp-json/wc/v3/products`;
      const error = await outboundFetch()(url, { method: 'GET' }).catch((e: unknown) => e);
      expect(error, host).toBeInstanceOf(OutboundRefusal);
      expect((error as OutboundRefusal).msg).toMatch(/^La URL apunta a una dirección interna .*OUTBOUND_ALLOW_PRIVATE_URLS=1/);
    }
    expect(svc.log).toEqual([]);
  });

  it('a name with one public and one internal address is refused as a whole', async () => {
    outboundSettings.allowPrivate = false;
    await expect(outboundFetch()('http://mixta.example/', {})).rejects.toMatchObject({ reason: 'internal' });
  });

  it('refuses user:pass@, other schemes, and a ? or # in a base URL before any request', () => {
    expect(urlRefusal('https://admin:clave@tienda.example')).toMatchObject({ reason: 'credentials' });
    expect(urlRefusal('ftp://tienda.example')).toMatchObject({ reason: 'scheme' });
    expect(urlRefusal('file:///etc/passwd')).toMatchObject({ reason: 'scheme' });
    expect(urlRefusal('https://store.example/?', { base: true })).toMatchObject({ reason: 'path', msg: expect.stringContaining('«?» ni «#»') });
    expect(urlRefusal('https://store.example/#', { base: true })).toMatchObject({ reason: 'path' });
    expect(urlRefusal('https://store.example/tienda', { base: true })).toBeUndefined();
  });

  it('with private targets allowed the same service is reached; a redirect is not followed, a file link follows its hops judged again', async () => {
    outboundSettings.allowPrivate = true;
    try {
      const res = await outboundFetch()(`http://[::1]:${svc.port}/x`, {});
      expect(res.status).toBe(400);
      expect(svc.log).toHaveLength(1);
      const other = await startInternalService('otro-secreto');
      try {
        svc.redirectTo = `http://127.0.0.1:${other.port}/admin`;
        await expect(outboundFetch()(`http://127.0.0.1:${svc.port}/`, {})).rejects.toMatchObject({ reason: 'redirect', msg: expect.stringContaining('no se siguen redirecciones') });
        // a file link may redirect, but each hop is judged as the first one
        svc.redirectTo = `http://admin:clave@127.0.0.1:${other.port}/admin`;
        await expect(outboundFetch({ redirects: 5 })(`http://127.0.0.1:${svc.port}/promo.jpg`, {})).rejects.toMatchObject({ reason: 'credentials' });
        expect(other.log).toEqual([]);
      } finally {
        svc.redirectTo = undefined;
        await other.close();
      }
    } finally {
      outboundSettings.allowPrivate = false;
      svc.log.length = 0;
    }
  });

  it("a template's example file on an internal address is refused before Meta is asked", async () => {
    outboundSettings.allowPrivate = false;
    const client = createGraphTemplateClient(`http://127.0.0.1:${svc.port}`, '123');
    for (const host of ['127.0.0.1', REBOUND, '[::1]']) {
      await expect(client.uploadExample({ businessAccountId: '1', accessToken: 'EAAtoken' }, `http://${host}:${svc.port}/promo.jpg`)).rejects.toMatchObject({
        reason: expect.stringContaining('dirección interna'),
      });
    }
    expect(svc.log).toEqual([]);
  });
});

/** Each integration a tenant points at an address: where its URL is stored, and its «Probar conexión». */
interface Target {
  name: string;
  table: string;
  column: string;
  field: string;
  /** The stored row (by id, or the company's settings). */
  where: () => [string, unknown[]];
  test: () => Promise<{ statusCode: number; body: string; json(): { errors: unknown } }>;
  /** The URL as this integration's setting is written (the LLM's base ends in /v1). */
  urlOf: (host: string) => string;
}

describe('every integration that calls an address a tenant types', () => {
  let t: TestApp;
  let admin: Signed;
  let peru: Record<string, string>;
  let chile: Record<string, string>;
  let targets: Target[];
  let storeId: string;
  const inject = (method: 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const plain = (host: string) => `http://${host}:${svc.port}`;
  // a name is judged at connect time: over https it is refused before any TLS
  const urlOf = (host: string) => (host === REBOUND ? `https://${host}:${svc.port}` : plain(host));

  beforeAll(async () => {
    // OUTBOUND_ALLOW_PRIVATE_URLS unset: the default
    t = await startTestApp();
    admin = await login(t, demo.admin);
    peru = as(admin, admin.company('Demo Perú'));
    chile = as(admin, admin.company('Demo Chile'));
    const created = async (url: string, headers: Record<string, string>, payload: Record<string, unknown>) => {
      const res = await inject('POST', url, headers, payload);
      expect(res.statusCode, res.body).toBe(201);
      return res.json()._id as string;
    };
    storeId = await created('/api/woocommerces', chile, { name: 'Tienda Chile', url: 'https://tienda.example', country: 'CL', consumerKey: 'ck_live1', consumerSecret: 'cs_live1' });
    const formId = await created('/api/gravity-forms', peru, { name: 'Contacto', formId: 5, siteUrl: 'https://sitio.example', consumerKey: 'ck_gf', consumerSecret: 'cs_gf' });
    const sourceId = await created('/api/marketplace-sources', chile, { name: 'Falabella propia', platform: 'falabella', country: 'PE', sellerId: 'SC1', apiUser: 'api@demo.pe', apiKey: 'k-live', apiUrl: 'https://sellercenter.example' });
    const genial = await inject('PUT', '/api/genial/settings/PE', peru, { apiUrl: 'https://genial.example', token: 'gnl_live', issuerTaxId: '20601234565', issuerName: 'Demo Perú S.A.C.', seriesFactura: 'F001', seriesBoleta: 'B001' });
    expect(genial.statusCode, genial.body).toBe(200);
    const llm = await inject('PUT', '/api/llm/settings', peru, { enabled: true, baseUrl: 'https://llm.example/v1', model: 'gpt-4o-mini', apiKey: 'sk-live-0123456789abcdef', monthlyBudgetUsd: 5 });
    expect(llm.statusCode, llm.body).toBe(200);
    const peruId = admin.company('Demo Perú');
    targets = [
      { name: 'WooCommerce', table: 'woocommerces', column: 'url', field: 'url', where: () => ['id = $2', [storeId]], test: () => inject('POST', `/api/woocommerces/${storeId}/test`, chile), urlOf },
      { name: 'Gravity Forms', table: 'gravity_forms', column: 'site_url', field: 'siteUrl', where: () => ['id = $2', [formId]], test: () => inject('POST', `/api/gravity-forms/${formId}/test`, peru), urlOf },
      { name: 'Seller Center', table: 'marketplace_sources', column: 'api_url', field: 'apiUrl', where: () => ['id = $2', [sourceId]], test: () => inject('POST', `/api/marketplace-sources/${sourceId}/test`, chile), urlOf },
      { name: 'Genial', table: 'genial_settings', column: 'api_url', field: 'apiUrl', where: () => ["company_id = $2 and country = 'PE'", [peruId]], test: () => inject('POST', '/api/genial/settings/PE/test', peru), urlOf },
      { name: 'LLM', table: 'llm_settings', column: 'base_url', field: 'baseUrl', where: () => ['company_id = $2', [peruId]], test: () => inject('POST', '/api/llm/settings/test', peru), urlOf: (h) => `${urlOf(h)}/v1` },
    ];
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Writes an address straight into the stored setting (one saved before this check, or while the operator allowed it). */
  const store = async (target: Target, url: string) => {
    const [where, values] = target.where();
    await t.sql(`update ${target.table} set ${target.column} = $1 where ${where}`, [url, ...values]);
  };

  it("«Probar conexión» of each integration, for every loopback form: a Spanish 400 on the URL's field, no request, no secret", async () => {
    for (const target of targets) {
      for (const host of loopbackForms) {
        await store(target, target.urlOf(host));
        const res = await target.test();
        const what = `${target.name} ${host}: ${res.body}`;
        expect(res.statusCode, what).toBe(400);
        expect(res.json().errors, what).toMatchObject({ msg: expect.stringContaining('dirección interna'), details: [{ path: target.field }] });
        expect(res.body, what).not.toContain(svc.secret);
      }
    }
    expect(svc.log).toEqual([]);
  });

  it('saving an internal address, a user:pass@ or a URL whose ? would swallow the path is a Spanish 400 on the field', async () => {
    const saves: Array<[string, (url: string) => Promise<{ statusCode: number; body: string; json(): { errors: { msg: string; details?: Array<{ path: string }> } } }>, string]> = [
      ['url', (url) => inject('PUT', `/api/woocommerces/${storeId}`, chile, { url }), ''],
      ['url', (url) => inject('POST', '/api/woocommerces', peru, { name: 'Otra', url, country: 'CO', consumerKey: 'ck_x1', consumerSecret: 'cs_x1' }), ''],
      ['siteUrl', (url) => inject('POST', '/api/gravity-forms', peru, { name: 'Otro', formId: 9, siteUrl: url }), ''],
      ['apiUrl', (url) => inject('POST', '/api/marketplace-sources', chile, { name: 'Otra', platform: 'linio', country: 'CL', apiUser: 'a@b.cl', apiKey: 'k', apiUrl: url }), ''],
      ['apiUrl', (url) => inject('PUT', '/api/genial/settings/CL', peru, { apiUrl: url, token: 'gnl_x', issuerTaxId: '76086428-5', issuerName: 'Demo', seriesFactura: 'F001', seriesBoleta: 'B001' }), ''],
      ['baseUrl', (url) => inject('PUT', '/api/llm/settings', peru, { enabled: true, baseUrl: url, model: 'gpt-4o-mini', apiKey: 'sk-otra-0123456789abcdef', monthlyBudgetUsd: 5 }), '/v1'],
    ];
    for (const [field, save, suffix] of saves) {
      for (const [url, says] of [
        ...loopbackForms.filter((h) => h !== REBOUND).map((h) => [`${plain(h)}${suffix}`, 'dirección interna'] as const),
        ['http://169.254.169.254', 'dirección interna'] as const,
        ['https://store.example/?', '«?» ni «#»'] as const,
        ['https://admin:clave@store.example', 'usuario ni contraseña'] as const,
      ]) {
        const res = await save(url);
        expect(res.statusCode, `${field} ${url}: ${res.body}`).toBe(400);
        expect(res.json().errors, `${field} ${url}`).toMatchObject({ msg: expect.stringContaining(says), details: [{ path: field }] });
      }
    }
    expect(svc.log).toEqual([]);
  });

  it('a sync of a store, a form or an account on an internal address: a Spanish 400 (literal) or a failed run saying why (a name), no request', async () => {
    const [woo, gravity, seller] = targets;
    await store(woo, plain('127.0.0.1'));
    const literal = await inject('POST', '/api/ecommerces/sync-all', chile, { storeId });
    expect(literal.statusCode, literal.body).toBe(400);
    expect(literal.json().errors.msg).toContain('dirección interna');
    await store(gravity, plain('[::1]'));
    const [, [formId]] = gravity.where();
    expect((await inject('POST', `/api/gravity-forms/${formId}/sync`, peru)).statusCode).toBe(400);
    await store(seller, plain('2130706433'));
    const [, [sourceId]] = seller.where();
    expect((await inject('POST', `/api/marketplace-sources/${sourceId}/sync`, chile)).statusCode).toBe(400);
    // a name is judged where the connection is made: the job's run fails with the reason
    await store(woo, urlOf(REBOUND));
    const started = await inject('POST', '/api/ecommerces/sync-all', chile, { storeId });
    expect(started.statusCode, started.body).toBe(202);
    const runId = started.json().runs[0]._id as string;
    let run: { status: string; message?: string } = { status: 'queued' };
    for (let i = 0; i < 200 && run.status !== 'done' && run.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (await t.app.inject({ method: 'GET', url: `/api/ecommerces/sync-runs/${runId}`, headers: chile })).json();
    }
    expect(run).toMatchObject({ status: 'failed', message: expect.stringContaining('dirección interna') });
    expect(svc.log).toEqual([]);
  });
});

describe('with OUTBOUND_ALLOW_PRIVATE_URLS=1 (a self-hosted store on the server’s network)', () => {
  let t: TestApp;
  let admin: Signed;
  let chile: Record<string, string>;
  let storeId: string;

  beforeAll(async () => {
    t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1' });
    admin = await login(t, demo.admin);
    chile = as(admin, admin.company('Demo Chile'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/woocommerces',
      headers: chile,
      payload: { name: 'Tienda local', url: `http://127.0.0.1:${svc.port}`, country: 'CL', consumerKey: 'ck_local1', consumerSecret: 'cs_local1' },
    });
    expect(res.statusCode, res.body).toBe(201);
    storeId = res.json()._id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('the same fake is reached; what it answers is not repeated in the Spanish reason', async () => {
    svc.log.length = 0;
    const res = await t.app.inject({ method: 'POST', url: `/api/woocommerces/${storeId}/test`, headers: chile });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: false, msg: expect.stringContaining('La tienda rechazó los datos enviados (HTTP 400)') });
    expect(res.body).not.toContain(svc.secret);
    expect(svc.log.length).toBeGreaterThan(0);
  });

  it('a redirect to another internal service is not followed, and a ? that would swallow the path is still refused', async () => {
    const other = await startInternalService('secreto-del-panel');
    try {
      svc.log.length = 0;
      svc.redirectTo = `http://127.0.0.1:${other.port}/admin`;
      const bounced = await t.app.inject({ method: 'POST', url: `/api/woocommerces/${storeId}/test`, headers: chile });
      expect(bounced.statusCode).toBe(400);
      expect(bounced.json().errors.msg).toContain('no se siguen redirecciones');
      expect(other.log).toEqual([]);
      svc.redirectTo = undefined;
      svc.log.length = 0;
      await t.sql('update woocommerces set url = $1 where id = $2', [`http://127.0.0.1:${svc.port}/panel-interno?`, storeId]);
      const swallowed = await t.app.inject({ method: 'POST', url: `/api/woocommerces/${storeId}/test`, headers: chile });
      expect(swallowed.statusCode).toBe(400);
      expect(swallowed.json().errors.msg).toContain('«?» ni «#»');
      expect(svc.log).toEqual([]);
    } finally {
      svc.redirectTo = undefined;
      await other.close();
    }
  });
});

describe('«Probar conexión» answers within 10 s even when the address never answers (decision 0061)', () => {
  let t: TestApp;
  let admin: Signed;
  let silent: Server;
  const connections: string[] = [];
  let port = 0;

  beforeAll(async () => {
    // a service that accepts each connection and never answers: the worst a store can do to a waiting owner
    silent = createServer((socket) => {
      connections.push(String(socket.remotePort));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    port = (silent.address() as AddressInfo).port;
    t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1' });
    admin = await login(t, demo.admin);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    silent?.close();
  });

  it('WooCommerce, Gravity Forms, Seller Center and Genial: two tries of at most 3 s, then a Spanish reason', async () => {
    const peru = as(admin, admin.company('Demo Perú'));
    const chile = as(admin, admin.company('Demo Chile'));
    const url = `http://127.0.0.1:${port}`;
    const created = async (path: string, headers: Record<string, string>, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url: path, headers, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json()._id as string;
    };
    const storeId = await created('/api/woocommerces', chile, { name: 'Tienda muda', url, country: 'CL', consumerKey: 'ck_mudo1', consumerSecret: 'cs_mudo1' });
    const formId = await created('/api/gravity-forms', peru, { name: 'Sitio mudo', formId: 5, siteUrl: url, consumerKey: 'ck_gf', consumerSecret: 'cs_gf' });
    const sourceId = await created('/api/marketplace-sources', chile, { name: 'Seller mudo', platform: 'falabella', country: 'PE', sellerId: 'SC1', apiUser: 'api@demo.pe', apiKey: 'k-mudo', apiUrl: url });
    const genial = await t.app.inject({ method: 'PUT', url: '/api/genial/settings/PE', headers: peru, payload: { apiUrl: url, token: 'gnl_mudo', issuerTaxId: '20601234565', issuerName: 'Demo Perú S.A.C.', seriesFactura: 'F001', seriesBoleta: 'B001' } });
    expect(genial.statusCode, genial.body).toBe(200);
    for (const [name, path, headers] of [
      ['WooCommerce', `/api/woocommerces/${storeId}/test`, chile],
      ['Gravity Forms', `/api/gravity-forms/${formId}/test`, peru],
      ['Seller Center', `/api/marketplace-sources/${sourceId}/test`, chile],
      ['Genial', '/api/genial/settings/PE/test', peru],
    ] as const) {
      connections.length = 0;
      const started = Date.now();
      const res = await t.app.inject({ method: 'POST', url: path, headers });
      const took = Date.now() - started;
      // a sync's own retries (five tries of 30 s for a store) would hold the owner for minutes
      expect(connections.length, name).toBeGreaterThan(0);
      expect(took, name).toBeLessThan(10_000);
      expect(took, name).toBeGreaterThanOrEqual(connectionTest.timeoutMs);
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(500);
      expect(JSON.stringify(res.json()), name).toMatch(/[áéíóúñ]|conect|respond/i);
    }
  }, 60_000);
});
