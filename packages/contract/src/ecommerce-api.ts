import { z } from 'zod';
import { zAmount, zCountry, zId, zInteger, zText } from './fields.js';
import { formMessages } from './messages-es.js';
import { ecommerceProductStatuses } from './resources/ecommerces.js';

/**
 * The WooCommerce stores' calls beyond the standard resources (SPEC §7 "Ecommerce products",
 * issue 12; decision 0034). All under /api:
 *
 *   POST  /woocommerces/{id}/test                 the store's connection test: what is wrong, in Spanish
 *   POST  /webhooks/woocommerce/{storeId}         signed webhooks of the store (X-WC-Webhook-Signature)
 *   GET   /ecommerces/sizes                       sizes used by the products and their variations
 *   GET   /ecommerces/categories                  the store categories, with parent (0 = top level)
 *   GET   /ecommerces/attributes                  attributes (nombre, woocommerceId, country)
 *   GET   /ecommerces/attributes-with-values      the same with their terms' names
 *   GET   /ecommerces/crossover/country/{country} each product of that country beside the same SKU in the other stores
 *   PATCH /ecommerces/v2/{id}                     saves a product and pushes it to its store
 *   PUT   /ecommerces/{id}/variations/{variationId}   saves a variation (no push)
 *   POST  /ecommerces/{id}/variations/batch       create/update/delete variations, pushed as one store batch
 *   POST  /ecommerces/{id}/variations/{variationId}   pushes one variation to the store
 *   POST  /ecommerces/sync-all                    a sync job per store (pull, then push what changed here)
 *   POST  /ecommerces/sync-selected               a push job of the chosen products
 *   POST  /ecommerces/copy-multimedia-ref-copys   copies a reference product's image and texts to the same SKU in the other stores
 *   GET   /ecommerces/sync-runs                   the latest sync jobs (progress, counts, per-item errors)
 *   GET   /ecommerces/sync-runs/{id}
 */

export const syncRunStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type SyncRunStatus = (typeof syncRunStatuses)[number];
export const syncRunStatusLabels: Record<SyncRunStatus, string> = {
  queued: 'En cola',
  running: 'Sincronizando',
  done: 'Terminada',
  failed: 'Fallida',
};
export const syncRunKinds = ['all', 'selected'] as const;

/** One item a sync could not take or send, and why (Spanish). */
export const syncItemError = z.object({ item: z.string(), msg: z.string() });

/** A store sync job as the screens show it (GET /ecommerces/sync-runs, the `sync.progress` event). */
export const syncRunOut = z.object({
  _id: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  country: z.string(),
  kind: z.enum(syncRunKinds),
  status: z.enum(syncRunStatuses),
  /** Items to look at (store items pulled + local items pushed), known after the first requests. */
  total: z.number().int(),
  done: z.number().int(),
  /** Records written here (created or changed), items unchanged, and writes sent to the store. */
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  storeWrites: z.number().int(),
  requests: z.number().int(),
  failedItems: z.number().int(),
  errors: z.array(syncItemError),
  /** Why the whole run stopped (a failed run). */
  message: z.string().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  createdAt: z.string(),
});
export type SyncRunOut = z.infer<typeof syncRunOut>;
export const syncRunsOut = z.object({ payload: z.array(syncRunOut) });

export const syncAllBody = z
  .object({
    /** One store; none: every store of the company. */
    storeId: zId().optional(),
  })
  .strict();
export const syncSelectedBody = z
  .object({ ids: z.array(zId(), { error: formMessages.invalid }).min(1, 'Elige al menos un producto').max(1000, formMessages.tooLong) })
  .strict();
export const syncStarted = z.object({ msg: z.string(), runs: z.array(syncRunOut) });

/** What a failed connection test points at: the address, the keys, their permissions, or the store itself. */
export const connectionProblems = ['url', 'keys', 'permissions', 'store'] as const;
export type ConnectionProblem = (typeof connectionProblems)[number];

/** The connection test's answer: ok, and what is wrong in Spanish when not. */
export const connectionTestOut = z.object({
  ok: z.boolean(),
  msg: z.string(),
  /** When not ok: which part to fix (the screen points at it). */
  problem: z.enum(connectionProblems).optional(),
  /** The store's product count when it answered. */
  products: z.number().int().optional(),
  canWrite: z.boolean().optional(),
});
export type ConnectionTestOut = z.infer<typeof connectionTestOut>;

/** What a push of one record did. */
export const pushResult = z.object({
  status: z.enum(['synced', 'unchanged', 'failed', 'no-store']),
  msg: z.string(),
});
export type PushResult = z.infer<typeof pushResult>;

const variationAttributes = z
  .array(z.object({ nombre: zText(60), value: zText(60) }).strict(), { error: formMessages.invalid })
  .max(10, formMessages.tooLong);
