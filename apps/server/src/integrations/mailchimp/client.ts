import { createHash } from 'node:crypto';
import { type MailchimpProblem, mailchimpMessages } from '@mostrador/contract';
import { type Answer, type FetchLike, jsonOf, NoAnswer, policyOf, sendWithRetries, type TransportOptions } from '../http.js';
import { createSandboxMailchimp } from './sandbox.js';

/**
 * A client of the Mailchimp Marketing API 3.0 (decision 0051), over fetch:
 * `https://{dc}.api.mailchimp.com/3.0` (`{dc}` the server prefix, `us21`), HTTP basic auth with
 * any user and the API key as password.
 * - `GET /ping` → `{health_status}`; `GET /lists/{list_id}?fields=id,name,stats.member_count`.
 * - `PUT /lists/{list_id}/members/{subscriber_hash}?skip_merge_validation=true`
 *   `{email_address, status_if_new, merge_fields:{FNAME,LNAME,PHONE}}`: upsert; the hash is the MD5
 *   of the lower-cased e-mail.
 * - `POST /lists/{list_id}/members/{subscriber_hash}/tags` `{tags:[{name,status:'active'}], is_syncing:true}` → 204.
 * - `GET /lists/{list_id}/members?count≤1000&offset=…&fields=…` → `{members, total_items}`.
 * At most 10 requests of one API key at a time in this process (Mailchimp allows 10 simultaneous
 * connections per user): one limiter per key, shared by every client and job of the process. 429,
 * 5xx and no answer are retried with doubling waits (`Retry-After` honoured). Errors carry the
 * Spanish reason; a member's own refusal (compliance state, forgotten, invalid e-mail) is
 * `kind: 'member'` and never stops a sync. A key starting with «sandbox» never leaves the
 * process: the demo's audiences answer from `sandbox.ts`.
 */

export const MAILCHIMP_MAX_CONNECTIONS = 10;
export const MAILCHIMP_PAGE_MAX = 1000;
export const DEFAULT_MAILCHIMP_URL = 'https://{dc}.api.mailchimp.com/3.0';

export interface MailchimpAccount {
  apiKey: string;
  serverPrefix: string;
  listId: string;
}

export interface MailchimpMemberInput {
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  statusIfNew?: 'subscribed' | 'pending' | 'unsubscribed' | 'transactional';
}

export interface MailchimpMember {
  email: string;
  fullName?: string;
  phone?: string;
  status: string;
  tags: string[];
}

export type MailchimpErrorKind = 'auth' | 'datacenter' | 'forbidden' | 'not-found' | 'member' | 'rate-limited' | 'server' | 'network' | 'invalid';

export class MailchimpError extends Error {
  constructor(
    readonly kind: MailchimpErrorKind,
    /** In Spanish, for the screen and the report. */
    readonly reason: string,
    readonly status = 0,
    readonly title = '',
  ) {
    super(reason);
  }
  /** Which part of the credential is wrong, for the connection test. */
  get problem(): MailchimpProblem {
    if (this.kind === 'auth' || this.kind === 'forbidden') return 'apiKey';
    if (this.kind === 'datacenter') return 'serverPrefix';
    if (this.kind === 'not-found') return 'listId';
    if (this.kind === 'network') return 'network';
    return 'mailchimp';
  }
}

export type { FetchLike };

/** Counts a caller's requests (a sync's report shows them). */
export interface RequestCounter {
  requests: number;
}

export interface MailchimpClient {
  ping(account: MailchimpAccount, counter?: RequestCounter): Promise<void>;
  audience(account: MailchimpAccount, counter?: RequestCounter): Promise<{ id: string; name: string; members: number }>;
  upsertMember(account: MailchimpAccount, member: MailchimpMemberInput, counter?: RequestCounter): Promise<{ status: string }>;
  tagMember(account: MailchimpAccount, email: string, tags: string[], counter?: RequestCounter): Promise<void>;
  members(account: MailchimpAccount, offset: number, count: number, counter?: RequestCounter): Promise<{ members: MailchimpMember[]; total: number }>;
}

