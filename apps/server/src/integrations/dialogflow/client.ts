import { createHash } from 'node:crypto';
import { JWT } from 'google-auth-library';
import { type Answer, jsonOf, NoAnswer, sendWithRetries } from '../http.js';

/**
 * A thin client of the Dialogflow ES API v2 (INTEGRATIONS.md, decision 0053):
 * `POST {apiUrl}/v2/projects/{project}/agent/sessions/{session}:detectIntent` with
 * `queryInput.text {text, languageCode}`, authorised by a service-account token. The token comes
 * from google-auth-library's JWT client (a signed JWT exchanged at Google's token endpoint, cached
 * by the library until shortly before it expires); one JWT client per service account is kept,
 * so every answer of a bot reuses the token. The token endpoint is a setting (`tokenUrl`): the
 * library's requests to Google's endpoint are sent there instead, so tests reach a local fake.
 * Each call has a timeout; 429 and 5xx are retried with backoff; 401/403/404 become Spanish
 * reasons (key revoked, wrong project, API disabled).
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const DIALOGFLOW_SCOPE = 'https://www.googleapis.com/auth/dialogflow';

export interface ServiceAccount {
  client_email: string;
  private_key: string;
}

export interface DetectIntentInput {
  projectId: string;
  account: ServiceAccount;
  /** The chat's id: Dialogflow keeps the conversation's contexts per session. */
  sessionId: string;
  text: string;
  languageCode: string;
}

export interface DetectIntentResult {
  intent?: string;
  isFallback: boolean;
  confidence?: number;
  /** What to answer: fulfillmentText, else the text messages of fulfillmentMessages joined. */
  reply: string;
  action?: string;
}

export type DialogflowErrorKind = 'credentials' | 'permission' | 'not_found' | 'disabled' | 'quota' | 'unavailable' | 'bad_request' | 'timeout';

/** A refusal or failure of Dialogflow or of the token endpoint, with a Spanish reason for the screen. */
export class DialogflowError extends Error {
  constructor(
    readonly kind: DialogflowErrorKind,
    readonly reason: string,
    readonly status?: number,
  ) {
    super(reason);
  }
  /** Worth trying again later (the job's queue retries). */
  get retryable() {
    return this.kind === 'quota' || this.kind === 'unavailable' || this.kind === 'timeout';
  }
}

export const dialogflowReasons = {
  badKey: 'La clave privada de la cuenta de servicio no es válida: pega el valor completo de private_key del archivo JSON',
  keyRefused: (detail: string) => `Google rechazó la cuenta de servicio (${detail}): la clave fue revocada, borrada o no corresponde a ese client_email. Crea una clave nueva y guárdala en el bot`,
  unauthenticated: 'Google no aceptó el token de la cuenta de servicio (401): vuelve a guardar la clave del bot',
  permission: (project: string) =>
    `La cuenta de servicio no tiene permiso en el proyecto «${project}» (403): dale el rol «Cliente de la API de Dialogflow» en ese proyecto, o revisa que el id del proyecto sea el del agente`,
  disabled: (project: string) => `La API de Dialogflow no está habilitada en el proyecto «${project}» (403): habilítala en la consola de Google Cloud`,
  notFound: (project: string) => `No hay un agente de Dialogflow en el proyecto «${project}» (404): revisa el id del proyecto`,
  quota: 'Dialogflow limitó las consultas (429): se reintenta en unos segundos',
  unavailable: (status: number) => `Dialogflow no respondió bien (${status}): se reintenta en unos segundos`,
  timeout: (ms: number) => `Dialogflow no respondió en ${Math.round(ms / 1000)} s`,
  network: 'No se pudo conectar con Dialogflow',
  badRequest: (detail: string) => `Dialogflow rechazó la consulta: ${detail}`,
  noProject: 'Falta el id del proyecto de Dialogflow',
  noAccount: 'Falta la cuenta de servicio (client_email y private_key)',
} as const;

