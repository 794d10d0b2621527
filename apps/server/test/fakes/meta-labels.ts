import { as, demo, login, startTestApp } from '../helpers.js';
import { type FakeGraphRoute, startFakeGraph } from './meta.js';

/**
 * A fake of the page's Messenger labels on the fake Graph server (fakes/meta.ts; decision 0057),
 * checking what Facebook checks: that page's token (190 otherwise), `page_label_name` given and
 * at most 80 characters, pages of `limit` labels with `paging.cursors.after` and `next`, and a
 * page that has not accepted the Page Contact Terms answering code 10 on every call.
 *
 * `GET /v21.0/{page-id}/custom_labels?fields=page_label_name&limit=…&after=…`,
 * `POST /v21.0/{page-id}/custom_labels` `{page_label_name}` → `{id}`.
 *
 * A label on a person: `POST /v21.0/{label-id}/label` `{user}` and `DELETE /v21.0/{label-id}/label?user=…`
 * → `{success: true}` (repeating either is harmless), checking the token is the label's page's
 * (190 for a token of no page; a label unknown, or another page's, answers 100/33 as Graph does
 * for an object the token cannot see), `user` given and a person of that page (100/2018001 else),
 * and answering the page's rate limit (code 32) while `throttled` lasts.
 */
export interface FakeLabels {
  route: FakeGraphRoute;
  /** The labels each page has at Facebook, in creation order. */
  labels: Map<string, Array<{ id: string; name: string }>>;
  /** Pages that have not accepted the Page Contact Terms. */
  noTerms: Set<string>;
  calls: Array<{ method: string; pageId: string; authorization?: string; body: unknown }>;
  /** The people (PSIDs) who wrote to each page. */
  psids: Map<string, Set<string>>;
  /** The people each label is on (label id → PSIDs). */
  people: Map<string, Set<string>>;
  /** The label calls on people, in order: `put` or `remove`, label, PSID, answer status. */
  tags: Array<{ action: 'put' | 'remove'; labelId: string; psid: string; authorization?: string; status: number }>;
  /** Pages over their call budget: their label calls answer code 32 (the next `n` calls). */
  throttled: Map<string, number>;
}

let seq = 0;

