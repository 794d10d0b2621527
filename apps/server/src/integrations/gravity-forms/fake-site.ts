import type { GravityEntry, GravityField } from './client.js';

/**
 * An in-memory WordPress site with Gravity Forms' REST API v2 (decision 0050): what the demo's
 * sandbox answers in-process and what the tests serve over HTTP (test/fakes/gravity-forms.ts).
 * It enforces what the real API does: Basic auth with the consumer key and secret (401
 * `rest_forbidden` otherwise), `paging[page_size]` / `paging[current_page]` as positive whole
 * numbers, `search` as JSON (status and `id` field filters), `sorting[key]=id` numeric, 404
 * `not_found` for a form the site lacks and `rest_no_route` for any other path. `failNext` makes
 * the next answers fail with the given statuses (429 with Retry-After, 503…), to test retries and
 * a pull that stops halfway.
 */
export interface FakeForm {
  id: number;
  title: string;
  fields: GravityField[];
  entries: GravityEntry[];
}

export interface FakeSiteOptions {
  consumerKey: string;
  consumerSecret: string;
  forms?: FakeForm[];
}

export interface FakeAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const wpError = (status: number, code: string, message: string): FakeAnswer => ({ status, headers: {}, body: { code, message, data: { status } } });

export function createFakeSite(options: FakeSiteOptions) {
  const forms = new Map<number, FakeForm>((options.forms ?? []).map((f) => [f.id, f]));
  let nextEntryId = Math.max(0, ...[...forms.values()].flatMap((f) => f.entries.map((e) => Number(e.id)))) + 1;
  const site = {
    forms,
    keys: { consumerKey: options.consumerKey, consumerSecret: options.consumerSecret },
    /** Statuses the next requests answer instead of their data (one each). */
    failNext: [] as number[],
    /** A status to answer instead, chosen per request (an entries page after a given id…). */
    failIf: undefined as ((request: { path: string; query: URLSearchParams }) => number | undefined) | undefined,
    /** Every entries request's page size and page, in order. */
    pages: [] as Array<{ formId: number; pageSize: number; page: number; afterId: number }>,
    requests: 0,
    /** A new entry of a form, as a visitor's submission makes it (site-wide increasing id). */
    submit(formId: number, values: Record<string, string>, dateCreated = new Date()): GravityEntry {
      const form = forms.get(formId);
      if (!form) throw new Error(`no form ${formId}`);
      const entry: GravityEntry = {
        id: String(nextEntryId++),
        form_id: String(formId),
        date_created: dateCreated.toISOString().slice(0, 19).replace('T', ' '),
        status: 'active',
        is_starred: 0,
        is_read: 0,
        source_url: 'https://example.test/contacto/',
        ...values,
      };
      form.entries.push(entry);
      return entry;
    },
    handle(request: { method: string; path: string; query: URLSearchParams; authorization?: string }): FakeAnswer {
      site.requests++;
      const failure = site.failNext.shift() ?? site.failIf?.({ path: request.path, query: request.query });
      if (failure) {
        return { ...wpError(failure, failure === 429 ? 'too_many_requests' : 'internal_server_error', 'Fallo simulado'), headers: failure === 429 ? { 'retry-after': '0' } : {} };
      }
      if (request.method !== 'GET') return wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
      const formMatch = /^\/forms\/(\d+)(\/entries)?\/?$/.exec(request.path);
      if (!formMatch) return wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
      const expected = `Basic ${Buffer.from(`${site.keys.consumerKey}:${site.keys.consumerSecret}`).toString('base64')}`;
      if (request.authorization !== expected) return wpError(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
      const formId = Number(formMatch[1]);
      const form = forms.get(formId);
      if (!form) return wpError(404, 'not_found', 'Form not found');
      if (!formMatch[2]) return { status: 200, headers: {}, body: { id: String(form.id), title: form.title, fields: form.fields, is_active: '1' } };

      const intParam = (name: string, fallback: number) => {
        const raw = request.query.get(name);
        if (raw === null) return fallback;
        return /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : Number.NaN;
      };
      const pageSize = intParam('paging[page_size]', 10);
      const page = intParam('paging[current_page]', 1);
      if (Number.isNaN(pageSize) || Number.isNaN(page)) return wpError(400, 'rest_invalid_param', 'Invalid parameter(s): paging');
      let search: { status?: string; field_filters?: Array<{ key?: string; operator?: string; value?: unknown }> } = {};
      const rawSearch = request.query.get('search');
      if (rawSearch) {
        try {
          search = JSON.parse(rawSearch) as typeof search;
        } catch {
          return wpError(400, 'rest_invalid_param', 'Invalid parameter(s): search');
        }
      }
      let list = form.entries.filter((e) => !search.status || (e.status ?? 'active') === search.status);
      let afterId = 0;
      for (const filter of search.field_filters ?? []) {
        if (filter.key !== 'id') continue;
        const value = Number(filter.value);
        if (filter.operator === '>') {
          afterId = value;
          list = list.filter((e) => Number(e.id) > value);
        } else if (filter.operator === '=' || filter.operator === 'is' || filter.operator === undefined) list = list.filter((e) => Number(e.id) === value);
      }
      const direction = (request.query.get('sorting[direction]') ?? 'DESC').toUpperCase();
      const numeric = request.query.get('sorting[is_numeric]') === 'true' || request.query.get('sorting[is_numeric]') === '1';
      const key = request.query.get('sorting[key]') ?? 'id';
      list = [...list].sort((a, b) => {
        const x = numeric || key === 'id' ? Number(a[key]) - Number(b[key]) : String(a[key]).localeCompare(String(b[key]));
        return direction === 'ASC' ? x : -x;
      });
      site.pages.push({ formId, pageSize, page, afterId });
      const slice = list.slice((page - 1) * pageSize, page * pageSize);
      return { status: 200, headers: {}, body: { total_count: list.length, entries: slice } };
    },
  };
  return site;
}
export type FakeSite = ReturnType<typeof createFakeSite>;