export const subscriberHash = (email: string) => createHash('md5').update(email.trim().toLowerCase()).digest('hex');
export const isSandboxKey = (apiKey: string) => apiKey.startsWith('sandbox');
/** The data center a key belongs to: what follows its last «-» (`…-us21` → us21). */
export const datacenterOfKey = (apiKey: string) => (apiKey.includes('-') ? apiKey.slice(apiKey.lastIndexOf('-') + 1).toLowerCase() : '');
export const keyHint = (apiKey: string) => `${isSandboxKey(apiKey) ? 'sandbox' : ''}…${apiKey.slice(-4)}`;

// ---- the per-key limiter ------------------------------------------------------------------------

/** A counting semaphore: at most `size` holders; the rest wait in order. */
export class Limiter {
  active = 0;
  /** The most holders seen at once (the benchmark and the tests read it). */
  peak = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(readonly size: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    this.peak = Math.max(this.peak, this.active);
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // the slot passes straight to the next waiter (active stays), else it is freed
      if (next) next();
      else this.active--;
    }
  }
}

const limiters = new Map<string, Limiter>();
/** The process's limiter of one API key (keyed by its hash: the key itself is not kept in memory twice). */
export function limiterOf(apiKey: string, size = MAILCHIMP_MAX_CONNECTIONS): Limiter {
  const id = createHash('sha256').update(apiKey).digest('hex');
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = new Limiter(size);
    limiters.set(id, limiter);
  }
  return limiter;
}

// ---- errors ------------------------------------------------------------------------------------

type Problem = { title?: string; detail?: string; status?: number; errors?: Array<{ field?: string; message?: string }> };

/** A Mailchimp problem document in the words an owner acts on. */
export function mailchimpErrorOf(status: number, body: Problem | undefined, scope: 'account' | 'list' | 'member'): MailchimpError {
  const title = body?.title ?? '';
  const detail = body?.detail ?? '';
  // 401 API Key Invalid / Missing; 403 Wrong Datacenter (the key belongs to another server), User Disabled, Forbidden
  if (status === 401) return new MailchimpError('auth', mailchimpMessages.keyInvalid, status, title);
  if (status === 403) {
    if (/datacenter/i.test(`${title} ${detail}`)) return new MailchimpError('datacenter', mailchimpMessages.serverPrefix, status, title);
    return new MailchimpError('forbidden', mailchimpMessages.forbidden, status, title);
  }
  if (status === 404 && scope !== 'member') return new MailchimpError('not-found', mailchimpMessages.listMissing, status, title);
  if (status === 429) return new MailchimpError('rate-limited', mailchimpMessages.rateLimited, status, title);
  if (status >= 500) return new MailchimpError('server', mailchimpMessages.unavailable, status, title);
  if (scope === 'member' && (status === 400 || status === 404)) {
    const text = `${title} ${detail}`;
    if (/compliance state/i.test(text)) {
      return new MailchimpError('member', 'Está en estado de cumplimiento en Mailchimp (se dio de baja, rebotó o se quejó): Mailchimp no permite volver a suscribirlo por la API', status, title);
    }
    if (/forgotten/i.test(text)) {
      return new MailchimpError('member', 'Pidió ser olvidado en Mailchimp: solo puede volver a suscribirse él mismo, desde un formulario de la audiencia', status, title);
    }
    if (/fake or invalid|valid email|email address|looks fake/i.test(text)) {
      return new MailchimpError('member', 'Mailchimp considera el correo inválido o falso', status, title);
    }
    if (/signed up to a lot of lists/i.test(text)) {
      return new MailchimpError('member', 'Mailchimp frenó las altas de este correo por un tiempo (se suscribió a muchas listas hace poco)', status, title);
    }
    if (/merge fields/i.test(text)) return new MailchimpError('member', `Mailchimp rechazó los datos del contacto: ${detail.slice(0, 200)}`, status, title);
    return new MailchimpError('member', `Mailchimp rechazó el contacto: ${(detail || title || `error ${status}`).slice(0, 200)}`, status, title);
  }
  return new MailchimpError('invalid', `Mailchimp rechazó la solicitud: ${(detail || title || `error ${status}`).slice(0, 200)}`, status, title);
}

