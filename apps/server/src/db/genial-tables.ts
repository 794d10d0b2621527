import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/**
 * Genial, the electronic invoicing service (issue 12, decision 0037). Every key and index leads
 * with company_id (ARCHITECTURE §3, §10: distributable by company).
 */

/** A company's Genial settings for one country: where to send, the sealed token, the issuer and its series. */
export const genialSettings = pgTable(
  'genial_settings',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    country: text('country').notNull(),
    apiUrl: text('api_url').notNull(),
    /** Sealed with the app key (lib/secret-box.ts); never answered. */
    token: text('token').notNull(),
    issuerTaxId: text('issuer_tax_id').notNull(),
    issuerName: text('issuer_name').notNull(),
    seriesFactura: text('series_factura').notNull(),
    seriesBoleta: text('series_boleta').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.country] })],
);

/**
 * One electronic invoice per order (kind 'marketplace' | 'ecommerce'): pending, issued (series,
 * number, PDF and XML links, Genial's id) or failed with its Spanish reason; how many attempts.
 */
export const genialInvoices = pgTable(
  'genial_invoices',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    orderKind: text('order_kind').notNull(),
    orderId: uuid('order_id').notNull(),
    status: text('status').notNull(),
    documentType: text('document_type'),
    series: text('series'),
    number: text('number'),
    pdfUrl: text('pdf_url'),
    xmlUrl: text('xml_url'),
    remoteId: text('remote_id'),
    customerTaxId: text('customer_tax_id'),
    lastError: text('last_error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.orderKind, t.orderId] }), index('genial_invoices_status_idx').on(t.companyId, t.status)],
);