export interface DialogflowClientOptions {
  apiUrl: string;
  tokenUrl: string;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  fetch?: FetchLike;
}

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: Array<{ reason?: string; '@type'?: string }> } | string;
  error_description?: string;
}

export function createDialogflowClient(options: DialogflowClientOptions) {
  const doFetch: FetchLike = options.fetch ?? fetch;
  const base = options.apiUrl.replace(/\/+$/, '');
  /** The library posts to Google's token endpoint: sent to the configured one instead. */
  const tokenFetch: FetchLike = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const target = url.startsWith(GOOGLE_TOKEN_URL) ? options.tokenUrl + url.slice(GOOGLE_TOKEN_URL.length) : url;
    return withTimeout((signal) => doFetch(target, { ...init, signal }), options.timeoutMs);
  };
  const clients = new Map<string, JWT>();

  function jwtOf(account: ServiceAccount): JWT {
    const key = `${account.client_email}:${createHash('sha256').update(account.private_key).digest('hex')}`;
    let jwt = clients.get(key);
    if (!jwt) {
      if (clients.size > 500) clients.clear();
      jwt = new JWT({
        email: account.client_email,
        key: account.private_key,
        scopes: [DIALOGFLOW_SCOPE],
        transporterOptions: { fetchImplementation: tokenFetch as never, retry: false },
      });
      clients.set(key, jwt);
    }
    return jwt;
  }

  async function token(account: ServiceAccount): Promise<string> {
    let value: string | null | undefined;
    try {
      value = (await jwtOf(account).getAccessToken()).token;
    } catch (error) {
      throw tokenError(error);
    }
    if (!value) throw new DialogflowError('credentials', dialogflowReasons.keyRefused('sin token'));
    return value;
  }

  /** Forgets a service account's token (Dialogflow answered 401: the next call asks for a new one). */
  function forget(account: ServiceAccount) {
    for (const [key, jwt] of clients) if (jwt.email === account.client_email) clients.delete(key);
  }

  async function detectIntent(input: DetectIntentInput): Promise<DetectIntentResult> {
    if (!input.projectId) throw new DialogflowError('bad_request', dialogflowReasons.noProject);
    if (!input.account.client_email || !input.account.private_key) throw new DialogflowError('credentials', dialogflowReasons.noAccount);
    const url = `${base}/v2/projects/${encodeURIComponent(input.projectId)}/agent/sessions/${encodeURIComponent(input.sessionId)}:detectIntent`;
    const body = JSON.stringify({ queryInput: { text: { text: input.text.slice(0, 256), languageCode: input.languageCode } } });
    const policy = { tries: options.retries + 1, backoffMs: options.backoffMs, timeoutMs: options.timeoutMs };
    for (let refreshed = false; ; refreshed = true) {
      const bearer = await token(input.account);
      let answer: Answer;
      try {
        answer = await sendWithRetries(
          (signal) => doFetch(url, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json; charset=utf-8' }, body, signal }),
          policy,
          // 429 and 5xx (quota, unavailable) are tried again; a 401 gets a new token below, once
          { retryable: (a) => a.status !== 401 && apiError(a.status, (jsonOf(a.text) ?? {}) as GoogleErrorBody, input.projectId).retryable },
        );
      } catch (error) {
        if (error instanceof NoAnswer && error.code === 'TimeoutError') throw new DialogflowError('timeout', dialogflowReasons.timeout(options.timeoutMs));
        throw new DialogflowError('unavailable', dialogflowReasons.network);
      }
      if (answer.status >= 200 && answer.status < 300) return resultOf((jsonOf(answer.text) ?? {}) as DetectIntentResponse);
      if (answer.status === 401 && !refreshed) {
        // a token Google no longer takes (revoked meanwhile): one new token, once
        forget(input.account);
        continue;
      }
      throw apiError(answer.status, (jsonOf(answer.text) ?? {}) as GoogleErrorBody, input.projectId);
    }
  }

  return { detectIntent, forget };
}
export type DialogflowClient = ReturnType<typeof createDialogflowClient>;

