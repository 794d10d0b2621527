import { createHash } from 'node:crypto';
import { GOOGLE_BATCH_MAX, GOOGLE_CONTACTS_SCOPE, googleMessages } from '@mostrador/contract';
import { people as peopleApi, type people_v1 } from '@googleapis/people';
import { CodeChallengeMethod, OAuth2Client } from 'google-auth-library';

/**
 * Google's OAuth 2.0 and People API for the phones' contacts (decision 0052), on the official
 * libraries: `google-auth-library`'s OAuth2Client (the consent URL with PKCE, the code exchange,
 * the access token refreshed before it expires and once more on a 401) and `@googleapis/people`
 * (`POST /v1/people:batchCreateContacts`, at most 200 contacts a call; `GET
 * /v1/people/me/connections` to find contacts already created by their external id). The three
 * endpoints are settings, so tests point them at a fake (test/fakes/google-people.ts).
 *
 * An OAuth client whose id starts with «sandbox» never reaches Google: the demo's phone uses it.
 */
export interface GoogleEndpoints {
  /** The consent page (https://accounts.google.com/o/oauth2/v2/auth). */
  authUrl: string;
  /** The token endpoint (https://oauth2.googleapis.com/token). */
  tokenUrl: string;
  /** The People API's root (https://people.googleapis.com/). */
  peopleUrl: string;
}

export const googleEndpointDefaults: GoogleEndpoints = {
  authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  peopleUrl: 'https://people.googleapis.com/',
};

/** What `telefonos.credenciales` keeps (SPEC §3), sealed. */
export interface GoogleCredentials {
  clientId: string;
  clientSecret: string;
  access_token?: string;
  refresh_token?: string;
  scope?: string;
  token_type?: string;
  id_token?: string;
  expiry_date?: number;
}
export type GoogleTokens = Omit<GoogleCredentials, 'clientId' | 'clientSecret'>;

/** A lead as a contact to create: its id travels as the contact's external id. */
export interface ContactIn {
  leadId: string;
  name: string;
  /** E.164 (+51987654321). */
  phone?: string;
  email?: string;
}

/**
 * Why Google refused, for the phone's state: `reauth` (the grant is gone: invalid_grant, the
 * client refused, a 401 that a refresh did not cure, the scope missing) asks for «Reconectar con
 * Google»; `rate` (429) waits and tries again; `unavailable` (5xx, network) lets the job retry;
 * `refused` (400) is the contacts' fault.
 */
export class GoogleError extends Error {
  constructor(
    readonly kind: 'reauth' | 'rate' | 'unavailable' | 'refused',
    readonly reason: string,
    readonly detail: { status?: number; error?: string; retryAfterMs?: number } = {},
  ) {
    super(reason);
  }
}

type HttpFailure = { response?: { status?: number; data?: unknown; headers?: unknown }; status?: number; code?: string };

