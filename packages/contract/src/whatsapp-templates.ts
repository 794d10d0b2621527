import { z } from 'zod';
import { zId, zText, zUrl } from './fields.js';
import { formMessages } from './messages-es.js';
import { templateCategories } from './resources/imagina-template-messages.js';

/**
 * WhatsApp message templates (issue 13 "Templates", SPEC §2 /mensajes_de_plantilla, decision
 * 0038): the company's templates of its WhatsApp line, submitted to Meta's template API and
 * synced from it. All under /api:
 *
 *   GET    /whatsapp-templates?status=&q=&page=&limit=   the line's templates (list shape)
 *   GET    /whatsapp-templates/{id}
 *   POST   /whatsapp-templates                           whatsappTemplateInput → 201 (submitted to Meta: PENDING)
 *   DELETE /whatsapp-templates/{id}                      deleted at Meta and here
 *   POST   /whatsapp-templates/sync                      → { msg, created, updated, removed, total }
 *   GET    /chats/{id}/templates                         the approved templates of the chat's line + the lead's values
 *   POST   /chats/{id}/template                          templateSendInput → 201 ChatMessage (rendered text)
 */

// the categories are those of the Imagina templates (resources/imagina-template-messages.ts): Meta's three

export const waTemplateStatuses = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;
export type WaTemplateStatus = (typeof waTemplateStatuses)[number];
export const waTemplateStatusLabels: Record<WaTemplateStatus, string> = {
  APPROVED: 'Aprobada',
  PENDING: 'En revisión',
  REJECTED: 'Rechazada',
  PAUSED: 'Pausada',
  DISABLED: 'Desactivada',
};
/** What each status means for the company, under its chip. */
export const waTemplateStatusHelp: Record<WaTemplateStatus, string> = {
  APPROVED: 'Se puede enviar desde el chat cuando la ventana de 24 horas está cerrada.',
  PENDING: 'Meta la está revisando; suele tardar de minutos a 24 horas.',
  REJECTED: 'Meta no la aprobó: corrígela y envíala como una plantilla nueva.',
  PAUSED: 'Meta la pausó por la baja calidad de sus envíos (reportes o bloqueos de clientes).',
  DISABLED: 'Meta la desactivó por su baja calidad: ya no se puede enviar.',
};

/** Meta's rejection reasons (`rejected_reason`), in Spanish. */
export const templateRejectedReasons: Record<string, string> = {
  ABUSIVE_CONTENT: 'Contenido abusivo o que infringe las políticas de WhatsApp',
  INVALID_FORMAT: 'Formato no válido (variables, saltos de línea o caracteres no admitidos)',
  PROMOTIONAL: 'Contenido promocional en una categoría que no lo admite',
  TAG_CONTENT_MISMATCH: 'El contenido no corresponde a la categoría elegida',
  SCAM: 'Meta la consideró un posible fraude',
  INCORRECT_CATEGORY: 'La categoría elegida no corresponde al contenido',
  NONE: 'Meta no indicó el motivo',
};
export const rejectedReasonText = (code: string | undefined | null): string | undefined =>
  code ? (templateRejectedReasons[code] ?? `Meta la rechazó (${code})`) : undefined;

/** Languages offered in the form (Meta's codes); synced templates may carry others. */
export const waTemplateLanguages = {
  es: 'Español',
  es_PE: 'Español (Perú)',
  es_MX: 'Español (México)',
  es_AR: 'Español (Argentina)',
  es_ES: 'Español (España)',
  en: 'Inglés',
  en_US: 'Inglés (EE. UU.)',
  pt_BR: 'Portugués (Brasil)',
} as const;

export const templateHeaderFormats = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export type TemplateHeaderFormat = (typeof templateHeaderFormats)[number];
export const templateHeaderFormatLabels: Record<TemplateHeaderFormat, string> = { TEXT: 'Texto', IMAGE: 'Imagen', VIDEO: 'Video', DOCUMENT: 'Documento' };

