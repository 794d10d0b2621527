import { Readable } from 'node:stream';
import { leadFilterQuery, leadImportResult } from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Db } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { containsPattern } from '../../lib/list.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { csvLine, UTF8_BOM } from './csv.js';
import { importLeads } from './lead-import.js';

/** Rows read per query while exporting: memory stays flat whatever the company's size. */
export const EXPORT_BATCH = 2000;
/** An import's upload: 20,000 rows with long names and labels fit well below this. */
export const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

type Filters = z.infer<typeof leadFilterQuery>;
type Table = 'leads' | 'clean_leads';

/** The list's filters as SQL on `t` (leads or clean_leads), all scoped to the tenant's company. */
function whereOf(table: Table, tenant: Tenant, f: Filters): SQL {
  const conds: SQL[] = [sql`t.company_id = ${tenant.companyId}`, sql`(t.email is not null or t.telefono is not null)`];
  if (f.status) conds.push(sql`t.status = ${f.status}`);
  if (f.agenteId) conds.push(sql`t.agente_id = ${f.agenteId}`);
  if (f.platform) {
    // a clean lead is on a platform when one of its leads is
    conds.push(
      table === 'leads'
        ? sql`t.platform = ${f.platform}`
        : sql`exists (select 1 from leads l where l.company_id = t.company_id and l.clean_lead_id = t.id and l.platform = ${f.platform})`,
    );
  }
  if (f.mostradorLabels?.length) {
    const ids = sql.join(
      f.mostradorLabels.map((id) => sql`${id}`),
      sql`, `,
    );
    conds.push(sql`t.mostrador_labels ?| array[${ids}]::text[]`);
  }
  if (f.from) conds.push(sql`t.created_at >= ${f.from}::timestamptz`);
  if (f.to) conds.push(sql`t.created_at < ${f.to}::timestamptz`);
  if (f.filter) {
    const p = containsPattern(f.filter);
    conds.push(sql`(t.name ilike ${p} or t.telefono ilike ${p} or t.email ilike ${p})`);
  }
  return sql.join(conds, sql` and `);
}

/**
 * The CSV of SPEC §5 (columns email and telefono), one row per record with either, read in
 * keyset batches on (created_at, id) — the list's created_at index — so a million leads stream
 * without being held in memory. The cursor is the timestamp as text: a JS Date would drop
 * PostgreSQL's microseconds and repeat or skip rows.
 */
async function* exportRows(db: Db, table: Table, tenant: Tenant, filters: Filters): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(['email', 'telefono']);
  const where = whereOf(table, tenant, filters);
  let after: { k: string; id: string } | undefined;
  for (;;) {
    const page = after ? sql`and (t.created_at, t.id) > (${after.k}::timestamptz, ${after.id}::uuid)` : sql``;
    const { rows } = await db.execute<{ k: string; id: string; email: string | null; telefono: string | null }>(
      sql`select t.created_at::text as k, t.id, t.email, t.telefono from ${sql.raw(table)} t
          where ${where} ${page} order by t.created_at, t.id limit ${EXPORT_BATCH}`,
    );
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine([r.email, r.telefono])).join('');
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1];
    after = { k: last.k, id: last.id };
  }
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * GET /leads/export, GET /clean-leads/export (the list's filters → text/csv) and
 * POST /leads/import (a text/csv body → LeadImportResult). The text/csv parser lives in this
 * plugin only, with its own size limit.
 */
export const leadCsvRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tags = ['leads'];

  const exportRoute = (path: string, table: Table, filename: string) =>
    app.get(
      path,
      { config: { permission: { module: 'leads', action: 'list' } }, schema: { tags, querystring: leadFilterQuery } },
      async (request, reply) => {
        const stream = Readable.from(exportRows(db, table, tenantOf(request), request.query));
        stream.on('error', (error) => request.log.error({ err: error }, 'la exportación CSV se interrumpió'));
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}-${today()}.csv"`)
          .header('cache-control', 'no-store')
          .send(stream);
      },
    );
  exportRoute('/leads/export', 'leads', 'leads');
  exportRoute('/clean-leads/export', 'clean_leads', 'leads-limpios');

  // spreadsheets and browsers name CSV in several ways; the body is read as bytes (UTF-8 or Windows-1252)
  app.addContentTypeParser(
    ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'],
    { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/leads/import',
    {
      config: { permission: { module: 'leads', action: 'create' } },
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: { tags, response: { 200: leadImportResult } },
    },
    async (request) => {
      const body = request.body;
      if (body !== undefined && body !== null && !Buffer.isBuffer(body)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Envía el archivo como CSV (Content-Type: text/csv)');
      }
      if (!body || body.length === 0) throw new AppError('VALIDATION', 'El archivo está vacío');
      const tenant = tenantOf(request);
      return db.transaction((tx) => importLeads(tx, tenant, body));
    },
  );
};
