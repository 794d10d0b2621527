import { once } from 'node:events';
import { type LeadStatus, leadFilterQuery, leadImportResult, leadStatusLabels, platformLabels, resources, retailRocketImportParams } from '@mostrador/contract';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Db } from '../../db/database.js';
import { agentesTable, cleanLeadsTable, leadsTable, mostradorLabelsTable } from '../../db/resource-tables.js';
import { companies } from '../../db/schema.js';
import { audit } from '../../db/audit.js';
import { AppError } from '../../lib/errors.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { repositoryOf } from '../../resources/crud.js';
import type { FilteredQuery } from '../../resources/repository.js';
import { cleanLeadOnPlatform } from './conditions.js';
import { csvLine, UTF8_BOM } from './csv.js';
import { countryTimezone, validTimezone } from './summary.js';
import { importLeads } from './lead-import.js';
import { sendCsv } from '../../lib/csv-response.js';

/** Rows read per query while exporting: memory stays flat whatever the company's size. */
export const EXPORT_BATCH = 2000;
/** An import's upload: 20,000 rows with long names and labels fit well below this. */
export const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

type Filters = z.infer<typeof leadFilterQuery>;
type Kind = 'leads' | 'clean-leads';
type Repository = ReturnType<typeof repositoryOf>;
const tables = { leads: leadsTable, 'clean-leads': cleanLeadsTable };

/**
 * The records an export writes: every record the list shows for the same filters (the
 * repository's where: company scope, search, field filters). A clean lead is on a platform when
 * one of its leads is. Paging, sort and fields do not apply: the export has its own order.
 */
function exportWhere(repo: Repository, kind: Kind, tenant: Tenant, query: Filters): SQL {
  const { page: _page, limit: _limit, sort: _sort, order: _order, fields: _fields, platform, ...filters } = query;
  const onPlatform = platform && kind === 'clean-leads' ? cleanLeadOnPlatform(platform) : undefined;
  return repo.whereOf(tenant, (kind === 'leads' ? { ...filters, platform } : filters) as Partial<FilteredQuery>, onPlatform);
}

/**
 * The export's columns, in the order of the lead screens (name, phone, e-mail, channel, status,
 * agent, labels, dates): Spanish titles a spreadsheet shows, `telefono` and `email` spelled as
 * SPEC §5 names them, and names the import reads back (nombre, telefono, email, canal,
 * etiquetas). A clean lead's channels are those of its leads ('canales': the import does not
 * read a list of channels as one platform). Dates in the company's time zone, as
 * 'AAAA-MM-DD HH:MM', which spreadsheets read as dates.
 */
export const exportColumns = {
  leads: ['nombre', 'telefono', 'email', 'canal', 'estado', 'agente', 'etiquetas', 'creado', 'actualizado'],
  'clean-leads': ['nombre', 'telefono', 'email', 'canales', 'estado', 'agente', 'etiquetas', 'creado', 'actualizado'],
} as const;

/** '2025-03-14 10:30' in `timeZone` (a spreadsheet reads it as a date and time). */
function localDateTime(timeZone: string): (value: Date | string | null) => string {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return (value) => {
    if (value === null) return '';
    const parts = Object.fromEntries(format.formatToParts(new Date(value)).map((p) => [p.type, p.value]));
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  };
}

const platformName = (platform: unknown) => platformLabels[platform as keyof typeof platformLabels] ?? String(platform ?? '');

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
 * The CSV of SPEC §5 (its email and telefono columns, and the rest of what the lead screens
 * show: `exportColumns`), one row per record `where` matches, read in
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
  const a = agentesTable as unknown as Record<string, AnyPgColumn>;
  const l = mostradorLabelsTable as unknown as Record<string, AnyPgColumn>;
  // the label names of a record, in name order; the channels of a clean lead's leads
  const labelNames = sql<string | null>`(select string_agg(${l.name}, ', ' order by ${l.name}) from ${mostradorLabelsTable}
    where ${l.companyId} = ${t.companyId} and ${l.id}::text in (select jsonb_array_elements_text(coalesce(${t.mostradorLabels}, '[]'::jsonb))))`;
  const channels =
    kind === 'leads'
      ? sql<string | null>`${(leadsTable as unknown as Record<string, AnyPgColumn>).platform}`
      : sql<string | null>`(select string_agg(distinct p.platform, ',') from ${leadsTable} p where p.company_id = ${t.companyId} and p.clean_lead_id = ${t.id})`;
  const batch = (after?: { k: string; id: string }) => {
    const page = after ? sql`(${t.createdAt}, ${t.id}) > (${after.k}::timestamptz, ${after.id}::uuid)` : undefined;
    return db
      .select({
        k: sql<string>`${t.createdAt}::text`,
        id: t.id,
        name: t.name,
        telefono: t.telefono,
        email: t.email,
        channels,
        status: t.status,
        agente: a.name,
        labels: labelNames,
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
        // the company's time zone rides on each row: one query per batch, nothing read before the first
        timezone: sql<string | null>`${companies.settings}->>'timezone'`,
        country: companies.country,
      })
      .from(table)
      .innerJoin(companies, eq(companies.id, t.companyId))
      .leftJoin(agentesTable, and(eq(a.id, t.agenteId), eq(a.companyId, t.companyId)))
      .where(and(where, page))
      .orderBy(asc(t.createdAt), asc(t.id))
      .limit(EXPORT_BATCH);
  };
  type Row = Awaited<ReturnType<typeof batch>>[number];
  let dateOf: ((value: Date | string | null) => string) | undefined;
  const line = (r: Row) => {
    dateOf ??= localDateTime(validTimezone(r.timezone) ?? countryTimezone(r.country));
    const channel = String(r.channels ?? '')
      .split(',')
      .filter(Boolean)
      .map(platformName)
      .join(', ');
    return csvLine([
      r.name as string | null,
      r.telefono as string | null,
      r.email as string | null,
      channel,
      leadStatusLabels[r.status as LeadStatus] ?? (r.status as string | null),
      r.agente as string | null,
      r.labels,
      dateOf(r.createdAt as Date | string | null),
      dateOf(r.updatedAt as Date | string | null),
    ]);
  };
  const lines = (rows: Row[]) => rows.map(line).join('');
  let rows = await batch();
  let written = rows.length;
  yield UTF8_BOM + csvLine(exportColumns[kind]) + lines(rows);
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

