import {
  genialConnectionTestOut,
  genialCountryParams,
  genialInvoiceOut,
  genialInvoicesOut,
  genialInvoicesQuery,
  type GenialOrderKind,
  genialRetryBody,
  genialRetryOut,
  genialSettingsIn,
  genialSettingsListOut,
  genialSettingsOut,
  zId,
} from '@mostrador/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditSettings } from '../../db/audit.js';
import { genialSettings } from '../../db/genial-tables.js';
import { GenialError } from '../../integrations/genial/client.js';
import { isGenialSandboxUrl } from '../../integrations/genial/sandbox.js';
import { digitsOf } from '../../integrations/genial/tax-ids.js';
import { assertTargetUrl, rethrowRefusalAs400 } from '../../integrations/outbound.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { countryName, genialClientFor, invoiceOut, invoiceRows, orderFor, queueInvoice, settingsOf, settingsOut } from './invoices.js';
import { sweepInvoices } from './arrivals.js';
import { GENIAL_ISSUE_QUEUE, type GenialIssueJob, genialJobs } from './jobs.js';
import { invoicePdf, invoiceXml } from './files.js';

const idParams = z.object({ id: zId() });
const fileParams = z.object({ id: zId(), file: z.enum(['pdf', 'xml'], { error: 'Pide el PDF o el XML' }) });

/** Where each kind of order lives in the API, and whose permission reads and retries it. */
const kinds: Array<{ kind: GenialOrderKind; path: string; module: 'marketplace' | 'ecommerce' | 'catalog' }> = [
  { kind: 'marketplace', path: '/marketplace-orders', module: 'marketplace' },
  { kind: 'ecommerce', path: '/ecommerces-orders', module: 'ecommerce' },
  { kind: 'order', path: '/orders', module: 'catalog' },
];

/**
 * Genial (SPEC §7 genial-retry, decision 0037): the company's settings per country, each order's
 * invoice, the retry of a failed one as a job in the queue, and the PDF / XML of an issued one.
 * Orders are found through the company of the caller (`tenantOf`), as every marketplace call.
 */
