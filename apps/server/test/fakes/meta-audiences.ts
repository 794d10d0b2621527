import { createHash } from 'node:crypto';
import type { FakeGraphRoute } from './meta.js';

/**
 * Customer-file Custom Audiences on the fake Graph API (fakes/meta.ts), as the Marketing API
 * answers them:
 *
 * - `POST /v21.0/act_<id>/customaudiences` {name, subtype: 'CUSTOM', customer_file_source, description?} → {id}
 * - `POST /v21.0/<audience_id>/users` {payload: {schema, data}, session: {session_id, batch_seq,
 *   last_batch_flag, estimated_num_total}} → {audience_id, session_id, num_received,
 *   num_invalid_entries, invalid_entry_samples}
 *
 * It checks what Meta checks: the bearer token (190 otherwise), the ad account and the audience
 * exist (100/33), at most 10,000 rows a call (100), the schema's keys and each row's width, the
 * session's fields (a batch_seq already taken in a session, or a batch after its last, is
 * refused), and counts as invalid a value that is not 64 lower-case hex characters (a hash of
 * something). `known` (hash → normalised value) lets a test see that every hash is one of its
 * people's normalised e-mails or phones: the others are listed in `unknown`. `fail` queues Graph
 * errors for the next user calls (429 / 80003 throttling, 190 expired token…); `invalidEvery`
 * makes Meta count every n-th valid row invalid too (a partial batch).
 */
export interface FakeAudienceBatch {
  audienceId: string;
  sessionId: number;
  batchSeq: number;
  last: boolean;
  estimatedTotal: number;
  rows: string[][];
}

export interface FakeAudiences {
  route: FakeGraphRoute;
  audiences: Map<string, { name: string; description?: string; rows: Set<string> }>;
  /** Every accepted batch, in order. */
  batches: FakeAudienceBatch[];
  /** Calls refused (their reason), in order. */
  refused: Array<{ path: string; code: number; message: string }>;
  /** Hashes → the normalised values they must be of; unset: not checked. */
  known?: Map<string, string>;
  unknown: string[];
  fail: Array<{
    status: number;
    code: number;
    message: string;
    subcode?: number;
  }>;
  invalidEvery?: number;
  /** Calls of POST …/users received, answered or not. */
  userCalls: number;
  /** Run before a users call is answered (a test stopping the upload midway). */
  beforeUsers?: (batch: FakeAudienceBatch) => void;
}

export const MAX_ROWS = 10_000;
const KEYS = new Set(['EXTERN_ID', 'EMAIL', 'PHONE', 'GEN', 'DOBY', 'DOBM', 'DOBD', 'LN', 'FN', 'FI', 'CT', 'ST', 'ZIP', 'MADID', 'COUNTRY']);
const HASH = /^[0-9a-f]{64}$/;
export const sha256 = (v: string) => createHash('sha256').update(v, 'utf8').digest('hex');

let nextAudience = 23_851_000_000_000_000n;

