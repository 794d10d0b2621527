import type { FastifyRequest } from 'fastify';

/** Query parameters whose values never reach the log: OAuth codes and states, secrets, tokens. */
const SECRET_PARAMS = new Set(['code', 'state', 'client_secret', 'clientsecret', 'access_token', 'refresh_token', 'id_token', 'token']);
const HIDDEN = '[oculto]';

/**
 * A request's URL as the log keeps it (decision 0052): the spec's
 * /telefonos/googlepeople/{id}/{clientId}/{clientSecret} keeps only the phone's id, and the
 * values of secret query parameters (Google's `code` and `state` on the OAuth callback, tokens)
 * are replaced.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q + 1);
  const cleanPath = path.replace(/^(\/telefonos\/googlepeople\/[^/]+)\/.+$/i, `$1/${HIDDEN}`);
  if (!query) return cleanPath;
  const cleanQuery = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq === -1 ? pair : pair.slice(0, eq);
      let name = key;
      try {
        name = decodeURIComponent(key);
      } catch {
        // a broken escape: judged as written
      }
      return eq !== -1 && SECRET_PARAMS.has(name.toLowerCase()) ? `${key}=${HIDDEN}` : pair;
    })
    .join('&');
  return `${cleanPath}?${cleanQuery}`;
}

/** Fastify's request serializer with the URL redacted (the same fields as its default). */
export function redactedRequest(request: FastifyRequest) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: Array.isArray(version) ? version[0] : version,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
