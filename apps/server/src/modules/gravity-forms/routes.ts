import { randomBytes } from 'node:crypto';
import {
  GRAVITY_WEBHOOK_HEADER,
  type GravityFieldMap,
  type GravityFieldOut,
  gravityEntriesQuery,
  gravityEntryList,
  type GravityEntryOut,
  gravityFieldsOut,
  gravityFormParams,
  gravityFormStatus,
  gravityMessages,
  gravitySyncOut,
  gravityTestOut,
  gravityWebhookSecretOut,
} from '@mostrador/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { gravityFormStates } from '../../db/gravity-forms-tables.js';
import { gravityFormsTable } from '../../db/resource-tables.js';
import { type GravityEntry, GravityError, gravityErrorField, type GravityForm } from '../../integrations/gravity-forms/client.js';
import { isGravitySandbox } from '../../integrations/gravity-forms/sandbox.js';
import { assertTargetUrl, rethrowRefusalAs400 } from '../../integrations/outbound.js';
import { AppError } from '../../lib/errors.js';
import { onWrite } from '../../resources/crud.js';
import { safeEqual } from '../../lib/safe-equal.js';
import { sanitizeJson } from '../../lib/third-party-text.js';
import { tenantOf } from '../../plugins/auth.js';
import { WEBHOOK_QUEUE } from '../webhooks/process.js';
import { clientFor, formColumns, formOf, loadForm } from '../forms/entries.js';
import { storeEntry } from './store.js';
import { GRAVITY_SYNC_QUEUE, gravityFormJobs } from './jobs.js';
import { stateOf, syncOf } from './sync.js';

const webhookPathOf = (id: string) => `/api/webhooks/gravity-forms/${id}`;
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Every field and every input of a compound field, as the mapping editor offers them. */
export function fieldsOf(form: GravityForm): GravityFieldOut[] {
  return form.fields.flatMap((f) => [
    { id: f.id, label: f.label, type: f.type },
    ...(f.inputs ?? []).map((i) => ({ id: i.id, label: `${f.label} › ${i.label}`, type: `${f.type}-input` })),
  ]);
}

/** The mapping read from the fields' types (name, phone, email, textarea) and, else, their labels. */
export function suggestMap(form: GravityForm): GravityFieldMap {
  const map: GravityFieldMap = {};
  const set = (key: keyof GravityFieldMap, id: string) => {
    map[key] ??= id;
  };
  for (const f of form.fields) {
    if (f.type === 'name') set('name', f.id);
    else if (f.type === 'phone') set('phone', f.id);
    else if (f.type === 'email') set('email', f.id);
  }
  for (const f of form.fields) {
    const label = fold(f.label);
    if (f.type === 'textarea' || /mensaje|comentario|consulta|detalle|message|pedido/.test(label)) {
      if (f.type === 'textarea' || f.type === 'text') set('message', f.id);
    } else if (/(tel|cel|movil|whats|phone)/.test(label)) set('phone', f.id);
    else if (/(correo|e-?mail)/.test(label)) set('email', f.id);
    else if (/(nombre|name)/.test(label) && f.type === 'text') set('name', f.id);
  }
  return map;
}

// a site's address written as an internal one is refused on save; what its name resolves to, on every call
onWrite('gravity-forms', (form) => assertTargetUrl(form.siteUrl as string | undefined, 'siteUrl', { base: true }));

/** What the site's answer tells the screen (or a 4xx naming the setting to fix). */
function asAppError(error: unknown): never {
  if (!(error instanceof GravityError)) throw error;
  const field = gravityErrorField[error.kind];
  if (error.transient) throw new AppError(error.kind === 'rate-limited' ? 'RATE_LIMITED' : 'PROVIDER_ERROR', error.msg);
  throw new AppError('VALIDATION', error.msg, field ? [{ path: field, msg: error.msg }] : undefined);
}

async function cacheFields(db: Db, form: { id: string; companyId: string }, read: GravityForm) {
  await stateOf(db, form);
  await db
    .update(gravityFormStates)
    .set({ formTitle: read.title, fields: fieldsOf(read), fieldsAt: new Date(), updatedAt: new Date() })
    .where(eq(gravityFormStates.formId, form.id));
}

/**
 * /gravity-forms beyond the standard list (issue 15, decision 0050): the connection test, the
 * form's fields for the mapping, the webhook secret (shown once), «Sincronizar entradas» as a job
 * with `gravity.sync` progress, and the recent entries with what each became. The permissions of
 * the resource's module (marketing). The webhook itself is public (gravityWebhookRoutes).
 */
