import { z } from 'zod';
import { zCountry, zId, zOptionalText, zText, zUrl } from './fields.js';
import { formMessages } from './messages-es.js';
import type { CountryCode } from './phone.js';

/**
 * Genial, the electronic invoicing service (SPEC §7 genial-retry, issue 12, decision 0037). All
 * under /api:
 *
 *   GET    /genial/settings                          the company's Genial settings, one per country (the token never shown)
 *   PUT    /genial/settings/{country}                saves a country's settings (token kept when left out)
 *   DELETE /genial/settings/{country}
 *   GET    /genial/invoices?kind=&orderIds=a,b       the invoices of a page of orders
 *   GET    /marketplace-orders/{id}/invoice          an order's invoice
 *   GET    /ecommerces-orders/{id}/invoice
 *   POST   /marketplace-orders/{id}/genial-retry     issues again a failed (or never issued) invoice, as a job
 *   POST   /ecommerces-orders/{id}/genial-retry
 */

/** `order`: an order of the company's own catalogue or chat, invoiced when it is paid (issue 30). */
export const genialOrderKinds = ['marketplace', 'ecommerce', 'order'] as const;
export type GenialOrderKind = (typeof genialOrderKinds)[number];

/** 'none' is an order without an invoice row yet. */
export const genialInvoiceStatuses = ['none', 'pending', 'issued', 'failed'] as const;
export type GenialInvoiceStatus = (typeof genialInvoiceStatuses)[number];
export const genialInvoiceStatusLabels: Record<GenialInvoiceStatus, string> = {
  none: 'Sin emitir',
  pending: 'Pendiente',
  issued: 'Emitida',
  failed: 'Fallida',
};

export const genialDocumentTypes = ['factura', 'boleta'] as const;
export type GenialDocumentType = (typeof genialDocumentTypes)[number];

/** Tax per country on Genial's documents: IGV 18 % in Perú, IVA 19 % in Chile and Colombia. */
export const genialTaxRates: Partial<Record<CountryCode, { name: string; rate: number }>> = {
  PE: { name: 'IGV', rate: 0.18 },
  CL: { name: 'IVA', rate: 0.19 },
  CO: { name: 'IVA', rate: 0.19 },
};
export const genialCountries = ['PE', 'CL', 'CO'] as const;

export const genialInvoiceOut = z.object({
  kind: z.enum(genialOrderKinds),
  orderId: z.string(),
  status: z.enum(genialInvoiceStatuses),
  documentType: z.enum(genialDocumentTypes).optional(),
  series: z.string().optional(),
  number: z.string().optional(),
  pdfUrl: z.string().optional(),
  xmlUrl: z.string().optional(),
  customerTaxId: z.string().optional(),
  error: z.string().optional(),
  attempts: z.number().int(),
  updatedAt: z.string().optional(),
});
export type GenialInvoiceOut = z.infer<typeof genialInvoiceOut>;

export const genialRetryBody = z
  .object({
    /** The customer's tax id (RUC, DNI, RUT, NIT…), to correct the one Genial refused. */
    customerTaxId: zOptionalText(20)
      .regex(/^[0-9kK.-]*$/, 'Escribe solo números (y la K del RUT)')
      .optional(),
  })
  .strict();
export type GenialRetryBody = z.infer<typeof genialRetryBody>;
export const genialRetryOut = z.object({ msg: z.string(), invoice: genialInvoiceOut });
export type GenialRetryOut = z.infer<typeof genialRetryOut>;

export const genialInvoicesQuery = z
  .object({
    kind: z.enum(genialOrderKinds, { error: formMessages.option }),
    orderIds: z
      .string({ error: formMessages.invalid })
      .max(4000, formMessages.tooLong)
      .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
      .pipe(z.array(zId()).max(100, 'Como máximo 100 órdenes por consulta')),
  })
  .strict();
export const genialInvoicesOut = z.object({ payload: z.array(genialInvoiceOut) });

export const genialSettingsIn = z
  .object({
    apiUrl: zUrl(300),
    /** Write-only: left out, the saved token stays. */
    token: zOptionalText(500).optional(),
    issuerTaxId: zText(20).regex(/^[0-9kK.-]+$/, 'Escribe solo números (y la K del RUT)'),
    issuerName: zText(200),
    seriesFactura: zText(8),
    seriesBoleta: zText(8),
  })
  .strict();
export type GenialSettingsIn = z.infer<typeof genialSettingsIn>;
export const genialSettingsOut = z.object({
  country: z.string(),
  apiUrl: z.string(),
  tokenSet: z.boolean(),
  issuerTaxId: z.string(),
  issuerName: z.string(),
  seriesFactura: z.string(),
  seriesBoleta: z.string(),
  sandbox: z.boolean(),
  updatedAt: z.string(),
});
export type GenialSettingsOut = z.infer<typeof genialSettingsOut>;
export const genialSettingsListOut = z.object({ payload: z.array(genialSettingsOut) });
export const genialCountryParams = z.object({ country: zCountry() });

/** What a failed connection test points at: the API's address, the token, or the issuer the token belongs to. */
export const genialConnectionProblems = ['url', 'token', 'issuer', 'service'] as const;
/** POST /genial/settings/{country}/test: the saved settings tried against Genial (decision 0037). */
export const genialConnectionTestOut = z.object({
  ok: z.boolean(),
  msg: z.string(),
  problem: z.enum(genialConnectionProblems).optional(),
});
export type GenialConnectionTestOut = z.infer<typeof genialConnectionTestOut>;