export const genialRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(genialJobs, { sweepInvoices });

  // ---- settings per country -------------------------------------------------------------------
  const tags = ['genial'];
  app.get('/genial/settings', { config: { permission: { module: 'integrations', action: 'list' } }, schema: { tags, response: { 200: genialSettingsListOut } } }, async (request) => {
    const rows = await db.select().from(genialSettings).where(eq(genialSettings.companyId, tenantOf(request).companyId)).orderBy(asc(genialSettings.country));
    return { payload: rows.map(settingsOut) };
  });

  app.put(
    '/genial/settings/:country',
    { config: { permission: { module: 'integrations', action: 'update' } }, schema: { tags, params: genialCountryParams, body: genialSettingsIn, response: { 200: genialSettingsOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const { country } = request.params;
      if (country === 'ES') throw new AppError('VALIDATION', 'Genial factura en Perú, Chile y Colombia', [{ path: 'country', msg: 'Elige Perú, Chile o Colombia' }]);
      const { token, ...rest } = request.body;
      // an internal address written as such is refused on save; what a name resolves to, on every call
      assertTargetUrl(rest.apiUrl, 'apiUrl', { base: true });
      const current = await settingsOf(db, companyId, country);
      if (!token && !current) throw new AppError('VALIDATION', 'Escribe el token de Genial', [{ path: 'token', msg: 'Escribe el token de Genial' }]);
      if (isGenialSandboxUrl(rest.apiUrl) && token && !token.startsWith('sandbox')) {
        throw new AppError('VALIDATION', 'El token del sandbox de Genial empieza con «sandbox»', [{ path: 'token', msg: 'El token del sandbox empieza con «sandbox»' }]);
      }
      const sealed = token ? app.secrets.seal(token) : (current?.token as string);
      const values = { ...rest, token: sealed, updatedAt: new Date() };
      // the settings and their audit entry in one transaction, the token masked (decision 0072)
      await db.transaction(async (tx) => {
        const where = and(eq(genialSettings.companyId, companyId), eq(genialSettings.country, country));
        const [before] = await tx.select().from(genialSettings).where(where).for('update');
        const [after] = await tx
          .insert(genialSettings)
          .values({ companyId, country, ...values })
          .onConflictDoUpdate({ target: [genialSettings.companyId, genialSettings.country], set: values })
          .returning();
        await auditSettings(tx, { companyId, entity: 'genial_settings', entityId: country, before, after, secrets: ['token'] });
      });
      return settingsOut((await settingsOf(db, companyId, country)) as NonNullable<Awaited<ReturnType<typeof settingsOf>>>);
    },
  );

  app.post(
    '/genial/settings/:country/test',
    { config: { permission: { module: 'integrations', action: 'read' } }, schema: { tags, params: genialCountryParams, response: { 200: genialConnectionTestOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const { country } = request.params;
      const settings = await settingsOf(db, companyId, country);
      if (!settings) throw new AppError('NOT_FOUND', `No hay configuración de Genial para ${countryName(country)}: guárdala primero`);
      const problemOf = (e: GenialError) => (e.kind === 'auth' ? ('token' as const) : e.kind === 'network' || e.kind === 'invalid' ? ('url' as const) : ('service' as const));
      let account: { taxId: string | null; name: string };
      try {
        account = await genialClientFor(settings, companyId, app.secrets, { test: true }).account();
      } catch (error) {
        rethrowRefusalAs400(error, 'apiUrl');
        if (error instanceof GenialError) return { ok: false, msg: error.msg, problem: problemOf(error) };
        throw error;
      }
      const sandbox = isGenialSandboxUrl(settings.apiUrl) ? ' (sandbox: los comprobantes no van a la autoridad tributaria)' : '';
      if (account.taxId && digitsOf(account.taxId) !== digitsOf(settings.issuerTaxId)) {
        return {
          ok: false,
          problem: 'issuer' as const,
          msg: `El token es de ${account.name} (${account.taxId}), no del emisor ${settings.issuerTaxId}: revisa el RUC / RUT / NIT del emisor o el token`,
        };
      }
      return { ok: true, msg: `Conexión correcta con Genial para ${countryName(country)}: emisor ${settings.issuerTaxId} · ${account.taxId ? account.name : settings.issuerName}${sandbox}` };
    },
  );

  app.delete(
    '/genial/settings/:country',
    { config: { permission: { module: 'integrations', action: 'delete' } }, schema: { tags, params: genialCountryParams, response: { 200: z.object({ msg: z.string() }) } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const gone = await db.transaction(async (tx) => {
        const rows = await tx
          .delete(genialSettings)
          .where(and(eq(genialSettings.companyId, companyId), eq(genialSettings.country, request.params.country)))
          .returning();
        for (const before of rows) await auditSettings(tx, { companyId, entity: 'genial_settings', entityId: before.country, before, after: null, secrets: ['token'] });
        return rows;
      });
      if (!gone.length) throw new AppError('NOT_FOUND', `No hay configuración de Genial para ${countryName(request.params.country)}`);
      return { msg: `Configuración de Genial para ${countryName(request.params.country)} eliminada` };
    },
  );

  // ---- invoices ---------------------------------------------------------------------------------
  for (const { kind, path, module } of kinds) {
    const read = { permission: { module, action: 'read' as const } };
    const orderTags = [path.slice(1)];

    app.get(
      `/genial/invoices/${kind}`,
      { config: { permission: { module, action: 'list' as const } }, schema: { tags, querystring: genialInvoicesQuery.omit({ kind: true }), response: { 200: genialInvoicesOut } } },
      async (request) => {
        const { companyId } = tenantOf(request);
        const ids = [...new Set(request.query.orderIds)];
        const rows = await invoiceRows(db, companyId, kind, ids);
        // only the company's orders are answered: another company's id has no row here and is left out
        return { payload: ids.filter((id) => rows.has(id)).map((id) => invoiceOut(kind, id, rows.get(id))) };
      },
    );

    app.get(`${path}/:id/invoice`, { config: read, schema: { tags: orderTags, params: idParams, response: { 200: genialInvoiceOut } } }, async (request) => {
      const { companyId } = tenantOf(request);
      await orderFor(db, companyId, kind, request.params.id);
      return invoiceOut(kind, request.params.id, (await invoiceRows(db, companyId, kind, [request.params.id])).get(request.params.id));
    });

    app.get(`${path}/:id/invoice/:file`, { config: read, schema: { tags: orderTags, params: fileParams } }, async (request, reply) => {
      const { companyId } = tenantOf(request);
      const order = await orderFor(db, companyId, kind, request.params.id);
      const row = (await invoiceRows(db, companyId, kind, [order.id])).get(order.id);
      if (row?.status !== 'issued') throw new AppError('NOT_FOUND', `La orden ${order.number} aún no tiene factura emitida`);
      const url = request.params.file === 'pdf' ? row.pdfUrl : row.xmlUrl;
      if (url && !isGenialSandboxUrl(url)) return reply.redirect(url);
      // the sandbox's documents are drawn here: its host does not exist outside this process
      const name = `${row.series}-${row.number}`;
      const body = request.params.file === 'pdf' ? invoicePdf(order, row) : invoiceXml(order, row);
      return reply
        .type(request.params.file === 'pdf' ? 'application/pdf' : 'application/xml; charset=utf-8')
        .header('content-disposition', `inline; filename="${name}.${request.params.file}"`)
        .header('cache-control', 'no-store')
        .send(body);
    });

    app.post(
      `${path}/:id/genial-retry`,
      {
        config: { permission: { module, action: 'update' as const } },
        schema: { tags: orderTags, params: idParams, response: { 202: genialRetryOut } },
      },
      async (request, reply) => {
        const { companyId } = tenantOf(request);
        // the body is optional (SPEC §7 sends none); when given, it may correct the customer's tax id
        const body = genialRetryBody.safeParse(request.body ?? {});
        if (!body.success) {
          const issue = body.error.issues[0];
          throw new AppError('VALIDATION', issue?.message ?? 'Solicitud no válida', [{ path: issue?.path.join('.') ?? '', msg: issue?.message ?? 'No válido' }]);
        }
        const row = await queueInvoice(db, companyId, kind, request.params.id, body.data.customerTaxId);
        await app.jobs.send(GENIAL_ISSUE_QUEUE, { companyId, kind, orderId: row.orderId } satisfies GenialIssueJob, { singletonKey: `${kind}:${row.orderId}` });
        return reply.status(202).send({ msg: row.attempts ? 'Reintentando la factura en Genial' : 'Emitiendo la factura en Genial', invoice: invoiceOut(kind, row.orderId, row) });
      },
    );
  }
};
