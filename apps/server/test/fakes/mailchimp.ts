import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of the Mailchimp Marketing API 3.0 on a real HTTP server (a random port), for the
 * tests and the benchmark; nothing reaches the internet. The app's MAILCHIMP_API_URL points at
 * `{url}/{dc}/3.0`, so the data center is the path's first segment. What it enforces, as Mailchimp
 * does:
 * - HTTP basic auth with the API key as password (401 «API Key Invalid» otherwise), and that the
 *   URL's data center is the key's suffix (403 «Wrong Datacenter»);
 * - at most `limit` (10) requests of one key at a time: one more is answered 429 «Too Many
 *   Requests» (it counts how many were in flight at most, and the 429s);
 * - a member's `subscriber_hash` is the MD5 of its lower-cased e-mail (400 otherwise), `status_if_new`
 *   is needed to create one, tags are `{tags:[{name,status}]}` of an existing member (404 otherwise),
 *   `count` ≤ 1000 when listing members;
 * - `memberErrors` answers a member's own refusal (400 «Member In Compliance State», «Forgotten Email
 *   Not Subscribed», «Invalid Resource» …), `failNext` the next requests with 429 or 5xx.
 * `latencyMs` delays every answer, as a far server would.
 */
export interface FakeMember {
  email: string;
  status: string;
  mergeFields: Record<string, string>;
  tags: string[];
}

export interface FakeMailchimp {
  url: string;
  /** The app's MAILCHIMP_API_URL. */
  template: string;
  /** API key → its audiences (id → name). */
  keys: Map<string, Map<string, string>>;
  /** `${listId}` → e-mail → member. */
  lists: Map<string, Map<string, FakeMember>>;
  memberErrors: Map<string, { status: number; title: string; detail: string }>;
  /** The next `count` requests answer `status` (429, 500, 503…). */
  failNext: { status: number; count: number };
  latencyMs: number;
  limit: number;
  inFlight: number;
  /** The most requests of one key in flight at once (those refused with 429 included). */
  maxInFlight: number;
  tooMany: number;
  requests: Array<{ method: string; path: string; status: number }>;
  /** Requests that arrived, answered or not yet (one that waits out `latencyMs` counts at once). */
  received: number;
  /** PUTs per e-mail (a resumed sync must not upsert a done contact again). */
  upserts: Map<string, number>;
  reset(): void;
  close(): Promise<void>;
}

const md5 = (s: string) => createHash('md5').update(s.trim().toLowerCase()).digest('hex');
const problem = (status: number, title: string, detail: string) => ({ type: 'https://mailchimp.com/developer/marketing/docs/errors/', title, status, detail, instance: `fake-${status}` });