export const templateButtonTypes = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;
export type TemplateButtonType = (typeof templateButtonTypes)[number];
export const templateButtonTypeLabels: Record<TemplateButtonType, string> = { QUICK_REPLY: 'Respuesta rápida', URL: 'Abrir enlace', PHONE_NUMBER: 'Llamar' };

/** What a variable may be filled from when a template goes out from a chat. */
export const templateLeadFields = {
  nombre: 'Nombre del lead',
  telefono: 'Teléfono del lead',
  email: 'Correo del lead',
  empresa: 'Nombre de tu empresa',
  agente: 'Tu nombre (quien envía)',
} as const;
export type TemplateLeadField = keyof typeof templateLeadFields;
export const templateLeadFieldKeys = Object.keys(templateLeadFields) as [TemplateLeadField, ...TemplateLeadField[]];

export const TEMPLATE_LIMITS = { name: 512, body: 1024, header: 60, footer: 60, buttons: 10, buttonText: 25, example: 200 } as const;

export const templateMessages = {
  name: 'Solo letras minúsculas sin tildes, números y guion bajo (a-z, 0-9, _)',
  bodyRequired: 'Escribe el cuerpo del mensaje',
  bodyTooLong: `El cuerpo admite hasta ${TEMPLATE_LIMITS.body} caracteres`,
  headerTooLong: `El encabezado admite hasta ${TEMPLATE_LIMITS.header} caracteres`,
  headerText: 'Escribe el texto del encabezado',
  headerOneVariable: 'El encabezado admite una sola variable: {{1}}',
  headerMedia: 'Pega el enlace de un ejemplo del archivo del encabezado (Meta lo pide para revisarla)',
  footerTooLong: `El pie admite hasta ${TEMPLATE_LIMITS.footer} caracteres`,
  footerVariables: 'El pie no admite variables',
  tooManyButtons: `Como máximo ${TEMPLATE_LIMITS.buttons} botones`,
  buttonText: `El texto del botón admite hasta ${TEMPLATE_LIMITS.buttonText} caracteres`,
  buttonUrl: 'Los botones de enlace llevan una URL fija (sin variables)',
  buttonPhone: 'Escribe el teléfono con el código de país, por ejemplo +51987654321',
  variablesInOrder: (n: number) => `Las variables van numeradas desde {{1}} sin saltos: falta {{${n}}}`,
  variableMalformed: 'Las variables se escriben con dos llaves y un número: {{1}}, {{2}}…',
  examplesRequired: (n: number) => `Meta pide un valor de ejemplo para cada variable: falta el de {{${n}}}`,
  examplesExtra: 'Hay valores de ejemplo de más: quítalos o agrega sus variables',
  bodyEdges: 'El cuerpo no puede empezar ni terminar con una variable',
  authentication: 'Las plantillas de autenticación se crean en el administrador de WhatsApp de Meta (llevan un código y su botón)',
  duplicate: 'Ya existe una plantilla con ese nombre e idioma en esta línea',
} as const;

/** The variable numbers of a text, in order of appearance (`{{1}}`…); only well-formed ones. */
export function templateVariables(text: string | undefined | null): number[] {
  return [...(text ?? '').matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
}
/** How many distinct variables a text has, and the first missing number when they skip one. */
export function variableProblem(text: string): string | undefined {
  if (/\{\{(?!\s*\d+\s*\}\})|(?<!\{)\{\s*\d+\s*\}(?!\})/.test(text)) return templateMessages.variableMalformed;
  const used = new Set(templateVariables(text));
  const max = used.size ? Math.max(...used) : 0;
  for (let n = 1; n <= max; n++) if (!used.has(n)) return templateMessages.variablesInOrder(n);
  return undefined;
}
export const variableCount = (text: string | undefined | null) => {
  const used = templateVariables(text);
  return used.length ? Math.max(...used) : 0;
};

/** A text with its `{{n}}` replaced by values[n-1]; a missing value stays written as `{{n}}`. */
export function fillTemplateText(text: string, values: ReadonlyArray<string | undefined>): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => {
    const v = values[Number(n) - 1]?.trim();
    return v ? v : whole;
  });
}

