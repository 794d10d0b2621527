/**
 * A client of the Gravity Forms REST API v2 (`{site}/wp-json/gf/v2`, decision 0050), for what
 * turns entries into leads: the form with its fields (`GET /forms/{id}`) and its entries, oldest
 * first after the last one seen (`GET /forms/{id}/entries?search={"status":"active","field_filters":
 * [{"key":"id","operator":">","value":N}]}&sorting[key]=id&sorting[direction]=ASC&sorting[is_numeric]=true
 * &paging[page_size]=…&paging[current_page]=…`, answered `{total_count, entries}`). Basic auth with
 * the consumer key and secret of Forms › Settings › REST API, over HTTPS only (the keys travel in
 * every request). 429 / 5xx / no answer are retried with doubling waits (Retry-After honoured).
 * What is wrong is said in Spanish, naming what to fix: the URL, the keys or the form id.
 */
import { type Answer, counting, type FetchLike, jsonOf, noAnswerReason, policyOf, sendWithRetries, type TransportOptions } from '../http.js';
import { outboundFetchLike, rethrowRefusal, urlRefusal } from '../outbound.js';

export type { FetchLike };

/** Entries asked per page: Gravity Forms' default is 10 and it documents no maximum; 50 keeps each answer small for a shared host. */
export const GF_PAGE_SIZE = 50;

export type GravityErrorKind = 'url' | 'keys' | 'permission' | 'form' | 'rate-limited' | 'server' | 'network';

/** Which setting a failure points at (the screen marks that field). */
export const gravityErrorField: Record<GravityErrorKind, 'siteUrl' | 'consumerKey' | 'formId' | undefined> = {
  url: 'siteUrl',
  network: 'siteUrl',
  keys: 'consumerKey',
  permission: 'consumerKey',
  form: 'formId',
  'rate-limited': undefined,
  server: undefined,
};

/** A failed call, in Spanish (`msg`). Network, 429 and 5xx are worth trying again later; the rest need a settings change. */
export class GravityError extends Error {
  constructor(
    readonly kind: GravityErrorKind,
    readonly msg: string,
    readonly status = 0,
  ) {
    super(msg);
  }
  get transient() {
    return this.kind === 'network' || this.kind === 'rate-limited' || this.kind === 'server';
  }
}

export interface GravityField {
  id: string;
  label: string;
  type: string;
  /** Sub-inputs of a compound field (name: 1.3 first, 1.6 last). */
  inputs?: Array<{ id: string; label: string }>;
}
export interface GravityForm {
  id: number;
  title: string;
  fields: GravityField[];
}
/** An entry as Gravity Forms gives it: `id`, `form_id`, `date_created` (UTC, "YYYY-MM-DD HH:MM:SS"), and one key per field or input id. */
export type GravityEntry = Record<string, unknown> & { id: string | number; form_id?: string | number; date_created?: string };

