import {
  massiveLogRecipientQuery,
  massiveLogReportOut,
  resources,
  sendOut,
  type TemplateDeliveryStatus,
  templateDeliveryStatusLabels,
  type TemplateLogSource,
  templateLogSourceLabels,
  zId,
} from '@mostrador/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { repositoryOf } from '../../resources/crud.js';
import { csvLine, UTF8_BOM } from '../leads/csv.js';
import { exportErrorLine } from '../leads/csv-routes.js';
import { timezoneOf } from '../leads/summary.js';
import { recipientsOf, sendOfMassiveLog } from './read-model.js';
import { sendCsv } from '../../lib/csv-response.js';

const logNotFound = 'El envío masivo no existe en esta compañía';
const EXPORT_BATCH = 2_000;

/** '2025-03-14 10:30' in the company's zone (a spreadsheet reads it as a date and time). */
function localDateTime(timeZone: string): (value: Date | string | null) => string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return (value) => {
    if (value === null) return '';
    const parts = Object.fromEntries(format.formatToParts(new Date(value)).map((p) => [p.type, p.value]));
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  };
}

/** The template history's CSV columns. */
export const templateLogCsvColumns = ['fecha', 'plantilla', 'nombre', 'telefono', 'estado', 'motivo', 'origen', 'envio'] as const;

/**
 * The message histories (issue 13, decision 0042): a massive send's per-recipient report and its
 * send (status and live counts), and the template history as CSV with the list's filters. The
 * lists themselves are the standard resources massive-messages-logs and template-messages-logs.
 */
export const messageHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tags = ['massive-messages-logs'];
  const may = (action: 'list' | 'read') => ({ permission: { module: 'messaging' as const, action } });
  const params = z.object({ id: zId() });

  /** The send a massive log is (through sends.content->>'logId'), company-scoped; 404 for a log of another company. */
  async function sendOfLog(companyId: string, logId: string) {
    const [log] = await rowsOf<{ id: string }>(db, sql`select id from massive_messages_logs where company_id = ${companyId} and id = ${logId}`);
    if (!log) throw new AppError('NOT_FOUND', logNotFound);
    return sendOfMassiveLog(db, companyId, logId);
  }

  app.get(
    '/massive-messages-logs/:id/send',
    { config: may('read'), schema: { tags, params, response: { 200: sendOut } } },
    async (request) => {
      const send = await sendOfLog(tenantOf(request).companyId, request.params.id);
      if (!send) throw new AppError('NOT_FOUND', 'Este envío masivo no tiene un informe por persona (es anterior al motor de envíos)');
      return send;
    },
  );

  app.get(
    '/massive-messages-logs/:id/recipients',
    { config: may('read'), schema: { tags, params, querystring: massiveLogRecipientQuery, response: { 200: massiveLogReportOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const send = await sendOfLog(companyId, request.params.id);
      const { page, limit, status, q } = request.query;
      if (!send) return { payload: [], total: 0, page, limit };
      const { rows, total } = await recipientsOf(db, companyId, send._id, { status, q }, (page - 1) * limit, limit);
      return { payload: rows, total, page, limit, send };
    },
  );

  // the template history as CSV: the list's search and filters, every row, newest first, in batches.
  // A file of every recipient's phone is a leads export (decision 0061): the same permission as
  // GET /leads/export (leads · export, which agents do not have), not the list's messaging · list
  const templateLogs = repositoryOf(resources['template-messages-logs'], app.secrets);
  const exportQuery = (resources['template-messages-logs'].listQuery as unknown as z.ZodObject).omit({ page: true, limit: true, sort: true, order: true, fields: true, cursor: true }).strict();
  app.get(
    '/template-messages-logs/export',
    { config: { permission: { module: 'leads', action: 'export' } }, schema: { tags: ['template-messages-logs'], querystring: exportQuery } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const where = templateLogs.whereOf(tenant, request.query as Record<string, unknown>);
      const dateOf = localDateTime(await timezoneOf(db, tenant.companyId));
      return sendCsv(request, reply, exportTemplateLogs(db, where, dateOf), 'historial-plantillas');
    },
  );
};

/** The matching history rows as CSV text, a batch at a time (keyset on created_at desc, id desc). */
async function* exportTemplateLogs(db: Db, where: SQL, dateOf: (value: Date | string | null) => string): AsyncGenerator<string> {
  type Row = { k: string; id: string; created_at: Date | string; template_name: string; nombre: string | null; telefono: string | null; status: string; error: string | null; source: string; send_name: string | null };
  const batch = (after?: { k: string; id: string }) =>
    rowsOf<Row>(
      db,
      sql`select created_at::text as k, id, created_at, template_name, nombre, telefono, status, error, source, send_name from template_messages_logs
          where ${where}${after ? sql` and (created_at, id) < (${after.k}::timestamptz, ${after.id}::uuid)` : sql``}
          order by created_at desc, id desc limit ${EXPORT_BATCH}`,
    );
  const line = (r: Row) =>
    csvLine([
      dateOf(r.created_at),
      r.template_name,
      r.nombre,
      r.telefono,
      templateDeliveryStatusLabels[r.status as TemplateDeliveryStatus] ?? r.status,
      r.error,
      templateLogSourceLabels[r.source as TemplateLogSource] ?? r.source,
      r.send_name,
    ]);
  let rows = await batch();
  let written = rows.length;
  yield UTF8_BOM + csvLine(templateLogCsvColumns) + rows.map(line).join('');
  while (rows.length === EXPORT_BATCH) {
    const last = rows[rows.length - 1];
    try {
      rows = await batch({ k: last.k, id: last.id });
    } catch (error) {
      yield exportErrorLine(written);
      throw error;
    }
    written += rows.length;
    if (rows.length) yield rows.map(line).join('');
  }
}