// ---- the client --------------------------------------------------------------------------------

export interface MailchimpClientOptions extends TransportOptions {
  /** The base with `{dc}` where the data center goes (tests point it at a fake). */
  urlTemplate?: string;
  /** Connections per key (default Mailchimp's 10). */
  connections?: number;
}

export function createMailchimpClient(options: MailchimpClientOptions = {}): MailchimpClient {
  const template = (options.urlTemplate ?? DEFAULT_MAILCHIMP_URL).replace(/\/+$/, '');
  const doFetch: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  // a little jitter so ten requests held together do not come back at the same instant
  const policy = policyOf(options, 6, { jitter: 0.25 });
  const sandbox = createSandboxMailchimp();

  async function call<T>(account: MailchimpAccount, method: string, path: string, body: unknown, scope: 'account' | 'list' | 'member', counter?: RequestCounter): Promise<T> {
    const dc = account.serverPrefix.trim().toLowerCase();
    const url = `${template.replace('{dc}', encodeURIComponent(dc))}${path}`;
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`mostrador:${account.apiKey}`).toString('base64')}`,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const limiter = limiterOf(account.apiKey, options.connections);
    let answer: Answer;
    try {
      answer = await sendWithRetries(
        // one slot per try, its body read inside it: a wait between tries holds no connection
        (signal) =>
          limiter.run(async () => {
            if (counter) counter.requests++;
            const res = await doFetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
            const text = await res.text();
            return { status: res.status, headers: res.headers, text: async () => text };
          }),
        policy,
      );
    } catch (error) {
      const reason = error instanceof NoAnswer && error.cause instanceof Error ? error.cause.message : String(error);
      throw new MailchimpError('network', `${mailchimpMessages.network} (${reason})`.slice(0, 300));
    }
    const parsed = jsonOf(answer.text);
    if (answer.status >= 200 && answer.status < 300) return parsed as T;
    throw mailchimpErrorOf(answer.status, parsed as Problem | undefined, scope);
  }

  const list = (account: MailchimpAccount) => `/lists/${encodeURIComponent(account.listId.trim())}`;

  const real: MailchimpClient = {
    async ping(account, counter) {
      await call(account, 'GET', '/ping', undefined, 'account', counter);
    },
    async audience(account, counter) {
      const body = await call<{ id?: string; name?: string; stats?: { member_count?: number } }>(
        account,
        'GET',
        `${list(account)}?fields=id,name,stats.member_count`,
        undefined,
        'list',
        counter,
      );
      return { id: body?.id ?? account.listId, name: body?.name ?? account.listId, members: Number(body?.stats?.member_count ?? 0) };
    },
    async upsertMember(account, member, counter) {
      const merge: Record<string, string> = {};
      if (member.firstName) merge.FNAME = member.firstName;
      if (member.lastName) merge.LNAME = member.lastName;
      if (member.phone) merge.PHONE = member.phone;
      const body = await call<{ status?: string }>(
        account,
        'PUT',
        `${list(account)}/members/${subscriberHash(member.email)}?skip_merge_validation=true`,
        { email_address: member.email.trim(), status_if_new: member.statusIfNew ?? 'subscribed', merge_fields: merge },
        'member',
        counter,
      );
      return { status: body?.status ?? 'subscribed' };
    },
    async tagMember(account, email, tags, counter) {
      if (!tags.length) return;
      await call(account, 'POST', `${list(account)}/members/${subscriberHash(email)}/tags`, { tags: tags.map((name) => ({ name, status: 'active' })), is_syncing: true }, 'member', counter);
    },
    async members(account, offset, count, counter) {
      const params = new URLSearchParams({
        count: String(Math.min(MAILCHIMP_PAGE_MAX, Math.max(1, count))),
        offset: String(Math.max(0, offset)),
        fields: 'members.email_address,members.full_name,members.status,members.merge_fields,members.tags,total_items',
      });
      const body = await call<{ members?: Array<{ email_address?: string; full_name?: string; status?: string; merge_fields?: Record<string, unknown>; tags?: Array<{ name?: string }> }>; total_items?: number }>(
        account,
        'GET',
        `${list(account)}/members?${params}`,
        undefined,
        'list',
        counter,
      );
      return {
        total: Number(body?.total_items ?? 0),
        members: (body?.members ?? [])
          .filter((m) => typeof m.email_address === 'string')
          .map((m) => {
            const fname = typeof m.merge_fields?.FNAME === 'string' ? m.merge_fields.FNAME : '';
            const lname = typeof m.merge_fields?.LNAME === 'string' ? m.merge_fields.LNAME : '';
            const phone = typeof m.merge_fields?.PHONE === 'string' ? m.merge_fields.PHONE : '';
            return {
              email: m.email_address as string,
              fullName: (m.full_name || `${fname} ${lname}`).trim() || undefined,
              phone: phone || undefined,
              status: m.status ?? 'subscribed',
              tags: (m.tags ?? []).map((t) => t.name ?? '').filter(Boolean),
            };
          }),
      };
    },
  };

  return {
    ping: (a, c) => (isSandboxKey(a.apiKey) ? sandbox.ping(a, c) : real.ping(a, c)),
    audience: (a, c) => (isSandboxKey(a.apiKey) ? sandbox.audience(a, c) : real.audience(a, c)),
    upsertMember: (a, m, c) => (isSandboxKey(a.apiKey) ? sandbox.upsertMember(a, m, c) : real.upsertMember(a, m, c)),
    tagMember: (a, e, t, c) => (isSandboxKey(a.apiKey) ? sandbox.tagMember(a, e, t, c) : real.tagMember(a, e, t, c)),
    members: (a, o, n, c) => (isSandboxKey(a.apiKey) ? sandbox.members(a, o, n, c) : real.members(a, o, n, c)),
  };
}

/**
 * The connection test (decision 0051): the key's data center against the server prefix (said
 * before any call), `GET /ping` (the key), `GET /lists/{id}` (the audience).
 */
export async function testConnection(client: MailchimpClient, account: MailchimpAccount) {
  const dc = datacenterOfKey(account.apiKey);
  if (dc && dc !== account.serverPrefix.trim().toLowerCase()) {
    return { ok: false, problem: 'serverPrefix' as const, msg: `El prefijo del servidor (${account.serverPrefix}) no corresponde a la API key, que es del servidor ${dc}: escribe ${dc}` };
  }
  try {
    await client.ping(account);
  } catch (error) {
    if (!(error instanceof MailchimpError)) throw error;
    return { ok: false, problem: error.problem, msg: error.reason };
  }
  try {
    const audience = await client.audience(account);
    const sandbox = isSandboxKey(account.apiKey) ? ' (audiencia de prueba)' : '';
    return {
      ok: true,
      msg: `Conexión correcta: la audiencia «${audience.name}»${sandbox} tiene ${audience.members.toLocaleString('es-PE')} ${audience.members === 1 ? 'contacto' : 'contactos'}`,
      audience: { name: audience.name, members: audience.members },
    };
  } catch (error) {
    if (!(error instanceof MailchimpError)) throw error;
    // the key answered the ping: a 404 here is the audience id
    return { ok: false, problem: error.problem, msg: error.reason };
  }
}
