import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeSite, type FakeForm, type FakeSite } from '../../src/integrations/gravity-forms/fake-site.js';

/**
 * A local fake of a WordPress site with Gravity Forms' REST API v2 on a real HTTP server (a
 * random loopback port): the in-memory site of src/integrations/gravity-forms/fake-site.ts —
 * Basic auth with the consumer key and secret, `paging[page_size]` / `paging[current_page]`,
 * `search` JSON with the `id` filter, numeric sorting, 404s as WordPress words them, failures on
 * demand (429 with Retry-After, 5xx) — behind `/wp-json/gf/v2`; any other path is WordPress's
 * HTML home page. Tests never reach the internet.
 */
export interface FakeGravityServer {
  url: string;
  site: FakeSite;
  /** Every request the server answered: method, path with query, status. */
  log: Array<{ method: string; path: string; status: number }>;
  close(): Promise<void>;
}

export const GF_KEY = 'ck_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
export const GF_SECRET = 'cs_0a1b2c3d4e5f60718293a4b5c6d7e8f9';

/** A contact form as Gravity Forms describes it: a name field with its inputs, e-mail, phone, a message. */
export const contactForm = (id = 5): FakeForm => ({
  id,
  title: 'Contáctanos',
  fields: [
    { id: '1', label: 'Nombre', type: 'name', inputs: [{ id: '1.3', label: 'Nombre' }, { id: '1.6', label: 'Apellidos' }] },
    { id: '3', label: 'Email', type: 'email' },
    { id: '4', label: 'Celular', type: 'phone' },
    { id: '6', label: 'Tu consulta', type: 'textarea' },
    { id: '8', label: 'Número alterno', type: 'text' },
  ],
  entries: [],
});

export async function startFakeGravity(forms: FakeForm[] = [contactForm()]): Promise<FakeGravityServer> {
  const site = createFakeSite({ consumerKey: GF_KEY, consumerSecret: GF_SECRET, forms });
  const log: FakeGravityServer['log'] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const prefix = '/wp-json/gf/v2';
      if (!url.pathname.startsWith('/wp-json')) {
        log.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, status: 200 });
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>Mi sitio</body></html>');
        return;
      }
      const answer = url.pathname.startsWith(prefix)
        ? site.handle({ method: req.method ?? 'GET', path: url.pathname.slice(prefix.length) || '/', query: url.searchParams, authorization: req.headers.authorization })
        : { status: 404, headers: {}, body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } } };
      log.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, status: answer.status });
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    site,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