export function fakeLabels(tokens: Record<string, string>): FakeLabels {
  const state: FakeLabels = { route: () => false, labels: new Map(), noTerms: new Set(), calls: [], psids: new Map(), people: new Map(), tags: [], throttled: new Map() };
  const tag: FakeGraphRoute = ({ method, path, body, headers }, { json, graphError }) => {
    const match = path.match(/^\/v21\.0\/(\d+)\/label(?:\?(.*))?$/);
    if (!match || (method !== 'POST' && method !== 'DELETE')) return false;
    const [, labelId, query = ''] = match;
    const authorization = typeof headers.authorization === 'string' ? headers.authorization : undefined;
    const psid = method === 'POST' ? (body as { user?: unknown } | undefined)?.user : new URLSearchParams(query).get('user');
    const entry = { action: method === 'POST' ? ('put' as const) : ('remove' as const), labelId, psid: String(psid ?? ''), authorization, status: 200 };
    state.tags.push(entry);
    const fail = (status: number, error: object) => {
      entry.status = status;
      graphError(status, error);
      return true;
    };
    const tokenPage = Object.entries(tokens).find(([, t]) => authorization === `Bearer ${t}`)?.[0];
    if (!tokenPage) return fail(401, { message: 'Error validating access token: Session has expired', code: 190, error_subcode: 463 });
    const owner = [...state.labels].find(([, labels]) => labels.some((l) => l.id === labelId))?.[0];
    if (owner !== tokenPage) {
      return fail(400, {
        message: `Unsupported post request. Object with ID '${labelId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
      });
    }
    if (state.noTerms.has(owner)) return fail(403, { message: '(#10) To use this API, the page must accept the Page Contact Terms', code: 10 });
    const budget = state.throttled.get(owner) ?? 0;
    if (budget > 0) {
      state.throttled.set(owner, budget - 1);
      return fail(400, { message: '(#32) Page request limit reached', code: 32 });
    }
    if (typeof psid !== 'string' || !psid) return fail(400, { message: '(#100) The parameter user is required', code: 100 });
    if (!state.psids.get(owner)?.has(psid)) return fail(400, { message: '(#100) No matching user found', code: 100, error_subcode: 2018001 });
    const on = state.people.get(labelId) ?? state.people.set(labelId, new Set()).get(labelId) ?? new Set<string>();
    if (method === 'POST') on.add(psid);
    else on.delete(psid);
    json(200, { success: true });
    return true;
  };
  state.route = (call, answer) => {
    if (tag(call, answer)) return true;
    const { method, path, body, headers } = call;
    const { json, graphError } = answer;
    const match = path.match(/^\/v21\.0\/(\d+)\/custom_labels(?:\?(.*))?$/);
    if (!match) return false;
    const [, pageId, query = ''] = match;
    const authorization = typeof headers.authorization === 'string' ? headers.authorization : undefined;
    state.calls.push({ method, pageId, authorization, body });
    if (!tokens[pageId] || authorization !== `Bearer ${tokens[pageId]}`) {
      graphError(401, { message: 'Error validating access token: The session has been invalidated', code: 190 });
      return true;
    }
    if (state.noTerms.has(pageId)) {
      graphError(403, { message: '(#10) To use this API, the page must accept the Page Contact Terms', code: 10 });
      return true;
    }
    const labels = state.labels.get(pageId) ?? state.labels.set(pageId, []).get(pageId) ?? [];
    if (method === 'GET') {
      const q = new URLSearchParams(query);
      const limit = Math.min(100, Number(q.get('limit') ?? 25));
      const start = Number(q.get('after') ? Buffer.from(q.get('after') as string, 'base64').toString() : 0);
      const slice = labels.slice(start, start + limit);
      const more = start + limit < labels.length;
      const after = Buffer.from(String(start + limit)).toString('base64');
      json(200, {
        data: slice.map((l) => ({ id: l.id, page_label_name: l.name })),
        paging: { cursors: { before: 'MA==', after }, ...(more ? { next: `https://graph.facebook.com/v21.0/${pageId}/custom_labels?after=${after}` } : {}) },
      });
      return true;
    }
    if (method === 'POST') {
      const name = (body as { page_label_name?: unknown } | undefined)?.page_label_name;
      if (typeof name !== 'string' || !name.trim()) {
        graphError(400, { message: '(#100) The parameter page_label_name is required', code: 100 });
        return true;
      }
      if (name.length > 80) {
        graphError(400, { message: '(#100) page_label_name is too long', code: 100 });
        return true;
      }
      const label = { id: String(1_760_000_000_000_000 + ++seq), name };
      labels.push(label);
      json(200, { id: label.id });
      return true;
    }
    return false;
  };
  return state;
}

/** The two companies' pages of the label tests: Demo Chile's and Acme's, each with its own token. */
export const labelPages: Record<'chile' | 'acme', { pageId: string; token: string }> = {
  chile: { pageId: '304857362819471', token: 'EAAB-pagina-chile-0123456789' },
  acme: { pageId: '204857362819476', token: 'EAAB-pagina-acme-0123456789' },
};

/**
 * The app against the fake Graph server with the label fake on it, the demo admin (Demo Chile) and
 * Acme's admin signed in, and each company's page connected (`PUT /channels/meta`).
 */
export async function startLabelPages() {
  const { chile: c, acme: a } = labelPages;
  const fb = fakeLabels({ [c.pageId]: c.token, [a.pageId]: a.token });
  const fake = await startFakeGraph(c.token, fb.route);
  const t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  const [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  const chile = as(admin, admin.company('Demo Chile'));
  const acmeHeaders = as(acme, acme.company('Acme'));
  for (const [headers, page, name] of [
    [chile, c, 'Demo Chile'],
    [acmeHeaders, a, 'Acme'],
  ] as const) {
    const res = await t.app.inject({ method: 'PUT', url: '/api/channels/meta', headers, payload: { pageId: page.pageId, pageName: name, accessToken: page.token } });
    if (res.statusCode !== 200) throw new Error(`canal de ${name}: ${res.statusCode} ${res.body}`);
  }
  return {
    t,
    fake,
    fb,
    admin,
    acme,
    chile,
    acmeHeaders,
    async close() {
      await t.close();
      await fake.close();
    },
  };
}
