import { Readable } from 'node:stream';
import { leadFilterQuery, leadImportResult, resources } from '@mostrador/contract';
import { and, asc, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Db } from '../../db/database.js';
import { cleanLeadsTable, leadsTable } from '../../db/resource-tables.js';
import { AppError } from '../../lib/errors.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { repositoryOf } from '../../resources/crud.js';
import type { FilteredQuery } from '../../resources/repository.js';
import { cleanLeadOnPlatform } from './conditions.js';
import { csvLine, UTF8_BOM } from './csv.js';
import { importLeads } from './lead-import.js';

/** Rows read per query while exporting: memory stays flat whatever the company's size. */
export const EXPORT_BATCH = 2000;
/** An import's upload: 20,000 rows with long names and labels fit well below this. */
export const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

type Filters = z.infer<typeof leadFilterQuery>;
type Kind = 'leads' | 'clean-leads';
type Repository = ReturnType<typeof repositoryOf>;
const tables = { leads: leadsTable, 'clean-leads': cleanLeadsTable };

/**
 * The records an export writes, as the list filters them (the repository's where: company
 * scope, search, field filters), with an e-mail or a phone. A clean lead is on a platform when
 * one of its leads is. Paging, sort and fields do not apply: the export has its own order.
 */
function exportWhere(repo: Repository, kind: Kind, tenant: Tenant, query: Filters): SQL {
  const t = tables[kind] as unknown as Record<string, AnyPgColumn>;
  const { page: _page, limit: _limit, sort: _sort, order: _order, fields: _fields, platform, ...filters } = query;
  const onPlatform = platform && kind === 'clean-leads' ? cleanLeadOnPlatform(platform) : undefined;
  const withContact = or(isNotNull(t.email), isNotNull(t.telefono));
  return repo.whereOf(tenant, (kind === 'leads' ? { ...filters, platform } : filters) as Partial<FilteredQuery>, and(withContact, onPlatform));
}

/**
 * The CSV of SPEC §5 (columns email and telefono), one row per record `where` matches, read in
 * keyset batches on (created_at, id) — the list's created_at index — so a million leads stream
 * without being held in memory. The cursor is the timestamp as text: a JS Date would drop
 * PostgreSQL's microseconds and repeat or skip rows.
 */
async function* exportRows(db: Db, kind: Kind, where: SQL): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(['email', 'telefono']);
  const table = tables[kind];
  const t = table as unknown as Record<string, AnyPgColumn>;
  let after: { k: string; id: string } | undefined;
  for (;;) {
    const page = after ? sql`(${t.createdAt}, ${t.id}) > (${after.k}::timestamptz, ${after.id}::uuid)` : undefined;
    const rows = await db
      .select({ k: sql<string>`${t.createdAt}::text`, id: t.id, email: t.email, telefono: t.telefono })
      .from(table)
      .where(and(where, page))
      .orderBy(asc(t.createdAt), asc(t.id))
      .limit(EXPORT_BATCH);
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine([r.email as string | null, r.telefono as string | null])).join('');
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1];
    after = { k: last.k, id: last.id as string };
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

  const repos = { leads: repositoryOf(resources.leads, app.secrets), 'clean-leads': repositoryOf(resources['clean-leads'], app.secrets) };

  const exportRoute = (kind: Kind, filename: string) =>
    app.get(
      `/${kind}/export`,
      { config: { permission: { module: 'leads', action: 'list' } }, schema: { tags, querystring: leadFilterQuery } },
      async (request, reply) => {
        const stream = Readable.from(exportRows(db, kind, exportWhere(repos[kind], kind, tenantOf(request), request.query)));
        stream.on('error', (error) => request.log.error({ err: error }, 'la exportación CSV se interrumpió'));
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}-${today()}.csv"`)
          .header('cache-control', 'no-store')
          .send(stream);
      },
    );
  exportRoute('leads', 'leads');
  exportRoute('clean-leads', 'leads-limpios');

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
