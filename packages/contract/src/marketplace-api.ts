import { z } from 'zod';
import { AMOUNT_MAX, zCountry, zId, zInteger } from './fields.js';
import { formMessages } from './messages-es.js';
import { marketplaceOrders, marketplaceOrderStatuses } from './resources/marketplace-orders.js';
import { marketplaceListingStatuses } from './resources/marketplace-products.js';
import { marketplaceVariations } from './resources/marketplace-variations.js';

/**
 * The marketplace calls beyond the standard resources (SPEC §7 "Marketplace", issue 12;
 * decision 0035). All under /api:
 *
 *   POST  /marketplace-sources/{id}/test                      the account's connection test: what is wrong, in Spanish
 *   POST  /marketplace-sources/{id}/sync                      a sync job of the account (its products, then its orders)
 *   GET   /marketplace-sync-runs                              the latest sync jobs (progress, counts, per-item errors)
 *   GET   /marketplace-sync-runs/{id}
 *   GET   /marketplace-products/variations                    every variation (the list query of marketplace-variations)
 *   GET   /marketplace-products/{id}/variations               one product's variations
 *   PATCH /marketplace-products/variations/{id}               a variation's price and/or stock, saved here (not sent yet)
 *   POST  /marketplace-products/variations/{id}/sync          sends one variation's price and stock to the marketplace
 *   GET   /marketplace-products/crossover/country/{country}   each product of a country beside the same parent SKU elsewhere
 *   POST  /marketplace-products/bulk/preview                  bulk update of prices and stock: what would change (JSON rows or a pasted table)
 *   POST  /marketplace-products/bulk/csv?sourceId=            the same from an uploaded CSV file (text/csv body)
 *   POST  /marketplace-products/bulk/{id}/apply               sends the previewed changes, as a job
 *   GET   /marketplace-products/bulk/{id}                     a bulk update's progress and per-row report
 *   GET   /marketplace-orders/{id}/items                      the order's items (each with its own status)
 *   GET   /marketplace-orders/{id}/documents?DocumentType=    the marketplace's document of the order (streamed)
 *   POST  /marketplace-orders/{id}/ready-to-ship              marks the order's pending items ready to ship
 */

// ---- sources: connection test and sync jobs ---------------------------------------------------

/** The connection test's answer: ok, and what is wrong in Spanish when not. */
export const marketplaceTestOut = z.object({
  ok: z.boolean(),
  msg: z.string(),
  /** How many SKUs and orders the account reads, when it answered. */
  products: z.number().int().optional(),
  orders: z.number().int().optional(),
});
export type MarketplaceTestOut = z.infer<typeof marketplaceTestOut>;

export const marketplaceRunStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type MarketplaceRunStatus = (typeof marketplaceRunStatuses)[number];
export const marketplaceRunStatusLabels: Record<MarketplaceRunStatus, string> = {
  queued: 'En cola',
  running: 'En curso',
  done: 'Terminada',
  failed: 'Fallida',
};

/** One item a sync could not take, and why (Spanish). */
export const marketplaceItemError = z.object({ item: z.string(), msg: z.string() });

/** A marketplace sync job as the screens show it (GET /marketplace-sync-runs, the `marketplace.sync` event). */
export const marketplaceSyncRunOut = z.object({
  _id: z.string(),
  sourceId: z.string(),
  sourceName: z.string(),
  country: z.string(),
  status: z.enum(marketplaceRunStatuses),
  /** What the run reads: SKUs then orders; grows while pages arrive (Seller Center does not tell how many SKUs there are). */
  total: z.number().int(),
  done: z.number().int(),
  /** Records written here (created or changed) and items that were already the same. */
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Requests made to the marketplace. */
  requests: z.number().int(),
  failedItems: z.number().int(),
  errors: z.array(marketplaceItemError),
  /** Why the run stopped (failed), or why it waits to be retried. */
  message: z.string().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  createdAt: z.string(),
});
export type MarketplaceSyncRunOut = z.infer<typeof marketplaceSyncRunOut>;
export const marketplaceSyncRunsOut = z.object({ payload: z.array(marketplaceSyncRunOut) });
export const marketplaceSyncRunsQuery = z.object({ sourceId: zId().optional() }).strict();
export const marketplaceSyncStarted = z.object({ msg: z.string(), run: marketplaceSyncRunOut });

// ---- variations ---------------------------------------------------------------------------------

/** A price a marketplace accepts: more than zero. */
export const zMarketplacePrice = () =>
  z.number({ error: formMessages.decimal }).positive('El precio debe ser mayor que cero').max(AMOUNT_MAX, formMessages.tooBig);

