import {
  type TemplateButton,
  type TemplateHeader,
  type WaTemplateStatus,
  type WhatsappTemplate,
  type WhatsappTemplateData,
  waTemplateStatuses,
  rejectedReasonText,
  templateVariables,
} from '@mostrador/contract';
import type { GraphTemplate, GraphTemplateComponent, NewGraphTemplate } from './templates.js';
import type { TemplatePayload } from './send.js';

/** A template's parts as we store them (the columns of whatsapp_templates). */
export interface TemplateParts {
  header?: TemplateHeader | null;
  body: string;
  bodyExamples: string[];
  footer?: string | null;
  buttons: TemplateButton[];
}

/** Our template → the `components` Meta's template API takes (POST /{waba}/message_templates). */
/** `exampleHandle`: the Resumable Upload API's handle of a media header's example (else the link is sent). */
export function toGraphTemplate(input: WhatsappTemplateData, exampleHandle?: string): NewGraphTemplate {
  const components: GraphTemplateComponent[] = [];
  const h = input.header;
  if (h?.format === 'TEXT' && h.text) {
    components.push({ type: 'HEADER', format: 'TEXT', text: h.text, ...(templateVariables(h.text).length && h.example ? { example: { header_text: [h.example] } } : {}) });
  } else if (h && h.format !== 'TEXT') {
    // Meta wants a handle of the Resumable Upload API; the link stays ours, the media a chat send carries (decision 0038)
    const handle = exampleHandle ?? h.mediaUrl;
    components.push({ type: 'HEADER', format: h.format, ...(handle ? { example: { header_handle: [handle] } } : {}) });
  }
  const examples = input.bodyExamples.map((e) => e.trim()).filter(Boolean);
  components.push({ type: 'BODY', text: input.body, ...(examples.length ? { example: { body_text: [examples] } } : {}) });
  if (input.footer) components.push({ type: 'FOOTER', text: input.footer });
  if (input.buttons.length) {
    components.push({
      type: 'BUTTONS',
      buttons: input.buttons.map((b) =>
        b.type === 'URL' ? { type: 'URL', text: b.text, url: b.url } : b.type === 'PHONE_NUMBER' ? { type: 'PHONE_NUMBER', text: b.text, phone_number: b.phoneNumber } : { type: 'QUICK_REPLY', text: b.text },
      ),
    });
  }
  return { name: input.name, language: input.language, category: input.category, components };
}

const knownButtons = new Set(['QUICK_REPLY', 'URL', 'PHONE_NUMBER']);

/** Meta's template (GET /{waba}/message_templates) → our parts; unknown button kinds read as quick replies. */
export function fromGraphTemplate(t: GraphTemplate): TemplateParts & { status: WaTemplateStatus; reason?: string; sendable: boolean } {
  const of = (type: GraphTemplateComponent['type']) => t.components?.find((c) => c.type?.toUpperCase() === type);
  const h = of('HEADER');
  const header: TemplateHeader | undefined = !h
    ? undefined
    : h.format === 'TEXT' || !h.format
      ? { format: 'TEXT', text: h.text ?? '', ...(h.example?.header_text?.[0] ? { example: h.example.header_text[0] } : {}) }
      : h.format === 'LOCATION'
        ? undefined
        : { format: h.format, ...(h.example?.header_handle?.[0] ? { mediaUrl: h.example.header_handle[0] } : {}) };
  const body = of('BODY');
  const buttons: TemplateButton[] = (of('BUTTONS')?.buttons ?? []).map((b) => {
    const type = (knownButtons.has(b.type) ? b.type : 'QUICK_REPLY') as TemplateButton['type'];
    return { type, text: b.text, ...(b.url ? { url: b.url } : {}), ...(b.phone_number ? { phoneNumber: b.phone_number } : {}) };
  });
  const status = (waTemplateStatuses as readonly string[]).includes(t.status) ? (t.status as WaTemplateStatus) : statusOf(t.status);
  const reason = status === 'REJECTED' ? t.rejected_reason : undefined;
  // a link button with a variable, a location header or a media header without its link cannot be filled from a chat
  const sendable =
    !(of('BUTTONS')?.buttons ?? []).some((b) => b.type === 'URL' && /\{\{/.test(b.url ?? '')) &&
    !(h?.format === 'LOCATION') &&
    !(header && header.format !== 'TEXT' && !header.mediaUrl) &&
    !(of('BUTTONS')?.buttons ?? []).some((b) => !knownButtons.has(b.type));
  return { header, body: body?.text ?? '', bodyExamples: body?.example?.body_text?.[0] ?? [], footer: of('FOOTER')?.text, buttons, status, reason, sendable };
}

/** Meta's other words for a status (IN_APPEAL, PENDING_DELETION, LIMIT_EXCEEDED…) read as the nearest of ours. */
function statusOf(status: string): WaTemplateStatus {
  if (status === 'IN_APPEAL') return 'PENDING';
  if (status === 'PENDING_DELETION' || status === 'DELETED' || status === 'ARCHIVED' || status === 'LIMIT_EXCEEDED') return 'DISABLED';
  return 'PENDING';
}

/** A stored row → the wire shape. */
export interface TemplateRow {
  id: string;
  business_account_id: string;
  provider_id: string | null;
  name: string;
  language: string;
  category: string;
  status: WaTemplateStatus;
  reason: string | null;
  header: TemplateHeader | null;
  body: string;
  body_examples: string[];
  footer: string | null;
  buttons: TemplateButton[];
  variable_fields: string[];
  synced_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}
const iso = (d: Date | string) => new Date(d).toISOString();

export function isSendable(row: Pick<TemplateRow, 'header' | 'buttons'>): boolean {
  if (row.buttons.some((b) => b.type === 'URL' && /\{\{/.test(b.url ?? ''))) return false;
  if (row.header && row.header.format !== 'TEXT' && !row.header.mediaUrl) return false;
  return true;
}

export function toTemplateOut(r: TemplateRow): WhatsappTemplate {
  return {
    _id: r.id,
    providerId: r.provider_id ?? undefined,
    businessAccountId: r.business_account_id,
    name: r.name,
    language: r.language,
    category: r.category,
    status: r.status,
    reason: r.status === 'REJECTED' ? (rejectedReasonText(r.reason) ?? rejectedReasonText('NONE')) : (r.reason ?? undefined),
    header: r.header ?? undefined,
    body: r.body,
    bodyExamples: r.body_examples ?? [],
    footer: r.footer ?? undefined,
    buttons: r.buttons ?? [],
    variableFields: r.variable_fields ?? [],
    sendable: isSendable(r),
    syncedAt: r.synced_at ? iso(r.synced_at) : undefined,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** The Cloud API `template` object of a send: the header's parameter (text or media link) and the body's. */
export function toTemplatePayload(r: Pick<TemplateRow, 'name' | 'language' | 'header'>, values: { body: string[]; header?: string }): TemplatePayload {
  const components: NonNullable<TemplatePayload['components']> = [];
  const h = r.header;
  if (h?.format === 'TEXT' && templateVariables(h.text).length) components.push({ type: 'header', parameters: [{ type: 'text', text: values.header ?? '' }] });
  else if (h && h.format !== 'TEXT' && h.mediaUrl) {
    const kind = h.format.toLowerCase();
    components.push({ type: 'header', parameters: [{ type: kind, [kind]: { link: h.mediaUrl } }] });
  }
  if (values.body.length) components.push({ type: 'body', parameters: values.body.map((text) => ({ type: 'text', text })) });
  return { name: r.name, language: { code: r.language }, ...(components.length ? { components } : {}) };
}