const zTemplateButton = z
  .object({
    type: z.enum(templateButtonTypes, { error: formMessages.option }),
    text: zText(TEMPLATE_LIMITS.buttonText),
    url: zUrl(2000).optional(),
    phoneNumber: z.string({ error: formMessages.invalid }).trim().regex(/^\+?\d{8,15}$/, templateMessages.buttonPhone).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.type === 'URL' && !b.url) ctx.addIssue({ code: 'custom', path: ['url'], message: formMessages.required });
    if (b.type === 'URL' && b.url && /\{\{/.test(b.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: templateMessages.buttonUrl });
    if (b.type === 'PHONE_NUMBER' && !b.phoneNumber) ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: templateMessages.buttonPhone });
  });
export type TemplateButton = z.infer<typeof zTemplateButton>;

const zExamples = z.array(z.string({ error: formMessages.invalid }).trim().max(TEMPLATE_LIMITS.example, formMessages.tooLong), { error: formMessages.invalid }).max(30, formMessages.tooLong);

export const templateHeader = z
  .object({
    format: z.enum(templateHeaderFormats, { error: formMessages.option }),
    text: z.string({ error: formMessages.invalid }).trim().max(TEMPLATE_LIMITS.header, templateMessages.headerTooLong).optional(),
    /** The example value of the header's {{1}}. */
    example: z.string({ error: formMessages.invalid }).trim().max(TEMPLATE_LIMITS.example, formMessages.tooLong).optional(),
    /** A media header: a public link to an example file (and what goes out when sent from a chat). */
    mediaUrl: zUrl(2000).optional(),
  })
  .strict();
export type TemplateHeader = z.infer<typeof templateHeader>;

/** POST /whatsapp-templates: a new template of the company's line, submitted to Meta. */
export const whatsappTemplateInput = z
  .object({
    name: z
      .string({ error: formMessages.required })
      .trim()
      .min(1, formMessages.required)
      .max(TEMPLATE_LIMITS.name, formMessages.tooLong)
      .regex(/^[a-z0-9_]+$/, templateMessages.name),
    language: z.string({ error: formMessages.required }).trim().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, formMessages.option),
    category: z.enum(templateCategories, { error: formMessages.option }),
    header: templateHeader.optional(),
    body: z.string({ error: templateMessages.bodyRequired }).trim().min(1, templateMessages.bodyRequired).max(TEMPLATE_LIMITS.body, templateMessages.bodyTooLong),
    /** One example per body variable, in order ({{1}}, {{2}}…). */
    bodyExamples: zExamples.default([]),
    footer: z.string({ error: formMessages.invalid }).trim().max(TEMPLATE_LIMITS.footer, templateMessages.footerTooLong).optional(),
    buttons: z.array(zTemplateButton, { error: formMessages.invalid }).max(TEMPLATE_LIMITS.buttons, templateMessages.tooManyButtons).default([]),
    /** Which lead field each body variable is prefilled from when sent from a chat ('' = typed by the agent). */
    variableFields: z.array(z.union([z.enum(templateLeadFieldKeys), z.literal('')], { error: formMessages.option })).max(30, formMessages.tooLong).default([]),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.category === 'AUTHENTICATION') ctx.addIssue({ code: 'custom', path: ['category'], message: templateMessages.authentication });
    const bodyProblem = variableProblem(v.body);
    if (bodyProblem) ctx.addIssue({ code: 'custom', path: ['body'], message: bodyProblem });
    else if (/^\s*\{\{\s*\d+\s*\}\}|\{\{\s*\d+\s*\}\}\s*$/.test(v.body)) ctx.addIssue({ code: 'custom', path: ['body'], message: templateMessages.bodyEdges });
    const n = variableCount(v.body);
    for (let i = 0; i < n; i++) {
      if (!v.bodyExamples[i]?.trim()) ctx.addIssue({ code: 'custom', path: ['bodyExamples', i], message: templateMessages.examplesRequired(i + 1) });
    }
    if (v.bodyExamples.filter((e) => e.trim()).length > n) ctx.addIssue({ code: 'custom', path: ['bodyExamples'], message: templateMessages.examplesExtra });
    if (v.header?.format === 'TEXT') {
      const text = v.header.text ?? '';
      if (!text) ctx.addIssue({ code: 'custom', path: ['header', 'text'], message: templateMessages.headerText });
      const used = templateVariables(text);
      const problem = variableProblem(text);
      if (problem) ctx.addIssue({ code: 'custom', path: ['header', 'text'], message: problem });
      else if (used.length > 1 || used.some((x) => x !== 1)) ctx.addIssue({ code: 'custom', path: ['header', 'text'], message: templateMessages.headerOneVariable });
      else if (used.length === 1 && !v.header.example?.trim()) ctx.addIssue({ code: 'custom', path: ['header', 'example'], message: templateMessages.examplesRequired(1) });
    } else if (v.header && !v.header.mediaUrl) ctx.addIssue({ code: 'custom', path: ['header', 'mediaUrl'], message: templateMessages.headerMedia });
    if (v.footer && templateVariables(v.footer).length) ctx.addIssue({ code: 'custom', path: ['footer'], message: templateMessages.footerVariables });
  });