/** PATCH /marketplace-products/variations/{id}: the price and/or the stock, saved here; POST …/sync sends them. */
export const marketplaceVariationPatch = z
  .object({ price: zMarketplacePrice().optional(), stock: zInteger(0).optional() })
  .strict()
  .refine((b) => b.price !== undefined || b.stock !== undefined, 'Indica el precio o el stock');
export type MarketplaceVariationPatch = z.infer<typeof marketplaceVariationPatch>;

export const marketplacePushStatuses = ['synced', 'unchanged', 'failed', 'processing'] as const;
/** What sending one variation did: sent and taken, nothing to send, refused (the marketplace's reason) or still processed there. */
export const marketplacePushOut = z.object({
  status: z.enum(marketplacePushStatuses),
  msg: z.string(),
  variation: marketplaceVariations.entity,
});
export type MarketplacePushOut = z.infer<typeof marketplacePushOut>;

// ---- crossover ----------------------------------------------------------------------------------

/** One product of one account beside the same parent SKU in the accounts of the other countries. */
export const marketplaceCrossoverSide = z.object({
  _id: z.string(),
  sourceId: z.string().optional(),
  sourceName: z.string().optional(),
  country: z.string(),
  name: z.string(),
  price: z.number(),
  stock: z.number(),
  status: z.enum(marketplaceListingStatuses),
  variations: z.number().int(),
});
export const marketplaceCrossoverRow = z.object({
  parentSku: z.string(),
  product: marketplaceCrossoverSide,
  others: z.array(marketplaceCrossoverSide),
  /** Countries with a marketplace account that lack this SKU. */
  missingIn: z.array(z.string()),
  /** Fields that differ from this country's product somewhere else (name, price, stock, status, variations; 'cuentas' when missing). */
  differences: z.array(z.string()),
});
export const marketplaceCrossoverOut = z.object({
  payload: z.array(marketplaceCrossoverRow),
  totalDocs: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export const marketplaceCrossoverQuery = z
  .object({
    page: z.coerce.number({ error: 'La página debe ser un número' }).int('La página debe ser un entero').min(1, 'La página empieza en 1').max(100_000).default(1),
    limit: z.coerce.number({ error: 'El límite debe ser un número' }).int('El límite debe ser un entero').min(1, 'El límite mínimo es 1').max(100, 'Como máximo 100 por página').default(20),
    filter: z.string().trim().max(200, 'La búsqueda es demasiado larga').optional(),
    /** Only products that differ somewhere (or are missing in an account). */
    onlyDifferent: z.enum(['true', 'false'], { error: "Debe ser 'true' o 'false'" }).optional(),
  })
  .strict();
export const marketplaceCountryParams = z.object({ country: zCountry() });

// ---- bulk update of prices and stock ------------------------------------------------------------

/** At most this many rows per bulk update (a CSV or a pasted table). */
export const BULK_MAX_ROWS = 10_000;

/** One row of a bulk update: the SKU and what to set (an empty field keeps its value). */
export const bulkRowInput = z
  .object({
    sku: z.string({ error: formMessages.invalid }).max(200, formMessages.tooLong),
    price: z.union([z.number(), z.string().max(40, formMessages.tooLong)], { error: formMessages.invalid }).optional(),
    stock: z.union([z.number(), z.string().max(40, formMessages.tooLong)], { error: formMessages.invalid }).optional(),
  })
  .strict();
export type BulkRowInput = z.infer<typeof bulkRowInput>;

/**
 * POST /marketplace-products/bulk/preview: the account and either rows (JSON) or a table as text
 * (pasted from a spreadsheet: tab-separated, or CSV with `,` or `;`), with a header row naming
 * sku, precio and/or stock. Values are checked row by row (each invalid row has its Spanish
 * reason), never the whole request: a bad row does not stop the others.
 */
export const bulkPreviewBody = z
  .object({
    sourceId: zId(),
    rows: z.array(bulkRowInput, { error: formMessages.invalid }).max(BULK_MAX_ROWS, `Como máximo ${BULK_MAX_ROWS} filas por lote`).optional(),
    text: z.string({ error: formMessages.invalid }).max(2_000_000, 'La tabla es demasiado grande').optional(),
  })
  .strict()
  .refine((b) => (b.rows !== undefined) !== (b.text !== undefined), { message: 'Envía las filas o la tabla pegada (una de las dos)', path: ['rows'] });
export type BulkPreviewBody = z.infer<typeof bulkPreviewBody>;
export const bulkCsvQuery = z.object({ sourceId: zId() }).strict();

export const bulkRowStatuses = ['change', 'unchanged', 'invalid', 'sent', 'refused'] as const;
export type BulkRowStatus = (typeof bulkRowStatuses)[number];
export const bulkRowStatusLabels: Record<BulkRowStatus, string> = {
  change: 'Cambia',
  unchanged: 'Sin cambios',
  invalid: 'Fila no válida',
  sent: 'Enviada',
  refused: 'Rechazada por el marketplace',
};

const fieldChange = z.object({ old: z.number().optional(), new: z.number() });
/** One row of a bulk update: what it changes (old → new), or why it is not sent; after applying, what the marketplace did. */
export const bulkRowOut = z.object({
  /** The row as the person sees it: the spreadsheet's row number (the header is row 1), or the position in the rows sent. */
  row: z.number().int(),
  sku: z.string(),
  variationId: z.string().optional(),
  name: z.string().optional(),
  price: fieldChange.optional(),
  stock: fieldChange.optional(),
  status: z.enum(bulkRowStatuses),
  reason: z.string().optional(),
});
export type BulkRowOut = z.infer<typeof bulkRowOut>;

export const bulkStatuses = ['preview', 'queued', 'running', 'done', 'failed'] as const;
export type BulkStatus = (typeof bulkStatuses)[number];
export const bulkStatusLabels: Record<BulkStatus, string> = {
  preview: 'Vista previa',
  queued: 'En cola',
  running: 'Enviando',
  done: 'Terminado',
  failed: 'Fallido',
};

/** A bulk update: its counts (the `marketplace.bulk` event carries this) and, on the calls that read it, its rows. */
export const bulkRunOut = z.object({
  _id: z.string(),
  sourceId: z.string(),
  sourceName: z.string(),
  country: z.string(),
  currency: z.string(),
  status: z.enum(bulkStatuses),
  /** Rows read, rows that change something, rows equal to the marketplace, invalid rows. */
  total: z.number().int(),
  changes: z.number().int(),
  unchanged: z.number().int(),
  invalid: z.number().int(),
  /** After applying: rows taken by the marketplace, rows it refused, rows still to send. */
  sent: z.number().int(),
  refused: z.number().int(),
  pending: z.number().int(),
  /** Requests made to the marketplace (and, of them, price/stock updates sent). */
  requests: z.number().int(),
  updates: z.number().int(),
  message: z.string().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  createdAt: z.string(),
  rows: z.array(bulkRowOut).optional(),
});
export type BulkRunOut = z.infer<typeof bulkRunOut>;
export const bulkRunQuery = z.object({ status: z.enum(bulkRowStatuses, { error: formMessages.option }).optional() }).strict();
export const bulkApplyOut = z.object({ msg: z.string(), run: bulkRunOut });

// ---- orders -------------------------------------------------------------------------------------

/** One item of a marketplace order (Seller Center's OrderItem: one unit each). */
export const marketplaceOrderItemOut = z.object({
  _id: z.string(),
  externalId: z.string(),
  sellerSku: z.string(),
  shopSku: z.string().optional(),
  name: z.string(),
  variation: z.string().optional(),
  status: z.enum(marketplaceOrderStatuses),
  price: z.number(),
  paidPrice: z.number(),
  shippingAmount: z.number(),
  currency: z.string(),
  packageId: z.string().optional(),
  trackingCode: z.string().optional(),
  shipmentProvider: z.string().optional(),
  /** Our variation of the same SKU in that account, when there is one. */
  variationId: z.string().optional(),
});
export type MarketplaceOrderItemOut = z.infer<typeof marketplaceOrderItemOut>;
export const marketplaceOrderItemsOut = z.object({ payload: z.array(marketplaceOrderItemOut) });

/** Documents Seller Center keeps for an order (GetDocument's DocumentType). */
export const marketplaceDocumentTypes = ['invoice', 'exportInvoice', 'shippingLabel', 'shippingParcel', 'carrierManifest', 'serialNumber'] as const;
export type MarketplaceDocumentType = (typeof marketplaceDocumentTypes)[number];
export const marketplaceDocumentTypeLabels: Record<MarketplaceDocumentType, string> = {
  invoice: 'Factura',
  exportInvoice: 'Factura de exportación',
  shippingLabel: 'Etiqueta de envío',
  shippingParcel: 'Etiqueta del bulto',
  carrierManifest: 'Manifiesto del transportista',
  serialNumber: 'Números de serie',
};
export const marketplaceDocumentQuery = z
  .object({ DocumentType: z.enum(marketplaceDocumentTypes, { error: `Elige un tipo de documento: ${marketplaceDocumentTypes.join(', ')}` }) })
  .strict();

export const marketplaceReadyToShipOut = z.object({ msg: z.string(), order: marketplaceOrders.entity });
