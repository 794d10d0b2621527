import { forConnectionTest } from '../../integrations/connection-test.js';
import { and, eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { woocommercesTable } from '../../db/resource-tables.js';
import { createWooClient, type FetchLike, type WooClient } from '../../integrations/woocommerce/client.js';
import { isSandboxUrl, sandboxFetch } from '../../integrations/woocommerce/sandbox.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';

/** A store with its keys opened: only the integration code holds them. */
export interface StoreCtx {
  id: string;
  companyId: string;
  name: string;
  url: string;
  country: string;
  consumerKey: string;
  consumerSecret: string;
  webhookSecret?: string;
}

/** Retry and pacing of the store clients; tests shorten the waits. */
export const wooDefaults: { retries: number; backoffMs: number; maxBackoffMs: number; timeoutMs: number; fetch?: FetchLike } = {
  retries: 5,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  timeoutMs: 30_000,
};

export const storeColumns = woocommercesTable as unknown as Record<string, AnyPgColumn>;

type StoreRow = Record<string, unknown> & { id: string; companyId: string };

export function storeOf(row: StoreRow, secrets: Pick<SecretBox, 'open'>): StoreCtx {
  const open = (v: unknown) => (typeof v === 'string' && v ? secrets.open<string>(v) : undefined);
  return {
    id: row.id,
    companyId: row.companyId,
    name: String(row.name),
    url: String(row.url),
    country: String(row.country),
    consumerKey: open(row.consumerKey) ?? '',
    consumerSecret: open(row.consumerSecret) ?? '',
    webhookSecret: open(row.webhookSecret),
  };
}

/** One of the company's stores (404 when it is another company's or does not exist). */
export async function loadStore(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string, storeId: string): Promise<StoreCtx> {
  const [row] = await db
    .select()
    .from(woocommercesTable)
    .where(and(eq(storeColumns.companyId, companyId), eq(storeColumns.id, storeId)));
  if (!row) throw new AppError('NOT_FOUND', 'La tienda no existe');
  return storeOf(row as StoreRow, secrets);
}

/** The company's store of a country, if it has one. */
export async function storeOfCountry(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string, country: string): Promise<StoreCtx | undefined> {
  const [row] = await db
    .select()
    .from(woocommercesTable)
    .where(and(eq(storeColumns.companyId, companyId), eq(storeColumns.country, country)));
  return row ? storeOf(row as StoreRow, secrets) : undefined;
}

export async function storesOf(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string): Promise<StoreCtx[]> {
  const rows = await db.select().from(woocommercesTable).where(eq(storeColumns.companyId, companyId));
  return rows.map((r) => storeOf(r as StoreRow, secrets));
}

/** The store's REST client: the sandbox in-process for `*.sandbox.test`, else HTTPS. */
export function clientFor(store: StoreCtx, { test = false }: { test?: boolean } = {}): WooClient {
  // a «Probar conexión» answers within seconds; a sync keeps its patient retries
  const policy = test ? forConnectionTest(wooDefaults) : wooDefaults;
  const fetch = isSandboxUrl(store.url)
    ? sandboxFetch(store.companyId, store.url, store.country, { consumerKey: store.consumerKey, consumerSecret: store.consumerSecret })
    : wooDefaults.fetch;
  return createWooClient({
    url: store.url,
    consumerKey: store.consumerKey,
    consumerSecret: store.consumerSecret,
    retries: policy.retries,
    backoffMs: policy.backoffMs,
    maxBackoffMs: policy.maxBackoffMs,
    timeoutMs: policy.timeoutMs,
    fetch,
  });
}
