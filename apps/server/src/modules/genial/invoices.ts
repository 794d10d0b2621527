import { forConnectionTest } from '../../integrations/connection-test.js';
import { genialTaxRates, type GenialInvoiceOut, type GenialOrderKind, type GenialSettingsOut } from '@mostrador/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { genialInvoices, genialSettings } from '../../db/genial-tables.js';
import { marketplaceOrderItems } from '../../db/marketplace-tables.js';
import { ecommercesOrdersTable, marketplaceOrdersTable } from '../../db/resource-tables.js';
import type { FetchLike } from '../../integrations/seller-center/client.js';
import { createGenialClient, type GenialDocumentIn, GenialError, type GenialItem } from '../../integrations/genial/client.js';
import { genialSandboxFetch, isGenialSandboxUrl } from '../../integrations/genial/sandbox.js';
import { customerDocOf } from '../../integrations/genial/tax-ids.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';

/** A pending invoice older than this lost its job (a restart, a crash): it may be retried. */
export const STALE_PENDING_MS = 2 * 60_000;

/** Retries and transport of the Genial client; tests shorten the waits (what the API URL may reach: integrations/outbound.ts). */
export const genialDefaults: { retries: number; backoffMs: number; maxBackoffMs: number; timeoutMs: number; fetch?: FetchLike } = {
  retries: 3,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  timeoutMs: 30_000,
};

const countryNames: Record<string, string> = { PE: 'Perú', CL: 'Chile', CO: 'Colombia', ES: 'España' };
export const countryName = (c: string) => countryNames[c] ?? c;

type SettingsRow = typeof genialSettings.$inferSelect;
type InvoiceRow = typeof genialInvoices.$inferSelect;

export const settingsOut = (r: SettingsRow): GenialSettingsOut => ({
  country: r.country,
  apiUrl: r.apiUrl,
  tokenSet: !!r.token,
  issuerTaxId: r.issuerTaxId,
  issuerName: r.issuerName,
  seriesFactura: r.seriesFactura,
  seriesBoleta: r.seriesBoleta,
  sandbox: isGenialSandboxUrl(r.apiUrl),
  updatedAt: r.updatedAt.toISOString(),
});