/** An import's body: the CSV's bytes, or a Spanish 4xx (another content type, an empty file). */
function csvBody(body: unknown): Buffer {
  if (body !== undefined && body !== null && !Buffer.isBuffer(body)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Envía el archivo como CSV (Content-Type: text/csv)');
  }
  if (!body || body.length === 0) throw new AppError('VALIDATION', 'El archivo está vacío');
  return body;
}

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
      // its own permission (decision 0026): agents list leads but do not take them away as a file
      { config: { permission: { module: 'leads', action: 'export' } }, schema: { tags, querystring: leadFilterQuery } },
      async (request, reply) => {
        refuseNul(request.query);
        const tenant = tenantOf(request);
        const where = exportWhere(repos[kind], kind, tenant, request.query);
        // who took the company's leads away as a file, with which filters (decision 0072)
        await audit(db, { companyId: tenant.companyId, action: 'export', entity: kind, changes: { filters: { from: null, to: request.query } } });
        // before the error line's stream failure cuts the connection, let that line reach the socket
        const flushed = async () => {
          const socket = reply.raw.socket;
          if (socket && socket.writableLength > 0) await Promise.race([once(socket, 'drain'), once(socket, 'close')]);
        };
        // the first batch (and any error in it) before the status line
        return sendCsv(request, reply, exportRows(db, kind, where, flushed), filename);
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
      config: { permission: { module: 'leads', action: 'import' } },
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: { tags, response: { 200: leadImportResult } },
    },
    async (request) => {
      const body = csvBody(request.body);
      const tenant = tenantOf(request);
      return db.transaction(async (tx) => {
        const result = await importLeads(tx, tenant, body);
        await audit(tx, { companyId: tenant.companyId, action: 'import', entity: 'leads', changes: { result: { from: null, to: result } } });
        return result;
      });
    },
  );

  /**
   * POST /retail-rocket-tags/{id}/import (decision 0055): a RetailRocket segment's export (the
   * same CSV as the leads import) — its people matched or created as leads and people, each given
   * the Mostrador label of the tag's name (made when the company has none), in one transaction.
   */
  app.post(
    '/retail-rocket-tags/:id/import',
    {
      config: { permission: { module: 'leads', action: 'import' } },
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: { tags: ['retail-rocket-tags'], params: retailRocketImportParams, response: { 200: leadImportResult } },
    },
    async (request) => {
      const body = csvBody(request.body);
      const tenant = tenantOf(request);
      return db.transaction(async (tx) => {
        const [tag] = (await tx.execute<{ name: string }>(sql`select name from retail_rocket_tags where company_id = ${tenant.companyId} and id = ${request.params.id}`)).rows;
        if (!tag) throw new AppError('NOT_FOUND', 'La etiqueta de RetailRocket no existe en esta compañía');
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${tenant.companyId}:label:${tag.name.toLowerCase()}`}, 0))`);
        const [label] = (
          await tx.execute<{ id: string }>(sql`select id from mostrador_labels where company_id = ${tenant.companyId} and lower(name) = lower(${tag.name}) limit 1`)
        ).rows;
        const labelId =
          label?.id ??
          (await tx.execute<{ id: string }>(sql`insert into mostrador_labels (company_id, name, color, description)
              values (${tenant.companyId}, ${tag.name}, '#F57C00', ${'Segmento de RetailRocket'}) returning id`)).rows[0].id;
        const result = await importLeads(tx as unknown as Db, tenant, body, { labelIds: [labelId] });
        return { ...result, msg: `${result.msg} Todos llevan la etiqueta «${tag.name}».`.trim() };
      });
    },
  );
};
