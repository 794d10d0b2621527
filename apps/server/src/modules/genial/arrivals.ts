import type { DomainEvent, GenialOrderKind } from '@mostrador/contract';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { genialInvoices, genialSettings } from '../../db/genial-tables.js';
import { noSettingsMessage, STALE_PENDING_MS } from './invoices.js';
import { GENIAL_ISSUE_QUEUE } from './jobs.js';

/** An order a sync or a webhook has written (its `store_order.arrived` event): whether it is to be invoiced and the customer's document, if the source gave one. */
export interface OrderArrival {
  orderId: string;
  country: string;
  /** Paid and not cancelled (decision 0037): a WooCommerce order processing or completed, a marketplace order not cancelled, failed or returned. */
  invoiceable: boolean;
  customerTaxId?: string;
}

/** A fresh arrival's job may wait this long for the spine's listener before the sweep sends it. */
export const FRESH_PENDING_MS = 30_000;

/** How many times Genial may answer «pending» before the invoice is left failed for a person to look at. */
export const MAX_PENDING_POLLS = 10;

export const tooManyPollsMessage = (polls: number) =>
  `Genial sigue sin confirmar la factura después de ${polls} consultas: revisa su estado en Genial y pulsa «Reintentar»`;

/**
 * Records the invoices that orders arriving from a store or a marketplace need. Only for a company that
 * uses Genial (settings for some country): an invoiceable order of a country with settings gets a
 * `pending` invoice (attempts 0) for the sweep to issue; one of a country without them a `failed`
 * invoice saying what to configure, so nothing is silently skipped. An order that already has an
 * invoice keeps it (a second delivery of the same order changes nothing). Answers the order ids
 * left pending.
 */
export async function recordArrivals(db: Db, companyId: string, kind: GenialOrderKind, arrivals: OrderArrival[]): Promise<string[]> {
  const due = arrivals.filter((a) => a.invoiceable);
  if (!due.length) return [];
  const countries = new Set(
    (await db.select({ country: genialSettings.country }).from(genialSettings).where(eq(genialSettings.companyId, companyId))).map((r) => r.country),
  );
  if (!countries.size) return [];
  const rows = due.map((a) => {
    const taxId = a.customerTaxId?.trim().slice(0, 20) || null;
    return countries.has(a.country)
      ? { companyId, orderKind: kind, orderId: a.orderId, status: 'pending', customerTaxId: taxId, attempts: 0 }
      : { companyId, orderKind: kind, orderId: a.orderId, status: 'failed', customerTaxId: taxId, attempts: 0, lastError: noSettingsMessage(a.country) };
  });
  const inserted = await db
    .insert(genialInvoices)
    .values(rows)
    .onConflictDoNothing({ target: [genialInvoices.companyId, genialInvoices.orderKind, genialInvoices.orderId] })
    .returning({ orderId: genialInvoices.orderId, status: genialInvoices.status });
  return inserted.filter((r) => r.status === 'pending').map((r) => r.orderId);
}

interface Sender {
  send(name: string, data: object, options?: { singletonKey?: string }): Promise<unknown>;
}

/**
 * Sends the issuing job of the invoices that wait for one (decision 0037): new arrivals (attempts
 * 0, older than `FRESH_PENDING_MS` unless `fresh` — the spine's listener passes it), and invoices pending longer than `STALE_PENDING_MS` (a job lost to a crash, or
 * Genial answered «pending» and is asked again with the same Idempotency-Key). An invoice Genial
 * kept pending `MAX_PENDING_POLLS` times is left failed with a reason. Scheduled every minute;
 * answers how many jobs it sent.
 */
