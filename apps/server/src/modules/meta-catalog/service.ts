import { createHash } from 'node:crypto';
import { companyCurrency, type MetaCatalogOut } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { type CatalogClient, type CatalogItemData, type CatalogRequest, ITEMS_BATCH_MAX, metaPrice } from '../../integrations/meta/catalog.js';
import { ProviderError } from '../../integrations/meta/send.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';

export const META_CATALOG_SYNC_QUEUE = 'meta-catalog.sync';

export const metaCatalogMessages = {
  noLine: 'La empresa no tiene una línea de WhatsApp conectada: conéctala en Canales primero',
  noCatalog: 'Guarda primero el id del catálogo de Meta de la línea',
  running: 'Ya hay una sincronización del catálogo en curso',
  badToken: 'No se pudo abrir el token de la línea de WhatsApp (¿cambió SECRETS_KEY?): vuelve a guardarlo en Canales',
  noImage: 'Falta la imagen del producto: Meta la exige para publicarlo',
  upToDate: 'El catálogo de Meta ya estaba al día: no se envió ningún producto',
  done: (sent: number, failed: number) =>
    `Se enviaron ${sent} ${sent === 1 ? 'cambio' : 'cambios'} al catálogo de Meta${failed ? `; ${failed} con errores (revísalos abajo)` : ''}`,
  stillProcessing: 'Meta sigue procesando el lote: vuelve a sincronizar en unos minutos para ver el resultado',
} as const;

/** How long a batch's verdict is waited for (Meta usually answers in seconds). */
const POLLS = 20;

interface CatalogRow {
  id: string;
  company_id: string;
  catalog_id: string;
  access_token: string | null;
  [key: string]: unknown;
}

export interface MetaCatalogDeps {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  client: CatalogClient;
  publicUrl: string;
  /** Between two questions about a batch's status. */
  sleep?: (ms: number) => Promise<void>;
  pollMs?: number;
}

const hashOf = (data: CatalogItemData) => createHash('sha256').update(JSON.stringify(data)).digest('hex');

/**
 * The Meta catalogue of the company's WhatsApp line (decision 0086): its id, and «Sincronizar
 * catálogo», which sends the company's products with items_batch — only what changed since the
 * last accepted send (a hash of the item per product per catalogue), removed products as
 * DELETE — then asks each batch's status for the per-item errors. An accepted product may be
 * sent in a chat (chats/product-routes.ts reads `meta_catalog_items`).
 */
