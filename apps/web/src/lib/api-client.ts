import {
  type ErrorCode,
  type LoginResponse,
  pickLang,
  refreshableCodes,
  SERVER_TIMEOUT_CONNECTION_ERROR,
} from '@mostrador/contract';
import { t } from '../i18n';
import { actionKey, clearErrorsOf, showErrors, showSuccess, startLoading, stopLoading } from './feedback';
import { navigateTo } from './navigation';
import { clearSession, sessionStore, setSession } from './session';

/**
 * The one API client (ARCHITECTURE §8, SPEC §8): bearer token, X-Company-Id,
 * Accept-Language, 60 s timeout, loading overlay, snackbars and the 401 rules.
 */

export const API_BASE = '/api';
/** SPEC §9: request time-out 60 seconds. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** The server answered with a failure status. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly code: ErrorCode | undefined;
  readonly messages: string[];

  constructor(status: number, body: unknown, messages: string[]) {
    super(messages[0] ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.code = codeOf(body);
    this.messages = messages;
  }
}

/** No response at all: network down, server gone, or the 60 s timeout. */
export class NetworkError extends Error {
  readonly timedOut: boolean;
  /** The action that got no response (`actionKey`), so its later success clears the snackbar. */
  readonly action: string | undefined;

  constructor(cause: unknown, timedOut: boolean, action?: string) {
    super(timedOut ? 'Request timed out' : 'Network error', { cause });
    this.name = 'NetworkError';
    this.timedOut = timedOut;
    this.action = action;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Login, forgot, reset and public pages: no bearer, no company, no refresh (SPEC §6). */
  public?: boolean;
  /** Whether a 401 may trigger the token refresh and replay (default true). */
  refresh?: boolean;
  /** Show the loading overlay during the call (default true). */
  overlay?: boolean;
  /** Show failures in the error snackbar and apply the 401 navigation (default true). */
  notify?: boolean;
  /** Success snackbar: a message, or `true` for the server's `msg`. */
  success?: string | boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** A write a retry could double (a send): the same key is done once (ARCHITECTURE §5). */
  idempotencyKey?: string;
}

function codeOf(body: unknown): ErrorCode | undefined {
  const errors = (body as { errors?: { code?: unknown } } | null)?.errors;
  return errors && typeof errors.code === 'string' ? (errors.code as ErrorCode) : undefined;
}

/** errorMessagesOf lives beside zod in the contract: loaded when a call first fails. */
async function messagesOf(body: unknown): Promise<string[]> {
  try {
    const { errorMessagesOf } = await import('./contract-lazy');
    return errorMessagesOf(body);
  } catch {
    // The chunk could not load: read the wire shape `{ errors: { msg } }` directly.
    const msg = (body as { errors?: { msg?: unknown } } | null)?.errors?.msg;
    return typeof msg === 'string' ? [msg] : [];
  }
}

async function failureMessages(body: unknown): Promise<string[]> {
  const messages = await messagesOf(body);
  if (messages.length > 0) return messages;
  // The contract's key for "no message from the server" is also the dictionary's key.
  return [t(SERVER_TIMEOUT_CONNECTION_ERROR)];
}

function browserLanguage(): string | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.language;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

/** The headers of a call: language, and the bearer token and company unless public (also for the events stream). */
export function buildHeaders(options: RequestOptions): Headers {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': pickLang(browserLanguage()) });
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  if (options.idempotencyKey) headers.set('Idempotency-Key', options.idempotencyKey);
  if (!options.public) {
    const { token, companyId } = sessionStore.get();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (companyId) headers.set('X-Company-Id', companyId);
  }
  return headers;
}

/** One fetch with the timeout; throws NetworkError when nothing came back. */
async function send(path: string, options: RequestOptions): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers: buildHeaders(options),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: controller.signal,
    });
  } catch (error) {
    throw new NetworkError(error, timedOut, actionKey(options.method ?? 'GET', path));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRefreshable(code: ErrorCode | undefined): boolean {
  return !!code && (refreshableCodes.includes(code) || code === 'SESSION_REVOKED');
}

/**
 * Callers report calls that got no response (SPEC §8 passes them on): the query cache for
 * screens, useSubmit for the sign-in forms. `quiet` callers show the failure themselves.
 */
export function notifyNoResponse(error: unknown, quiet = false): void {
  if (error instanceof NetworkError && !quiet) showErrors([t('errors.connection')], error.action);
}

let refreshing: Promise<boolean> | null = null;

/**
 * GET /api/token with the refresh cookie. One call at a time: concurrent 401s share it.
 * Resolves true with the new session stored, false when the server refused it.
 * Throws NetworkError when the server could not be reached.
 */
export function refreshSession(): Promise<boolean> {
  if (!refreshing) {
    refreshing = (async () => {
      const response = await send('/token', { public: true });
      if (!response.ok) return false;
      const body = (await readBody(response)) as LoginResponse;
      setSession(body, { keepCompany: true });
      return true;
    })().finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

async function signOutToLogin(body: unknown): Promise<string[]> {
  clearSession();
  const messages = await messagesOf(body);
  if (messages[0]) showErrors([messages[0]]);
  navigateTo('/login');
  return messages;
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const overlay = options.overlay ?? true;
  const notify = options.notify ?? true;
  const mayRefresh = !options.public && (options.refresh ?? true);
  const action = actionKey(options.method ?? 'GET', path);
  if (overlay) startLoading();
  try {
    let response = await send(path, options);
    let body = await readBody(response);

    if (response.status === 401 && mayRefresh && isRefreshable(codeOf(body))) {
      let refreshed = false;
      try {
        refreshed = await refreshSession();
      } catch {
        refreshed = false;
      }
      if (!refreshed) throw new ApiError(response.status, body, await signOutToLogin(body));
      response = await send(path, options);
      body = await readBody(response);
      if (response.status === 401 && isRefreshable(codeOf(body))) {
        throw new ApiError(response.status, body, await signOutToLogin(body));
      }
    }

    if (response.ok) {
      // the same action failed before and its error is still on screen: it no longer applies
      clearErrorsOf(action);
      if (options.success) {
        const serverMsg = (body as { msg?: unknown } | null)?.msg;
        const message = options.success === true ? (typeof serverMsg === 'string' ? serverMsg : '') : options.success;
        if (message) showSuccess(message);
      }
      return body as T;
    }

    const messages = await failureMessages(body);
    if (response.status === 401 && !options.public) {
      // A denied action (FORBIDDEN, COMPANY_FORBIDDEN): SPEC §8 sends the user to Profile.
      if (notify) {
        const msg = (await messagesOf(body))[0] ?? '';
        showErrors([`${t('errors.askPermissions')}${msg}`]);
        navigateTo('/perfil');
      }
    } else if (notify) {
      showErrors(messages, action);
    }
    throw new ApiError(response.status, body, messages);
  } finally {
    if (overlay) stopLoading();
  }
}

type BodyOptions = Omit<RequestOptions, 'method' | 'body'>;

export const api = {
  get: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, options?: RequestOptions) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
