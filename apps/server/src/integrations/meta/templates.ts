import { graphJson, ProviderError } from './send.js';

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
}

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

export function createGraphTemplateClient(baseUrl: string): TemplateClient {
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
    async remove(account, name, id) {
      const query = new URLSearchParams({ name });
      if (id) query.set('hsm_id', id);
      await graphJson(`${base}/${enc(account.businessAccountId)}/message_templates?${query}`, tokenOf(account), { method: 'DELETE' }, 'Meta no eliminó la plantilla');
    },
  };
}
