import { sign, wamid } from './meta.js';
import type { FakeGraphRoute } from './meta.js';

/**
 * A WhatsApp line on the fake Graph API (fakes/meta.ts) as the sending engine meets it
 * (decision 0041): `POST /v21.0/{phone-number-id}/messages` of any text or template, with
 * what Meta enforces at scale —
 *
 * - throughput: at most `ratePerSecond` accepted per second per line, else HTTP 400 with
 *   `(#130429) Rate limit hit` (code 130429), as the Cloud API answers;
 * - pair rate limit: a second message to the same number within `pairSeconds` → code 131056;
 * - per-number failures (`failFor`: e.g. 131026 undeliverable);
 * - a delay per call (`delayMs`), and calls that hang (`hang`) to stand for a lost answer;
 * - the status webhooks a real line sends: `sent` for every accepted message, carrying its
 *   `biz_opaque_callback_data`, delivered signed to `webhook.url` every `webhook.everyMs`.
 *
 * `log` keeps every accepted message (to, callback data, id, time): the reconciliation of a
 * fault run counts duplicates and losses against it.
 */
export interface CloudLine {
  route: FakeGraphRoute;
  log: Array<{ to: string; callbackData?: string; id: string; at: number; template?: string; text?: string }>;
  /** Calls refused for throughput (130429) and for the pair limit (131056). */
  refused: { throughput: number; pair: number };
  ratePerSecond: number;
  pairSeconds: number;
  delayMs: number;
  failFor: Map<string, { code: number; message: string }>;
  webhook?: { url: string; secret: string; everyMs: number };
  /** What `GET /{phone-number-id}?fields=whatsapp_business_manager_messaging_limit` answers (the portfolio's daily limit). */
  messagingLimit: string;
  /** Stops the webhook timer. */
  close(): void;
}

export function cloudLine(token: string, options: Partial<Pick<CloudLine, 'ratePerSecond' | 'pairSeconds' | 'delayMs' | 'webhook'>> = {}): CloudLine {
  const windows = new Map<string, { second: number; n: number }>();
  const lastTo = new Map<string, number>();
  const pendingStatuses = new Map<string, object[]>();
  const state: CloudLine = {
    route,
    log: [],
    refused: { throughput: 0, pair: 0 },
    ratePerSecond: options.ratePerSecond ?? Infinity,
    pairSeconds: options.pairSeconds ?? 0,
    delayMs: options.delayMs ?? 0,
    failFor: new Map(),
    webhook: options.webhook,
    messagingLimit: 'TIER_250',
    close: () => clearInterval(timer),
  };

  const timer = setInterval(() => void flush(), options.webhook?.everyMs ?? 200);
  timer.unref();
  async function flush() {
    const hook = state.webhook;
    if (!hook || !pendingStatuses.size) return;
    for (const [line, statuses] of pendingStatuses) {
      pendingStatuses.delete(line);
      const payload = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '51987000000', phone_number_id: line }, statuses } }] }],
      });
      try {
        const res = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(payload, hook.secret) }, body: payload });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
      } catch {
        // the server is down: Meta retries; so does this fake, with the next flush
        const again = pendingStatuses.get(line) ?? [];
        pendingStatuses.set(line, [...statuses, ...again]);
      }
    }
  }

  function route(...[call, answer]: Parameters<FakeGraphRoute>): boolean {
    const limit = call.path.match(/^\/v21\.0\/(\d+)\?fields=whatsapp_business_manager_messaging_limit$/);
    if (limit && call.method === 'GET') {
      if (call.headers.authorization !== `Bearer ${token}`) answer.graphError(401, { message: 'Invalid OAuth access token.', code: 190 });
      else answer.json(200, { whatsapp_business_manager_messaging_limit: state.messagingLimit, id: limit[1] });
      return true;
    }
    const m = call.path.match(/^\/v21\.0\/(\d+)\/messages$/);
    const body = call.body as { to?: string; type?: string; text?: { body?: string }; template?: { name?: string }; biz_opaque_callback_data?: string } | undefined;
    if (!m || call.method !== 'POST' || !body?.to) return false;
    if (call.headers.authorization !== `Bearer ${token}`) {
      answer.graphError(401, { message: 'Invalid OAuth access token.', code: 190 });
      return true;
    }
    const respond = () => {
      const line = m[1];
      const now = Date.now();
      const second = Math.floor(now / 1000);
      const w = windows.get(line);
      const win = w && w.second === second ? w : { second, n: 0 };
      windows.set(line, win);
      if (win.n >= state.ratePerSecond) {
        state.refused.throughput++;
        return answer.graphError(400, { message: '(#130429) Rate limit hit', code: 130429, error_data: { messaging_product: 'whatsapp', details: 'Cloud API message throughput has been reached.' } });
      }
      const to = String(body.to);
      const last = lastTo.get(`${line}:${to}`);
      if (state.pairSeconds && last && now - last < state.pairSeconds * 1000) {
        state.refused.pair++;
        return answer.graphError(400, { message: '(#131056) (Business Account, Consumer Account) pair rate limit hit', code: 131056 });
      }
      const failure = state.failFor.get(to);
      if (failure) return answer.graphError(400, { message: failure.message, code: failure.code });
      win.n++;
      lastTo.set(`${line}:${to}`, now);
      const id = wamid();
      state.log.push({ to, callbackData: body.biz_opaque_callback_data, id, at: now, template: body.template?.name, text: body.text?.body });
      if (state.webhook) {
        const list = pendingStatuses.get(line) ?? [];
        list.push({ id, status: 'sent', timestamp: String(Math.floor(now / 1000)), recipient_id: to, ...(body.biz_opaque_callback_data ? { biz_opaque_callback_data: body.biz_opaque_callback_data } : {}) });
        pendingStatuses.set(line, list);
      }
      answer.json(200, { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id, message_status: 'accepted' }] });
    };
    if (state.delayMs) setTimeout(respond, state.delayMs);
    else respond();
    return true;
  }
  return state;
}
