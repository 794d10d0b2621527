import { createHash } from 'node:crypto';
import { AUDIENCE_BATCH_MAX, audienceMessages, type CountryCode, isPhoneNumber, normalisePhone } from '@mostrador/contract';
import { isSandboxAdsToken } from './ads.js';
import { graphJson, ProviderError } from './send.js';

/**
 * A client of the Marketing API's customer-file Custom Audiences (decision 0048):
 *
 * - `POST /act_<id>/customaudiences` {name, description, subtype: CUSTOM, customer_file_source:
 *   USER_PROVIDED_ONLY} → {id}
 * - `POST /<audience_id>/users` {payload: {schema: ['EMAIL', 'PHONE'], data: [[sha256(email) | '',
 *   sha256(phone) | ''], …]}, session: {session_id, batch_seq, last_batch_flag,
 *   estimated_num_total}} → {audience_id, session_id, num_received, num_invalid_entries}
 *
 * At most 10,000 rows a call (Meta's limit). E-mails are trimmed and lower-cased; phones are
 * digits with their country code (a local number takes the company's country: libphonenumber-js
 * through the contract's `normalisePhone`); each value is SHA-256 hex. Throttling (HTTP 429, codes
 * 4, 17, 32, 613, 80003 the custom-audience limit, 80004) is waited out with a growing pause a few
 * times; other refusals read as Spanish. The token needs `ads_management` on the ad account.
 * A token that starts with «sandbox» never reaches Meta (the demo's account).
 */
export const AUDIENCE_SCHEMA = ['EMAIL', 'PHONE'] as const;

export interface AudienceBatch {
  /** Our upload session: one id for the batches of one go (int64, as digits). */
  sessionId: string;
  /** 1, 2, … within the session. */
  batchSeq: number;
  last: boolean;
  estimatedTotal: number;
  /** Rows in AUDIENCE_SCHEMA's order: hashes, '' for a missing key. */
  rows: string[][];
}

export interface AudienceBatchResult {
  received: number;
  invalid: number;
}

export interface AudienceClient {
  create(accessToken: string, adAccountId: string, audience: { name: string; description?: string | null }): Promise<{ id: string }>;
  addUsers(accessToken: string, audienceId: string, batch: AudienceBatch): Promise<AudienceBatchResult>;
}

export const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Meta's e-mail normalisation: trimmed, lower case; null when it is no e-mail. */
export function normaliseAudienceEmail(raw: string | null | undefined): string | null {
  const v = String(raw ?? '')
    .trim()
    .toLowerCase();
  return EMAIL.test(v) ? v : null;
}

/** Meta's phone normalisation: digits only with the country code (a local number takes `country`'s); null when it is no phone. */
export function normaliseAudiencePhone(raw: string | null | undefined, country: CountryCode): string | null {
  if (!raw || !String(raw).trim()) return null;
  const digits = normalisePhone(raw, country);
  return digits && isPhoneNumber(digits) ? digits : null;
}

/** One person's row in AUDIENCE_SCHEMA's order, or null when neither key is usable (the person is skipped). */
export function audienceRow(person: { email?: string | null; phone?: string | null }, country: CountryCode): string[] | null {
  const email = normaliseAudienceEmail(person.email);
  const phone = normaliseAudiencePhone(person.phone, country);
  if (!email && !phone) return null;
  return [email ? sha256Hex(email) : '', phone ? sha256Hex(phone) : ''];
}

/** A new upload session id: a positive int64 that JSON carries exactly (below 2^53). */
export const newSessionId = () => String(1 + Math.floor(Math.random() * (2 ** 52 - 1)));

const THROTTLE_CODES = new Set([4, 17, 32, 613, 80003, 80004]);
export const isThrottle = (e: unknown) => e instanceof ProviderError && (e.details.httpStatus === 429 || (e.details.code !== undefined && THROTTLE_CODES.has(e.details.code)));