export function invoiceOut(kind: GenialOrderKind, orderId: string, r: InvoiceRow | undefined): GenialInvoiceOut {
  if (!r) return { kind, orderId, status: 'none', attempts: 0 };
  return {
    kind,
    orderId,
    status: r.status as GenialInvoiceOut['status'],
    ...(r.documentType ? { documentType: r.documentType as 'factura' | 'boleta' } : {}),
    ...(r.series ? { series: r.series } : {}),
    ...(r.number ? { number: r.number } : {}),
    ...(r.pdfUrl ? { pdfUrl: r.pdfUrl } : {}),
    ...(r.xmlUrl ? { xmlUrl: r.xmlUrl } : {}),
    ...(r.customerTaxId ? { customerTaxId: r.customerTaxId } : {}),
    ...(r.lastError && r.status === 'failed' ? { error: r.lastError } : {}),
    attempts: r.attempts,
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function settingsOf(db: Db, companyId: string, country: string): Promise<SettingsRow | undefined> {
  const [row] = await db
    .select()
    .from(genialSettings)
    .where(and(eq(genialSettings.companyId, companyId), eq(genialSettings.country, country)));
  return row;
}

export async function invoiceRows(db: Db, companyId: string, kind: GenialOrderKind, orderIds: string[]): Promise<Map<string, InvoiceRow>> {
  if (!orderIds.length) return new Map();
  const rows = await db
    .select()
    .from(genialInvoices)
    .where(and(eq(genialInvoices.companyId, companyId), eq(genialInvoices.orderKind, kind), inArray(genialInvoices.orderId, orderIds)));
  return new Map(rows.map((r) => [r.orderId, r]));
}

/** What an invoice needs of an order, whichever kind. */
export interface InvoiceOrder {
  kind: GenialOrderKind;
  id: string;
  number: string;
  country: string;
  currency: string;
  customerName: string;
  customerEmail?: string;
  lines: Array<{ sku: string; name: string; quantity: number; price: number }>;
}

const mo = marketplaceOrdersTable as unknown as Record<string, AnyPgColumn>;
const eo = ecommercesOrdersTable as unknown as Record<string, AnyPgColumn>;

/** One of the company's orders (404 for another company's or none): the same scoping as every marketplace call. */
export async function orderFor(db: Db, companyId: string, kind: GenialOrderKind, id: string): Promise<InvoiceOrder> {
  if (kind === 'marketplace') {
    const [row] = (await db
      .select()
      .from(marketplaceOrdersTable)
      .where(and(eq(mo.companyId, companyId), eq(mo.id, id)))) as Array<Record<string, unknown>>;
    if (!row) throw new AppError('NOT_FOUND', 'La orden no existe');
    const items = await db
      .select()
      .from(marketplaceOrderItems)
      .where(and(eq(marketplaceOrderItems.companyId, companyId), eq(marketplaceOrderItems.orderId, id)))
      .orderBy(asc(marketplaceOrderItems.position));
    const live = items.filter((i) => i.status !== 'canceled');
    const lines = live.map((i) => ({ sku: i.sellerSku, name: i.variation ? `${i.name} · ${i.variation}` : i.name, quantity: 1, price: Number(i.paidPrice) }));
    const shipping = live.reduce((s, i) => s + Number(i.shippingAmount ?? 0), 0);
    if (shipping > 0) lines.push({ sku: 'ENVIO', name: 'Envío', quantity: 1, price: shipping });
    if (!lines.length) lines.push({ sku: 'ORDEN', name: `Orden ${String(row.orderNumber)}`, quantity: 1, price: Number(row.total) });
    return {
      kind,
      id,
      number: String(row.orderNumber),
      country: String(row.country),
      currency: String(row.currency),
      customerName: String(row.customerName),
      ...(row.customerEmail ? { customerEmail: String(row.customerEmail) } : {}),
      lines,
    };
  }
  if (kind === 'order') {
    // the company's own order (catalogue, WhatsApp cart, chat): its lines as sold, the company's country
    const [row] = (await db.execute(
      sql`select o.code, o.currency, o.customer_name, o.customer, o.items, o.total, o.shipping_cost, co.country
            from orders o join companies co on co.id = o.company_id where o.company_id = ${companyId} and o.id = ${id}`,
    )).rows as Array<{ code: string; currency: string; customer_name: string; customer: { email?: string } | null; items: Array<{ sku: string; name: string; size?: string; color?: string; quantity: number; unitPrice: number }>; total: number; shipping_cost: number | null; country: string }>;
    if (!row) throw new AppError('NOT_FOUND', 'La orden no existe');
    const lines = (row.items ?? []).map((i) => ({ sku: i.sku, name: [i.name, i.size, i.color].filter(Boolean).join(' · '), quantity: Number(i.quantity), price: Number(i.unitPrice) }));
    if (Number(row.shipping_cost ?? 0) > 0) lines.push({ sku: 'ENVIO', name: 'Envío', quantity: 1, price: Number(row.shipping_cost) });
    return {
      kind,
      id,
      number: row.code,
      country: row.country,
      currency: row.currency,
      customerName: row.customer_name,
      ...(row.customer?.email ? { customerEmail: row.customer.email } : {}),
      lines: lines.length ? lines : [{ sku: 'ORDEN', name: `Pedido ${row.code}`, quantity: 1, price: Number(row.total) }],
    };
  }
  const [row] = (await db
    .select()
    .from(ecommercesOrdersTable)
    .where(and(eq(eo.companyId, companyId), eq(eo.id, id)))) as Array<Record<string, unknown>>;
  if (!row) throw new AppError('NOT_FOUND', 'La orden no existe');
  const items = (Array.isArray(row.items) ? row.items : []) as Array<{ sku: string; name: string; quantity: number; price: number }>;
  return {
    kind,
    id,
    number: String(row.number),
    country: String(row.country),
    currency: String(row.currency),
    customerName: String(row.customerName),
    ...(row.customerEmail ? { customerEmail: String(row.customerEmail) } : {}),
    lines: items.length ? items.map((i) => ({ sku: i.sku, name: i.name, quantity: Number(i.quantity), price: Number(i.price) })) : [{ sku: 'ORDEN', name: `Orden ${String(row.number)}`, quantity: 1, price: Number(row.total) }],
  };
}

/** Genial's document of an order: prices as customers pay them (tax included), split into base and tax. */
export function documentOf(order: InvoiceOrder, settings: SettingsRow, customer: { docType: string; docId: string; business: boolean }): GenialDocumentIn {
  const tax = genialTaxRates[order.country as 'PE'] ?? { name: 'IVA', rate: 0.19 };
  const whole = order.currency === 'CLP' || order.currency === 'COP';
  const round = (n: number) => (whole ? Math.round(n) : Math.round(n * 100) / 100);
  const items: GenialItem[] = order.lines.map((l) => {
    const total = round(l.quantity * l.price);
    const taxable = round(total / (1 + tax.rate));
    return { sku: l.sku, description: l.name, quantity: l.quantity, unitPrice: Math.round((l.price / (1 + tax.rate)) * 10_000) / 10_000, taxRate: tax.rate, taxAmount: round(total - taxable), total };
  });
  const total = round(items.reduce((s, i) => s + i.total, 0));
  const taxAmount = round(items.reduce((s, i) => s + i.taxAmount, 0));
  return {
    country: order.country,
    issuer: { taxId: settings.issuerTaxId, name: settings.issuerName },
    documentType: customer.business ? 'factura' : 'boleta',
    series: customer.business ? settings.seriesFactura : settings.seriesBoleta,
    currency: order.currency,
    issueDate: new Date().toISOString().slice(0, 10),
    customer: { docType: customer.docType, docId: customer.docId, name: order.customerName, ...(order.customerEmail ? { email: order.customerEmail } : {}) },
    items,
    totals: { taxable: round(total - taxAmount), tax: taxAmount, total },
    reference: { kind: order.kind, orderNumber: order.number },
  };
}

/** The message a retry or a screen shows when the company has no Genial settings for a country. */
export const noSettingsMessage = (country: string) =>
  `Configura Genial para ${countryName(country)} en /genial (URL de la API, token, RUC / RUT / NIT del emisor y series) antes de emitir facturas de esta orden`;

async function save(db: Db, companyId: string, kind: GenialOrderKind, orderId: string, set: Partial<typeof genialInvoices.$inferInsert>) {
  await db
    .insert(genialInvoices)
    .values({ companyId, orderKind: kind, orderId, status: 'pending', ...set, updatedAt: new Date() })
    .onConflictDoUpdate({ target: [genialInvoices.companyId, genialInvoices.orderKind, genialInvoices.orderId], set: { ...set, updatedAt: new Date() } });
}

/**
 * The client of a company's settings: the sandbox answered in-process, the token opened. Throws a
 * `GenialError` with the Spanish reason when it cannot be built (a token that does not open, an
 * address tests may not reach).
 */
export function genialClientFor(settings: SettingsRow, companyId: string, secrets: Pick<SecretBox, 'open'>, { test = false }: { test?: boolean } = {}) {
  // a «Probar conexión» answers within seconds; issuing keeps its patient retries
  const d = { ...genialDefaults, ...(test ? forConnectionTest(genialDefaults) : {}) };
  const sandbox = isGenialSandboxUrl(settings.apiUrl);
  let token: string;
  try {
    token = secrets.open<string>(settings.token);
  } catch {
    throw new GenialError('auth', 'No se pudo abrir el token de Genial guardado: escríbelo de nuevo en /genial');
  }
  return createGenialClient({
    url: settings.apiUrl,
    token,
    fetch: sandbox ? genialSandboxFetch(companyId, settings.apiUrl) : d.fetch,
    retries: d.retries,
    backoffMs: d.backoffMs,
    maxBackoffMs: d.maxBackoffMs,
    timeoutMs: d.timeoutMs,
  });
}

/**
 * Puts an order's invoice in `pending` for the issuing job, refusing what must not be issued again
 * (409 when issued or already issuing, 400 without settings). Answers the pending invoice.
 */
export async function queueInvoice(db: Db, companyId: string, kind: GenialOrderKind, orderId: string, customerTaxId?: string): Promise<InvoiceRow> {
  const order = await orderFor(db, companyId, kind, orderId);
  const current = (await invoiceRows(db, companyId, kind, [orderId])).get(orderId);
  if (current?.status === 'issued') throw new AppError('CONFLICT', `La orden ${order.number} ya tiene su factura emitida (${current.series}-${current.number}): no se emite otra`);
  if (current?.status === 'pending' && Date.now() - current.updatedAt.getTime() < STALE_PENDING_MS) {
    throw new AppError('CONFLICT', `La factura de la orden ${order.number} ya se está emitiendo: espera su resultado`);
  }
  if (!(await settingsOf(db, companyId, order.country))) throw new AppError('VALIDATION', noSettingsMessage(order.country));
  const taxId = customerTaxId !== undefined ? customerTaxId.trim() || null : (current?.customerTaxId ?? null);
  await save(db, companyId, kind, orderId, { status: 'pending', lastError: null, customerTaxId: taxId });
  return (await invoiceRows(db, companyId, kind, [orderId])).get(orderId) as InvoiceRow;
}

/**
 * The issuing job: sends a pending invoice's document to Genial (Idempotency-Key = the order, so a
 * retry never issues a second one) and keeps what came back. Never throws for Genial's answers:
 * the invoice is left failed with the Spanish reason.
 */
export async function issueInvoice(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string, kind: GenialOrderKind, orderId: string): Promise<InvoiceRow | undefined> {
  const current = (await invoiceRows(db, companyId, kind, [orderId])).get(orderId);
  if (current?.status === 'issued') return current;
  const attempts = (current?.attempts ?? 0) + 1;
  const fail = async (reason: string) => {
    await save(db, companyId, kind, orderId, { status: 'failed', lastError: reason, attempts });
    return (await invoiceRows(db, companyId, kind, [orderId])).get(orderId);
  };
  let order: InvoiceOrder;
  try {
    order = await orderFor(db, companyId, kind, orderId);
  } catch {
    return fail('La orden ya no existe');
  }
  const settings = await settingsOf(db, companyId, order.country);
  if (!settings) return fail(noSettingsMessage(order.country));
  const customer = customerDocOf(order.country, current?.customerTaxId);
  if ('error' in customer) return fail(customer.error);
  let client: ReturnType<typeof createGenialClient>;
  try {
    client = genialClientFor(settings, companyId, secrets);
  } catch (error) {
    if (error instanceof GenialError) return fail(error.msg);
    throw error;
  }
  const doc = documentOf(order, settings, customer);
  try {
    const answer = await client.issue(doc, `${kind}:${orderId}`);
    await save(db, companyId, kind, orderId, {
      status: answer.status === 'accepted' ? 'issued' : 'pending',
      documentType: doc.documentType,
      series: answer.series ?? doc.series,
      number: answer.number ?? null,
      pdfUrl: answer.pdfUrl ?? null,
      xmlUrl: answer.xmlUrl ?? null,
      remoteId: answer.id,
      lastError: null,
      attempts,
    });
    return (await invoiceRows(db, companyId, kind, [orderId])).get(orderId);
  } catch (error) {
    if (error instanceof GenialError) return fail(error.msg);
    throw error;
  }
}
