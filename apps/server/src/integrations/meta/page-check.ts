import type { PageTestOut } from '@mostrador/contract';
import { connectionTest } from '../connection-test.js';
import { type FetchLike, jsonOf, NoAnswer, policyOf, sendWithRetries, type TransportOptions } from '../http.js';
import { isThrottled } from './labels.js';
import { graphFailure, ProviderError } from './send.js';

/** Why a page token does not serve, in Spanish, saying what to do (decision 0061). */
export const pageTestMessages = {
  expired: 'El token de la página venció: genera uno nuevo en Meta (Business Suite › Configuración › Usuarios del sistema) y guárdalo aquí',
  invalid: 'El token de la página no es válido (lo revocaron, cambió la contraseña o se copió incompleto): genera uno nuevo en Meta y guárdalo aquí',
  permissions:
    'El token no tiene los permisos que Mostrador usa en la página (pages_messaging y pages_manage_metadata): genera uno con esos permisos, como administrador de la página, y guárdalo aquí',
  throttled: 'Facebook limitó las llamadas de la página: vuelve a intentarlo en unos minutos',
  otherPage: (name: string, id: string, pageId: string) =>
    `El token es de «${name || id}» (${id}), no de la página ${pageId}: guarda el token de acceso de esta página (un token de usuario no sirve)`,
  ok: (name: string) => `Conexión correcta con la página «${name}»: el token es suyo y puede leer y responder sus mensajes`,
  sandbox: (name: string) => `Conexión correcta con la página «${name}» (página de prueba: el demo no llama a Facebook)`,
};

/** A Graph refusal or no answer as the test's answer. */
function failureOf(error: unknown, page?: { id: string; name: string }): PageTestOut {
  if (!(error instanceof ProviderError)) throw error;
  const { code, subcode, httpStatus } = error.details;
  const codes = code !== undefined ? ` (código ${code}${subcode !== undefined ? `/${subcode}` : ''})` : '';
  const out = (problem: NonNullable<PageTestOut['problem']>, msg: string): PageTestOut => ({ ok: false, problem, msg, ...(page ? { page } : {}) });
  if (httpStatus === undefined) return out('network', error.reason);
  // 190: the token; its subcode 463 (or 467 for a session) says it expired
  if (code === 190) return out('token', `${subcode === 463 ? pageTestMessages.expired : pageTestMessages.invalid}${codes}`);
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) return out('permissions', `${pageTestMessages.permissions}${codes}`);
  if (isThrottled(error)) return out('facebook', `${pageTestMessages.throttled}${codes}`);
  return out('facebook', error.reason.slice(0, 500));
}

/**
 * «Probar conexión» of the Facebook page (decision 0061): the stored page token asked to Graph, with
 * the connection tests' short tries (integrations/connection-test.ts).
 * - `GET {GRAPH_API_URL}/me?fields=id,name` with the token: a page token answers its page — it must
 *   be this page (a user token, or another page's, is said);
 * - `GET /{page-id}/conversations?fields=id&limit=1`: the page's messages, which need
 *   pages_messaging (code 10 / 2xx otherwise).
 * Code 190 is the token (expired: subcode 463).
 */
export async function testPageToken(baseUrl: string, pageId: string, accessToken: string, transport: TransportOptions = {}): Promise<PageTestOut> {
  const base = baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = transport.fetch ?? ((url, init) => fetch(url, init));
  const policy = policyOf({ ...connectionTest, ...transport }, connectionTest.retries);
  const get = async <T>(path: string): Promise<T> => {
    let answer: Awaited<ReturnType<typeof sendWithRetries>>;
    try {
      answer = await sendWithRetries((signal) => doFetch(`${base}${path}`, { method: 'GET', headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal }), policy);
    } catch (error) {
      throw new ProviderError(`No se pudo conectar con Facebook (${error instanceof NoAnswer ? error.code : String(error)}): vuelve a intentarlo`);
    }
    const body = jsonOf(answer.text) as { error?: unknown } | undefined;
    if (answer.status >= 400 || body?.error) throw graphFailure(answer.status, body, 'Facebook rechazó el token');
    return body as T;
  };
  let page: { id: string; name: string } | undefined;
  try {
    const me = await get<{ id?: unknown; name?: unknown }>('/me?fields=id,name');
    page = { id: String(me?.id ?? ''), name: String(me?.name ?? '').slice(0, 200) };
    if (page.id !== pageId) return { ok: false, problem: 'page', msg: pageTestMessages.otherPage(page.name, page.id, pageId), page };
    await get(`/${encodeURIComponent(pageId)}/conversations?fields=id&limit=1`);
    return { ok: true, msg: pageTestMessages.ok(page.name || pageId), page };
  } catch (error) {
    return failureOf(error, page);
  }
}
