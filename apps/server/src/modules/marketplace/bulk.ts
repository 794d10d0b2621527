import { AMOUNT_MAX, BULK_MAX_ROWS, type BulkRowInput, type BulkRowOut, type BulkRunOut, INT4_MAX } from '@mostrador/contract';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { marketplaceBulkRows, marketplaceBulkRuns } from '../../db/marketplace-tables.js';
import { marketplaceVariationsTable } from '../../db/resource-tables.js';
import { type MarketplaceAdapter, MarketplaceError, type OfferResult } from '../../integrations/marketplace.js';
import { AppError } from '../../lib/errors.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { endSet, finishedRun, type OnSyncFinished, requestMeter, retryOrFail, runSyncRun } from '../../lib/sync-run.js';
import { decodeCsv, foldHeader, parseCsv } from '../leads/csv.js';
import { offersOf, settleResults, type VariationRow, variationRows } from './push.js';
import { linksByRecord, remotePriceStock, variations } from './records.js';
import { adapterFor, adapterOfRun, loadSource, type SourceCtx, sourceOfRun } from './sources.js';

/**
 * The bulk update of prices and stock (/marketplaces/lote, decision 0035). A preview reads the
 * rows (JSON, a pasted table or a CSV file decoded as decision 0022 says), checks each one and
 * answers exactly what will change (old → new, against what the marketplace has) or why a row
 * is not valid; nothing is sent. Applying it is a job that sends only the rows that change, in
 * feeds of up to 1,000 SKUs, and records what the marketplace did with each row. Its job is in
 * jobs.ts; it runs on the sync-run engine (lib/sync-run.ts).
 */

/** Decimals a price may have in a currency (Chilean and Colombian pesos have none). */
const decimalsOf = (currency: string) => (currency === 'CLP' || currency === 'COP' ? 0 : 2);

/** The headers a table may name its columns with (folded: lower case, no accents, letters and digits). */
const HEADERS: Record<string, 'sku' | 'price' | 'stock'> = {
  sku: 'sku',
  sellersku: 'sku',
  skuvendedor: 'sku',
  skudelvendedor: 'sku',
  codigo: 'sku',
  precio: 'price',
  price: 'price',
  precionormal: 'price',
  precioregular: 'price',
  stock: 'stock',
  cantidad: 'stock',
  quantity: 'stock',
  inventario: 'stock',
  existencias: 'stock',
};

const quoted = (s: string) => `«${s.length > 40 ? `${s.slice(0, 40)}…` : s}»`;

/**
 * An amount as people type it in Perú, Chile and Colombia: `59.90`, `59,90`, `24.990`, `1.234,50`,
 * `1,234.50`, `S/ 59.90`, `$ 24.990`. With both separators the last one is the decimal one; a single
 * separator followed by exactly three digits is a thousands separator where the currency has no
 * decimals (CLP, COP); otherwise it is the decimal one. NaN when it is not an amount.
 */
export function parseAmount(raw: string, decimals: number): number {
  let s = raw.replace(/[\s\u00a0]/g, '').replace(/^(S\/\.?|\$|CLP|PEN|COP|USD)/i, '').replace(/(CLP|PEN|COP|USD)$/i, '');
  let sign = 1;
  if (s.startsWith('-')) {
    sign = -1;
    s = s.slice(1);
  }
  if (!/^[0-9.,]+$/.test(s) || !/\d/.test(s)) return Number.NaN;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const thousands = decimal === '.' ? ',' : '.';
    const [whole, fraction, ...rest] = s.split(decimal);
    if (rest.length || !/^\d{1,3}([.,]\d{3})*$/.test(whole)) return Number.NaN;
    s = `${whole.split(thousands).join('')}.${fraction}`;
  } else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const parts = s.split(separator);
    if (parts.length > 2) {
      if (!/^\d{1,3}$/.test(parts[0]) || parts.slice(1).some((p) => !/^\d{3}$/.test(p))) return Number.NaN;
      s = parts.join('');
    } else if (decimals === 0 && /^\d{3}$/.test(parts[1])) s = parts.join('');
    else s = `${parts[0] || '0'}.${parts[1]}`;
  }
  const n = Number(s);
  return Number.isFinite(n) ? sign * n : Number.NaN;
}

