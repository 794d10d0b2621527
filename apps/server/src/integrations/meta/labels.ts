import { createHash } from 'node:crypto';
import { type FetchLike, jsonOf, NoAnswer, policyOf, sendWithRetries, type TransportOptions } from '../http.js';
import { graphFailure, graphJson, ProviderError } from './send.js';

/**
 * A client of the page's Messenger labels (Messenger Platform «Custom Labels», decision 0057):
 *
 * - `GET /{page-id}/custom_labels?fields=page_label_name&limit=100` → `{data: [{id, page_label_name}],
 *   paging: {cursors: {after}, next}}`, followed page by page;
 * - `POST /{page-id}/custom_labels` `{page_label_name}` → `{id}`;
 * - on a person: `POST /{label-id}/label` `{user: PSID}` → `{success: true}`, and
 *   `DELETE /{label-id}/label?user=PSID` → `{success: true}` (both harmless when repeated).
 *
 * Meta answers code 10 / 200-299 when the page has not accepted the Page Contact Terms or the
 * token lacks pages_manage_metadata, 190 for an expired token: said in Spanish by labelFailure.
 * The sandbox (the demo, SEND_PROVIDER=sandbox) keeps the page's labels in memory.
 */
export interface PageLabel {
  id: string;
  name: string;
}

export interface LabelTarget {
  pageId: string;
  accessToken?: string;
}

export interface LabelClient {
  readonly name: 'graph' | 'sandbox';
  list(target: LabelTarget): Promise<PageLabel[]>;
  create(target: LabelTarget, name: string): Promise<PageLabel>;
  /** Puts the page label on the person (PSID) or takes it off. */
  tag(target: LabelTarget, labelId: string, psid: string, on: boolean): Promise<void>;
}

/** Page label names at Facebook: at most this long. */
export const PAGE_LABEL_MAX = 80;
/** A page's labels followed at most this many pages of 100 (a runaway cursor stops). */
const MAX_PAGES = 50;

