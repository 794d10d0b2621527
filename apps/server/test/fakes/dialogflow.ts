import { createPublicKey, createVerify, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of Google's OAuth token endpoint (the service-account JWT bearer grant) and of the
 * Dialogflow ES API v2 `detectIntent`, on a real HTTP server (a random port); nothing reaches the
 * internet. The app's DIALOGFLOW_TOKEN_URL is `{url}/token`, DIALOGFLOW_API_URL is `url`. What it
 * enforces, as Google does:
 * - the token request is `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` with an RS256 JWT
 *   signed by the service account's key (checked with its public key), `iss` the account's e-mail,
 *   `aud` Google's token URL, the Dialogflow scope and an `exp` in the future; a revoked account
 *   gets 400 invalid_grant;
 * - detectIntent needs `Authorization: Bearer <a token it issued>` (401 otherwise), a known project
 *   (404), the API enabled there (403 SERVICE_DISABLED) and the account allowed on it (403
 *   PERMISSION_DENIED), and a body `queryInput.text {text, languageCode}` (400 otherwise);
 * - the agent: «precio» → intent `precios`, «hola» → `Default Welcome Intent`, anything else the
 *   fallback (`isFallback: true`). `failNext` answers the next calls 429/5xx.
 */
export interface FakeAccount {
  client_email: string;
  private_key: string;
}
export interface FakeDialogflow {
  url: string;
  tokenUrl: string;
  /** Makes a service account (a real RSA key pair) allowed on `projects`. */
  account(email: string, projects: string[]): FakeAccount;
  revoked: Set<string>;
  projects: Set<string>;
  disabled: Set<string>;
  failNext: { status: number; count: number };
  tokenRequests: number;
  calls: Array<{ project: string; session: string; text: string; languageCode: string; email: string }>;
  refused: Array<{ status: number; reason: string }>;
  close(): Promise<void>;
}

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export async function startFakeDialogflow(): Promise<FakeDialogflow> {
  const keys = new Map<string, { publicKey: string; projects: Set<string> }>();
  const tokens = new Map<string, string>();
  let n = 0;
  const state = {
    revoked: new Set<string>(),
    projects: new Set<string>(),
    disabled: new Set<string>(),
    failNext: { status: 0, count: 0 },
    tokenRequests: 0,
    calls: [] as FakeDialogflow['calls'],
    refused: [] as FakeDialogflow['refused'],
  };
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const googleError = (res: http.ServerResponse, status: number, statusText: string, message: string, reason?: string) => {
    state.refused.push({ status, reason: statusText });
    send(res, status, { error: { code: status, message, status: statusText, ...(reason ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason }] } : {}) } });
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname === '/token') {
        state.tokenRequests++;
        const form = new URLSearchParams(raw);
        const bad = (description: string) => send(res, 400, { error: 'invalid_grant', error_description: description });
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return bad('grant_type');
        const [h, p, s] = (form.get('assertion') ?? '').split('.');
        if (!h || !p || !s) return bad('Invalid JWT');
        const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
        const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { iss?: string; aud?: string; scope?: string; exp?: number; iat?: number };
        const key = claims.iss ? keys.get(claims.iss) : undefined;
        if (header.alg !== 'RS256' || !key) return bad('Invalid JWT: unknown issuer');
        const valid = createVerify('RSA-SHA256').update(`${h}.${p}`).verify(createPublicKey(key.publicKey), Buffer.from(s, 'base64url'));
        if (!valid || state.revoked.has(claims.iss as string)) return bad('Invalid JWT Signature.');
        if (claims.aud !== GOOGLE_TOKEN_URL) return bad('Invalid JWT: aud');
        if (!claims.scope?.split(' ').includes('https://www.googleapis.com/auth/dialogflow')) return bad('Invalid JWT: scope');
        if (!claims.exp || claims.exp * 1000 < Date.now()) return bad('Invalid JWT: Token must be a short-lived token');
        const token = `ya29.fake-${++n}`;
        tokens.set(token, claims.iss as string);
        return send(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      const m = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/.exec(url.pathname);
      if (req.method === 'POST' && m) {
        const project = decodeURIComponent(m[1]);
        const session = decodeURIComponent(m[2]);
        if (state.failNext.count > 0) {
          state.failNext.count--;
          return googleError(res, state.failNext.status, state.failNext.status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE', 'try again');
        }
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const email = bearer ? tokens.get(bearer) : undefined;
        if (!email || state.revoked.has(email)) return googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
        if (!state.projects.has(project)) return googleError(res, 404, 'NOT_FOUND', `com.google.apps.framework.request.NotFoundException: No DesignTimeAgent found for project '${project}'.`);
        if (state.disabled.has(project))
          return googleError(res, 403, 'PERMISSION_DENIED', `Dialogflow API has not been used in project ${project} before or it is disabled.`, 'SERVICE_DISABLED');
        if (!keys.get(email)?.projects.has(project)) return googleError(res, 403, 'PERMISSION_DENIED', "IAM permission 'dialogflow.sessions.detectIntent' denied.");
        let body: { queryInput?: { text?: { text?: unknown; languageCode?: unknown } } };
        try {
          body = JSON.parse(raw);
        } catch {
          return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload');
        }
        const text = body.queryInput?.text?.text;
        const languageCode = body.queryInput?.text?.languageCode;
        if (typeof text !== 'string' || !text || typeof languageCode !== 'string' || !languageCode) return googleError(res, 400, 'INVALID_ARGUMENT', 'queryInput.text');
        state.calls.push({ project, session, text, languageCode, email });
        const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
        const intent = folded.includes('precio')
          ? { name: `projects/${project}/agent/intents/1`, displayName: 'precios', reply: 'El pack familiar cuesta S/ 49.90' }
          : folded.includes('hola')
            ? { name: `projects/${project}/agent/intents/2`, displayName: 'Default Welcome Intent', reply: '¡Hola! ¿En qué te ayudo?' }
            : { name: `projects/${project}/agent/intents/3`, displayName: 'Default Fallback Intent', reply: 'No entendí', isFallback: true };
        return send(res, 200, {
          responseId: `resp-${state.calls.length}`,
          queryResult: {
            queryText: text,
            languageCode,
            action: intent.isFallback ? 'input.unknown' : '',
            parameters: {},
            allRequiredParamsPresent: true,
            // the legacy field empty, the text in fulfillmentMessages (as agents built in the console answer)
            fulfillmentText: intent.displayName === 'precios' ? '' : intent.reply,
            fulfillmentMessages: [{ text: { text: [intent.reply] } }],
            intent: { name: intent.name, displayName: intent.displayName, ...(intent.isFallback ? { isFallback: true } : {}) },
            intentDetectionConfidence: intent.isFallback ? 1 : 0.87,
          },
        });
      }
      send(res, 404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake = Object.assign(state, {
    url,
    tokenUrl: `${url}/token`,
    account(email: string, projects: string[]): FakeAccount {
      const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
      keys.set(email, { publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }) as string, projects: new Set(projects) });
      return { client_email: email, private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
  return fake;
}