export const gravityFormRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tags = ['gravity-forms'];
  const may = (action: 'read' | 'update') => ({ permission: { module: 'marketing' as const, action } });
  // the one webhook processor (app.ts): a form's entries take the same path as its webhook's
  const processor = app.webhookProcessor;
  const deps = {
    db,
    secrets: app.secrets,
    processor,
    realtime: app.realtime,
    log: app.log,
    retry: (id: string) => app.jobs.send(WEBHOOK_QUEUE, { id }, { singletonKey: id }),
  };

  await app.register(gravityFormJobs, { deps });
  app.addHook('onReady', async () => {
    try {
      const left = await db
        .select({ formId: gravityFormStates.formId, companyId: gravityFormStates.companyId })
        .from(gravityFormStates)
        .where(sql`${gravityFormStates.syncStatus} in ('queued', 'running')`);
      for (const s of left) await app.jobs.send(GRAVITY_SYNC_QUEUE, s, { singletonKey: s.formId });
    } catch (error) {
      app.log.warn({ err: error }, 'no se pudieron reencolar las sincronizaciones de Gravity Forms');
    }
  });

  app.get('/gravity-forms/entries', { config: may('read'), schema: { tags, querystring: gravityEntriesQuery, response: { 200: gravityEntryList } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const { formId, status } = request.query;
    const rows = await rowsOf<{
      id: string;
      form_id: string;
      form_name: string;
      entry_id: number;
      source: 'webhook' | 'pull';
      submitted_at: Date | string | null;
      name: string | null;
      telefono: string | null;
      email: string | null;
      message: string | null;
      status: GravityEntryOut['status'];
      reason: string | null;
      lead_id: string | null;
      lead_name: string | null;
      event_id: string | null;
      event_status: string | null;
      created_at: Date | string;
    }>(
      db,
      sql`select ge.id, ge.form_id, f.name as form_name, ge.entry_id, ge.source, ge.submitted_at, ge.name, ge.telefono, ge.email, ge.message,
            case when ge.status = 'pending' and we.status = 'failed' then 'rejected' else ge.status end as status,
            coalesce(ge.reason, case when we.status = 'failed' then we.last_error end) as reason,
            ge.lead_id, l.name as lead_name, ge.event_id, we.status as event_status, ge.created_at
          from gravity_form_entries ge
          join gravity_forms f on f.id = ge.form_id and f.company_id = ge.company_id
          left join leads l on l.id = ge.lead_id and l.company_id = ge.company_id
          left join webhook_events we on we.id = ge.event_id
          where ge.company_id = ${companyId}
            ${formId ? sql`and ge.form_id = ${formId}` : sql``}
            ${status ? sql`and (case when ge.status = 'pending' and we.status = 'failed' then 'rejected' else ge.status end) = ${status}` : sql``}
          order by coalesce(ge.submitted_at, ge.created_at) desc, ge.entry_id desc limit 100`,
    );
    const iso = (d: Date | string) => new Date(d).toISOString();
    return {
      payload: rows.map((r) => ({
        _id: r.id,
        formId: r.form_id,
        formName: r.form_name,
        entryId: r.entry_id,
        source: r.source,
        ...(r.submitted_at ? { submittedAt: iso(r.submitted_at) } : {}),
        ...(r.name ? { name: r.name } : {}),
        ...(r.telefono ? { telefono: r.telefono } : {}),
        ...(r.email ? { email: r.email } : {}),
        ...(r.message ? { message: r.message } : {}),
        status: r.status,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.lead_id ? { leadId: r.lead_id } : {}),
        ...(r.lead_name ? { leadName: r.lead_name } : {}),
        ...(r.event_id && r.event_status === 'failed' ? { eventId: r.event_id } : {}),
        receivedAt: iso(r.created_at),
      })),
    };
  });

  app.get('/gravity-forms/:id/status', { config: may('read'), schema: { tags, params: gravityFormParams, response: { 200: gravityFormStatus } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const form = await loadForm(db, app.secrets, companyId, request.params.id);
    const [s] = await db.select().from(gravityFormStates).where(eq(gravityFormStates.formId, form.id));
    const [counts] = await rowsOf<{ total: number; created: number; merged: number; rejected: number; pending: number }>(
      db,
      sql`select count(*)::int as total, count(*) filter (where ge.status = 'created')::int as created, count(*) filter (where ge.status = 'merged')::int as merged,
            count(*) filter (where ge.status = 'rejected' or (ge.status = 'pending' and we.status = 'failed'))::int as rejected,
            count(*) filter (where ge.status = 'pending' and we.status is distinct from 'failed')::int as pending
          from gravity_form_entries ge left join webhook_events we on we.id = ge.event_id
          where ge.company_id = ${companyId} and ge.form_id = ${form.id}`,
    );
    return {
      formId: form.id,
      webhookPath: webhookPathOf(form.id),
      webhookSecretSet: Boolean(s?.webhookSecret),
      ...(s?.webhookSecretHint ? { webhookSecretHint: s.webhookSecretHint } : {}),
      ...(s?.webhookSecretAt ? { webhookSecretAt: s.webhookSecretAt.toISOString() } : {}),
      ...(s?.formTitle ? { formTitle: s.formTitle } : {}),
      fieldsKnown: Array.isArray(s?.fields) ? s.fields.length : 0,
      sync: syncOf(form.id, s),
      entries: counts ?? { total: 0, created: 0, merged: 0, rejected: 0, pending: 0 },
      sandbox: isGravitySandbox(form.siteUrl),
    };
  });

  app.post('/gravity-forms/:id/test', { config: may('update'), schema: { tags, params: gravityFormParams, response: { 200: gravityTestOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const form = await loadForm(db, app.secrets, companyId, request.params.id);
    const client = clientFor(form, { test: true });
    try {
      const read = await client.form(form.formId);
      const { total } = await client.entries(form.formId, { afterId: 0, pageSize: 1 });
      await cacheFields(db, form, read);
      // a form never mapped takes the mapping its fields suggest (the editor shows it to change)
      if (!form.fieldMap.phone && !form.fieldMap.email) {
        await db.update(gravityFormsTable).set({ fieldMap: suggestMap(read), updatedAt: new Date() } as never).where(and(eq(formColumns.companyId, companyId), eq(formColumns.id, form.id)));
      }
      const host = new URL(form.siteUrl).hostname;
      const fields = read.fields.length;
      return {
        ok: true,
        msg: `Conexión correcta con «${read.title}» en ${host}${isGravitySandbox(form.siteUrl) ? ' (sitio de prueba)' : ''}: ${fields} ${fields === 1 ? 'campo' : 'campos'}, ${total} ${total === 1 ? 'entrada' : 'entradas'}`,
      };
    } catch (error) {
      rethrowRefusalAs400(error, 'siteUrl');
      if (!(error instanceof GravityError)) throw error;
      const field = gravityErrorField[error.kind];
      return { ok: false, msg: error.msg, ...(field ? { field } : {}) };
    }
  });

  app.get('/gravity-forms/:id/fields', { config: may('read'), schema: { tags, params: gravityFormParams, response: { 200: gravityFieldsOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const form = await loadForm(db, app.secrets, companyId, request.params.id);
    try {
      const read = await clientFor(form).form(form.formId);
      await cacheFields(db, form, read);
      return { title: read.title, fields: fieldsOf(read), suggested: suggestMap(read) as Record<string, string> };
    } catch (error) {
      // the site unreachable: the fields it gave last time, if any
      const [s] = await db.select().from(gravityFormStates).where(eq(gravityFormStates.formId, form.id));
      if (error instanceof GravityError && error.transient && Array.isArray(s?.fields) && s.fields.length) {
        return { title: s.formTitle ?? form.name, fields: s.fields as GravityFieldOut[], suggested: {} };
      }
      asAppError(error);
    }
  });

  app.post(
    '/gravity-forms/:id/webhook-secret',
    { config: may('update'), schema: { tags, params: gravityFormParams, response: { 200: gravityWebhookSecretOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const form = await loadForm(db, app.secrets, companyId, request.params.id);
      await stateOf(db, form);
      const secret = `gfw_${randomBytes(24).toString('base64url')}`;
      await db.transaction(async (tx) => {
        const [before] = await tx.select({ webhookSecret: gravityFormStates.webhookSecret }).from(gravityFormStates).where(eq(gravityFormStates.formId, form.id)).for('update');
        const sealed = app.secrets.seal(secret);
        await tx
          .update(gravityFormStates)
          .set({ webhookSecret: sealed, webhookSecretHint: `…${secret.slice(-4)}`, webhookSecretAt: new Date(), updatedAt: new Date() })
          .where(eq(gravityFormStates.formId, form.id));
        // a new secret, masked, in its transaction (decision 0072)
        await audit(tx, { companyId, action: 'update', entity: 'gravity-forms', entityId: form.id, changes: changesOf({ webhookSecret: before?.webhookSecret ?? null }, { webhookSecret: sealed }, ['webhookSecret']) });
      });
      return { secret, header: GRAVITY_WEBHOOK_HEADER, value: `Bearer ${secret}`, webhookPath: webhookPathOf(form.id) };
    },
  );

  app.post('/gravity-forms/:id/sync', { config: may('update'), schema: { tags, params: gravityFormParams, response: { 202: gravitySyncOut } } }, async (request, reply) => {
    const { companyId } = tenantOf(request);
    const form = await loadForm(db, app.secrets, companyId, request.params.id);
    if (!form.consumerKey || !form.consumerSecret) throw new AppError('VALIDATION', gravityMessages.noKeys, [{ path: 'consumerKey', msg: gravityMessages.noKeys }]);
    // a site saved before its address was judged is refused here too (the job would fail on its first call)
    assertTargetUrl(form.siteUrl, 'siteUrl', { base: true });
    const s = await stateOf(db, form);
    // a pull under way is answered as it is (one left running by a crash over 10 minutes ago is started again)
    const busy = (s.syncStatus === 'queued' || s.syncStatus === 'running') && Date.now() - s.updatedAt.getTime() < 10 * 60_000;
    if (!busy) {
      await db.transaction(async (tx) => {
        await tx
          .update(gravityFormStates)
          .set({ syncStatus: 'queued', syncError: null, syncTotal: 0, syncDone: 0, syncCreated: 0, syncMerged: 0, syncRejected: 0, syncRequests: 0, syncStartedAt: new Date(), syncFinishedAt: null, updatedAt: new Date() })
          .where(eq(gravityFormStates.formId, form.id));
        await audit(tx, { companyId, action: 'sync', entity: 'gravity-forms', entityId: form.id, changes: { syncStatus: { from: s.syncStatus, to: 'queued' } } });
      });
      await app.jobs.send(GRAVITY_SYNC_QUEUE, { companyId, formId: form.id }, { singletonKey: form.id });
    }
    const [row] = await db.select().from(gravityFormStates).where(eq(gravityFormStates.formId, form.id));
    return reply.code(202).send(syncOf(form.id, row));
  });

  await app.register(gravityWebhookRoutes);
};

/** The entry as the Webhooks add-on sends it: JSON (Request Format JSON), or form-encoded (FORM). */
function entryOf(raw: Buffer, contentType: string | undefined): GravityEntry {
  const text = raw.toString('utf8');
  let body: unknown;
  if (/application\/x-www-form-urlencoded/i.test(contentType ?? '')) body = Object.fromEntries(new URLSearchParams(text));
  else {
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError('BAD_REQUEST', gravityMessages.notJson);
    }
  }
  body = sanitizeJson(body);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('BAD_REQUEST', gravityMessages.noEntryId);
  return body as GravityEntry;
}

/**
 * POST /api/webhooks/gravity-forms/{id}: the site's Webhooks add-on feed (Request Format JSON,
 * Request Body «All Fields», a Request Header `Authorization: Bearer <secret>`). No session: the
 * site proves itself with the form's secret, compared in constant time. The entry is stored once
 * per entry id (a repeat is 200 `duplicate`), queued and answered at once. Encapsulated: its
 * parser keeps the raw body only here.
 */
export async function gravityWebhookRoutes(app: FastifyInstance) {
  const { db } = app.database;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

  app.post(
    '/webhooks/gravity-forms/:id',
    { config: { public: true }, schema: { tags: ['webhooks'], params: z.object({ id: z.uuid({ error: 'El formulario no existe' }) }) } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const [row] = await db.select().from(gravityFormsTable).where(eq(formColumns.id, id));
      if (!row) throw new AppError('NOT_FOUND', 'El formulario no existe');
      const form = formOf(row as Record<string, unknown>, app.secrets);
      const [state] = await db.select().from(gravityFormStates).where(eq(gravityFormStates.formId, form.id));
      if (!state?.webhookSecret) throw new AppError('TOKEN_INVALID', gravityMessages.noSecret);
      const header = request.headers.authorization;
      const given = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
      const secret = app.secrets.open<string>(state.webhookSecret);
      if (!given || !safeEqual(given, secret)) throw new AppError('TOKEN_INVALID', gravityMessages.badSecret);
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const entry = entryOf(raw, request.headers['content-type']);
      if (!/^\d{1,9}$/.test(String(entry.id ?? ''))) throw new AppError('BAD_REQUEST', gravityMessages.noEntryId);
      if (entry.form_id !== undefined && String(entry.form_id) !== String(form.formId)) {
        throw new AppError('BAD_REQUEST', gravityMessages.wrongForm(String(entry.form_id).slice(0, 20), form.formId));
      }
      const stored = await storeEntry(db, form, entry, 'webhook');
      if (stored.id) {
        await app.jobs.send(WEBHOOK_QUEUE, { id: stored.id }, { singletonKey: stored.id }).catch((error: unknown) => {
          // still pending: queued again when the server starts
          request.log.error({ err: error, id: stored.id }, 'no se pudo encolar la entrada de Gravity Forms');
        });
      }
      return reply.status(200).send({ received: 1, stored: stored.id ? 1 : 0, duplicate: stored.duplicate });
    },
  );
}
