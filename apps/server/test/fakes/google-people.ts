import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of Google's OAuth 2.0 endpoints and of the People API on a real HTTP server (a
 * random port): the app's GOOGLE_OAUTH_AUTH_URL, GOOGLE_OAUTH_TOKEN_URL and GOOGLE_PEOPLE_API_URL
 * point at it; nothing reaches the internet. What it enforces, as Google does:
 * - `GET /o/oauth2/v2/auth` (the consent page: `consent(url)` or a browser following it): a known
 *   client_id, the registered redirect_uri, `response_type=code`, the contacts scope, and records
 *   the PKCE challenge (S256) with the code it issues;
 * - `POST /token` (form-encoded): `authorization_code` needs the client's id and secret, an
 *   unused code of that client, the same redirect_uri and the code_verifier whose SHA-256 is the
 *   challenge (else 400 `invalid_grant`); a wrong secret is 401 `invalid_client`; `refresh_token`
 *   answers a new access token, or 400 `invalid_grant` «Token has been expired or revoked.»;
 * - `POST /v1/people:batchCreateContacts`: a Bearer access token that is live (401 UNAUTHENTICATED
 *   otherwise) with the contacts scope (403), a `readMask`, 1 to 200 contacts (400
 *   INVALID_ARGUMENT), each with a name and E.164 phones; `refuse` names phones Google refuses
 *   (the whole batch is a 400, as the real API answers); `rateLimitNext` answers that many 429
 *   RESOURCE_EXHAUSTED first; `failAfterCreateNext` creates the batch and then answers 503 (a
 *   response lost on the way);
 * - `GET /v1/people/me/connections?personFields=…`: the account's contacts, `pageSize` at a time.
 */
export interface FakePerson {
  resourceName: string;
  name: string;
  phones: string[];
  emails: string[];
  externalIds: Array<{ value: string; type: string }>;
}

export interface FakeGoogle {
  url: string;
  env: Record<string, string>;
  clients: Map<string, { secret: string; redirectUris: string[] }>;
  /** The account that consents: its e-mail goes in the id_token. */
  email: string;
  people: FakePerson[];
  /** Sizes of the batchCreateContacts calls answered 200. */
  batches: number[];
  requests: Array<{ method: string; path: string; status: number }>;
  refreshes: number;
  refuse: Set<string>;
  rateLimitNext: number;
  failAfterCreateNext: number;
  /** Follows Google's consent as a person pressing «Permitir»: answers the redirect (redirect_uri?code&state). */
  consent(authorizeUrl: string): Promise<string>;
  /** The access tokens Google stops accepting (expired early, rotated). */
  expireAccessTokens(): void;
  /** The refresh tokens Google revokes (the user removed the app's access). */
  revokeRefreshTokens(): void;
  reset(): void;
  close(): Promise<void>;
}

