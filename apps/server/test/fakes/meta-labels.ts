import type { FakeGraphRoute } from './meta.js';

/**
 * A fake of the page's Messenger labels on the fake Graph server (fakes/meta.ts; decision 0057),
 * checking what Facebook checks: that page's token (190 otherwise), `page_label_name` given and
 * at most 80 characters, pages of `limit` labels with `paging.cursors.after` and `next`, and a
 * page that has not accepted the Page Contact Terms answering code 10 on every call.
 *
 * `GET /v21.0/{page-id}/custom_labels?fields=page_label_name&limit=…&after=…`,
 * `POST /v21.0/{page-id}/custom_labels` `{page_label_name}` → `{id}`.
 */
export interface FakeLabels {
  route: FakeGraphRoute;
  /** The labels each page has at Facebook, in creation order. */
  labels: Map<string, Array<{ id: string; name: string }>>;
  /** Pages that have not accepted the Page Contact Terms. */
  noTerms: Set<string>;
  calls: Array<{ method: string; pageId: string; authorization?: string; body: unknown }>;
}

let seq = 0;

export function fakeLabels(tokens: Record<string, string>): FakeLabels {
  const state: FakeLabels = { route: () => false, labels: new Map(), noTerms: new Set(), calls: [] };
  state.route = ({ method, path, body, headers }, { json, graphError }) => {
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