/** Facebook's refusal of a labels call, in Spanish, naming what to fix. */
export function labelFailure(error: unknown): string {
  if (!(error instanceof ProviderError)) return `No se pudo sincronizar con Facebook: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500);
  const { code, httpStatus } = error.details;
  const codes = code !== undefined ? ` (código ${code})` : httpStatus ? ` (HTTP ${httpStatus})` : '';
  if (code === 190) return `El token de la página de Facebook venció o no es válido: guarda uno nuevo en Integraciones › WhatsApp (página de Facebook)${codes}`;
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) {
    return `Facebook no deja usar las etiquetas de esta página: un administrador debe aceptar las Condiciones de contactos de la página y el token necesita el permiso pages_manage_metadata${codes}`;
  }
  if (isThrottled(error)) return `Facebook limitó las llamadas de la página: vuelve a intentarlo en unos minutos${codes}`;
  return error.reason.slice(0, 500);
}

/** Why a person's label was not put on or taken off, in Spanish. */
export function personLabelFailure(error: unknown): string {
  if (error instanceof ProviderError && error.details.notFound) {
    return `La etiqueta ya no existe en la página de Facebook: pulsa «Sincronizar con Facebook»${error.details.code !== undefined ? ` (código ${error.details.code})` : ''}`;
  }
  if (error instanceof ProviderError && !isPassing(error)) return error.reason.slice(0, 500);
  return labelFailure(error);
}

/** Meta's throttling: HTTP 429 or codes 4, 17, 32, 613. */
export function isThrottled(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  const { code, httpStatus } = error.details;
  return httpStatus === 429 || (code !== undefined && [4, 17, 32, 613].includes(code));
}

/**
 * Whether a refusal of a person's label may pass by itself or once the owner fixes the page (a
 * new token, the permission, the terms, throttling, no answer, Facebook's own 5xx): the work is
 * kept and tried later. Anything else (the label or the person unknown to the page) is final.
 */
export function isPassing(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return true;
  const { code, httpStatus } = error.details;
  if (httpStatus === undefined || httpStatus >= 500 || isThrottled(error)) return true;
  return code === 190 || code === 10 || code === 2 || (code !== undefined && code >= 200 && code <= 299);
}

/**
 * The Graph API client. `baseUrl` includes the version (https://graph.facebook.com/v21.0). A
 * person's label goes through the shared sending (integrations/http.ts): tried again on no answer,
 * 429 or 5xx (Retry-After honoured), then Meta's error said in Spanish (graphFailure).
 */
export function createLabelClient(baseUrl: string, transport: TransportOptions = {}): LabelClient {
  const base = baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = transport.fetch ?? ((url, init) => fetch(url, init));
  // 10 s a try: a page that does not answer holds its rows for this run, not the job for minutes
  const policy = policyOf({ timeoutMs: 10_000, ...transport }, 3, { jitter: 0.25 });
  const token = (target: LabelTarget) => {
    if (!target.accessToken) throw new ProviderError('La página de Facebook no tiene token de acceso: guárdalo en Integraciones › WhatsApp (página de Facebook)');
    return target.accessToken;
  };
  return {
    name: 'graph',
    async list(target) {
      const out: PageLabel[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = new URLSearchParams({ fields: 'page_label_name', limit: '100', ...(after ? { after } : {}) });
        const body = await graphJson<{ data?: Array<{ id?: string; page_label_name?: string; name?: string }>; paging?: { cursors?: { after?: string }; next?: string } }>(
          `${base}/${encodeURIComponent(target.pageId)}/custom_labels?${query}`,
          token(target),
          { method: 'GET' },
          'Facebook no entregó las etiquetas de la página',
        );
        for (const l of body?.data ?? []) {
          const name = (l.page_label_name ?? l.name ?? '').trim();
          if (l.id && name) out.push({ id: String(l.id), name: name.slice(0, PAGE_LABEL_MAX) });
        }
        after = body?.paging?.next ? body.paging.cursors?.after : undefined;
        if (!after) break;
      }
      return out;
    },
    async create(target, name) {
      const body = await graphJson<{ id?: string }>(
        `${base}/${encodeURIComponent(target.pageId)}/custom_labels`,
        token(target),
        { method: 'POST', body: { page_label_name: name.slice(0, PAGE_LABEL_MAX) } },
        'Facebook no creó la etiqueta',
      );
      if (!body?.id) throw new ProviderError('Facebook aceptó la etiqueta pero no devolvió su id');
      return { id: String(body.id), name };
    },
    async tag(target, labelId, psid, on) {
      const headers: Record<string, string> = { authorization: `Bearer ${token(target)}` };
      const url = `${base}/${encodeURIComponent(labelId)}/label${on ? '' : `?${new URLSearchParams({ user: psid })}`}`;
      if (on) headers['content-type'] = 'application/json';
      const prefix = on ? 'Facebook no puso la etiqueta a la persona' : 'Facebook no quitó la etiqueta a la persona';
      let answer: Awaited<ReturnType<typeof sendWithRetries>>;
      try {
        answer = await sendWithRetries(
          (signal) => doFetch(url, { method: on ? 'POST' : 'DELETE', headers, body: on ? JSON.stringify({ user: psid }) : undefined, signal }),
          policy,
        );
      } catch (error) {
        throw new ProviderError(`No se pudo conectar con Facebook (${error instanceof NoAnswer ? error.code : String(error)})`);
      }
      const body = jsonOf(answer.text) as { success?: boolean; error?: unknown } | undefined;
      if (answer.status >= 400 || body?.error) throw graphFailure(answer.status, body, prefix);
      if (body?.success !== true) throw new ProviderError(`${prefix}: respondió sin confirmar (HTTP ${answer.status})`, { httpStatus: answer.status });
    },
  };
}

/**
 * The demo's page labels: a few the page already has (as if made in the Page Inbox), and the
 * ones Mostrador creates, with ids derived from the page and the name; kept while the process lives.
 */
export function createSandboxLabelClient(): LabelClient & { tagged: Map<string, Set<string>> } {
  const pages = new Map<string, PageLabel[]>();
  /** The people each page label is on (label id → PSIDs). */
  const tagged = new Map<string, Set<string>>();
  const idOf = (pageId: string, name: string) => `54${BigInt(`0x${createHash('sha256').update(`${pageId}|${name}`).digest('hex').slice(0, 12)}`).toString().padStart(14, '0').slice(0, 14)}`;
  const labelsOf = (pageId: string) => {
    let labels = pages.get(pageId);
    if (!labels) {
      // the three the demo's seed already holds, with their ids, and two made in the Page Inbox
      labels = [
        { id: '5432109876543210', name: 'Cliente nuevo' },
        { id: '5432109876543211', name: 'Pedido pendiente' },
        { id: '5432109876543212', name: 'Venta cerrada' },
        ...['Consulta de precios', 'Reclamo'].map((name) => ({ id: idOf(pageId, name), name })),
      ];
      pages.set(pageId, labels);
    }
    return labels;
  };
  return {
    name: 'sandbox',
    tagged,
    async tag(_target, labelId, psid, on) {
      const people = tagged.get(labelId) ?? tagged.set(labelId, new Set()).get(labelId) ?? new Set<string>();
      if (on) people.add(psid);
      else people.delete(psid);
    },
    async list(target) {
      return [...labelsOf(target.pageId)];
    },
    async create(target, name) {
      const labels = labelsOf(target.pageId);
      const label = { id: idOf(target.pageId, name), name: name.slice(0, PAGE_LABEL_MAX) };
      if (!labels.some((l) => l.id === label.id)) labels.push(label);
      return label;
    },
  };
}
