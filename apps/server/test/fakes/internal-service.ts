import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of a service on the server's own network (an admin panel, a metadata endpoint):
 * it listens on every loopback form at once (`::`, dual stack: 127.0.0.1, [::1],
 * [::ffff:127.0.0.1]…), records every request it gets (with the credentials a client sent) and
 * answers any path with a planted secret, as JSON, whatever the method. `redirectTo` makes it
 * answer 302 to that address instead (a public-looking service that bounces to an internal one).
 */
export interface FakeInternalService {
  port: number;
  /** The planted secret: must never come back in an answer. */
  secret: string;
  log: Array<{ method: string; path: string; authorization?: string }>;
  redirectTo?: string;
  close(): Promise<void>;
}

export async function startInternalService(secret = 'db_password=s3cr3t-plantado-9f2c'): Promise<FakeInternalService> {
  const service: FakeInternalService = {
    port: 0,
    secret,
    log: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      service.log.push({ method: req.method ?? 'GET', path: req.url ?? '/', authorization: req.headers.authorization });
      if (service.redirectTo) {
        res.writeHead(302, { location: service.redirectTo });
        res.end();
        return;
      }
      // every shape a client reads as an error it repeats: a message, a code, an errors list
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: secret, message: secret, errors: [{ code: 'E1', message: secret }], config: { secret } }));
    });
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  service.port = (server.address() as AddressInfo).port;
  return service;
}