/** A whole number of units (`12`, `1.000`, `1,000`); NaN when it is not one. */
export function parseStock(raw: string): number {
  const s = raw.replace(/[\s\u00a0]/g, '');
  if (/^\d+$/.test(s)) return Number(s);
  if (/^\d{1,3}([.,]\d{3})+$/.test(s)) return Number(s.replace(/[.,]/g, ''));
  return Number.NaN;
}

interface ParsedRow {
  row: number;
  sku: string;
  price?: string | number;
  stock?: string | number;
}

/** The rows of a pasted table or a CSV text: a header row naming sku and precio and/or stock, then one row per SKU. */
export function rowsOfTable(text: string): ParsedRow[] {
  const records = parseCsv(text);
  const headerAt = records.findIndex((r) => r.fields.some((f) => f.trim() !== ''));
  if (headerAt < 0) throw new AppError('VALIDATION', 'La tabla está vacía: pega una fila de títulos (sku, precio, stock) y una fila por SKU');
  const header = records[headerAt].fields.map((f) => HEADERS[foldHeader(f)]);
  const at = (kind: 'sku' | 'price' | 'stock') => header.indexOf(kind);
  if (at('sku') < 0) {
    throw new AppError('VALIDATION', 'La primera fila debe nombrar las columnas: sku, y precio y/o stock', [{ path: 'text', msg: 'Falta la columna sku' }]);
  }
  if (at('price') < 0 && at('stock') < 0) throw new AppError('VALIDATION', 'Falta la columna precio o la columna stock', [{ path: 'text', msg: 'Falta la columna precio o stock' }]);
  const out: ParsedRow[] = [];
  for (const r of records.slice(headerAt + 1)) {
    if (r.fields.every((f) => f.trim() === '')) continue;
    const cell = (kind: 'sku' | 'price' | 'stock') => (at(kind) >= 0 ? (r.fields[at(kind)] ?? '').trim() : '');
    out.push({ row: r.row, sku: cell('sku'), price: cell('price') || undefined, stock: cell('stock') || undefined });
  }
  if (out.length > BULK_MAX_ROWS) throw new AppError('VALIDATION', `Como máximo ${BULK_MAX_ROWS} filas por lote (esta tabla tiene ${out.length})`, [{ path: 'text', msg: `Como máximo ${BULK_MAX_ROWS} filas` }]);
  return out;
}

export const rowsOfInput = (rows: BulkRowInput[]): ParsedRow[] => rows.map((r, i) => ({ row: i + 1, sku: String(r.sku ?? '').trim(), price: r.price, stock: r.stock }));

/** A CSV upload's rows (any of the encodings and separators spreadsheets write, decision 0022). */
export const rowsOfCsv = (bytes: Uint8Array): ParsedRow[] => rowsOfTable(decodeCsv(bytes));

type RunRow = typeof marketplaceBulkRuns.$inferSelect;
type BulkRowRow = typeof marketplaceBulkRows.$inferSelect;

export function bulkRowOut(r: BulkRowRow): BulkRowOut {
  return {
    row: r.row,
    sku: r.sku,
    ...(r.variationId ? { variationId: r.variationId } : {}),
    ...(r.name ? { name: r.name } : {}),
    ...(r.newPrice !== null ? { price: { ...(r.oldPrice !== null ? { old: r.oldPrice } : {}), new: r.newPrice } } : {}),
    ...(r.newStock !== null ? { stock: { ...(r.oldStock !== null ? { old: r.oldStock } : {}), new: r.newStock } } : {}),
    status: r.status as BulkRowOut['status'],
    ...(r.reason ? { reason: r.reason } : {}),
  };
}