export type WhatsappTemplateInput = z.input<typeof whatsappTemplateInput>;
export type WhatsappTemplateData = z.output<typeof whatsappTemplateInput>;

export const whatsappTemplateOut = z.object({
  _id: z.string(),
  /** Meta's template id (absent until Meta accepted the submission). */
  providerId: z.string().optional(),
  /** The WhatsApp Business Account the template belongs to. */
  businessAccountId: z.string(),
  name: z.string(),
  language: z.string(),
  category: z.string(),
  status: z.enum(waTemplateStatuses),
  /** Why Meta rejected it, in Spanish (REJECTED), or why it was paused / disabled. */
  reason: z.string().optional(),
  header: z
    .object({ format: z.enum(templateHeaderFormats), text: z.string().optional(), example: z.string().optional(), mediaUrl: z.string().optional() })
    .optional(),
  body: z.string(),
  bodyExamples: z.array(z.string()),
  footer: z.string().optional(),
  buttons: z.array(z.object({ type: z.enum(templateButtonTypes), text: z.string(), url: z.string().optional(), phoneNumber: z.string().optional() })),
  variableFields: z.array(z.string()),
  /** The template has parts Mostrador cannot fill when sending from a chat (e.g. a link button with a variable). */
  sendable: z.boolean(),
  syncedAt: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WhatsappTemplate = z.infer<typeof whatsappTemplateOut>;

export const whatsappTemplateListQuery = z
  .object({
    status: z.enum(waTemplateStatuses, { error: formMessages.option }).optional(),
    q: z.string({ error: formMessages.invalid }).trim().max(200, formMessages.tooLong).optional(),
    page: z.coerce.number({ error: formMessages.integer }).int(formMessages.integer).min(1, formMessages.invalid).max(100_000, formMessages.tooBig).default(1),
    limit: z.coerce.number({ error: formMessages.integer }).int(formMessages.integer).min(1, formMessages.invalid).max(100, formMessages.tooBig).default(20),
  })
  .strict();
export const whatsappTemplateList = z.object({
  payload: z.array(whatsappTemplateOut),
  totalDocs: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  /** The line the templates belong to; absent when the company has no WhatsApp Business Account configured. */
  line: z.object({ businessAccountId: z.string().optional(), displayPhoneNumber: z.string().optional(), sandbox: z.boolean() }).optional(),
  /** Why templates cannot be created or synced now (no line, no WABA id, no token). */
  blocked: z.string().optional(),
});
export type WhatsappTemplateList = z.infer<typeof whatsappTemplateList>;

export const templateSyncOut = z.object({ msg: z.string(), created: z.number().int(), updated: z.number().int(), removed: z.number().int(), total: z.number().int() });
export type TemplateSyncOut = z.infer<typeof templateSyncOut>;

/** GET /chats/{id}/templates: what the composer's template picker needs. */
export const chatTemplatesOut = z.object({
  payload: z.array(whatsappTemplateOut),
  /** The lead's values each lead field gives (absent: the lead has none). */
  values: z.object({ nombre: z.string().optional(), telefono: z.string().optional(), email: z.string().optional(), empresa: z.string().optional(), agente: z.string().optional() }),
  /** Why no template can be sent from this chat (not WhatsApp, no line…). */
  blocked: z.string().optional(),
});
export type ChatTemplates = z.infer<typeof chatTemplatesOut>;

/** POST /chats/{id}/template: an approved template with its variables filled. */
export const templateSendInput = z
  .object({
    templateId: zId(),
    /** The body's values, {{1}} first. */
    bodyValues: z.array(z.string({ error: formMessages.invalid }).trim().max(1024, formMessages.tooLong), { error: formMessages.invalid }).max(30, formMessages.tooLong).default([]),
    /** The header's {{1}}, when it has one. */
    headerValue: z.string({ error: formMessages.invalid }).trim().max(TEMPLATE_LIMITS.header, formMessages.tooLong).optional(),
  })
  .strict();
export type TemplateSendInput = z.input<typeof templateSendInput>;

export const templateSendMessages = {
  notApproved: (status: WaTemplateStatus) => `La plantilla no está aprobada (${waTemplateStatusLabels[status].toLowerCase()}): solo se envían plantillas aprobadas`,
  otherLine: 'La plantilla no es de la línea de WhatsApp de este chat',
  onlyWhatsapp: 'Las plantillas de WhatsApp solo se envían en chats de WhatsApp',
  valueMissing: (n: number) => `Completa el valor de {{${n}}}`,
  headerMissing: 'Completa el valor de la variable del encabezado',
  notSendable: 'Esta plantilla tiene un botón de enlace con variable: envíala desde el administrador de WhatsApp de Meta',
  noBusinessAccount:
    'La línea de WhatsApp no tiene el ID de la cuenta de WhatsApp Business (WABA): un administrador debe guardarlo en Integraciones › WhatsApp para usar plantillas.',
  noLine: 'Esta compañía no tiene una línea de WhatsApp configurada (Integraciones › WhatsApp): las plantillas pertenecen a una línea.',
  noToken: 'La línea de WhatsApp no tiene token de acceso: un administrador debe guardarlo en Integraciones › WhatsApp para usar plantillas.',
  synced: 'Plantillas sincronizadas con Meta',
  submitted: 'Plantilla enviada a Meta para su revisión',
  deleted: 'Plantilla eliminada en Meta y en Mostrador',
} as const;

/**
 * The text the thread shows of a template sent: header, body and footer with the values, and
 * the buttons' labels, as the customer sees it.
 */
export function renderTemplate(
  t: Pick<WhatsappTemplate, 'header' | 'body' | 'footer' | 'buttons'>,
  values: { body: ReadonlyArray<string | undefined>; header?: string },
): string {
  const parts: string[] = [];
  if (t.header?.format === 'TEXT' && t.header.text) parts.push(fillTemplateText(t.header.text, [values.header]));
  parts.push(fillTemplateText(t.body, values.body));
  if (t.footer) parts.push(t.footer);
  if (t.buttons.length) parts.push(t.buttons.map((b) => `[${b.text}]`).join(' '));
  return parts.join('\n\n');
}