export async function startFakeMailchimp(options: { latencyMs?: number; limit?: number } = {}): Promise<FakeMailchimp> {
  const perKey = new Map<string, number>();
  /** Members by subscriber hash, as Mailchimp looks them up (those a test puts in `lists` directly are found by scanning). */
  const byHash = new Map<string, FakeMember>();
  const state: Omit<FakeMailchimp, 'url' | 'template' | 'close'> = {
    keys: new Map(),
    lists: new Map(),
    memberErrors: new Map(),
    failNext: { status: 0, count: 0 },
    latencyMs: options.latencyMs ?? 0,
    limit: options.limit ?? 10,
    inFlight: 0,
    maxInFlight: 0,
    tooMany: 0,
    requests: [],
    received: 0,
    upserts: new Map(),
    reset() {
      state.received = 0;
      state.maxInFlight = 0;
      state.tooMany = 0;
      state.requests = [];
      state.upserts = new Map();
      state.failNext = { status: 0, count: 0 };
    },
  };

  function handle(method: string, url: URL, authorization: string | undefined, body: unknown): { status: number; body?: unknown; headers?: Record<string, string> } {
    const m = url.pathname.match(/^\/([a-z]+\d+)\/3\.0(\/.*)$/);
    if (!m) return { status: 404, body: problem(404, 'Resource Not Found', 'The requested resource could not be found.') };
    const [, dc, path] = m;
    const basic = authorization?.startsWith('Basic ') ? Buffer.from(authorization.slice(6), 'base64').toString('utf8') : '';
    const key = basic.includes(':') ? basic.slice(basic.indexOf(':') + 1) : '';
    const audiences = state.keys.get(key);
    if (!key) return { status: 401, body: problem(401, 'API Key Missing', 'Your request did not include an API key.') };
    if (!audiences) return { status: 401, body: problem(401, 'API Key Invalid', "Your API key may be invalid, or you've attempted to access the wrong datacenter.") };
    if (key.slice(key.lastIndexOf('-') + 1) !== dc) return { status: 403, body: problem(403, 'Wrong Datacenter', 'The API key provided is linked to a different datacenter.') };
    if (method === 'GET' && path === '/ping') return { status: 200, body: { health_status: "Everything's Chimpy!" } };
    const l = path.match(/^\/lists\/([^/]+)(\/members(?:\/([0-9a-f]{32})(\/tags)?)?)?$/);
    if (!l || !audiences.has(l[1])) return { status: 404, body: problem(404, 'Resource Not Found', 'The requested resource could not be found.') };
    const listId = l[1];
    let members = state.lists.get(listId);
    if (!members) {
      members = new Map();
      state.lists.set(listId, members);
    }
    if (!l[2] && method === 'GET') return { status: 200, body: { id: listId, name: audiences.get(listId), stats: { member_count: members.size } } };
    if (l[2] && !l[3] && method === 'GET') {
      const count = Number(url.searchParams.get('count') ?? 10);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      if (!Number.isInteger(count) || count < 1 || count > 1000) return { status: 400, body: problem(400, 'Invalid Resource', 'count must be between 1 and 1000') };
      const all = [...members.values()];
      return {
        status: 200,
        body: {
          members: all.slice(offset, offset + count).map((x) => ({ email_address: x.email, full_name: `${x.mergeFields.FNAME ?? ''} ${x.mergeFields.LNAME ?? ''}`.trim(), status: x.status, merge_fields: x.mergeFields, tags: x.tags.map((name, i) => ({ id: i + 1, name })) })),
          total_items: all.length,
        },
      };
    }
    const hash = l[3];
    if (hash && !l[4] && method === 'PUT') {
      const b = (body ?? {}) as { email_address?: string; status_if_new?: string; merge_fields?: Record<string, string> };
      if (typeof b.email_address !== 'string') return { status: 400, body: problem(400, 'Invalid Resource', 'The resource submitted could not be validated. email_address is required') };
      if (md5(b.email_address) !== hash) return { status: 400, body: problem(400, 'Invalid Resource', 'The subscriber hash does not match the email address') };
      const email = b.email_address.trim().toLowerCase();
      state.upserts.set(email, (state.upserts.get(email) ?? 0) + 1);
      const refused = state.memberErrors.get(email);
      if (refused) return { status: refused.status, body: problem(refused.status, refused.title, refused.detail) };
      const known = members.get(email);
      if (!known && !b.status_if_new) return { status: 400, body: problem(400, 'Invalid Resource', 'The resource submitted could not be validated. status_if_new is required for a new member') };
      const member = { email, status: known?.status ?? (b.status_if_new as string), mergeFields: { ...(known?.mergeFields ?? {}), ...(b.merge_fields ?? {}) }, tags: known?.tags ?? [] };
      members.set(email, member);
      byHash.set(hash, member);
      return { status: 200, body: { id: hash, email_address: email, status: member.status, merge_fields: member.mergeFields } };
    }
    if (hash && l[4] && method === 'POST') {
      const member = byHash.get(hash) ?? [...members.values()].find((x) => md5(x.email) === hash);
      if (!member) return { status: 404, body: problem(404, 'Resource Not Found', 'The requested resource could not be found.') };
      const tags = (body as { tags?: Array<{ name?: string; status?: string }> } | undefined)?.tags;
      if (!Array.isArray(tags) || tags.some((t) => typeof t.name !== 'string' || (t.status !== 'active' && t.status !== 'inactive'))) {
        return { status: 400, body: problem(400, 'Invalid Resource', 'tags must be a list of {name, status}') };
      }
      for (const t of tags) {
        if (t.status === 'active' && !member.tags.includes(t.name as string)) member.tags.push(t.name as string);
        if (t.status === 'inactive') member.tags = member.tags.filter((x) => x !== t.name);
      }
      return { status: 204 };
    }
    return { status: 405, body: problem(405, 'Method Not Allowed', 'The requested method and resource are not compatible.') };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const auth = req.headers.authorization;
      const basic = auth?.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
      const key = basic.slice(basic.indexOf(':') + 1);
      const now = (perKey.get(key) ?? 0) + 1;
      perKey.set(key, now);
      state.inFlight++;
      state.received++;
      state.maxInFlight = Math.max(state.maxInFlight, now);
      let answer: { status: number; body?: unknown; headers?: Record<string, string> } | undefined;
      if (now > state.limit) {
        state.tooMany++;
        answer = { status: 429, body: problem(429, 'Too Many Requests', `You have exceeded the limit of ${state.limit} simultaneous connections.`) };
      } else if (state.failNext.count > 0) {
        state.failNext.count--;
        const s = state.failNext.status;
        answer = { status: s, body: problem(s, s === 429 ? 'Too Many Requests' : 'Internal Server Error', 'fake failure'), headers: s === 429 ? { 'retry-after': '0' } : {} };
      } else {
        let body: unknown;
        try {
          body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
        } catch {
          answer = { status: 400, body: problem(400, 'JSON Parse Error', "We encountered an unspecified JSON parsing error.") };
        }
        answer ??= handle(req.method ?? 'GET', url, auth, body);
      }
      const done = answer ?? { status: 500 };
      setTimeout(() => {
        perKey.set(key, (perKey.get(key) ?? 1) - 1);
        state.inFlight--;
        state.requests.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, status: done.status });
        if (done.status === 204) {
          res.writeHead(204);
          res.end();
          return;
        }
        res.writeHead(done.status, { 'content-type': done.status < 300 ? 'application/json; charset=utf-8' : 'application/problem+json; charset=utf-8', ...(done.headers ?? {}) });
        res.end(JSON.stringify(done.body ?? {}));
      }, state.latencyMs);
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return Object.assign(state, {
    url,
    template: `${url}/{dc}/3.0`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  }) as FakeMailchimp;
}