function headerOf(headers: unknown, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const v = (headers as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
}

/** Seconds (or an HTTP date) of a Retry-After header, in milliseconds. */
export function retryAfterMs(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Any failure of the libraries (GaxiosError) or of the network, as a GoogleError. */
export function googleFailure(error: unknown): GoogleError {
  if (error instanceof GoogleError) return error;
  const e = error as HttpFailure;
  const status = e?.response?.status;
  const data = (e?.response?.data ?? {}) as { error?: string | { status?: string; message?: string; code?: number }; error_description?: string };
  const oauthError = typeof data.error === 'string' ? data.error : undefined;
  const apiStatus = typeof data.error === 'object' ? data.error?.status : undefined;
  if (oauthError === 'invalid_grant') return new GoogleError('reauth', googleMessages.invalidGrant, { status, error: oauthError });
  if (oauthError === 'invalid_client' || oauthError === 'unauthorized_client') return new GoogleError('reauth', googleMessages.unauthorized, { status, error: oauthError });
  if (status === 429 || apiStatus === 'RESOURCE_EXHAUSTED') {
    return new GoogleError('rate', googleMessages.rateLimited, { status: 429, retryAfterMs: retryAfterMs(headerOf(e.response?.headers, 'retry-after')) });
  }
  if (status === 401) return new GoogleError('reauth', googleMessages.invalidGrant, { status, error: apiStatus });
  if (status === 403) return new GoogleError('reauth', googleMessages.forbidden, { status, error: apiStatus });
  if (status === 400) return new GoogleError('refused', googleMessages.refused, { status, error: apiStatus ?? oauthError });
  return new GoogleError('unavailable', googleMessages.unavailable, { status });
}

export const isSandboxClient = (clientId: string) => clientId.startsWith('sandbox');

/** The e-mail of an id_token's claims, read without checking its signature: it came straight from the token endpoint over TLS (OpenID Connect §3.1.3.7). */
export function emailOfIdToken(idToken: string | undefined | null): string | undefined {
  const payload = idToken?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { email?: unknown };
    return typeof claims.email === 'string' ? claims.email.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** The external id that marks a contact as a lead's (found again after a run cut between Google's answer and ours). */
export const leadExternalId = (leadId: string) => `mostrador:${leadId}`;
const EXTERNAL_TYPE = 'customer';

function personOf(c: ContactIn): people_v1.Schema$Person {
  const [given, ...rest] = c.name.trim().split(/\s+/);
  return {
    names: [{ givenName: given || c.name, ...(rest.length ? { familyName: rest.join(' ') } : {}) }],
    ...(c.phone ? { phoneNumbers: [{ value: c.phone, type: 'mobile' }] } : {}),
    ...(c.email ? { emailAddresses: [{ value: c.email }] } : {}),
    externalIds: [{ value: leadExternalId(c.leadId), type: EXTERNAL_TYPE }],
  };
}

export interface PeopleSession {
  /** Creates up to 200 contacts in one call; answers each lead's resourceName (Google's order, matched by external id). */
  batchCreate(contacts: ContactIn[]): Promise<Array<{ leadId: string; resourceName: string }>>;
  /** The account's contacts that carry one of these leads' external ids (every page of connections). */
  findLeads(leadIds: ReadonlySet<string>): Promise<Map<string, string>>;
}

export interface PeopleClient {
  /** Google's consent page for this client: contacts scope, offline access, consent asked again (so a refresh token comes), PKCE S256. */
  authorizeUrl(creds: Pick<GoogleCredentials, 'clientId' | 'clientSecret'>, o: { redirectUri: string; state: string; codeChallenge: string }): string;
  /** The code for tokens, and the account's e-mail (from the id_token). */
  exchange(creds: Pick<GoogleCredentials, 'clientId' | 'clientSecret'>, o: { code: string; codeVerifier: string; redirectUri: string }): Promise<{ tokens: GoogleTokens; email?: string }>;
  /** Calls on behalf of a phone; `onTokens` gets every refreshed token to keep. */
  session(creds: GoogleCredentials, onTokens: (tokens: GoogleTokens) => void): PeopleSession;
}

export const GOOGLE_SCOPES = ['openid', 'email', GOOGLE_CONTACTS_SCOPE];

const clean = (t: Record<string, unknown>): GoogleTokens => {
  const out: Record<string, unknown> = {};
  for (const k of ['access_token', 'refresh_token', 'scope', 'token_type', 'id_token', 'expiry_date']) if (t[k] !== null && t[k] !== undefined) out[k] = t[k];
  return out as GoogleTokens;
};

export function createPeopleClient(endpoints: GoogleEndpoints = googleEndpointDefaults): PeopleClient {
  const sandbox = createSandboxPeopleClient(endpoints);
  const oauth = (creds: Pick<GoogleCredentials, 'clientId' | 'clientSecret'>, redirectUri?: string) =>
    new OAuth2Client({
      clientId: creds.clientId,
      clientSecret: creds.clientSecret,
      redirectUri,
      endpoints: { oauth2AuthBaseUrl: endpoints.authUrl, oauth2TokenUrl: endpoints.tokenUrl },
      // a 401 refreshes the access token and tries once more, even when its expiry is not reached (revoked, rotated)
      forceRefreshOnFailure: true,
    });
  return {
    authorizeUrl(creds, o) {
      if (isSandboxClient(creds.clientId)) return sandbox.authorizeUrl(creds, o);
      return oauth(creds, o.redirectUri).generateAuthUrl({
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: true,
        scope: GOOGLE_SCOPES,
        state: o.state,
        code_challenge: o.codeChallenge,
        code_challenge_method: CodeChallengeMethod.S256,
      });
    },
    async exchange(creds, o) {
      if (isSandboxClient(creds.clientId)) return sandbox.exchange(creds, o);
      try {
        const { tokens } = await oauth(creds, o.redirectUri).getToken({ code: o.code, codeVerifier: o.codeVerifier, redirect_uri: o.redirectUri });
        return { tokens: clean(tokens as Record<string, unknown>), email: emailOfIdToken(tokens.id_token) };
      } catch (error) {
        throw googleFailure(error);
      }
    },
    session(creds, onTokens) {
      if (isSandboxClient(creds.clientId)) return sandbox.session(creds, onTokens);
      const auth = oauth(creds);
      auth.setCredentials(clean(creds as unknown as Record<string, unknown>));
      auth.on('tokens', (t) => onTokens(clean(t as Record<string, unknown>)));
      const api = peopleApi({ version: 'v1', auth, rootUrl: endpoints.peopleUrl });
      return {
        async batchCreate(contacts) {
          if (contacts.length > GOOGLE_BATCH_MAX) throw new Error(`batchCreateContacts: ${contacts.length} > ${GOOGLE_BATCH_MAX}`);
          let data: people_v1.Schema$BatchCreateContactsResponse;
          try {
            // our own backoff on 429 (the caller waits and records it): the library would not retry a POST anyway
            ({ data } = await api.people.batchCreateContacts(
              { requestBody: { contacts: contacts.map((c) => ({ contactPerson: personOf(c) })), readMask: 'externalIds,metadata' } },
              { retry: false },
            ));
          } catch (error) {
            throw googleFailure(error);
          }
          return matchCreated(contacts, data.createdPeople ?? []);
        },
        async findLeads(leadIds) {
          const wanted = new Map([...leadIds].map((id) => [leadExternalId(id), id]));
          const found = new Map<string, string>();
          let pageToken: string | undefined;
          for (let page = 0; page < 200; page++) {
            let data: people_v1.Schema$ListConnectionsResponse;
            try {
              ({ data } = await api.people.connections.list({ resourceName: 'people/me', personFields: 'externalIds', pageSize: 1000, pageToken }, { retry: false }));
            } catch (error) {
              throw googleFailure(error);
            }
            for (const p of data.connections ?? []) {
              for (const x of p.externalIds ?? []) {
                const leadId = x.value ? wanted.get(x.value) : undefined;
                if (leadId && p.resourceName) found.set(leadId, p.resourceName);
              }
            }
            pageToken = data.nextPageToken ?? undefined;
            if (!pageToken || found.size === wanted.size) break;
          }
          return found;
        },
      };
    },
  };
}

/** Each created person's lead: by the external id we sent, else by position (Google answers in the order asked). */
function matchCreated(contacts: ContactIn[], created: people_v1.Schema$PersonResponse[]) {
  const byExternal = new Map(contacts.map((c) => [leadExternalId(c.leadId), c.leadId]));
  const out: Array<{ leadId: string; resourceName: string }> = [];
  created.forEach((r, i) => {
    const name = r.person?.resourceName;
    if (!name) return;
    const ext = r.person?.externalIds?.map((x) => x.value && byExternal.get(x.value)).find(Boolean);
    const leadId = ext || contacts[i]?.leadId;
    if (leadId) out.push({ leadId, resourceName: name });
  });
  return out;
}

/**
 * The demo's Google (no internet): consent is our own page that answers at once, tokens are
 * «sandbox-…», and a contact's resourceName is derived from its lead, so the same lead is the
 * same contact every time.
 */
export function createSandboxPeopleClient(_endpoints?: GoogleEndpoints): PeopleClient {
  return {
    authorizeUrl(creds, o) {
      const q = new URLSearchParams({
        client_id: creds.clientId,
        redirect_uri: o.redirectUri,
        response_type: 'code',
        scope: GOOGLE_SCOPES.join(' '),
        access_type: 'offline',
        prompt: 'consent',
        state: o.state,
        code_challenge: o.codeChallenge,
        code_challenge_method: 'S256',
      });
      // the sandbox consent lives on our own server, next to the callback: a path on the browser's own origin
      return `/api/google-people/sandbox/consent?${q}`;
    },
    async exchange(_creds, o) {
      if (!o.code.startsWith('sandbox-code-')) throw new GoogleError('reauth', googleMessages.invalidGrant, { status: 400, error: 'invalid_grant' });
      // no e-mail in the sandbox's id_token: the phone keeps the account it names
      const claims = Buffer.from(JSON.stringify({ sub: 'sandbox' })).toString('base64url');
      return {
        tokens: {
          access_token: `sandbox-access-${o.code.slice(-8)}`,
          refresh_token: `sandbox-refresh-${o.code.slice(-8)}`,
          scope: GOOGLE_SCOPES.join(' '),
          token_type: 'Bearer',
          id_token: `e30.${claims}.sandbox`,
          expiry_date: Date.now() + 3600_000,
        },
      };
    },
    session() {
      return {
        async batchCreate(contacts) {
          return contacts.map((c) => ({ leadId: c.leadId, resourceName: sandboxResourceName(c.leadId) }));
        },
        async findLeads() {
          return new Map();
        },
      };
    },
  };
}

export const sandboxResourceName = (leadId: string) => `people/c${BigInt(`0x${createHash('sha256').update(leadId).digest('hex').slice(0, 15)}`).toString()}`;
