import { currencyOf } from '../../db/company-currency.js';
import {
  type MassAudience,
  type MassMessage,
  MAX_MASS_AUDIENCE,
  massSendInput,
  imaginaBulkInput,
  imaginaMassiveInput,
  imaginaSingleInput,
  massSendMessages,
  massSendOut,
  type MessagingTier,
  messagingTierLimits,
  marketOf,
  sendCheckInput,
  type SendCheckOut,
  sendCheckOut,
  sendingMessages,
  type SegmentFilters,
  templateCostUsd,
  type TemplateCategory,
  usdTo,
  variableCount,
  templateLeadFields,
  type WhatsappTemplate,
  USD_RATES_AS_OF,
  WHATSAPP_RATES_AS_OF,
  whatsappRates,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { type MessageClient, ProviderError } from '../../integrations/meta/send.js';
import { AppError } from '../../lib/errors.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { assertCompanyLabels } from '../leads/audience.js';
import { segmentAudience } from '../leads/segment-audience.js';
import { toTemplateOut, type TemplateRow } from '../../integrations/meta/template-mapping.js';
import { chunkPeople, type SendContent } from './planning.js';
import { publishSends, sendRow, sendsOut } from './read-model.js';

type Row = Record<string, unknown>;
/** How long a line's messaging limit read from Meta is trusted. */
const LIMIT_TTL_MS = 10 * 60_000;
const SKIPPED_SAMPLE = 20;

/**
 * A template as a send to many people carries it, refused (409) when a body variable is typed
 * by hand in a chat (`variableFields` ''): nobody could fill it for each person.
 */
export function bulkTemplate(out: WhatsappTemplate): NonNullable<SendContent['template']> {
  const n = variableCount(out.body);
  for (let i = 0; i < n; i++) {
    const field = out.variableFields[i];
    if (field !== undefined && !(field in templateLeadFields)) throw new AppError('CONFLICT', sendingMessages.typedVariable(out.name, i + 1));
  }
  return { _id: out._id, name: out.name, language: out.language, category: out.category, header: out.header, body: out.body, footer: out.footer, buttons: out.buttons, variableFields: out.variableFields };
}

/** Who a send goes to, as planning (planning.ts) plans it. */
export type PlannedAudience = NonNullable<SendContent['audience']>;

/**
 * Massive sends to an audience (decision 0043): the pre-send check and the send itself, for
 * /marketing/massive-messages (POST /sends/check, POST /sends) and the Imagina template calls.
 * The runner does the sending (runner.ts); this writes what it should send and to whom.
 */
export function createMassSending(deps: {
  db: Db;
  /** The provider client: the line's messaging limit. */
  client: Pick<MessageClient, 'messagingLimit'>;
  realtime: Pick<Realtime, 'publish'>;
  log: { warn: (obj: unknown, msg?: string) => void };
  secrets: Pick<SecretBox, 'open'>;
  wake: (companyId: string) => Promise<unknown>;
}) {
  const { db, client, secrets } = deps;
  const limits = new Map<string, { tier: MessagingTier | null; at: number }>();

  /** A template of the company's WhatsApp line, by id or by name (+ language), approved. */
  async function lineTemplate(companyId: string, by: { id: string } | { name: string; language?: string }): Promise<NonNullable<SendContent['template']>> {
    const [line] = await rowsOf<{ business_account_id: string | null }>(db, sql`select business_account_id from channels where company_id = ${companyId} and kind = 'whatsapp'`);
    if (!line) throw new AppError('CONFLICT', sendingMessages.noLine);
    const where = 'id' in by ? sql`id = ${by.id}` : sql`name = ${by.name}${by.language ? sql` and language = ${by.language}` : sql``}`;
    const [t] = await rowsOf<TemplateRow & Row>(
      db,
      sql`select * from whatsapp_templates where company_id = ${companyId} and business_account_id = ${line.business_account_id ?? ''} and ${where}
          order by (status = 'APPROVED') desc, language limit 1`,
    );
    if (!t) throw new AppError('CONFLICT', 'id' in by ? massSendMessages.templateNotFound : sendingMessages.noTemplate(by.name));
    if (t.status !== 'APPROVED') throw new AppError('CONFLICT', sendingMessages.templateNotApproved(t.name, t.status));
    return bulkTemplate(toTemplateOut(t));
  }

  /** What a message sends: its content, and the text the history shows. Throws (409) when it cannot be sent. */
  async function contentOf(companyId: string, message: MassMessage): Promise<{ content: SendContent; summary: string }> {
    if (message.text) {
      const [line] = await rowsOf(db, sql`select 1 from channels where company_id = ${companyId} and kind = 'whatsapp'`);
      if (!line) throw new AppError('CONFLICT', sendingMessages.noLine);
      return { content: { text: message.text }, summary: message.text };
    }
    if (message.whatsappTemplateId) {
      const template = await lineTemplate(companyId, { id: message.whatsappTemplateId });
      return { content: { template }, summary: template.body };
    }
    const [imagina] = await rowsOf<{ id: string; name: string; language: string; body: string; status: string | null; whatsapp_template: string | null }>(
      db,
      sql`select id, name, language, body, status, whatsapp_template from imagina_template_messages where company_id = ${companyId} and id = ${message.imaginaTemplateId ?? ''}`,
    );
    if (!imagina) throw new AppError('NOT_FOUND', massSendMessages.imaginaNotFound);
    if (imagina.status !== 'approved') throw new AppError('CONFLICT', massSendMessages.imaginaNotApproved(imagina.name));
    const template = imagina.whatsapp_template ? await lineTemplate(companyId, { name: imagina.whatsapp_template, language: imagina.language }) : undefined;
    if (!template) {
      const [line] = await rowsOf(db, sql`select 1 from channels where company_id = ${companyId} and kind = 'whatsapp'`);
      if (!line) throw new AppError('CONFLICT', sendingMessages.noLine);
    }
    return { content: { text: imagina.body, ...(template ? { template } : {}), imaginaTemplateId: imagina.id }, summary: imagina.body };
  }

  /** The audience as planning (planning.ts) plans it, with its references checked for the caller's company. */
  async function audienceOf(tenant: Tenant, audience: MassAudience): Promise<{ planned: PlannedAudience; filters: SegmentFilters }> {
    if (audience.segmentId) {
      const [segment] = await rowsOf<{ filters: SegmentFilters | null }>(db, sql`select filters from marketing_segments where company_id = ${tenant.companyId} and id = ${audience.segmentId}`);
      if (!segment) throw new AppError('VALIDATION', sendingMessages.segmentNotFound, [{ path: 'audience.segmentId', msg: sendingMessages.segmentNotFound }]);
      return { planned: { segmentId: audience.segmentId }, filters: segment.filters ?? {} };
    }
    const labels = [...new Set(audience.mostradorLabelIds ?? [])];
    await assertCompanyLabels(db, tenant, labels, 'audience.mostradorLabelIds');
    const filters: SegmentFilters = { mostradorLabelIds: labels };
    return { planned: { filters }, filters };
  }

  /** The line's messaging limit, from Meta (cached ten minutes); null tier = unknown. */
  async function tierOf(companyId: string): Promise<MessagingTier | null> {
    const [line] = await rowsOf<{ provider_id: string; access_token: string | null }>(db, sql`select provider_id, access_token from channels where company_id = ${companyId} and kind = 'whatsapp'`);
    if (!line) return null;
    const cached = limits.get(line.provider_id);
    if (cached && Date.now() - cached.at < LIMIT_TTL_MS) return cached.tier;
    let tier: MessagingTier | null = null;
    try {
      const accessToken = line.access_token ? secrets.open<string>(line.access_token) : undefined;
      tier = await client.messagingLimit({ accountId: line.provider_id, accessToken });
    } catch (error) {
      if (!(error instanceof ProviderError) && !(error instanceof Error && /seal|decrypt|auth/i.test(error.message))) throw error;
      tier = null;
    }
    limits.set(line.provider_id, { tier, at: Date.now() });
    return tier;
  }

  /** People this company's line reached with a template in the last 24 h (what Meta's limit counts, at most). */
  async function usedToday(companyId: string): Promise<number> {
    const [{ n }] = await rowsOf<{ n: number }>(
      db,
      sql`select count(distinct m.chat_id)::int as n from chat_messages m join chats c on c.company_id = m.company_id and c.id = m.chat_id and c.platform = 'whatsapp'
          where m.company_id = ${companyId} and m.direction = 'out' and m.content ? 'template' and m.status <> 'failed'
            and m.sent_at > now() - interval '24 hours'`,
    );
    return Number(n);
  }

  /** The pre-send check: who gets it and who not (and why), the line's daily limit, the cost. Writes nothing. */
  async function check(
    tenant: Tenant,
    input: { audience: PlannedAudience; filters: SegmentFilters; dedupeKey?: string } & ({ message: MassMessage } | { content: SendContent } | { blocking: string }),
  ): Promise<SendCheckOut> {
    const { companyId } = tenant;
    const size = await segmentAudience(db, companyId, input.filters, input.audience.cleanLeadIds);
    if (size > MAX_MASS_AUDIENCE) throw new AppError('VALIDATION', massSendMessages.audienceTooLarge(size), [{ path: 'audience', msg: massSendMessages.audienceTooLarge(size) }]);
    let content: SendContent = {};
    let blocking: string | undefined;
    if ('content' in input) content = input.content;
    else if ('blocking' in input) blocking = input.blocking;
    else {
      try {
        content = (await contentOf(companyId, input.message)).content;
      } catch (error) {
        if (!(error instanceof AppError) || error.code === 'VALIDATION') throw error;
        blocking = error.msg ?? error.message;
      }
    }
    const people = blocking
      ? []
      : await chunkPeople(db, companyId, {
          segmentId: input.audience.segmentId,
          filters: input.audience.segmentId ? undefined : input.filters,
          cleanLeadIds: input.audience.cleanLeadIds,
          chunkPage: 0,
          chunkSize: MAX_MASS_AUDIENCE,
          content,
          createdBy: tenant.userId,
          dedupeKey: input.dedupeKey,
        });
    const queued = people.filter((p) => p.status === 'queued');
    const reasons = new Map<string, number>();
    for (const p of people) if (p.status === 'skipped' && p.reason) reasons.set(p.reason, (reasons.get(p.reason) ?? 0) + 1);
    const outside = queued.filter((p) => !p.window_open).length;

    const tier = await tierOf(companyId);
    const limit = tier ? messagingTierLimits[tier] : null;
    const used = await usedToday(companyId);
    const over = limit === null ? 0 : Math.max(0, outside - Math.max(0, limit - used));

    const currency = await currencyOf(db, companyId);
    const usdRate = usdTo[currency] ?? 1;
    const lines = new Map<string, { category: TemplateCategory; market: string; count: number; rate: number }>();
    let free = 0;
    for (const p of queued) {
      const category = p.charged as TemplateCategory | null;
      const usd = category ? templateCostUsd(category, p.country, p.window_open) : 0;
      if (!category || usd === 0) {
        free++;
        continue;
      }
      const market = marketOf(p.country);
      const key = `${category}:${market}`;
      const line = lines.get(key) ?? { category, market, count: 0, rate: usd * usdRate };
      line.count++;
      lines.set(key, line);
    }
    const round = (n: number) => Math.round(n * 10_000) / 10_000;
    const costLines = [...lines.values()]
      .map((l) => ({ category: l.category, market: whatsappRates[l.market].label, count: l.count, rate: round(l.rate), amount: Math.round(l.rate * l.count * 100) / 100 }))
      .sort((a, b) => b.amount - a.amount);
    return {
      audience: size,
      queued: queued.length,
      skipped: [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
      skippedSample: people
        .filter((p) => p.status === 'skipped')
        .slice(0, SKIPPED_SAMPLE)
        .map((p) => ({ cleanLeadId: p.clean_lead_id, name: p.name, ...(p.phone ? { telefono: p.phone } : {}), reason: p.reason as string })),
      insideWindow: queued.length - outside,
      outsideWindow: outside,
      ...(blocking ? { blocking } : {}),
      dailyLimit: { ...(tier ? { tier } : {}), ...(limit !== null ? { limit } : {}), known: tier !== null, used, over },
      cost: {
        currency,
        total: Math.round(costLines.reduce((sum, l) => sum + l.amount, 0) * 100) / 100,
        lines: costLines,
        free,
        ratesAsOf: `${WHATSAPP_RATES_AS_OF} (tipo de cambio ${USD_RATES_AS_OF})`,
        usdRate,
      },
    };
  }

  /**
   * A massive send: its history row (massive-messages-logs) and its send, pending; the runner
   * plans who gets it when it starts (the pre-send check's verdicts, the outbox's one row per
   * person) and sends at the line's pace.
   */
  async function create(tenant: Tenant, input: { name: string; audience: PlannedAudience; filters: SegmentFilters; content: SendContent; summary: string }) {
    const { companyId } = tenant;
    const verdict = await check(tenant, { audience: input.audience, filters: input.filters, content: input.content });
    if (verdict.queued === 0) throw new AppError('CONFLICT', massSendMessages.emptyAudience);
    const { logId, sendId } = await db.transaction(async (tx) => {
      const [log] = await rowsOf<{ id: string }>(
        tx as unknown as Db,
        sql`insert into massive_messages_logs (company_id, name, message, total, sent, failed, status)
            values (${companyId}, ${input.name}, ${input.summary.slice(0, 4096)}, ${verdict.queued}, 0, 0, 'pending') returning id`,
      );
      const content: SendContent = { ...input.content, logId: log.id, audience: input.audience };
      const [send] = await rowsOf<{ id: string }>(
        tx as unknown as Db,
        sql`insert into sends (company_id, kind, name, status, content, created_by)
            values (${companyId}, 'massive', ${input.name}, 'pending', ${JSON.stringify(content)}::jsonb, ${tenant.userId}) returning id`,
      );
      // who sent what to how many, in the send's transaction (decision 0072)
      await audit(tx, {
        companyId,
        action: 'create',
        entity: 'sends',
        entityId: send.id,
        changes: changesOf(null, { kind: 'massive', name: input.name, status: 'pending', total: verdict.queued, message: input.summary.slice(0, 500) }),
      });
      return { logId: log.id, sendId: send.id };
    });
    await deps.wake(companyId);
    await publishSends(deps, companyId, [sendId]);
    const row = await sendRow(db, companyId, sendId);
    return { msg: massSendMessages.queued, send: (await sendsOut(db, [row as never]))[0], logId, verdict };
  }

  /** The people of the given chats (each chat's clean lead), all of the caller's company. */
  async function peopleOfChats(tenant: Tenant, chatIds: string[]): Promise<PlannedAudience> {
    const ids = [...new Set(chatIds)];
    const rows = await rowsOf<{ id: string; clean_lead_id: string | null }>(
      db,
      sql`select c.id, l.clean_lead_id from chats c left join leads l on l.company_id = c.company_id and l.id = c.lead_id
          where c.company_id = ${tenant.companyId} and c.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
    );
    if (rows.length < ids.length) throw new AppError('VALIDATION', massSendMessages.chatNotFound, [{ path: 'chatIds', msg: 'No existe en esta compañía' }]);
    return { cleanLeadIds: [...new Set(rows.map((r) => r.clean_lead_id).filter((id): id is string => Boolean(id)))] };
  }

  return { db, check, create, contentOf, audienceOf, peopleOfChats };
}
export type MassSending = ReturnType<typeof createMassSending>;

/** POST /sends/check and POST /sends (issue 13, /marketing/massive-messages), and the Imagina template calls. */
export const massRoutes: FastifyPluginAsyncZod<{ mass: MassSending }> = async (app, { mass }) => {
  const may = (action: 'read' | 'create') => ({ permission: { module: 'marketing' as const, action } });
  const tags = ['sends'];

  app.post('/sends/check', { config: may('read'), schema: { tags, body: sendCheckInput, response: { 200: sendCheckOut } } }, async (request) => {
    const tenant = tenantOf(request);
    const { planned, filters } = await mass.audienceOf(tenant, request.body.audience);
    return mass.check(tenant, { audience: planned, filters, message: request.body.message });
  });

  app.post('/sends', { config: may('create'), schema: { tags, body: massSendInput, response: { 202: massSendOut } } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const { planned, filters } = await mass.audienceOf(tenant, request.body.audience);
    const { content, summary } = await mass.contentOf(tenant.companyId, request.body.message);
    const out = await mass.create(tenant, { name: request.body.name, audience: planned, filters, content, summary });
    return reply.code(202).send({ msg: out.msg, send: out.send, logId: out.logId });
  });

  // the Imagina template calls: the messaging module's, as the templates themselves
  const mayMessage = { permission: { module: 'messaging' as const, action: 'create' as const } };
  const imaginaTags = ['imagina_template_messages'];
  async function sendImagina(tenant: Tenant, imaginaTemplateId: string, audience: PlannedAudience, filters: SegmentFilters, name: string | undefined) {
    const { content, summary } = await mass.contentOf(tenant.companyId, { imaginaTemplateId });
    const [t] = await rowsOf<{ name: string }>(mass.db, sql`select name from imagina_template_messages where company_id = ${tenant.companyId} and id = ${imaginaTemplateId}`);
    return mass.create(tenant, { name: name ?? `Plantilla ${t?.name ?? 'Imagina'}`, audience, filters, content, summary });
  }
  app.post(
    '/imagina_template_messages/send_single_message',
    { config: mayMessage, schema: { tags: imaginaTags, body: imaginaSingleInput, response: { 202: massSendOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const audience = await mass.peopleOfChats(tenant, [request.body.chatId]);
      const out = await sendImagina(tenant, request.body.imaginaTemplateId, audience, {}, undefined);
      return reply.code(202).send({ msg: massSendMessages.singleQueued, send: out.send, logId: out.logId });
    },
  );
  app.post(
    '/imagina_template_messages/send_bulk_messages',
    { config: mayMessage, schema: { tags: imaginaTags, body: imaginaBulkInput, response: { 202: massSendOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const audience = await mass.peopleOfChats(tenant, request.body.chatIds);
      const out = await sendImagina(tenant, request.body.imaginaTemplateId, audience, {}, request.body.name);
      return reply.code(202).send({ msg: out.msg, send: out.send, logId: out.logId });
    },
  );
  app.post(
    '/imagina_template_messages/send_massive_messages',
    { config: mayMessage, schema: { tags: imaginaTags, body: imaginaMassiveInput, response: { 202: massSendOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { planned, filters } = await mass.audienceOf(tenant, request.body.audience);
      const out = await sendImagina(tenant, request.body.imaginaTemplateId, planned, filters, request.body.name);
      return reply.code(202).send({ msg: out.msg, send: out.send, logId: out.logId });
    },
  );
};