export function bulkRunOut(run: RunRow, source: SourceCtx, rows?: BulkRowRow[]): BulkRunOut {
  return {
    _id: run.id,
    sourceId: run.sourceId,
    sourceName: source.name,
    country: source.country,
    currency: source.currency,
    status: run.status as BulkRunOut['status'],
    total: run.total,
    changes: run.changes,
    unchanged: run.unchanged,
    invalid: run.invalid,
    sent: run.sent,
    refused: run.refused,
    pending: run.status === 'preview' ? 0 : Math.max(0, run.changes - run.sent - run.refused),
    requests: run.requests,
    updates: run.updates,
    ...(run.message ? { message: run.message } : {}),
    ...(run.startedAt ? { startedAt: run.startedAt.toISOString() } : {}),
    ...(run.finishedAt ? { finishedAt: run.finishedAt.toISOString() } : {}),
    createdAt: run.createdAt.toISOString(),
    ...(rows ? { rows: rows.map(bulkRowOut) } : {}),
  };
}

/**
 * Checks the rows against the account's variations and what the marketplace has, and stores the
 * preview: every row with its outcome. Nothing is sent.
 */
export async function preview(db: Db, source: SourceCtx, input: ParsedRow[]) {
  if (!input.length) throw new AppError('VALIDATION', 'No hay filas: indica al menos un SKU con su precio o su stock', [{ path: 'rows', msg: 'Sin filas' }]);
  if (input.length > BULK_MAX_ROWS) throw new AppError('VALIDATION', `Como máximo ${BULK_MAX_ROWS} filas por lote`, [{ path: 'rows', msg: `Como máximo ${BULK_MAX_ROWS} filas` }]);
  const { companyId } = source;
  const decimals = decimalsOf(source.currency);
  const skus = [...new Set(input.map((r) => r.sku).filter(Boolean))];
  const found: VariationRow[] = [];
  for (let i = 0; i < skus.length; i += 1000) {
    found.push(
      ...((await db
        .select()
        .from(marketplaceVariationsTable)
        .where(and(eq(variations.companyId, companyId), eq(variations.sourceId, source.id), inArray(variations.sellerSku, skus.slice(i, i + 1000))))) as unknown as VariationRow[]),
    );
  }
  const bySku = new Map(found.map((v) => [v.sellerSku, v]));
  const links = await linksByRecord(db, companyId, 'variation', found.map((v) => v.id));
  const firstRow = new Map<string, number>();
  const rows: Array<Omit<typeof marketplaceBulkRows.$inferInsert, 'runId'>> = [];
  for (const r of input) {
    const reasons: string[] = [];
    const v = r.sku ? bySku.get(r.sku) : undefined;
    if (!r.sku) reasons.push('Falta el SKU');
    else if (r.sku.length > 80) reasons.push('El SKU es demasiado largo');
    else if (firstRow.has(r.sku)) reasons.push(`SKU repetido: ya está en la fila ${firstRow.get(r.sku)}`);
    else if (!v) reasons.push(`El SKU ${r.sku} no existe en ${source.name}`);
    if (r.sku && !firstRow.has(r.sku)) firstRow.set(r.sku, r.row);
    const given = (x: string | number | undefined) => x !== undefined && String(x).trim() !== '';
    let price: number | undefined;
    if (given(r.price)) {
      const raw = String(r.price).trim();
      price = typeof r.price === 'number' ? r.price : parseAmount(raw, decimals);
      if (!Number.isFinite(price)) reasons.push(`El precio no es un número: ${quoted(raw)}`);
      else if (price <= 0) reasons.push('El precio debe ser mayor que cero');
      else if (price > AMOUNT_MAX) reasons.push('El precio es demasiado grande');
      else if (Math.round(price * 10 ** decimals) / 10 ** decimals !== price) {
        reasons.push(decimals === 0 ? `En ${source.currency} el precio no lleva decimales: ${quoted(raw)}` : `En ${source.currency} el precio lleva como máximo ${decimals} decimales: ${quoted(raw)}`);
      }
    }
    let stock: number | undefined;
    if (given(r.stock)) {
      const raw = String(r.stock).trim();
      stock = typeof r.stock === 'number' ? r.stock : parseStock(raw);
      if (!Number.isInteger(stock) || stock < 0) reasons.push(`El stock debe ser un número entero de 0 o más: ${quoted(raw)}`);
      else if (stock > INT4_MAX) reasons.push('El stock es demasiado grande');
    }
    if (!given(r.price) && !given(r.stock) && r.sku) reasons.push('La fila no indica precio ni stock');
    const base = { companyId, row: r.row, sku: r.sku.slice(0, 200) || '—', variationId: v?.id ?? null, name: null as string | null };
    if (reasons.length || !v) {
      rows.push({ ...base, status: 'invalid', reason: reasons.join('; ').slice(0, 500), newPrice: null, newStock: null });
      continue;
    }
    // against what the marketplace has (its last known price and stock), not an edit not sent yet
    const remote = remotePriceStock(links.get(v.id)) ?? { price: Number(v.price), stock: Number(v.stock) };
    const priceChanges = price !== undefined && price !== remote.price;
    const stockChanges = stock !== undefined && stock !== remote.stock;
    rows.push({
      ...base,
      status: priceChanges || stockChanges ? 'change' : 'unchanged',
      oldPrice: priceChanges ? remote.price : null,
      newPrice: priceChanges ? (price as number) : null,
      oldStock: stockChanges ? remote.stock : null,
      newStock: stockChanges ? (stock as number) : null,
      reason: priceChanges || stockChanges ? null : 'El marketplace ya tiene estos valores',
    });
  }
  const names = new Map(found.map((v) => [v.id, (v as unknown as { name: string }).name]));
  for (const r of rows) if (r.variationId) r.name = names.get(r.variationId) ?? null;
  const count = (s: string) => rows.filter((r) => r.status === s).length;
  return db.transaction(async (tx) => {
    const [run] = await tx
      .insert(marketplaceBulkRuns)
      .values({ companyId, sourceId: source.id, total: rows.length, changes: count('change'), unchanged: count('unchanged'), invalid: count('invalid') })
      .returning();
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(marketplaceBulkRows).values(rows.slice(i, i + 1000).map((r) => ({ ...r, runId: run.id })));
    const stored = await tx
      .select()
      .from(marketplaceBulkRows)
      .where(and(eq(marketplaceBulkRows.companyId, companyId), eq(marketplaceBulkRows.runId, run.id)))
      .orderBy(asc(marketplaceBulkRows.row));
    return bulkRunOut(run, source, stored);
  });
}

