import { type OutboundResponse, outboundFetch, rethrowRefusal } from '../outbound.js';
import { graphFailure, graphJson, ProviderError } from './send.js';

/**
 * WhatsApp message templates through Meta's Graph API (issue 13, decision 0038), on the
 * WhatsApp Business Account (WABA) of the company's line:
 *
 * - `GET  {GRAPH_API_URL}/{waba-id}/message_templates?fields=…&limit=…[&after=cursor]` →
 *   `{data:[{id, name, language, category, status, rejected_reason, components}], paging:{cursors:{before, after}, next?}}`;
 *   the next page is asked with `after` while the answer has `paging.next`.
 * - `POST {GRAPH_API_URL}/{waba-id}/message_templates` `{name, language, category, components}` →
 *   `{id, status, category}` (status PENDING while Meta reviews it; sometimes APPROVED at once).
 * - `DELETE {GRAPH_API_URL}/{waba-id}/message_templates?name=…[&hsm_id=…]` → `{success:true}`.
 * - A media header's example is a handle of the Resumable Upload API: `POST {GRAPH_API_URL}/{app-id}/uploads?file_name&file_length&file_type`
 *   → `{id:'upload:…'}`, then `POST {GRAPH_API_URL}/{upload id}` with `Authorization: OAuth {token}`,
 *   `file_offset: 0` and the bytes → `{h}` (the file is read from the link the user gave).
 *
 * Errors are Graph errors: ProviderError with the Spanish reason of integrations/meta/error-reasons.ts
 * (80008 and 130429: too many calls; 100/2388023: a name still being deleted, …).
 */

/** A component as Meta's template API writes it. */
export interface GraphTemplateComponent {
  type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS';
  format?: 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT' | 'LOCATION';
  text?: string;
  example?: { header_text?: string[]; header_handle?: string[]; body_text?: string[][] };
  buttons?: Array<{ type: string; text: string; url?: string; phone_number?: string; example?: string[] }>;
}

export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason?: string;
  components: GraphTemplateComponent[];
}

