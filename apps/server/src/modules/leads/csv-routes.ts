import { once } from 'node:events';
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

/** The last line of an export that failed after its first bytes (no comma or semicolon: one cell in a spreadsheet). */
export const exportErrorLine = (rows: number) =>
  `# ERROR: la exportación se interrumpió después de ${rows} filas y este archivo está INCOMPLETO. Vuelve a exportar.\r\n`;

/**
 * A filter with a NUL character: PostgreSQL refuses it inside the query, which used to fail after
 * the 200 was sent. Refused with a 400 naming the field (decision 0021: NUL typed into the API is refused).
 */
function refuseNul(query: Record<string, unknown>) {
  const fields = Object.entries(query).flatMap(([key, value]) =>
    [value].flat().some((v) => typeof v === 'string' && v.includes('\u0000')) ? [key] : [],
  );
  if (fields.length === 0) return;
  const msg = (field: string) => `El filtro «${field}» contiene un carácter nulo (NUL), que no se admite`;
  throw new AppError('VALIDATION', msg(fields[0]), fields.map((path) => ({ path, msg: msg(path) })));
}

/**
 * The CSV of SPEC §5 (columns email and telefono), one row per record `where` matches, read in
 * keyset batches on (created_at, id) — the list's created_at index — so a million leads stream
 * without being held in memory. The cursor is the timestamp as text: a JS Date would drop
 * PostgreSQL's microseconds and repeat or skip rows.
 *
 * The first batch is read before the first yield, so the route awaits it before any byte is
 * sent: a query that fails there is an ordinary JSON error. A batch that fails later, after the
 * 200 went out, ends the file with `exportErrorLine` and then fails the stream, which cuts the
 * response short (no final chunk): the browser, fetch and curl all report an unfinished
 * download, and whoever opens the saved part reads why it is incomplete (decision 0022).
 */
export async function* exportRows(
  db: Db,
  kind: Kind,
  where: SQL,
  onFailure: (error: unknown) => Promise<void> = async () => {},
): AsyncGenerator<string> {
  const table = tables[kind];
  const t = table as unknown as Record<string, AnyPgColumn>;
  const batch = (after?: { k: string; id: string }) => {
    const page = after ? sql`(${t.createdAt}, ${t.id}) > (${after.k}::timestamptz, ${after.id}::uuid)` : undefined;
    return db
      .select({ k: sql<string>`${t.createdAt}::text`, id: t.id, email: t.email, telefono: t.telefono })
      .from(table)
      .where(and(where, page))
      .orderBy(asc(t.createdAt), asc(t.id))
      .limit(EXPORT_BATCH);
  };
  const lines = (rows: Awaited<ReturnType<typeof batch>>) => rows.map((r) => csvLine([r.email as string | null, r.telefono as string | null])).join('');
  let rows = await batch();
  let written = rows.length;
  yield UTF8_BOM + csvLine(['email', 'telefono']) + lines(rows);
  while (rows.length === EXPORT_BATCH) {
    const last = rows[rows.length - 1];
    try {
      rows = await batch({ k: last.k, id: last.id as string });
    } catch (error) {
      yield exportErrorLine(written);
      await onFailure(error);
      throw error;
    }
    written += rows.length;
    if (rows.length) yield lines(rows);
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
        refuseNul(request.query);
        const where = exportWhere(repos[kind], kind, tenantOf(request), request.query);
        // before the error line's stream failure cuts the connection, let that line reach the socket
        const flushed = async () => {
          const socket = reply.raw.socket;
          if (socket && socket.writableLength > 0) await Promise.race([once(socket, 'drain'), once(socket, 'close')]);
        };
        const rows = exportRows(db, kind, where, flushed);
        // the first batch (and any error in it) before the status line
        const first = await rows.next();
        const stream = Readable.from(
          (async function* () {
            if (!first.done) yield first.value;
            yield* rows;
          })(),
        );
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