interface DetectIntentResponse {
  responseId?: string;
  queryResult?: {
    queryText?: string;
    action?: string;
    fulfillmentText?: string;
    fulfillmentMessages?: Array<{ text?: { text?: string[] }; platform?: string }>;
    intent?: { name?: string; displayName?: string; isFallback?: boolean };
    intentDetectionConfidence?: number;
  };
}

function resultOf(data: DetectIntentResponse): DetectIntentResult {
  const q = data.queryResult ?? {};
  const fromMessages = (q.fulfillmentMessages ?? [])
    // the messages for every platform (PLATFORM_UNSPECIFIED), not those meant for another integration
    .filter((m) => !m.platform || m.platform === 'PLATFORM_UNSPECIFIED')
    .flatMap((m) => m.text?.text ?? [])
    .filter((t) => t.trim());
  const reply = (q.fulfillmentText?.trim() ? q.fulfillmentText : fromMessages.join('\n')).trim();
  return {
    intent: q.intent?.displayName || undefined,
    isFallback: q.intent?.isFallback === true,
    confidence: typeof q.intentDetectionConfidence === 'number' ? q.intentDetectionConfidence : undefined,
    reply: reply.slice(0, 4000),
    action: q.action || undefined,
  };
}

function apiError(status: number, data: GoogleErrorBody, project: string): DialogflowError {
  const e = typeof data.error === 'object' ? data.error : undefined;
  const message = (e?.message ?? '').slice(0, 300);
  const disabled = e?.details?.some((d) => d.reason === 'SERVICE_DISABLED') || /has not been used|is disabled|SERVICE_DISABLED/i.test(message);
  if (status === 401) return new DialogflowError('credentials', dialogflowReasons.unauthenticated, status);
  if (status === 403) return disabled ? new DialogflowError('disabled', dialogflowReasons.disabled(project), status) : new DialogflowError('permission', dialogflowReasons.permission(project), status);
  if (status === 404) return new DialogflowError('not_found', dialogflowReasons.notFound(project), status);
  if (status === 429) return new DialogflowError('quota', dialogflowReasons.quota, status);
  if (status >= 500) return new DialogflowError('unavailable', dialogflowReasons.unavailable(status), status);
  return new DialogflowError('bad_request', dialogflowReasons.badRequest(message || String(status)), status);
}

/** What the token endpoint (or signing the JWT) said, as a Spanish reason. */
function tokenError(error: unknown): DialogflowError {
  if (error instanceof DialogflowError) return error;
  const e = error as { message?: string; code?: string; status?: number; response?: { status?: number; data?: GoogleErrorBody } };
  const status = e.response?.status ?? e.status;
  const data = e.response?.data;
  if (status && data) {
    if (status === 429) return new DialogflowError('quota', dialogflowReasons.quota, status);
    if (status >= 500) return new DialogflowError('unavailable', dialogflowReasons.unavailable(status), status);
    const code = typeof data.error === 'string' ? data.error : (data.error?.status ?? String(status));
    const detail = [code, data.error_description].filter(Boolean).join(': ').slice(0, 200);
    return new DialogflowError('credentials', dialogflowReasons.keyRefused(detail), status);
  }
  if (/timeout|abort/i.test(e.message ?? '') || (error as { name?: string }).name === 'AbortError') return new DialogflowError('timeout', dialogflowReasons.network);
  // signing failed: the private key is not a key
  if (/key|PEM|DECODER|asn1|sign/i.test(`${e.message ?? ''} ${e.code ?? ''}`)) return new DialogflowError('credentials', dialogflowReasons.badKey);
  return new DialogflowError('unavailable', dialogflowReasons.network);
}

async function withTimeout<T>(run: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await run(controller.signal);
  } catch (error) {
    if (controller.signal.aborted) throw new DialogflowError('timeout', dialogflowReasons.timeout(ms));
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