const apiError = (code: number, status: string, message: string) => ({ error: { code, message, status } });
const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge?: string; scope: string; used: boolean }>();
  const access = new Map<string, { clientId: string; scope: string; expiresAt: number }>();
  const refresh = new Map<string, { clientId: string; scope: string; revoked: boolean }>();
  let seq = 0;
  const state = {
    clients: new Map<string, { secret: string; redirectUris: string[] }>(),
    email: 'ventas.bodega@gmail.com',
    people: [] as FakePerson[],
    batches: [] as number[],
    requests: [] as Array<{ method: string; path: string; status: number }>,
    refreshes: 0,
    refuse: new Set<string>(),
    rateLimitNext: 0,
    failAfterCreateNext: 0,
  };

  function issueAccess(clientId: string, scope: string) {
    const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
    access.set(token, { clientId, scope, expiresAt: Date.now() + 3600_000 });
    return token;
  }

  /** The consent: validates the authorization request and issues a code bound to it. */
  function authorize(u: URL): { status: number; location?: string; body?: string } {
    const q = u.searchParams;
    const clientId = q.get('client_id') ?? '';
    const client = state.clients.get(clientId);
    if (!client) return { status: 401, body: 'Error 401: invalid_client — The OAuth client was not found.' };
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!client.redirectUris.includes(redirectUri)) return { status: 400, body: 'Error 400: redirect_uri_mismatch' };
    const scope = q.get('scope') ?? '';
    if (q.get('response_type') !== 'code' || !scope.split(' ').includes('https://www.googleapis.com/auth/contacts')) return { status: 400, body: 'Error 400: invalid_request' };
    if (q.get('code_challenge') && q.get('code_challenge_method') !== 'S256') return { status: 400, body: 'Error 400: invalid_request (code_challenge_method)' };
    const code = `4/0fake-${randomBytes(10).toString('hex')}`;
    codes.set(code, { clientId, redirectUri, challenge: q.get('code_challenge') ?? undefined, scope, used: false });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    if (q.get('state')) back.searchParams.set('state', q.get('state') as string);
    back.searchParams.set('scope', scope);
    return { status: 302, location: back.toString() };
  }

  function token(form: URLSearchParams, authorization?: string): { status: number; body: object } {
    let clientId = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    if (authorization?.startsWith('Basic ')) [clientId, secret] = Buffer.from(authorization.slice(6), 'base64').toString().split(':');
    const client = state.clients.get(clientId);
    if (!client || client.secret !== secret) return { status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } };
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const c = codes.get(form.get('code') ?? '');
      if (!c || c.used || c.clientId !== clientId) return { status: 400, body: { error: 'invalid_grant', error_description: 'Malformed auth code.' } };
      if (c.redirectUri !== form.get('redirect_uri')) return { status: 400, body: { error: 'redirect_uri_mismatch', error_description: 'Bad Request' } };
      if (c.challenge) {
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== c.challenge) return { status: 400, body: { error: 'invalid_grant', error_description: 'Missing code verifier.' } };
      }
      c.used = true;
      const refreshToken = `1//fake-${randomBytes(12).toString('hex')}`;
      refresh.set(refreshToken, { clientId, scope: c.scope, revoked: false });
      const idToken = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ iss: 'https://accounts.google.com', aud: clientId, sub: '1098', email: state.email, email_verified: true, exp: Math.floor(Date.now() / 1000) + 3600 })}.c2ln`;
      return {
        status: 200,
        body: { access_token: issueAccess(clientId, c.scope), expires_in: 3599, refresh_token: refreshToken, scope: c.scope, token_type: 'Bearer', id_token: idToken },
      };
    }
    if (grant === 'refresh_token') {
      state.refreshes++;
      const r = refresh.get(form.get('refresh_token') ?? '');
      if (!r || r.revoked || r.clientId !== clientId) return { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } };
      return { status: 200, body: { access_token: issueAccess(clientId, r.scope), expires_in: 3599, scope: r.scope, token_type: 'Bearer' } };
    }
    return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' } };
  }

  /** The bearer's grant, or the API's refusal. */
  function bearer(header: string | undefined): { status: number; body: object } | { clientId: string } {
    const t = header?.startsWith('Bearer ') ? access.get(header.slice(7)) : undefined;
    if (!t || t.expiresAt < Date.now()) {
      return { status: 401, body: apiError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.') };
    }
    if (!t.scope.split(' ').includes('https://www.googleapis.com/auth/contacts')) return { status: 403, body: apiError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.') };
    return { clientId: t.clientId };
  }

  type Contact = { contactPerson?: { names?: Array<{ givenName?: string; familyName?: string; unstructuredName?: string }>; phoneNumbers?: Array<{ value?: string }>; emailAddresses?: Array<{ value?: string }>; externalIds?: Array<{ value?: string; type?: string }> } };

  function batchCreate(body: { contacts?: Contact[]; readMask?: string }): { status: number; body: object } {
    const contacts = body.contacts ?? [];
    if (!body.readMask) return { status: 400, body: apiError(400, 'INVALID_ARGUMENT', 'Request must set read_mask.') };
    if (contacts.length === 0 || contacts.length > 200) return { status: 400, body: apiError(400, 'INVALID_ARGUMENT', `contacts: must contain between 1 and 200 contacts (got ${contacts.length}).`) };
    for (const c of contacts) {
      const p = c.contactPerson;
      const name = p?.names?.[0];
      if (!p || !name || !(name.givenName || name.unstructuredName || name.familyName)) return { status: 400, body: apiError(400, 'INVALID_ARGUMENT', 'Contact person must have a name.') };
      for (const ph of p.phoneNumbers ?? []) {
        if (!/^\+[1-9]\d{7,14}$/.test(ph.value ?? '') || state.refuse.has(ph.value as string)) return { status: 400, body: apiError(400, 'INVALID_ARGUMENT', `Invalid phone number: ${ph.value}`) };
      }
    }
    const created = contacts.map((c) => {
      const p = c.contactPerson as NonNullable<Contact['contactPerson']>;
      const n = p.names?.[0] ?? {};
      const person: FakePerson = {
        resourceName: `people/c${(7_000_000_000_000 + ++seq).toString()}`,
        name: [n.givenName, n.familyName].filter(Boolean).join(' ') || (n.unstructuredName ?? ''),
        phones: (p.phoneNumbers ?? []).map((x) => x.value as string),
        emails: (p.emailAddresses ?? []).map((x) => x.value as string),
        externalIds: (p.externalIds ?? []).map((x) => ({ value: x.value ?? '', type: x.type ?? '' })),
      };
      state.people.push(person);
      return person;
    });
    state.batches.push(contacts.length);
    return {
      status: 200,
      body: {
        createdPeople: created.map((p) => ({
          httpStatusCode: 200,
          requestedResourceName: p.resourceName,
          status: {},
          person: { resourceName: p.resourceName, etag: `%E${p.resourceName.slice(8)}`, externalIds: p.externalIds, metadata: { sources: [{ type: 'CONTACT', id: p.resourceName.slice(8) }] } },
        })),
      },
    };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://google.local');
      const raw = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, body: object | string, headers: Record<string, string> = {}) => {
        state.requests.push({ method: req.method ?? 'GET', path: u.pathname, status });
        res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8', ...headers });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (req.method === 'GET' && u.pathname === '/o/oauth2/v2/auth') {
        const a = authorize(u);
        return a.location ? send(302, '', { location: a.location }) : send(a.status, a.body ?? '');
      }
      if (req.method === 'POST' && u.pathname === '/token') {
        if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return send(400, { error: 'invalid_request', error_description: 'form body expected' });
        const t = token(new URLSearchParams(raw), req.headers.authorization);
        return send(t.status, t.body);
      }
      if (u.pathname.startsWith('/v1/')) {
        const who = bearer(req.headers.authorization);
        if ('status' in who) return send(who.status, who.body, who.status === 401 ? { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' } : {});
        if (req.method === 'POST' && u.pathname === '/v1/people:batchCreateContacts') {
          if (state.rateLimitNext > 0) {
            state.rateLimitNext--;
            return send(429, apiError(429, 'RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'Critical write requests' and limit 'Critical write requests per minute per user'."), { 'retry-after': '0' });
          }
          let body: object;
          try {
            body = JSON.parse(raw || '{}');
          } catch {
            return send(400, apiError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
          }
          const out = batchCreate(body);
          if (out.status === 200 && state.failAfterCreateNext > 0) {
            state.failAfterCreateNext--;
            return send(503, apiError(503, 'UNAVAILABLE', 'The service is currently unavailable.'));
          }
          return send(out.status, out.body);
        }
        if (req.method === 'GET' && u.pathname === '/v1/people/me/connections') {
          if (!u.searchParams.get('personFields')) return send(400, apiError(400, 'INVALID_ARGUMENT', 'personFields mask is required.'));
          const size = Math.min(1000, Number(u.searchParams.get('pageSize') ?? 100) || 100);
          const from = Number(u.searchParams.get('pageToken') ?? 0) || 0;
          const page = state.people.slice(from, from + size);
          return send(200, {
            connections: page.map((p) => ({ resourceName: p.resourceName, etag: 'e', externalIds: p.externalIds })),
            totalPeople: state.people.length,
            totalItems: state.people.length,
            ...(from + size < state.people.length ? { nextPageToken: String(from + size) } : {}),
          });
        }
      }
      return send(404, apiError(404, 'NOT_FOUND', 'Requested entity was not found.'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return Object.assign(state, {
    url,
    env: { GOOGLE_OAUTH_AUTH_URL: `${url}/o/oauth2/v2/auth`, GOOGLE_OAUTH_TOKEN_URL: `${url}/token`, GOOGLE_PEOPLE_API_URL: `${url}/` },
    async consent(authorizeUrl: string) {
      const a = authorize(new URL(authorizeUrl));
      if (!a.location) throw new Error(`consent refused: ${a.status} ${a.body}`);
      return a.location;
    },
    expireAccessTokens() {
      for (const t of access.values()) t.expiresAt = 0;
    },
    revokeRefreshTokens() {
      for (const r of refresh.values()) r.revoked = true;
      for (const t of access.values()) t.expiresAt = 0;
    },
    reset() {
      state.people.length = 0;
      state.batches.length = 0;
      state.requests.length = 0;
      state.refreshes = 0;
      state.refuse.clear();
      state.rateLimitNext = 0;
      state.failAfterCreateNext = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
