import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, fetch as undiciFetch, type Response } from 'undici';
import { AppError } from '../lib/errors.js';
import type { FetchLike } from './http.js';

/**
 * The one HTTP client of every address a tenant types (decision 0060): a WooCommerce store, a
 * Gravity Forms site, the Genial and Seller Center API URLs, the LLM base URL, a template's
 * example file. A company's admin must not make the server call its own network and read the
 * answer back, so:
 *
 * - the address is judged where the connection is made, on every IP the name resolves to (an
 *   undici Agent whose connector refuses before the socket opens): a name that resolves to
 *   127.0.0.1, or that changes its answer between a check and the call (DNS rebinding), is
 *   refused like the literal;
 * - only global unicast addresses are reached: loopback, private, link-local, unique-local,
 *   CGNAT, multicast, unspecified, broadcast, documentation and the other reserved ranges (and
 *   their IPv4-mapped IPv6 forms) are refused, unless the operator allows private targets
 *   (OUTBOUND_ALLOW_PRIVATE_URLS=1, a self-hosted store on the server's own network);
 * - redirects are not followed (an integration's API needs none), or, where a link may redirect
 *   (a file to download), each hop is judged again;
 * - a URL with a user and password, another scheme than http(s), or, for an API's base URL, a
 *   `?` or `#` that would swallow the path the client appends, is refused before any request.
 *
 * A refusal is an `OutboundRefusal` with the Spanish reason, naming what to fix; it is never
 * tried again. The in-process sandboxes (`*.sandbox.test`) pass their own fetch and never get here.
 */

/** What the operator and the environment allow (set from the config when the app is built). */
export const outboundSettings: {
  /** OUTBOUND_ALLOW_PRIVATE_URLS=1: private and loopback addresses may be reached. */
  allowPrivate: boolean;
  /** The test environment: only local addresses are reached (no test reaches the internet, whatever URL a request names). */
  onlyLocal: boolean;
  /** How names are resolved (tests inject a resolver that answers 127.0.0.1 for a public-looking name). */
  lookup: typeof dnsLookup;
} = { allowPrivate: false, onlyLocal: false, lookup: dnsLookup };

export function configureOutbound(config: { outboundAllowPrivateUrls: boolean; env: string }) {
  outboundSettings.allowPrivate = config.outboundAllowPrivateUrls;
  outboundSettings.onlyLocal = config.env === 'test';
}

export type RefusalReason = 'url' | 'scheme' | 'credentials' | 'path' | 'internal' | 'public' | 'redirect';

/** A request the client would not send (or a redirect it would not follow), with what to fix in Spanish. */
export class OutboundRefusal extends Error {
  readonly code = 'OUTBOUND_REFUSED';
  constructor(
    readonly reason: RefusalReason,
    readonly msg: string,
  ) {
    super(msg);
  }
}

/** The refusal behind an error, if any (undici puts the connector's error as the cause of «fetch failed»). */
export function refusalOf(error: unknown): OutboundRefusal | undefined {
  for (let e = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundRefusal) return e;
  }
  return undefined;
}

/** Rethrows a refusal as a client's own error (its Spanish message; the refusal kept as the cause). */
export function rethrowRefusal(error: unknown, make: (msg: string) => Error): void {
  const refusal = refusalOf(error);
  if (!refusal) return;
  const wrapped = make(refusal.msg);
  (wrapped as { cause?: unknown }).cause = refusal;
  throw wrapped;
}

/** A refusal behind an error as the 400 of the setting to fix (a connection test, a save). */
export function rethrowRefusalAs400(error: unknown, path: string): void {
  const refusal = refusalOf(error);
  if (refusal) throw new AppError('VALIDATION', refusal.msg, [{ path, msg: refusal.msg }]);
}

/**
 * The range of an address that is not a public one (`loopback`, `private`, `linkLocal`,
 * `uniqueLocal`, `carrierGradeNat`, `reserved`…), or undefined for a global unicast address.
 * An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as its IPv4 address; the
 * deprecated IPv4-compatible form (`::127.0.0.1`) is refused.
 */
export function internalRange(address: string): string | undefined {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'invalid';
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && ip.match(ipv4Compatible)) return 'ipv4Compatible';
  return undefined;
}
const ipv4Compatible = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];

const allowHint = 'si el servicio está en la red del propio servidor, el administrador del servidor puede permitirlo (OUTBOUND_ALLOW_PRIVATE_URLS=1)';

/** Whether an address may be reached now, as a refusal when it may not. `host` is the name as written. */
function judgeAddress(address: string, host: string): OutboundRefusal | undefined {
  const range = internalRange(address);
  if (range && !outboundSettings.allowPrivate) {
    return new OutboundRefusal('internal', `La URL apunta a una dirección interna (${host}): por seguridad solo se conecta con direcciones públicas de internet; ${allowHint}`);
  }
  if (!range && outboundSettings.onlyLocal) return onlyLocalRefusal(host);
  return undefined;
}

const onlyLocalRefusal = (host: string) =>
  new OutboundRefusal('public', `En el entorno de pruebas solo se conecta con el sandbox (*.sandbox.test) y con direcciones locales, no con ${host}`);

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * What can be said of a URL before any request: a URL, http(s), no user and password; for an
 * API's base URL (`base`), no `?` or `#` (the client appends its own path); and, unless private
 * targets are allowed, not a literal internal address (127.0.0.1, [::1], 2130706433, localhost…).
 * The name's resolution is judged at connect time.
 */
