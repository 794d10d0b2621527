import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The browser's side of security, on every answer (decision 0063): API, SPA, shop page, static
 * files, errors and 404s alike. One map of headers, computed once from PUBLIC_URL, is put on the
 * raw response when a request starts, so it is there whatever answers next (a route, the error
 * handler, the not-found handler, the event stream that hijacks its reply); `app.ts` puts it on
 * the errors Fastify raises before any hook (a broken path). A route that needs another value
 * sets its own header, which wins (Node merges `writeHead`'s headers over `setHeader`'s): the chat
 * media proxy's sandbox, the Google route's no-referrer, the Drive public file's CORP.
 *
 * The policy names what the screens really load beside the origin:
 *   - img-src/media-src `https:`: a chat shows pictures, audio and video from wherever the
 *     provider or the agent's link put them (Meta's CDNs, any store's uploads, a pasted link),
 *     and the shop the store's product pictures: no host list can name them. They run no code.
 *   - frame-src: the YouTube embeds of a chat (SPEC §5; chat/lib/media.ts embeds www.youtube.com).
 *   - script-src/connect-src: Google Analytics when the page is opened with `?gtagid=` (SPEC §2,
 *     lib/gtag.ts): gtag.js comes from www.googletagmanager.com and reports to Google Analytics.
 *   - style-src 'unsafe-inline': MUI's emotion writes its CSS in <style> elements at run time;
 *     a nonce would make every HTML answer a per-request template (no precompressed, cached
 *     file) and still leave swagger-ui's inline styles. Scripts stay 'self' only: no inline
 *     script, no eval, no script attribute.
 */
export function contentSecurityPolicy(https: boolean): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'script-src': ["'self'", 'https://www.googletagmanager.com'],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'media-src': ["'self'", 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", 'https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
    'frame-src': ['https://www.youtube.com', 'https://www.youtube-nocookie.com'],
    // on https a picture's http: link is fetched over https (no mixed content); on http it would break the page
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}

/** Every answer's security headers for a product reached at `publicUrl`. */
export function securityHeaders(publicUrl: string): Record<string, string> {
  const https = publicUrl.startsWith('https:');
  return {
    'content-security-policy': contentSecurityPolicy(https),
    // the back office never shows inside another site's frame (clickjacking); frame-ancestors says it too for newer browsers
    'x-frame-options': 'DENY',
    // other sites learn the origin a link came from, never its path (a /ordenes/{token}, a Google secret)
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    // a window this product opens, or that opens it, gets no handle on the other (window.opener)
    'cross-origin-opener-policy': 'same-origin',
    // another site's page cannot load an answer as an image or script to read it (Spectre); the Drive public file opts out
    'cross-origin-resource-policy': 'same-origin',
    // HSTS only where the product is reached over https: on http://localhost it would stick to the name
    ...(https ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

/** Puts `headers` on a raw response, leaving any a route already set. */
export function applyHeaders(raw: ServerResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) if (!raw.hasHeader(name)) raw.setHeader(name, value);
}

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, { headers }: { headers: Record<string, string> }) => {
    app.addHook('onRequest', async (_request, reply) => applyHeaders(reply.raw, headers));
  },
  { name: 'security-headers' },
);
