import type { FakeGraphRoute } from './meta.js';

/**
 * Meta's Conversions API for business messaging on the fake Graph API (fakes/meta.ts):
 * `POST /v21.0/{dataset_id}/events` `{data:[…]}` → `{events_received, messages, fbtrace_id}`.
 * It checks what Meta checks: the bearer token and dataset, at most 1,000 events, `action_source:
 * business_messaging`, `messaging_channel` and the user_data each channel needs (WhatsApp
 * whatsapp_business_account_id + ctwa_clid, Messenger page_id + page_scoped_user_id, Instagram
 * instagram_business_account_id + ig_sid), hashed fields as 64 hex characters, event_time within
 * the last 7 days and not in the future, currency and value on a Purchase — a broken event answers
 * a code 100 error. `fail` queues error answers (a 500, a rate limit, a 400) for the next calls.
 */
export interface FakeConversions {
  route: FakeGraphRoute;
  /** Every event Meta took, in order. */
  received: Array<Record<string, unknown>>;
  calls: number;
  fail: Array<{ status: number; code: number; type?: string; message: string }>;
}

const HEX64 = /^[0-9a-f]{64}$/;
const NEEDS: Record<string, string[]> = {
  whatsapp: ['whatsapp_business_account_id', 'ctwa_clid'],
  messenger: ['page_id', 'page_scoped_user_id'],
  instagram: ['instagram_business_account_id', 'ig_sid'],
};

/** Why Meta would refuse one event, or null. */
export function conversionEventProblem(e: Record<string, unknown>, now = Date.now()): string | null {
  if (e.action_source !== 'business_messaging') return 'action_source must be business_messaging';
  if (!['Purchase', 'QualifiedLead', 'LeadSubmitted', 'InitiateCheckout', 'AddToCart', 'ViewContent', 'OrderCreated', 'OrderShipped', 'OrderDelivered', 'OrderCanceled', 'OrderReturned', 'CartAbandoned', 'RatingProvided', 'ReviewProvided'].includes(String(e.event_name)))
    return 'unknown event_name';
  const channel = String(e.messaging_channel);
  if (!NEEDS[channel]) return 'messaging_channel must be whatsapp, messenger or instagram';
  const user = (e.user_data ?? {}) as Record<string, unknown>;
  for (const key of NEEDS[channel]) if (typeof user[key] !== 'string' || !(user[key] as string)) return `user_data.${key} is required for ${channel}`;
  for (const key of ['ph', 'em', 'external_id']) {
    const v = user[key];
    if (v === undefined) continue;
    const list = Array.isArray(v) ? v : [v];
    if (!list.every((x) => typeof x === 'string' && HEX64.test(x))) return `user_data.${key} must be SHA-256 hex`;
  }
  const t = Number(e.event_time);
  if (!Number.isInteger(t)) return 'event_time must be unix seconds';
  if (t * 1000 < now - 7 * 86_400_000) return 'event_time is more than 7 days old';
  if (t * 1000 > now + 60_000) return 'event_time is in the future';
  if (typeof e.event_id !== 'string' || !e.event_id) return 'event_id is required';
  if (e.event_name === 'Purchase') {
    const c = (e.custom_data ?? {}) as Record<string, unknown>;
    if (typeof c.currency !== 'string' || !/^[A-Z]{3}$/.test(c.currency) || typeof c.value !== 'number') return 'custom_data.currency and value are required for Purchase';
  }
  return null;
}

export function fakeConversions(token: string, datasetId: string): FakeConversions {
  const state: FakeConversions = { route, received: [], calls: 0, fail: [] };
  function route(...[call, answer]: Parameters<FakeGraphRoute>): boolean {
    const m = new URL(call.path, 'http://graph.local').pathname.match(/^\/v21\.0\/(\d+)\/events$/);
    if (!m || call.method !== 'POST') return false;
    state.calls++;
    const bearer = call.headers.authorization === `Bearer ${token}` || new URL(call.path, 'http://graph.local').searchParams.get('access_token') === token;
    if (!bearer) {
      answer.graphError(401, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
      return true;
    }
    const failure = state.fail.shift();
    if (failure) {
      answer.graphError(failure.status, { message: failure.message, code: failure.code, type: failure.type ?? 'OAuthException' });
      return true;
    }
    if (m[1] !== datasetId) {
      answer.graphError(400, { message: `Unsupported post request. Object with ID '${m[1]}' does not exist`, type: 'GraphMethodException', code: 100, error_subcode: 33 });
      return true;
    }
    const data = (call.body as { data?: unknown })?.data;
    if (!Array.isArray(data) || data.length === 0 || data.length > 1000) {
      answer.graphError(400, { message: '(#100) data must be an array of 1 to 1000 events', type: 'OAuthException', code: 100 });
      return true;
    }
    for (const [i, e] of data.entries()) {
      const problem = conversionEventProblem(e as Record<string, unknown>);
      if (problem) {
        answer.graphError(400, { message: `(#100) Invalid parameter: event ${i}: ${problem}`, type: 'OAuthException', code: 100, error_subcode: 2804003 });
        return true;
      }
    }
    state.received.push(...(data as Array<Record<string, unknown>>));
    answer.json(200, { events_received: data.length, messages: [], fbtrace_id: `Fake${state.calls}Trace` });
    return true;
  }
  return state;
}