export function fakeAudiences(token: string, adAccountId: string): FakeAudiences {
  const sessions = new Map<number, { seqs: Set<number>; closed: boolean }>();
  const state: FakeAudiences = {
    route,
    audiences: new Map(),
    batches: [],
    refused: [],
    unknown: [],
    fail: [],
    userCalls: 0,
  };

  function route(...[call, answer]: Parameters<FakeGraphRoute>): boolean {
    const url = new URL(call.path, 'http://graph.local');
    const create = url.pathname.match(/^\/v21\.0\/(act_\d+)\/customaudiences$/);
    const users = url.pathname.match(/^\/v21\.0\/(\d+)\/users$/);
    if (call.method !== 'POST' || (!create && !users)) return false;
    const refuse = (status: number, code: number, message: string, subcode?: number) => {
      state.refused.push({ path: url.pathname, code, message });
      answer.graphError(status, {
        message,
        code,
        ...(subcode ? { error_subcode: subcode } : {}),
      });
      return true;
    };
    if (users) state.userCalls++;
    if (call.headers.authorization !== `Bearer ${token}`) return refuse(401, 190, 'Error validating access token: Session has expired', 463);
    const body = (typeof call.body === 'object' && call.body ? call.body : {}) as Record<string, unknown>;

    if (create) {
      if (create[1] !== adAccountId) return refuse(400, 100, `Unsupported post request. Object with ID '${create[1]}' does not exist`, 33);
      if (typeof body.name !== 'string' || !body.name.trim()) return refuse(400, 100, 'Invalid parameter: name is required');
      if (body.subtype !== 'CUSTOM') return refuse(400, 100, 'Invalid parameter: subtype must be CUSTOM for a customer file');
      if (!['USER_PROVIDED_ONLY', 'PARTNER_PROVIDED_ONLY', 'BOTH_USER_AND_PARTNER_PROVIDED'].includes(String(body.customer_file_source))) {
        return refuse(400, 100, 'Invalid parameter: customer_file_source');
      }
      const id = String(nextAudience++);
      state.audiences.set(id, {
        name: body.name,
        description: typeof body.description === 'string' ? body.description : undefined,
        rows: new Set(),
      });
      answer.json(200, { id });
      return true;
    }

    const audienceId = (users as RegExpMatchArray)[1];
    const audience = state.audiences.get(audienceId);
    if (!audience) return refuse(400, 100, `Unsupported post request. Object with ID '${audienceId}' does not exist`, 33);
    const failure = state.fail.shift();
    if (failure) return refuse(failure.status, failure.code, failure.message, failure.subcode);
    let payload = body.payload as { schema?: unknown; data?: unknown } | string | undefined;
    if (typeof payload === 'string') {
      try {
        payload = JSON.parse(payload) as { schema?: unknown; data?: unknown };
      } catch {
        return refuse(400, 100, 'Invalid parameter: payload is not JSON');
      }
    }
    const schema = payload?.schema;
    const data = payload?.data;
    if (!Array.isArray(schema) || schema.length === 0 || !schema.every((k) => typeof k === 'string' && KEYS.has(k))) return refuse(400, 100, 'Invalid parameter: schema');
    if (!Array.isArray(data) || data.length === 0) return refuse(400, 100, 'Invalid parameter: data is empty');
    if (data.length > MAX_ROWS) return refuse(400, 100, `Too many users: at most ${MAX_ROWS} per request`);
    if (!data.every((row) => Array.isArray(row) && row.length === schema.length)) return refuse(400, 100, 'Invalid parameter: each row must have one value per schema key');
    const session = body.session as Record<string, unknown> | undefined;
    const sid = session?.session_id;
    const seq = session?.batch_seq;
    if (
      !session ||
      typeof sid !== 'number' ||
      !Number.isSafeInteger(sid) ||
      sid <= 0 ||
      typeof seq !== 'number' ||
      !Number.isInteger(seq) ||
      seq < 1 ||
      typeof session.last_batch_flag !== 'boolean' ||
      typeof session.estimated_num_total !== 'number' ||
      !Number.isInteger(session.estimated_num_total) ||
      session.estimated_num_total < 0
    ) {
      return refuse(400, 100, 'Invalid parameter: session needs session_id, batch_seq, last_batch_flag and estimated_num_total');
    }
    const s = sessions.get(sid) ?? { seqs: new Set<number>(), closed: false };
    if (s.closed) return refuse(400, 100, 'Invalid parameter: the session already received its last batch');
    if (s.seqs.has(seq)) return refuse(400, 100, `Invalid parameter: batch_seq ${seq} already received in this session`);
    const batch: FakeAudienceBatch = {
      audienceId,
      sessionId: sid,
      batchSeq: seq,
      last: session.last_batch_flag,
      estimatedTotal: session.estimated_num_total,
      rows: data as string[][],
    };
    state.beforeUsers?.(batch);
    s.seqs.add(seq);
    if (batch.last) s.closed = true;
    sessions.set(sid, s);
    let invalid = 0;
    let valid = 0;
    for (const row of batch.rows) {
      const values = row.filter((v) => v !== '');
      if (values.length === 0 || !values.every((v) => typeof v === 'string' && HASH.test(v))) {
        invalid++;
        continue;
      }
      for (const v of values) if (state.known && !state.known.has(v)) state.unknown.push(v);
      valid++;
      if (state.invalidEvery && valid % state.invalidEvery === 0) {
        invalid++;
        continue;
      }
      audience.rows.add(row.join('|'));
    }
    state.batches.push(batch);
    answer.json(200, {
      audience_id: audienceId,
      session_id: String(sid),
      num_received: batch.rows.length,
      num_invalid_entries: invalid,
      invalid_entry_samples: {},
    });
    return true;
  }
  return state;
}