export interface GravityClientOptions extends TransportOptions {
  siteUrl: string;
  consumerKey: string;
  consumerSecret: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const loopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';

/** The Spanish reason of a Gravity Forms (WordPress REST) answer. */
export function gravityErrorOf(status: number, body: unknown, formId?: number): GravityError {
  const code = str((body as { code?: unknown } | null)?.code);
  if (status === 404 && (code === 'rest_no_route' || code === '')) {
    return new GravityError(
      'url',
      'La dirección no responde como un WordPress con Gravity Forms (no existe /wp-json/gf/v2): revisa la URL del sitio y que la API REST de Gravity Forms esté activada (Formularios › Ajustes › API REST)',
      status,
    );
  }
  if (status === 404) return new GravityError('form', `El sitio no tiene el formulario ${formId ?? ''}: revisa el id del formulario (la columna ID de Formularios en WordPress)`.replace('  ', ' '), status);
  if (status === 401) {
    return new GravityError('keys', 'La clave o el secreto del consumidor no son válidos para este sitio: cópialos de Formularios › Ajustes › API REST', status);
  }
  if (status === 403) {
    return new GravityError('permission', 'Las claves no tienen permiso para leer formularios y entradas: en Formularios › Ajustes › API REST dales permiso de lectura (o lectura/escritura)', status);
  }
  if (status === 429) return new GravityError('rate-limited', 'El sitio limitó las solicitudes (429) y siguió rechazándolas tras varios reintentos', status);
  if (status >= 500) return new GravityError('server', `El sitio respondió con un error (${status}) tras varios reintentos`, status);
  // the site's own text is not repeated (decision 0060)
  return new GravityError('server', `El sitio rechazó la consulta (HTTP ${status}): revisa la URL del sitio y las claves`, status);
}

export function createGravityClient(options: GravityClientOptions) {
  const site = options.siteUrl.replace(/\/+$/, '');
  const base = `${site}/wp-json/gf/v2`;
  // the site's address is a tenant's: the outbound client judges it (the sandbox passes its own fetch)
  const doFetch: FetchLike = options.fetch ?? outboundFetchLike(site);
  const policy = policyOf(options, 4);
  const auth = `Basic ${Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString('base64')}`;
  const stats = { requests: 0, retries: 0 };

  function checkSite() {
    // what the outbound client refuses before any request (an internal address, ? or #, user:pass@) is said first
    const refusal = urlRefusal(site, { base: true });
    if (refusal) rethrowRefusal(refusal, (msg) => new GravityError('url', msg));
    let url: URL;
    try {
      url = new URL(site);
    } catch {
      throw new GravityError('url', 'La URL del sitio no es válida: escríbela como https://misitio.com');
    }
    // Basic auth sends the keys in every request: only over TLS (the local fakes of the tests listen on loopback)
    if (url.protocol !== 'https:' && !loopback(url.hostname)) {
      throw new GravityError('url', 'La URL del sitio debe empezar con https://: las claves de la API viajan en cada solicitud');
    }
  }

  async function get<T>(path: string, query: URLSearchParams | undefined, formId: number): Promise<T> {
    checkSite();
    if (!options.consumerKey || !options.consumerSecret) {
      throw new GravityError('keys', 'Faltan la clave y el secreto del consumidor de la API REST de Gravity Forms: guárdalos en el formulario');
    }
    const url = `${base}${path}${query?.size ? `?${query}` : ''}`;
    let answer: Answer;
    try {
      answer = await sendWithRetries((signal) => doFetch(url, { method: 'GET', headers: { authorization: auth, accept: 'application/json' }, signal }), policy, counting(stats));
    } catch (error) {
      rethrowRefusal(error, (msg) => new GravityError('url', msg));
      const reason = noAnswerReason(error);
      throw new GravityError('network', `No se pudo conectar con el sitio en ${site} (${reason}): revisa la URL`);
    }
    const { status, text } = answer;
    const data = jsonOf(text);
    if (data === undefined && text && status >= 200 && status < 300) {
      throw new GravityError('url', 'La dirección respondió, pero no como la API de Gravity Forms (no devolvió JSON): revisa la URL del sitio', status);
    }
    if (status < 200 || status >= 300) throw gravityErrorOf(status, data, formId);
    return data as T;
  }

  return {
    stats,
    /** The form and its fields (compound fields with their inputs). */
    async form(formId: number): Promise<GravityForm> {
      const body = await get<{ id?: unknown; title?: unknown; fields?: unknown }>(`/forms/${formId}`, undefined, formId);
      if (!body || typeof body !== 'object' || !Array.isArray(body.fields)) {
        throw new GravityError('url', 'La dirección respondió, pero no como la API de Gravity Forms (sin campos del formulario): revisa la URL del sitio');
      }
      const fields: GravityField[] = [];
      for (const f of body.fields as Array<Record<string, unknown>>) {
        if (f == null || (typeof f.id !== 'number' && typeof f.id !== 'string')) continue;
        const inputs = Array.isArray(f.inputs)
          ? (f.inputs as Array<Record<string, unknown>>)
              .filter((i) => i && (typeof i.id === 'string' || typeof i.id === 'number') && !i.isHidden)
              .map((i) => ({ id: String(i.id), label: str(i.label).slice(0, 200) || String(i.id) }))
          : undefined;
        fields.push({ id: String(f.id), label: str(f.label).slice(0, 200) || `Campo ${String(f.id)}`, type: str(f.type) || 'text', ...(inputs?.length ? { inputs } : {}) });
      }
      return { id: Number(body.id ?? formId), title: str(body.title).slice(0, 200) || `Formulario ${formId}`, fields };
    },
    /**
     * One page of the form's active entries with an id above `afterId`, oldest first, and how many
     * such entries there are. Keyed on the id (not an offset): an entry trashed meanwhile never
     * shifts the next page, and a pull resumes from the last id it kept.
     */
    async entries(formId: number, { afterId, pageSize = GF_PAGE_SIZE, page = 1 }: { afterId: number; pageSize?: number; page?: number }) {
      const query = new URLSearchParams();
      query.set('search', JSON.stringify({ status: 'active', field_filters: [{ key: 'id', operator: '>', value: String(afterId) }] }));
      query.set('sorting[key]', 'id');
      query.set('sorting[direction]', 'ASC');
      query.set('sorting[is_numeric]', 'true');
      query.set('paging[page_size]', String(pageSize));
      query.set('paging[current_page]', String(page));
      const body = await get<{ total_count?: unknown; entries?: unknown }>(`/forms/${formId}/entries`, query, formId);
      if (!body || typeof body !== 'object' || !Array.isArray(body.entries)) {
        throw new GravityError('url', 'La dirección respondió, pero no como la API de Gravity Forms (sin entradas): revisa la URL del sitio');
      }
      const entries = (body.entries as unknown[]).filter(
        (e): e is GravityEntry => typeof e === 'object' && e !== null && /^\d+$/.test(String((e as { id?: unknown }).id ?? '')),
      );
      return { total: Number(body.total_count ?? entries.length) || 0, entries };
    },
  };
}
export type GravityClient = ReturnType<typeof createGravityClient>;