export interface GraphTemplatePage {
  data: GraphTemplate[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

export interface NewGraphTemplate {
  name: string;
  language: string;
  category: string;
  components: GraphTemplateComponent[];
}

/** Where the templates live: the line's WABA and its token (absent: sandbox only). */
export interface TemplateAccount {
  businessAccountId: string;
  accessToken?: string;
}

/** The template API: the Graph one below, or the sandbox (integrations/sandbox/templates.ts). */
export interface TemplateClient {
  readonly name: 'graph' | 'sandbox';
  /** One page of the account's templates; `after` is the previous page's cursor. */
  page(account: TemplateAccount, after?: string): Promise<GraphTemplatePage>;
  create(account: TemplateAccount, template: NewGraphTemplate): Promise<{ id: string; status: string; category?: string }>;
  remove(account: TemplateAccount, name: string, id?: string): Promise<void>;
  /** The `header_handle` of a media header's example file given by link. */
  uploadExample(account: TemplateAccount, mediaUrl: string): Promise<string>;
}

/** Meta takes example files up to this size (video 16 MB; images 5 MB, documents 100 MB are checked by Meta). */
const MAX_EXAMPLE_BYTES = 16 * 1024 * 1024;

export const TEMPLATE_FIELDS = 'id,name,language,category,status,rejected_reason,components';
export const TEMPLATE_PAGE_SIZE = 100;
/** A runaway paging (a cursor that never ends) stops here. */
const MAX_PAGES = 200;

/** Every template of the account, page after page (`paging.cursors.after` while `paging.next`). */
export async function listAllTemplates(client: TemplateClient, account: TemplateAccount): Promise<GraphTemplate[]> {
  const all: GraphTemplate[] = [];
  let after: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await client.page(account, after);
    all.push(...(page.data ?? []));
    const next = page.paging?.next ? page.paging.cursors?.after : undefined;
    if (!next || next === after) return all;
    after = next;
  }
  throw new ProviderError('Meta devolvió demasiadas páginas de plantillas: vuelve a sincronizar más tarde');
}

export function createGraphTemplateClient(baseUrl: string, appId?: string): TemplateClient {
  const base = baseUrl.replace(/\/+$/, '');
  const enc = encodeURIComponent;
  const tokenOf = (account: TemplateAccount) => {
    if (!account.accessToken) throw new ProviderError('La línea de WhatsApp no tiene token de acceso');
    return account.accessToken;
  };
  return {
    name: 'graph',
    async page(account, after) {
      const query = new URLSearchParams({ fields: TEMPLATE_FIELDS, limit: String(TEMPLATE_PAGE_SIZE) });
      if (after) query.set('after', after);
      const url = `${base}/${enc(account.businessAccountId)}/message_templates?${query}`;
      const body = await graphJson<GraphTemplatePage>(url, tokenOf(account), { method: 'GET' }, 'Meta no entregó las plantillas');
      return { data: Array.isArray(body?.data) ? body.data : [], paging: body?.paging };
    },
    async create(account, template) {
      const url = `${base}/${enc(account.businessAccountId)}/message_templates`;
      const body = await graphJson<{ id?: string; status?: string; category?: string }>(url, tokenOf(account), { method: 'POST', body: template }, 'Meta rechazó la plantilla');
      if (!body?.id) throw new ProviderError('Meta aceptó la plantilla pero no devolvió su id');
      return { id: String(body.id), status: body.status ?? 'PENDING', category: body.category };
    },
    async uploadExample(account, mediaUrl) {
      const token = tokenOf(account);
      if (!appId) throw new ProviderError('Falta META_APP_ID en el servidor: sin el id de la app de Meta no se pueden subir ejemplos de encabezados con archivo');
      // the link is the user's: the outbound client judges every hop of it (a file link may redirect, to a CDN)
      let file: OutboundResponse;
      try {
        file = await outboundFetch({ redirects: 5 })(mediaUrl, { method: 'GET', signal: AbortSignal.timeout(20_000) });
      } catch (error) {
        rethrowRefusal(error, (msg) => new ProviderError(msg));
        throw new ProviderError('No se pudo descargar el archivo de ejemplo: revisa que el enlace sea público');
      }
      if (!file.ok) throw new ProviderError(`No se pudo descargar el archivo de ejemplo (HTTP ${file.status}): revisa que el enlace sea público`);
      const bytes = Buffer.from(await file.arrayBuffer());
      if (bytes.length === 0 || bytes.length > MAX_EXAMPLE_BYTES) throw new ProviderError('El archivo de ejemplo está vacío o pesa más de 16 MB');
      const type = (file.headers.get('content-type') ?? 'application/octet-stream').split(';')[0].trim();
      const name = decodeURIComponent(new URL(mediaUrl).pathname.split('/').pop() || 'ejemplo').slice(0, 200);
      const session = new URLSearchParams({ file_name: name, file_length: String(bytes.length), file_type: type });
      const started = await graphJson<{ id?: string }>(`${base}/${enc(appId)}/uploads?${session}`, token, { method: 'POST' }, 'Meta no abrió la subida del archivo de ejemplo');
      if (!started?.id?.startsWith('upload:')) throw new ProviderError('Meta no devolvió la sesión de subida del archivo de ejemplo');
      let res: Response;
      try {
        res = await fetch(`${base}/${started.id}`, {
          method: 'POST',
          headers: { authorization: `OAuth ${token}`, file_offset: '0', 'content-type': type },
          body: bytes,
          signal: AbortSignal.timeout(60_000),
        });
      } catch {
        throw new ProviderError('No se pudo conectar con Meta para subir el archivo de ejemplo');
      }
      const body = (await res.json().catch(() => undefined)) as { h?: string; error?: object } | undefined;
      if (!res.ok || body?.error || !body?.h) throw graphFailure(res.status, body, 'Meta no aceptó el archivo de ejemplo');
      return body.h;
    },
    async remove(account, name, id) {
      const query = new URLSearchParams({ name });
      if (id) query.set('hsm_id', id);
      await graphJson(`${base}/${enc(account.businessAccountId)}/message_templates?${query}`, tokenOf(account), { method: 'DELETE' }, 'Meta no eliminó la plantilla');
    },
  };
}