/** Meta's refusal in words an owner acts on (throttling is handled by the retries before this). */
export function audienceFailure(error: unknown): never {
  if (!(error instanceof ProviderError)) throw error;
  const { code, subcode, httpStatus } = error.details;
  if (code === 190 || httpStatus === 401) throw new ProviderError(audienceMessages.tokenInvalid, error.details);
  // the ad account's Custom Audience terms not accepted
  if (subcode === 1870034 || subcode === 1870047 || code === 2650) throw new ProviderError(audienceMessages.terms, error.details);
  if (code === 10 || code === 294 || (code !== undefined && code >= 200 && code < 300)) throw new ProviderError(audienceMessages.noPermission, error.details);
  if (httpStatus === 404 || (code === 100 && subcode === 33))
    throw new ProviderError(audienceMessages.noAudience, {
      ...error.details,
      notFound: true,
    });
  if (isThrottle(error))
    throw new ProviderError(audienceMessages.throttled, {
      ...error.details,
      httpStatus: 429,
    });
  throw error;
}

export interface AudienceClientOptions {
  /** Pauses before each new try of a throttled call (ms); their count is the retries. */
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  /** The demo sandbox's pause per batch (ms), so its progress shows. */
  sandboxDelayMs?: number;
}

const DEFAULT_DELAYS = [2_000, 5_000, 15_000, 30_000, 60_000];
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createAudienceClient(baseUrl: string, options: AudienceClientOptions = {}): AudienceClient {
  const base = baseUrl.replace(/\/+$/, '');
  const delays = options.retryDelaysMs ?? DEFAULT_DELAYS;
  const sleep = options.sleep ?? wait;
  const sandbox = createSandboxAudienceClient(options.sandboxDelayMs);

  async function withRetry<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!isThrottle(error) || attempt >= delays.length) audienceFailure(error);
        // a little jitter so many companies throttled together do not come back together
        await sleep(Math.round(delays[attempt] * (0.8 + Math.random() * 0.4)));
      }
    }
  }

  return {
    async create(accessToken, adAccountId, audience) {
      if (isSandboxAdsToken(accessToken)) return sandbox.create(accessToken, adAccountId, audience);
      const body = await withRetry(() =>
        graphJson<{ id?: string }>(
          `${base}/${encodeURIComponent(adAccountId)}/customaudiences`,
          accessToken,
          {
            method: 'POST',
            body: {
              name: audience.name.slice(0, 200),
              ...(audience.description ? { description: audience.description.slice(0, 500) } : {}),
              subtype: 'CUSTOM',
              customer_file_source: 'USER_PROVIDED_ONLY',
            },
          },
          'Meta no creó la audiencia',
        ),
      );
      if (!body.id) throw new ProviderError('Meta no devolvió el identificador de la audiencia');
      return { id: String(body.id) };
    },
    async addUsers(accessToken, audienceId, batch) {
      if (batch.rows.length > AUDIENCE_BATCH_MAX) throw new ProviderError(audienceMessages.tooMany);
      if (isSandboxAdsToken(accessToken)) return sandbox.addUsers(accessToken, audienceId, batch);
      const body = await withRetry(() =>
        graphJson<{
          num_received?: number | string;
          num_invalid_entries?: number | string;
        }>(
          `${base}/${encodeURIComponent(audienceId)}/users`,
          accessToken,
          {
            method: 'POST',
            body: {
              payload: { schema: AUDIENCE_SCHEMA, data: batch.rows },
              session: {
                session_id: Number(batch.sessionId),
                batch_seq: batch.batchSeq,
                last_batch_flag: batch.last,
                estimated_num_total: batch.estimatedTotal,
              },
            },
          },
          'Meta no aceptó el lote de la audiencia',
        ),
      );
      return {
        received: Number(body.num_received ?? batch.rows.length) || 0,
        invalid: Number(body.num_invalid_entries ?? 0) || 0,
      };
    },
  };
}

/**
 * The demo's audiences: created with a stable id, each batch accepted after a short pause
 * (the screen's bar moves), about one row in 250 counted invalid as Meta does with some hashes.
 */
export function createSandboxAudienceClient(delayMs = 600): AudienceClient {
  return {
    async create(_token, adAccountId, audience) {
      const digits = BigInt(`0x${sha256Hex(`${adAccountId}|${audience.name}`).slice(0, 12)}`)
        .toString()
        .padStart(15, '0')
        .slice(0, 15);
      return { id: `2385${digits}` };
    },
    async addUsers(_token, _audienceId, batch) {
      if (delayMs > 0) await wait(delayMs);
      const invalid = batch.rows.filter((r) => (r[0] || r[1]).startsWith('ff')).length;
      return { received: batch.rows.length, invalid };
    },
  };
}