const sku = zText(60)
  .toUpperCase()
  .regex(/^[A-Z0-9._-]+$/, 'Solo letras, números, puntos y guiones');

/** PUT /ecommerces/{id}/variations/{variationId}: what a variation's edit may change. */
export const variationPatch = z
  .object({ sku: sku.optional(), price: zAmount().optional(), stock: zInteger(0).optional(), attributes: variationAttributes.optional() })
  .strict();
export const variationCreate = z.object({ sku, price: zAmount(), stock: zInteger(0), attributes: variationAttributes }).strict();

/** POST /ecommerces/{id}/variations/batch: WooCommerce's batch shape, at most 100 items in all. */
export const variationBatchBody = z
  .object({
    create: z.array(variationCreate, { error: formMessages.invalid }).max(100, 'Como máximo 100 variaciones por lote').optional(),
    update: z
      .array(variationPatch.extend({ _id: zId() }).strict(), { error: formMessages.invalid })
      .max(100, 'Como máximo 100 variaciones por lote')
      .optional(),
    delete: z.array(zId(), { error: formMessages.invalid }).max(100, 'Como máximo 100 variaciones por lote').optional(),
  })
  .strict()
  .refine((b) => (b.create?.length ?? 0) + (b.update?.length ?? 0) + (b.delete?.length ?? 0) > 0, 'El lote está vacío')
  .refine((b) => (b.create?.length ?? 0) + (b.update?.length ?? 0) + (b.delete?.length ?? 0) <= 100, 'Como máximo 100 variaciones por lote');

export const variationOut = z.object({
  _id: z.string(),
  ecommerceId: z.string().optional(),
  sku: z.string(),
  price: z.number(),
  stock: z.number(),
  attributes: z.array(z.object({ nombre: z.string(), value: z.string() })),
  woocommerceId: z.number().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const variationBatchOut = z.object({
  create: z.array(variationOut),
  update: z.array(variationOut),
  delete: z.array(z.object({ _id: z.string() })),
  sync: pushResult,
});

/** POST /ecommerces/copy-multimedia-ref-copys: the reference product and, optionally, which countries receive. */
export const copyMultimediaBody = z
  .object({
    referenceId: zId(),
    countries: z.array(zCountry(), { error: formMessages.invalid }).max(10, formMessages.tooLong).optional(),
  })
  .strict();
export const copyMultimediaOut = z.object({
  msg: z.string(),
  /** The products that received the copy (same SKU, other country stores). */
  updated: z.array(z.object({ _id: z.string(), country: z.string() })),
  runs: z.array(syncRunOut),
});

export const sizesOut = z.object({ payload: z.array(z.string()) });
export const storeCategoryOut = z.object({
  _id: z.string(),
  name: z.string(),
  slug: z.string(),
  parent: z.number().int(),
  id: z.number().int().optional(),
  country: z.string().optional(),
  /** The label the category stands for (SPEC §3 "Labels"), when linked. */
  foreignLabelId: z.string().optional(),
  products: z.number().int(),
});
export const storeCategoriesOut = z.object({ payload: z.array(storeCategoryOut) });
export const storeAttributeOut = z.object({
  _id: z.string(),
  nombre: z.string(),
  woocommerceId: z.number().int(),
  country: z.string(),
  values: z.array(z.string()).optional(),
});
export const storeAttributesOut = z.object({ payload: z.array(storeAttributeOut) });

/** One product beside the same SKU in the other country stores. */
export const crossoverSide = z.object({
  _id: z.string(),
  country: z.string(),
  name: z.string(),
  price: z.number(),
  regularPrice: z.number().optional(),
  stock: z.number(),
  status: z.enum(ecommerceProductStatuses),
  variations: z.number().int(),
});
export const crossoverRow = z.object({
  sku: z.string(),
  product: crossoverSide,
  others: z.array(crossoverSide),
  /** Countries with a store that lack this SKU. */
  missingIn: z.array(z.string()),
  /** Fields that differ from this country's product in some other store (name, price, stock, status, variations). */
  differences: z.array(z.string()),
});
export const crossoverOut = z.object({ payload: z.array(crossoverRow), totalDocs: z.number().int(), totalPages: z.number().int(), page: z.number().int(), limit: z.number().int() });
export const crossoverQuery = z
  .object({
    page: z.coerce.number({ error: 'La página debe ser un número' }).int().min(1, 'La página debe ser 1 o más').max(100_000).default(1),
    limit: z.coerce.number({ error: 'El límite debe ser un número' }).int().min(1).max(100, 'Como máximo 100 por página').default(20),
    filter: z.string().trim().max(200, formMessages.tooLong).optional(),
    /** Only products that differ somewhere (or are missing in a store). */
    onlyDifferent: z.enum(['true', 'false']).optional(),
  })
  .strict();