export function createMetaCatalogService({ db, secrets, client, publicUrl, sleep = (ms) => new Promise((r) => setTimeout(r, ms)), pollMs = 1000 }: MetaCatalogDeps) {
  async function lineOf(companyId: string) {
    const [line] = await rowsOf<{ id: string }>(db, sql`select id from channels where company_id = ${companyId} and kind = 'whatsapp'`);
    return line;
  }
  async function catalogOf(companyId: string): Promise<CatalogRow | undefined> {
    const [row] = await rowsOf<CatalogRow>(
      db,
      sql`select mc.id, mc.company_id, mc.catalog_id, ch.access_token from meta_catalogs mc
          join channels ch on ch.id = mc.channel_id where mc.company_id = ${companyId} and ch.kind = 'whatsapp' limit 1`,
    );
    return row;
  }

  async function get(companyId: string): Promise<MetaCatalogOut> {
    const line = await lineOf(companyId);
    const [row] = await rowsOf<Record<string, unknown>>(
      db,
      sql`select mc.* from meta_catalogs mc join channels ch on ch.id = mc.channel_id where mc.company_id = ${companyId} and ch.kind = 'whatsapp' limit 1`,
    );
    if (!row) return { hasLine: Boolean(line), accepted: 0, errors: [] };
    const items = await rowsOf<{ product_id: string | null; retailer_id: string; status: string; error: string | null; name: string | null }>(
      db,
      sql`select i.product_id::text as product_id, i.retailer_id, i.status, i.error, p.name from meta_catalog_items i
          left join products p on p.company_id = i.company_id and p.id = i.product_id
          where i.meta_catalog_id = ${row.id as string} order by p.name nulls last, i.retailer_id`,
    );
    const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : undefined);
    return {
      catalogId: row.catalog_id as string,
      hasLine: true,
      sync: {
        status: row.sync_status as 'idle' | 'running' | 'done' | 'failed',
        total: Number(row.sync_total),
        processed: Number(row.sync_processed),
        sent: Number(row.sync_sent),
        failed: Number(row.sync_failed),
        message: (row.sync_message as string | null) ?? undefined,
        startedAt: iso(row.sync_started_at),
        finishedAt: iso(row.sync_finished_at),
      },
      accepted: items.filter((i) => i.status === 'accepted').length,
      errors: items
        .filter((i) => i.status === 'error')
        .map((i) => ({ productId: i.product_id ?? undefined, sku: i.retailer_id, name: i.name ?? undefined, error: i.error ?? '' })),
    };
  }

  /** The line's catalogue id; a new id starts the items over (another catalogue holds none of them). */
  async function setCatalog(companyId: string, catalogId: string): Promise<MetaCatalogOut> {
    const line = await lineOf(companyId);
    if (!line) throw new AppError('CONFLICT', metaCatalogMessages.noLine);
    await db.transaction(async (tx) => {
      const [before] = await rowsOf<{ id: string; catalog_id: string }>(tx, sql`select id, catalog_id from meta_catalogs where channel_id = ${line.id}`);
      if (before && before.catalog_id === catalogId) return;
      if (before) {
        await tx.execute(sql`delete from meta_catalog_items where meta_catalog_id = ${before.id}`);
        await tx.execute(sql`update meta_catalogs set catalog_id = ${catalogId}, sync_status = 'idle', sync_total = 0, sync_processed = 0,
            sync_sent = 0, sync_failed = 0, sync_message = null, updated_at = now() where id = ${before.id}`);
      } else {
        await tx.execute(sql`insert into meta_catalogs (company_id, channel_id, catalog_id) values (${companyId}, ${line.id}, ${catalogId})`);
      }
    });
    return get(companyId);
  }

  /** Claims the sync (one at a time per line): the job then runs it. */
  async function start(companyId: string, userId: string | undefined): Promise<MetaCatalogOut> {
    const catalog = await catalogOf(companyId);
    if (!catalog) throw new AppError('CONFLICT', (await lineOf(companyId)) ? metaCatalogMessages.noCatalog : metaCatalogMessages.noLine);
    // a run left running for 15 minutes died with its process: it may be taken again
    const claimed = await rowsOf(
      db,
      sql`update meta_catalogs set sync_status = 'running', sync_total = 0, sync_processed = 0, sync_sent = 0, sync_failed = 0,
            sync_message = null, sync_started_at = now(), sync_finished_at = null, sync_by = ${userId ?? null}, updated_at = now()
          where id = ${catalog.id} and (sync_status <> 'running' or sync_started_at < now() - interval '15 minutes') returning id`,
    );
    if (!claimed.length) throw new AppError('CONFLICT', metaCatalogMessages.running);
    return get(companyId);
  }

  async function end(catalogId: string, status: 'done' | 'failed', message: string) {
    await db.execute(sql`update meta_catalogs set sync_status = ${status}, sync_message = ${message}, sync_finished_at = now(), updated_at = now() where id = ${catalogId}`);
  }

  /** The job: one run of the company's sync to its end (a crash leaves it for the queue's retry: the hashes make a rerun send only what is left). */
  async function run(companyId: string): Promise<void> {
    const catalog = await catalogOf(companyId);
    if (!catalog) return;
    let token: string | undefined;
    try {
      token = catalog.access_token ? secrets.open<string>(catalog.access_token) : undefined;
    } catch {
      return end(catalog.id, 'failed', metaCatalogMessages.badToken);
    }
    const [company] = await rowsOf<{ country: string; currency: string | null }>(db, sql`select country, settings->>'currency' as currency from companies where id = ${companyId}`);
    const currency = companyCurrency(company?.currency, company?.country ?? 'PE');
    const [shop] = await rowsOf<{ id: string }>(db, sql`select id from catalogs where company_id = ${companyId} and is_default limit 1`);
    const link = shop ? `${publicUrl}/catalogo-digital/${shop.id}` : `${publicUrl}/catalogo-digital?company=${companyId}`;

    const products = await rowsOf<{ id: string; sku: string; name: string; description: string | null; price: string; stock: number; image_url: string | null; brand: string | null; variants: Array<{ stock?: number }> | null }>(
      db,
      sql`select p.id::text as id, p.sku, p.name, p.description, p.price, p.stock, p.image_url, b.name as brand, p.variants
          from products p left join brands b on b.company_id = p.company_id and b.id = p.brand_id
          where p.company_id = ${companyId} order by p.sku`,
    );
    const items = await rowsOf<{ retailer_id: string; product_id: string | null; hash: string | null; status: string }>(
      db,
      sql`select retailer_id, product_id::text as product_id, hash, status from meta_catalog_items where meta_catalog_id = ${catalog.id}`,
    );
    const known = new Map(items.map((i) => [i.retailer_id, i]));
    const skus = new Set(products.map((p) => p.sku));

    const requests: Array<{ request: CatalogRequest; productId?: string; hash?: string }> = [];
    const localErrors: Array<{ productId: string; sku: string; error: string }> = [];
    for (const p of products) {
      if (!p.image_url) {
        localErrors.push({ productId: p.id, sku: p.sku, error: metaCatalogMessages.noImage });
        continue;
      }
      const stock = p.variants?.length ? p.variants.reduce((n, v) => n + (v.stock ?? 0), 0) : Number(p.stock);
      const data: CatalogItemData = {
        id: p.sku,
        title: p.name.slice(0, 200),
        description: (p.description?.trim() || p.name).slice(0, 9999),
        availability: stock > 0 ? 'in stock' : 'out of stock',
        condition: 'new',
        price: metaPrice(Number(p.price), currency),
        image_link: p.image_url,
        link,
        ...(p.brand ? { brand: p.brand.slice(0, 100) } : {}),
      };
      const hash = hashOf(data);
      const before = known.get(p.sku);
      if (before?.status === 'accepted' && before.hash === hash && before.product_id === p.id) continue;
      requests.push({ request: { method: before ? 'UPDATE' : 'CREATE', data }, productId: p.id, hash });
    }
    // what Meta holds of products gone (or whose SKU changed) is removed from the catalogue
    const forget: string[] = [];
    for (const i of items) {
      if (skus.has(i.retailer_id)) continue;
      // one Meta never accepted is only forgotten here
      if (i.hash === null && i.status === 'error') forget.push(i.retailer_id);
      else requests.push({ request: { method: 'DELETE', data: { id: i.retailer_id } } });
    }
    if (forget.length) {
      await db.execute(sql`delete from meta_catalog_items where meta_catalog_id = ${catalog.id} and retailer_id in (${sql.join(
        forget.map((f) => sql`${f}`),
        sql`, `,
      )})`);
    }

    // the products Meta cannot take as they are: shown, never sent
    for (const e of localErrors) {
      await db.execute(sql`insert into meta_catalog_items (company_id, meta_catalog_id, product_id, retailer_id, hash, status, error, synced_at)
          values (${companyId}, ${catalog.id}, ${e.productId}, ${e.sku}, null, 'error', ${e.error}, now())
          on conflict (meta_catalog_id, retailer_id) do update set product_id = excluded.product_id, hash = null, status = 'error', error = excluded.error, synced_at = now()`);
    }
    await db.execute(sql`update meta_catalogs set sync_total = ${requests.length}, sync_failed = ${localErrors.length}, updated_at = now() where id = ${catalog.id}`);

    let sent = 0;
    let failed = localErrors.length;
    try {
      for (let at = 0; at < requests.length; at += ITEMS_BATCH_MAX) {
        const chunk = requests.slice(at, at + ITEMS_BATCH_MAX);
        const handles = await client.itemsBatch(catalog.catalog_id, token, chunk.map((c) => c.request));
        const errors = new Map<string, string>();
        let finished = true;
        for (const handle of handles) {
          let status = await client.batchStatus(catalog.catalog_id, token, handle);
          for (let i = 0; i < POLLS && status.status !== 'finished' && status.status !== 'error'; i++) {
            await sleep(pollMs);
            status = await client.batchStatus(catalog.catalog_id, token, handle);
          }
          if (status.status !== 'finished' && status.status !== 'error') finished = false;
          for (const e of status.errors) if (e.id) errors.set(e.id, `Meta rechazó el producto: ${e.message}`.slice(0, 1000));
        }
        if (!finished) {
          await end(catalog.id, 'failed', metaCatalogMessages.stillProcessing);
          return;
        }
        await db.transaction(async (tx) => {
          for (const c of chunk) {
            const id = c.request.data.id;
            const error = errors.get(id);
            if (c.request.method === 'DELETE') {
              if (!error) await tx.execute(sql`delete from meta_catalog_items where meta_catalog_id = ${catalog.id} and retailer_id = ${id}`);
              continue;
            }
            await tx.execute(sql`insert into meta_catalog_items (company_id, meta_catalog_id, product_id, retailer_id, hash, status, error, synced_at)
                values (${companyId}, ${catalog.id}, ${c.productId ?? null}, ${id}, ${error ? null : (c.hash ?? null)}, ${error ? 'error' : 'accepted'}, ${error ?? null}, now())
                on conflict (meta_catalog_id, retailer_id) do update set product_id = excluded.product_id, hash = excluded.hash,
                  status = excluded.status, error = excluded.error, synced_at = now()`);
          }
          sent += chunk.length;
          failed += [...chunk].filter((c) => errors.has(c.request.data.id)).length;
          await tx.execute(sql`update meta_catalogs set sync_processed = ${at + chunk.length}, sync_sent = ${sent}, sync_failed = ${failed}, updated_at = now() where id = ${catalog.id}`);
        });
      }
    } catch (error) {
      if (error instanceof ProviderError) return end(catalog.id, 'failed', error.reason);
      await end(catalog.id, 'failed', 'Error interno al sincronizar el catálogo');
      throw error;
    }
    await end(catalog.id, 'done', requests.length === 0 && failed === 0 ? metaCatalogMessages.upToDate : metaCatalogMessages.done(sent, failed));
  }

  return { get, setCatalog, start, run };
}
export type MetaCatalogService = ReturnType<typeof createMetaCatalogService>;