export async function sweepInvoices(db: Db, jobs: Sender, options: { companyId?: string; fresh?: boolean; limit?: number } = {}): Promise<number> {
  const now = Date.now();
  const i = genialInvoices;
  // `fresh`: every new arrival, however recent (its updated_at may be this very millisecond)
  const freshBefore = new Date(now - FRESH_PENDING_MS);
  const staleBefore = new Date(now - STALE_PENDING_MS);
  const rows = await db
    .select({ companyId: i.companyId, orderKind: i.orderKind, orderId: i.orderId, attempts: i.attempts })
    .from(i)
    .where(
      and(
        eq(i.status, 'pending'),
        options.companyId ? eq(i.companyId, options.companyId) : undefined,
        or(and(eq(i.attempts, 0), options.fresh ? undefined : lt(i.updatedAt, freshBefore)), lt(i.updatedAt, staleBefore)),
      ),
    )
    .orderBy(i.updatedAt)
    .limit(options.limit ?? 500);
  let sent = 0;
  for (const r of rows) {
    const where = and(eq(i.companyId, r.companyId), eq(i.orderKind, r.orderKind), eq(i.orderId, r.orderId), eq(i.status, 'pending'));
    if (r.attempts >= MAX_PENDING_POLLS) {
      await db.update(i).set({ status: 'failed', lastError: tooManyPollsMessage(r.attempts), updatedAt: new Date() }).where(where);
      continue;
    }
    // touching updated_at first: the next sweep does not send it again while this job runs
    await db.update(i).set({ updatedAt: sql`now()` }).where(where);
    await jobs.send(GENIAL_ISSUE_QUEUE, { companyId: r.companyId, kind: r.orderKind, orderId: r.orderId }, { singletonKey: `${r.orderKind}:${r.orderId}` });
    sent++;
  }
  return sent;
}

/**
 * The `genial.invoices` listener (spine/listeners.ts): the orders that arrived from a store or a
 * marketplace get their invoices recorded, and the company's fresh ones their issuing jobs now.
 * A redelivered event changes nothing: an order that has an invoice keeps it, and a job's
 * singleton key is its order.
 */
export async function invoiceArrivals(db: Db, jobs: Sender, events: DomainEvent[]): Promise<void> {
  const groups = new Map<string, { companyId: string; kind: GenialOrderKind; arrivals: OrderArrival[] }>();
  for (const e of events) {
    const p = e.payload as DomainEvent<'store_order.arrived'>['payload'];
    const key = `${e.companyId}:${p.kind}`;
    const group = groups.get(key) ?? { companyId: e.companyId, kind: p.kind, arrivals: [] };
    group.arrivals.push({ orderId: p.orderId, country: p.country, invoiceable: p.invoiceable, customerTaxId: p.customerTaxId ?? undefined });
    groups.set(key, group);
  }
  const due = new Set<string>();
  for (const g of groups.values()) if ((await recordArrivals(db, g.companyId, g.kind, g.arrivals)).length) due.add(g.companyId);
  for (const companyId of due) await sweepInvoices(db, jobs, { companyId, fresh: true });
}

/**
 * The company's own orders that were paid (their `order.paid`: Mercado Pago, «Marcar pagado», a
 * status moved by hand), issue 30: invoiced as the store's and the marketplace's paid orders are —
 * when the company uses Genial, for its country, with the customer's document when the order has one.
 */
export async function invoicePaidOrders(db: Db, jobs: Sender, events: DomainEvent[]): Promise<void> {
  const due = new Set<string>();
  for (const companyId of new Set(events.map((e) => e.companyId))) {
    const ids = events.filter((e) => e.companyId === companyId).map((e) => (e.payload as DomainEvent<'order.paid'>['payload']).orderId);
    const rows = (
      await db.execute(
        sql`select o.id, co.country, o.customer->>'document' as document from orders o join companies co on co.id = o.company_id
             where o.company_id = ${companyId} and o.id in (${sql.join(
               ids.map((id) => sql`${id}::uuid`),
               sql`, `,
             )})`,
      )
    ).rows as Array<{ id: string; country: string; document: string | null }>;
    const arrivals = rows.map((r) => ({ orderId: r.id, country: r.country, invoiceable: true, ...(r.document ? { customerTaxId: r.document } : {}) }));
    if ((await recordArrivals(db, companyId, 'order', arrivals)).length) due.add(companyId);
  }
  for (const companyId of due) await sweepInvoices(db, jobs, { companyId, fresh: true });
}