export function urlRefusal(raw: string, { base = false }: { base?: boolean } = {}): OutboundRefusal | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return new OutboundRefusal('url', 'La URL no es válida: escríbela completa, como https://misitio.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return new OutboundRefusal('scheme', 'La URL debe empezar con https://');
  if (url.username || url.password) {
    return new OutboundRefusal('credentials', 'La URL no puede llevar usuario ni contraseña (usuario:clave@): escribe solo la dirección; las claves van en sus propios campos');
  }
  // `https://tienda.example/x?` would turn the API's path into a query of /x: an API's base is an address only
  if (base && /[?#]/.test(raw)) {
    return new OutboundRefusal('path', 'La URL no puede llevar «?» ni «#»: escribe solo la dirección del sitio, como https://misitio.com (Mostrador agrega la ruta de la API)');
  }
  const host = bare(url.hostname);
  if (!outboundSettings.allowPrivate && (isIP(host) || host === 'localhost' || host.endsWith('.localhost'))) {
    // the WHATWG parser already wrote 2130706433, 0x7f000001 and 127.1 as 127.0.0.1
    const range = isIP(host) ? internalRange(host) : 'loopback';
    if (range) return new OutboundRefusal('internal', `La URL apunta a una dirección interna (${url.hostname}): por seguridad solo se conecta con direcciones públicas de internet; ${allowHint}`);
  }
  return undefined;
}

/** The save-time check of a URL a tenant types (a 400 on the field), where `base` as in urlRefusal. */
export function assertTargetUrl(raw: string | undefined | null, path: string, options: { base?: boolean } = {}) {
  if (!raw) return;
  const refusal = urlRefusal(raw, options);
  if (refusal) throw new AppError('VALIDATION', refusal.msg, [{ path, msg: refusal.msg }]);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The resolver the connector uses: every address of the name is judged; one internal address refuses the name. */
function guardedLookup(hostname: string, options: { all?: boolean; family?: number | string } | number, callback: LookupCallback) {
  const wantsAll = typeof options === 'object' && options.all === true;
  const family = typeof options === 'object' ? options.family : options;
  outboundSettings.lookup(hostname, { all: true, ...(family ? { family: family as number } : {}) }, (error, addresses) => {
    // in tests a name the machine cannot resolve is an internet one: refused as such, whatever the DNS
    if (error && outboundSettings.onlyLocal) return callback(onlyLocalRefusal(hostname) as unknown as NodeJS.ErrnoException, wantsAll ? [] : '');
    if (error) return callback(error, wantsAll ? [] : '');
    const list = addresses as LookupAddress[];
    for (const a of list) {
      const refusal = judgeAddress(a.address, hostname);
      if (refusal) return callback(refusal as unknown as NodeJS.ErrnoException, wantsAll ? [] : '');
    }
    if (!list.length) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), wantsAll ? [] : '');
    if (wantsAll) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  });
}

let agent: Agent | undefined;
let agentSettings = '';
/**
 * The Agent whose every new connection is judged: IP literals here, names in the lookup. A new
 * one when the settings change (tests): a connection kept alive was judged under the old ones.
 */
function guardedAgent(): Agent {
  const settings = `${outboundSettings.allowPrivate}|${outboundSettings.onlyLocal}|${outboundSettings.lookup === dnsLookup}`;
  if (agent && agentSettings === settings) return agent;
  void agent?.close().catch(() => {});
  agentSettings = settings;
  const connector = buildConnector({ lookup: guardedLookup as never });
  agent = new Agent({
    connect(options, callback) {
      const host = bare(options.hostname);
      if (isIP(host)) {
        const refusal = judgeAddress(host, options.hostname);
        if (refusal) return callback(refusal, null);
      }
      return connector(options, callback);
    },
  });
  return agent;
}

export interface OutboundOptions {
  /** The API's base URL the client appends its paths to: refused with a `?` or `#`. */
  base?: string;
  /** Redirects followed, each hop judged again (default 0: a 3xx is a refusal saying to write the final URL). */
  redirects?: number;
}

/** The answer of the outbound client (the fetch Response, body included). */
export type OutboundResponse = Response;

/**
 * The fetch of a tenant's address: every URL judged (urlRefusal), every connection judged on its
 * resolved IP, redirects refused or followed hop by hop. Throws an `OutboundRefusal`; anything
 * else thrown is «no answer» (refused connection, unknown name, timeout) as with global fetch.
 */
export function outboundFetch(options: OutboundOptions = {}) {
  return async (
    input: string,
    init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array; signal?: AbortSignal } = {},
  ): Promise<OutboundResponse> => {
    const baseRefusal = options.base !== undefined ? urlRefusal(options.base, { base: true }) : undefined;
    if (baseRefusal) throw baseRefusal;
    let url = input;
    for (let hop = 0; ; hop++) {
      const refusal = urlRefusal(url);
      if (refusal) throw refusal;
      let res: Response;
      try {
        res = await undiciFetch(url, { ...init, redirect: 'manual', dispatcher: guardedAgent() } as never);
      } catch (error) {
        // the connector's refusal comes as the cause of «fetch failed»: thrown as it is
        throw refusalOf(error) ?? error;
      }
      if (res.status < 300 || res.status >= 400 || !res.headers.get('location')) return res;
      await res.body?.cancel().catch(() => {});
      if (hop >= (options.redirects ?? 0)) {
        throw new OutboundRefusal(
          'redirect',
          options.redirects
            ? 'El enlace redirige demasiadas veces: usa el enlace directo al archivo'
            : `La dirección respondió con una redirección (HTTP ${res.status}): escribe la URL final (con https:// o www, como la muestra el navegador); por seguridad no se siguen redirecciones`,
        );
      }
      url = new URL(res.headers.get('location') as string, url).toString();
    }
  };
}

/** The outbound fetch as a client's FetchLike (an integration's API: no redirects). */
export const outboundFetchLike = (base: string): FetchLike => outboundFetch({ base }) as unknown as FetchLike;