/** One of the company's bulk updates (404 otherwise), with its rows (optionally of one status). */
export async function loadBulk(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string, runId: string, { status, rows: withRows = true }: { status?: string; rows?: boolean } = {}) {
  const [run] = await db
    .select()
    .from(marketplaceBulkRuns)
    .where(and(eq(marketplaceBulkRuns.companyId, companyId), eq(marketplaceBulkRuns.id, runId)));
  if (!run) throw new AppError('NOT_FOUND', 'El lote no existe');
  const source = await loadSource(db, secrets, companyId, run.sourceId);
  const rows = withRows
    ? await db
        .select()
        .from(marketplaceBulkRows)
        .where(and(eq(marketplaceBulkRows.companyId, companyId), eq(marketplaceBulkRows.runId, runId), status ? eq(marketplaceBulkRows.status, status) : undefined))
        .orderBy(asc(marketplaceBulkRows.row))
    : [];
  return { run, source, rows };
}

/**
 * The job that applies a previewed bulk update: each changed row's price and stock become the
 * variation's (pending), then they are sent in feeds; after each feed its rows are settled (sent,
 * or refused with the marketplace's reason) in one transaction, so a retried job sends only what
 * was not settled. Progress goes out as `marketplace.bulk`.
 */
export function createBulkEngine(deps: { db: Db; secrets: Pick<SecretBox, 'open'>; realtime?: Realtime; adapter?: (s: SourceCtx) => MarketplaceAdapter; onFinished?: OnSyncFinished }) {
  const { db } = deps;
  const makeAdapter = deps.adapter ?? ((s: SourceCtx) => adapterFor(s));

  async function publish(companyId: string, runId: string, source: SourceCtx) {
    if (!deps.realtime) return;
    const [run] = await db.select().from(marketplaceBulkRuns).where(and(eq(marketplaceBulkRuns.companyId, companyId), eq(marketplaceBulkRuns.id, runId)));
    if (run) await deps.realtime.publish(companyId, { type: 'marketplace.bulk', run: bulkRunOut(run, source) });
  }

  /** Sends the rows still to send, in feeds; each feed's rows settled with the run's counts in one transaction. */
  async function apply(companyId: string, runId: string, source: SourceCtx, adapter: MarketplaceAdapter, counts: () => Record<'requests' | 'updates', SQL>) {
    const where = and(eq(marketplaceBulkRuns.companyId, companyId), eq(marketplaceBulkRuns.id, runId));
    // the rows still to send (a retried job skips the settled ones)
    const todo = await db
      .select()
      .from(marketplaceBulkRows)
      .where(and(eq(marketplaceBulkRows.companyId, companyId), eq(marketplaceBulkRows.runId, runId), eq(marketplaceBulkRows.status, 'change')))
      .orderBy(asc(marketplaceBulkRows.row));
    const byVariation = new Map(todo.filter((r) => r.variationId).map((r) => [r.variationId as string, r]));
    // their new values become the variations' own (not sent yet), in one statement per thousand
    const ids = [...byVariation.keys()];
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000).map((id) => byVariation.get(id) as BulkRowRow);
      await db.execute(sql`
        update ${marketplaceVariationsTable} v
           set price = coalesce(x.price, v.price), stock = coalesce(x.stock, v.stock), sync_status = 'pending', sync_message = null, updated_at = now()
          from (values ${sql.join(
            chunk.map((r) => sql`(${r.variationId}::uuid, ${r.newPrice}::float8, ${r.newStock}::int)`),
            sql`, `,
          )}) as x(id, price, stock)
         where v.company_id = ${companyId} and v.id = x.id`);
    }
    const rows = [];
    for (let i = 0; i < ids.length; i += 1000) rows.push(...(await variationRows(db, companyId, ids.slice(i, i + 1000))));
    const sent = (await offersOf(db, companyId, rows)).filter((x) => x.changed);
    const bySku = new Map(sent.map((x) => [x.offer.sku, x]));
    const settle = async (results: OfferResult[]) => {
      await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        await settleResults(t, source, results.map((r) => bySku.get(r.sku)).filter((x): x is (typeof sent)[number] => !!x), results);
        const taken = results.filter((r) => r.status === 'taken');
        const refused = results.filter((r) => r.status === 'refused');
        // the rows of this feed, settled in one statement per thousand
        const marks = results
          .map((r) => {
            const variationId = bySku.get(r.sku)?.row.id;
            if (!variationId) return undefined;
            const status = r.status === 'taken' ? 'sent' : r.status === 'refused' ? 'refused' : 'change';
            const reason = r.status === 'taken' ? null : (r.reason ?? (r.status === 'refused' ? 'Rechazada sin motivo' : 'El marketplace aún la procesa')).slice(0, 500);
            return { variationId, status, reason };
          })
          .filter((m): m is { variationId: string; status: string; reason: string | null } => !!m);
        for (let i = 0; i < marks.length; i += 1000) {
          await t.execute(sql`
            update ${marketplaceBulkRows} b set status = x.status, reason = x.reason
              from (values ${sql.join(
                marks.slice(i, i + 1000).map((m) => sql`(${m.variationId}::uuid, ${m.status}, ${m.reason}::text)`),
                sql`, `,
              )}) as x(variation_id, status, reason)
             where b.company_id = ${companyId} and b.run_id = ${runId}::uuid and b.variation_id = x.variation_id`);
        }
        await t
          .update(marketplaceBulkRuns)
          .set({
            sent: sql`${marketplaceBulkRuns.sent} + ${taken.length}`,
            refused: sql`${marketplaceBulkRuns.refused} + ${refused.length}`,
            ...counts(),
          })
          .where(where);
      });
      await publish(companyId, runId, source);
    };
    // rows whose values the marketplace already has by now are settled without sending
    const already = todo.filter((r) => r.variationId && !sent.some((x) => x.row.id === r.variationId));
    if (already.length) {
      await db
        .update(marketplaceBulkRows)
        .set({ status: 'sent', reason: 'El marketplace ya tenía estos valores' })
        .where(and(eq(marketplaceBulkRows.companyId, companyId), eq(marketplaceBulkRows.runId, runId), inArray(marketplaceBulkRows.row, already.map((r) => r.row))));
      await db.update(marketplaceBulkRuns).set({ sent: sql`${marketplaceBulkRuns.sent} + ${already.length}` }).where(where);
    }
    if (sent.length) await adapter.pushOffers(sent.map((x) => x.offer), settle);
  }

  async function run(runId: string, companyId: string): Promise<void> {
    const where = and(eq(marketplaceBulkRuns.companyId, companyId), eq(marketplaceBulkRuns.id, runId));
    let source: SourceCtx | undefined;
    let requests = () => 0;
    let writes = () => 0;
    const counts = () => ({ requests: sql`${marketplaceBulkRuns.requests} + ${requests()}`, updates: sql`${marketplaceBulkRuns.updates} + ${writes()}` });
    await runSyncRun<RunRow>({
      db,
      onFinished: deps.onFinished,
      async claim() {
        const [row] = await db.select().from(marketplaceBulkRuns).where(where);
        return !row || row.status === 'done' || row.status === 'failed' || row.status === 'preview' ? 'gone' : row;
      },
      async pages(row) {
        source = await sourceOfRun(db, deps.secrets, companyId, row.sourceId);
        const adapter = adapterOfRun(source, makeAdapter);
        await db.update(marketplaceBulkRuns).set({ status: 'running', startedAt: row.startedAt ?? new Date(), message: null }).where(where);
        await publish(companyId, runId, source);
        requests = requestMeter(adapter.stats);
        writes = requestMeter(adapter.stats, 'writes');
        await apply(companyId, runId, source, adapter, counts);
      },
      onError: (_row, error) =>
        retryOrFail(error, error instanceof MarketplaceError ? { permanent: !error.transient, msg: error.msg } : undefined, async (message) => {
          await db
            .update(marketplaceBulkRuns)
            .set({ message, ...counts() })
            .where(where);
          if (source) await publish(companyId, runId, source);
        }),
      async finish(tx, _row, outcome) {
        let message = outcome.message ?? null;
        if (outcome.status === 'done') {
          const [end] = await tx.select().from(marketplaceBulkRuns).where(where);
          const pending = end ? end.changes - end.sent - end.refused : 0;
          message = pending > 0 ? `${pending} filas siguen en proceso en ${source?.name}: revisa sus variaciones más tarde` : null;
        }
        const [end] = await tx
          .update(marketplaceBulkRuns)
          .set({ ...endSet(outcome), ...counts(), message })
          .where(where)
          .returning();
        const { total, changes, unchanged, invalid, sent, refused, requests, updates } = end;
        return finishedRun('marketplace-bulk', outcome, end, { total, changes, unchanged, invalid, sent, refused, requests, updates });
      },
      async published() {
        if (source) await publish(companyId, runId, source);
      },
    });
  }

  /** Queues a previewed bulk update (a 409 when it was already applied, a 400 when nothing changes). */
  async function queue(companyId: string, runId: string): Promise<RunRow> {
    return db.transaction(async (tx) => {
      const [run] = await tx
        .select()
        .from(marketplaceBulkRuns)
        .where(and(eq(marketplaceBulkRuns.companyId, companyId), eq(marketplaceBulkRuns.id, runId)))
        .for('update');
      if (!run) throw new AppError('NOT_FOUND', 'El lote no existe');
      if (run.status !== 'preview') throw new AppError('CONFLICT', 'Este lote ya se aplicó: prepara una nueva vista previa para otro envío');
      if (run.changes === 0) throw new AppError('VALIDATION', 'Este lote no cambia nada: no hay filas que enviar');
      const [queued] = await tx
        .update(marketplaceBulkRuns)
        .set({ status: 'queued' })
        .where(and(eq(marketplaceBulkRuns.companyId, companyId), eq(marketplaceBulkRuns.id, runId)))
        .returning();
      return queued;
    });
  }

  return { run, queue, publish };
}
export type BulkEngine = ReturnType<typeof createBulkEngine>;
