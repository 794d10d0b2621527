import {
  type ChatTemplates,
  renderTemplate,
  type TemplateSendInput,
  type TemplateSyncOut,
  templateMessages,
  templateSendInput,
  templateSendMessages,
  templateVariables,
  variableCount,
  type WhatsappTemplate,
  type WhatsappTemplateData,
  type WhatsappTemplateList,
  waTemplateStatuses,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { type Db, rowsOf } from '../../db/database.js';
import { ProviderError } from '../../integrations/meta/send.js';
import { createGraphTemplateClient, listAllTemplates, type TemplateAccount, type TemplateClient } from '../../integrations/meta/templates.js';
import { createSandboxTemplateClient } from '../../integrations/sandbox/templates.js';
import { rethrowRefusalAs400 } from '../../integrations/outbound.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { fromGraphTemplate, isSendable, type TemplateRow, toGraphTemplate, toTemplateOut, toTemplatePayload } from '../../integrations/meta/template-mapping.js';

type Row = Record<string, unknown>;

const columns = sql`id, business_account_id, provider_id, name, language, category, status, reason, header, body, body_examples, footer, buttons, variable_fields, synced_at, created_at, updated_at`;

interface LineRow extends Row {
  provider_id: string;
  business_account_id: string | null;
  display_phone_number: string | null;
  access_token: string | null;
}

export const templateNotFound = () => new AppError('NOT_FOUND', 'La plantilla no existe en esta compañía');

export interface TemplateServiceDeps {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  config: Pick<Config, 'sendProvider' | 'graphApiUrl' | 'metaAppId'>;
}

/**
 * WhatsApp message templates (issue 13, decision 0038): the company's templates of its line's
 * WhatsApp Business Account, created by submitting them to Meta (nothing is stored when Meta
 * refuses), synced from Meta (status, rejection reason; templates made in Meta's manager come
 * in, deleted ones go), and the approved ones sent from a chat whose window is closed. Always
 * the caller's company: a template of another company is a 404.
 */
export function createTemplateService({ db, secrets, config }: TemplateServiceDeps) {
  const client: TemplateClient = config.sendProvider === 'graph' ? createGraphTemplateClient(config.graphApiUrl, config.metaAppId) : createSandboxTemplateClient(db);

  async function lineOf(companyId: string) {
    const [line] = await rowsOf<LineRow>(
      db,
      sql`select provider_id, business_account_id, display_phone_number, access_token from channels where company_id = ${companyId} and kind = 'whatsapp'`,
    );
    const blocked = !line
      ? templateSendMessages.noLine
      : !line.business_account_id
        ? templateSendMessages.noBusinessAccount
        : client.name === 'graph' && !line.access_token
          ? templateSendMessages.noToken
          : undefined;
    return { line, blocked };
  }

  /** The line's account with its token opened, or a 409 saying what is missing. */
  async function accountOf(companyId: string): Promise<TemplateAccount> {
    const { line, blocked } = await lineOf(companyId);
    if (blocked || !line?.business_account_id) throw new AppError('CONFLICT', blocked);
    let accessToken: string | undefined;
    if (line.access_token) {
      try {
        accessToken = secrets.open<string>(line.access_token);
      } catch {
        throw new AppError('CONFLICT', 'No se pudo leer el token de acceso de WhatsApp (la clave del servidor cambió): un administrador debe guardarlo de nuevo en Integraciones › WhatsApp.');
      }
    }
    return { businessAccountId: line.business_account_id, accessToken };
  }

  const providerFailure = (error: unknown, what: string) => {
    if (error instanceof ProviderError) {
      const throttled = error.details.httpStatus === 429 || error.details.code === 80008 || error.details.code === 130429 || error.details.code === 4;
      return new AppError(throttled ? 'RATE_LIMITED' : 'PROVIDER_ERROR', `${what}: ${error.reason}`);
    }
    return error;
  };

  async function row(companyId: string, id: string): Promise<TemplateRow> {
    const [r] = await rowsOf<TemplateRow & Row>(db, sql`select ${columns} from whatsapp_templates where company_id = ${companyId} and id = ${id}`);
    if (!r) throw templateNotFound();
    return r;
  }

  async function list(companyId: string, query: { status?: string; q?: string; page: number; limit: number }): Promise<WhatsappTemplateList> {
    const { line, blocked } = await lineOf(companyId);
    const lineOut = line ? { businessAccountId: line.business_account_id ?? undefined, displayPhoneNumber: line.display_phone_number ?? undefined, sandbox: client.name === 'sandbox' } : undefined;
    if (!line?.business_account_id) return { payload: [], totalDocs: 0, totalPages: 0, page: query.page, limit: query.limit, line: lineOut, blocked };
    const conditions = [sql`company_id = ${companyId}`, sql`business_account_id = ${line.business_account_id}`];
    if (query.status) conditions.push(sql`status = ${query.status}`);
    if (query.q) {
      const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(sql`(name ilike ${like} or body ilike ${like})`);
    }
    const where = sql.join(conditions, sql` and `);
    const [{ n }] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from whatsapp_templates where ${where}`);
    const rows = await rowsOf<TemplateRow & Row>(
      db,
      sql`select ${columns} from whatsapp_templates where ${where} order by name, language, id limit ${query.limit} offset ${(query.page - 1) * query.limit}`,
    );
    return { payload: rows.map(toTemplateOut), totalDocs: Number(n), totalPages: Math.ceil(Number(n) / query.limit), page: query.page, limit: query.limit, line: lineOut, blocked };
  }

  /** Submits a new template to Meta and stores it with Meta's id and status; Meta's refusal stores nothing. */
  async function create(companyId: string, input: WhatsappTemplateData): Promise<WhatsappTemplate> {
    const account = await accountOf(companyId);
    const [taken] = await rowsOf(
      db,
      sql`select 1 from whatsapp_templates where company_id = ${companyId} and business_account_id = ${account.businessAccountId}
          and name = ${input.name} and language = ${input.language}`,
    );
    if (taken) throw new AppError('CONFLICT', templateMessages.duplicate, [{ path: 'name', msg: templateMessages.duplicate }]);
    let submitted: Awaited<ReturnType<TemplateClient['create']>>;
    let handle: string | undefined;
    if (input.header && input.header.format !== 'TEXT' && input.header.mediaUrl) {
      try {
        handle = await client.uploadExample(account, input.header.mediaUrl);
      } catch (error) {
        // a link the outbound client refuses is the field to fix: a 400
        rethrowRefusalAs400(error, 'header.mediaUrl');
        if (!(error instanceof ProviderError)) throw error;
        const msg = `No se pudo subir el archivo de ejemplo del encabezado: ${error.reason}`;
        throw new AppError(error.details.httpStatus === 429 ? 'RATE_LIMITED' : 'PROVIDER_ERROR', msg, [{ path: 'header.mediaUrl', msg: error.reason }]);
      }
    }
    try {
      submitted = await client.create(account, toGraphTemplate(input, handle));
    } catch (error) {
      throw providerFailure(error, 'Meta no aceptó la plantilla');
    }
    const status = (waTemplateStatuses as readonly string[]).includes(submitted.status) ? submitted.status : 'PENDING';
    const variableFields = input.variableFields.slice(0, variableCount(input.body));
    const [created] = await rowsOf<TemplateRow & Row>(
      db,
      sql`insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, header, body, body_examples, footer, buttons, variable_fields, synced_at)
          values (${companyId}, ${account.businessAccountId}, ${submitted.id}, ${input.name}, ${input.language}, ${submitted.category ?? input.category}, ${status},
                  ${input.header ? JSON.stringify(input.header) : null}::jsonb, ${input.body}, ${JSON.stringify(input.bodyExamples)}::jsonb, ${input.footer || null},
                  ${JSON.stringify(input.buttons)}::jsonb, ${JSON.stringify(variableFields)}::jsonb, now())
          on conflict (company_id, business_account_id, name, language) do nothing
          returning ${columns}`,
    );
    if (!created) throw new AppError('CONFLICT', templateMessages.duplicate, [{ path: 'name', msg: templateMessages.duplicate }]);
    return toTemplateOut(created);
  }

  async function remove(companyId: string, id: string): Promise<void> {
    const r = await row(companyId, id);
    const account = await accountOf(companyId);
    try {
      await client.remove(account, r.name, r.provider_id ?? undefined);
    } catch (error) {
      // already gone at Meta: remove it here too
      if (!(error instanceof ProviderError && error.details.notFound)) throw providerFailure(error, 'Meta no eliminó la plantilla');
    }
    await db.execute(sql`delete from whatsapp_templates where company_id = ${companyId} and id = ${id}`);
  }

  /**
   * Reads every template of the line's account from Meta (all pages) and makes the company's
   * copy match: new ones come in, the others take Meta's status, reason and parts (keeping
   * which lead field fills each variable), and those Meta no longer has are removed.
   */
  async function sync(companyId: string): Promise<TemplateSyncOut> {
    const account = await accountOf(companyId);
    let remote: Awaited<ReturnType<typeof listAllTemplates>>;
    try {
      remote = await listAllTemplates(client, account);
    } catch (error) {
      throw providerFailure(error, 'No se pudieron leer las plantillas de Meta');
    }
    let created = 0;
    let updated = 0;
    let removed = 0;
    const keep: string[] = [];
    await db.transaction(async (tx) => {
      for (const t of remote) {
        const parts = fromGraphTemplate(t);
        const [r] = await rowsOf<{ id: string; inserted: boolean }>(
          tx,
          sql`insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, reason, header, body, body_examples, footer, buttons, synced_at)
              values (${companyId}, ${account.businessAccountId}, ${t.id}, ${t.name}, ${t.language}, ${t.category}, ${parts.status}, ${parts.reason ?? null},
                      ${parts.header ? JSON.stringify(parts.header) : null}::jsonb, ${parts.body}, ${JSON.stringify(parts.bodyExamples)}::jsonb, ${parts.footer ?? null},
                      ${JSON.stringify(parts.buttons)}::jsonb, now())
              on conflict (company_id, business_account_id, name, language) do update set
                provider_id = excluded.provider_id, category = excluded.category, status = excluded.status, reason = excluded.reason,
                -- a media header keeps the link we send it with (Meta answers its own expiring copy)
                header = case when whatsapp_templates.header->>'mediaUrl' is not null and excluded.header->>'format' = whatsapp_templates.header->>'format'
                              then jsonb_set(excluded.header, '{mediaUrl}', whatsapp_templates.header->'mediaUrl') else excluded.header end,
                body = excluded.body, body_examples = excluded.body_examples, footer = excluded.footer,
                buttons = excluded.buttons, synced_at = now(),
                updated_at = case when whatsapp_templates.status is distinct from excluded.status or whatsapp_templates.body is distinct from excluded.body
                                  then now() else whatsapp_templates.updated_at end
              returning id, (xmax = 0) as inserted`,
        );
        keep.push(r.id);
        if (r.inserted) created++;
        else updated++;
      }
      const ids = keep.length ? sql.join(keep.map((id) => sql`${id}`), sql`, `) : sql`null`;
      const gone = await rowsOf(
        tx,
        sql`delete from whatsapp_templates where company_id = ${companyId} and business_account_id = ${account.businessAccountId} and id not in (${ids}) returning id`,
      );
      removed = gone.length;
    });
    return { msg: templateSendMessages.synced, created, updated, removed, total: remote.length };
  }

  /** What the composer's picker needs: the approved templates of the chat's line and the lead's values. */
  async function forChat(companyId: string, chatId: string, userId: string): Promise<ChatTemplates> {
    const [chat] = await rowsOf<{ platform: string; contact_name: string; name: string | null; telefono: string | null; email: string | null; empresa: string; agente: string | null }>(
      db,
      sql`select c.platform, c.contact_name, l.name, l.telefono, l.email, co.name as empresa,
            (select trim(u.first_name || ' ' || u.last_name) from users u where u.id = ${userId}) as agente
          from chats c join companies co on co.id = c.company_id
          left join leads l on l.company_id = c.company_id and l.id = c.lead_id
          where c.company_id = ${companyId} and c.id = ${chatId}`,
    );
    if (!chat) throw new AppError('NOT_FOUND', 'El chat no existe');
    const values = {
      nombre: chat.name?.trim() || chat.contact_name?.trim() || undefined,
      telefono: chat.telefono ?? undefined,
      email: chat.email ?? undefined,
      empresa: chat.empresa,
      agente: chat.agente ?? undefined,
    };
    if (chat.platform !== 'whatsapp') return { payload: [], values, blocked: templateSendMessages.onlyWhatsapp };
    const { line, blocked } = await lineOf(companyId);
    if (blocked || !line?.business_account_id) return { payload: [], values, blocked };
    const rows = await rowsOf<TemplateRow & Row>(
      db,
      sql`select ${columns} from whatsapp_templates where company_id = ${companyId} and business_account_id = ${line.business_account_id}
          and status = 'APPROVED' order by name, language`,
    );
    return { payload: rows.map(toTemplateOut), values };
  }

  /**
   * The send of an approved template from a chat, checked before anything is stored: the
   * template is the company's, of the chat's line, approved and fillable; every variable has a
   * value. Returns what the chat service sends: the Cloud API `template` object and the text the
   * thread shows.
   */
  async function prepareSend(companyId: string, raw: TemplateSendInput) {
    const input = templateSendInput.parse(raw);
    const t = await row(companyId, input.templateId);
    const { line, blocked } = await lineOf(companyId);
    if (blocked || !line) throw new AppError('CONFLICT', blocked);
    if (t.business_account_id !== line.business_account_id) throw new AppError('CONFLICT', templateSendMessages.otherLine);
    if (t.status !== 'APPROVED') throw new AppError('CONFLICT', templateSendMessages.notApproved(t.status));
    if (!isSendable(t)) throw new AppError('CONFLICT', templateSendMessages.notSendable);
    const n = variableCount(t.body);
    const details: Array<{ path: string; msg: string }> = [];
    for (let i = 0; i < n; i++) if (!input.bodyValues[i]?.trim()) details.push({ path: `bodyValues.${i}`, msg: templateSendMessages.valueMissing(i + 1) });
    const headerNeeds = t.header?.format === 'TEXT' && templateVariables(t.header.text).length > 0;
    if (headerNeeds && !input.headerValue?.trim()) details.push({ path: 'headerValue', msg: templateSendMessages.headerMissing });
    if (details.length) throw new AppError('VALIDATION', details[0].msg, details);
    const values = { body: input.bodyValues.slice(0, n).map((v) => v.trim()), header: headerNeeds ? input.headerValue?.trim() : undefined };
    return { payload: toTemplatePayload(t, values), text: renderTemplate(toTemplateOut(t), values) };
  }

  return { client, list, get: async (companyId: string, id: string) => toTemplateOut(await row(companyId, id)), create, remove, sync, forChat, prepareSend, lineOf };
}
export type TemplateService = ReturnType<typeof createTemplateService>;
