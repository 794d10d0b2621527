import { forConnectionTest } from '../../integrations/connection-test.js';
import {
  connectedMarketplaceKinds,
  currencyOfCountry,
  type MarketplaceKind,
  type MarketplacePlatform,
  marketplaceKindOf,
  marketplacePlatformLabels,
  sellerCenterUrls,
} from '@mostrador/contract';
import { and, eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { marketplaceSourcesTable } from '../../db/resource-tables.js';
import { type MarketplaceAdapter, MarketplaceError } from '../../integrations/marketplace.js';
import { rethrowRefusal, urlRefusal } from '../../integrations/outbound.js';
import { createSellerCenterAdapter } from '../../integrations/seller-center/adapter.js';
import type { FetchLike } from '../../integrations/seller-center/client.js';
import { isSandboxUrl, sandboxFetch } from '../../integrations/seller-center/sandbox.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { SyncFailed } from '../../lib/sync-run.js';

/** A marketplace account with its API key opened: only the integration code holds it. */
export interface SourceCtx {
  id: string;
  companyId: string;
  name: string;
  platform: MarketplacePlatform;
  kind: MarketplaceKind;
  country: string;
  currency: string;
  sellerId?: string;
  apiUser?: string;
  apiKey?: string;
  apiUrl?: string;
  sandbox: boolean;
}

/**
 * Retries, pacing and transport of the marketplace clients. Tests shorten the waits; what an
 * account's API URL may reach is the outbound client's to judge (integrations/outbound.ts: in the
 * test environment only the sandbox and local addresses, so no test reaches the internet).
 */
export const marketplaceDefaults: {
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
  timeoutMs: number;
  feedPollMs: number;
  feedPollTries: number;
  pageSize: number;
  ordersPageSize: number;
  feedBatch: number;
  fetch?: FetchLike;
} = {
  retries: 5,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  timeoutMs: 30_000,
  feedPollMs: 2_000,
  feedPollTries: 150,
  pageSize: 500,
  ordersPageSize: 100,
  feedBatch: 1_000,
};

const cols = marketplaceSourcesTable as unknown as Record<string, AnyPgColumn>;
type SourceRow = Record<string, unknown> & { id: string; companyId: string };

export function sourceOf(row: SourceRow, secrets: Pick<SecretBox, 'open'>): SourceCtx {
  const apiKey = typeof row.apiKey === 'string' && row.apiKey ? secrets.open<string>(row.apiKey) : undefined;
  const platform = row.platform as MarketplacePlatform;
  const country = String(row.country);
  const apiUrl = typeof row.apiUrl === 'string' && row.apiUrl ? row.apiUrl : undefined;
  return {
    id: row.id,
    companyId: row.companyId,
    name: String(row.name),
    platform,
    kind: marketplaceKindOf[platform],
    country,
    currency: currencyOfCountry[country as keyof typeof currencyOfCountry] ?? 'PEN',
    sellerId: typeof row.sellerId === 'string' && row.sellerId ? row.sellerId : undefined,
    apiUser: typeof row.apiUser === 'string' && row.apiUser ? row.apiUser : undefined,
    apiKey,
    apiUrl,
    sandbox: isSandboxUrl(apiUrl),
  };
}

/** One of the company's accounts (404 when it is another company's or does not exist). */
export async function loadSource(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string, sourceId: string): Promise<SourceCtx> {
  const [row] = await db
    .select()
    .from(marketplaceSourcesTable)
    .where(and(eq(cols.companyId, companyId), eq(cols.id, sourceId)));
  if (!row) throw new AppError('NOT_FOUND', 'La fuente de marketplace no existe');
  return sourceOf(row as SourceRow, secrets);
}

export async function sourcesOf(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string): Promise<SourceCtx[]> {
  const rows = await db.select().from(marketplaceSourcesTable).where(eq(cols.companyId, companyId));
  return rows.map((r) => sourceOf(r as SourceRow, secrets));
}

/** «Falabella Perú (sandbox)»: how messages name an account. */
export const sourceLabel = (s: SourceCtx) => `${s.name}${s.sandbox ? ' (sandbox)' : ''}`;

/** The API address of an account: its own, else its platform's for its country. */
export function apiUrlOf(s: SourceCtx): string {
  if (s.apiUrl) return s.apiUrl;
  const url = sellerCenterUrls[s.platform]?.[s.country as 'PE' | 'CL' | 'CO'];
  if (!url) throw new MarketplaceError('config', `${marketplacePlatformLabels[s.platform]} no tiene una API conocida para ${s.country}: escribe la URL de la API en la fuente`);
  return url;
}

/**
 * The adapter of an account's kind (decision 0035). `interactive`: a person waits for the answer
 * (a single variation's send, a document): fewer retries and a shorter wait for the feed, so the
 * screen answers within its 60 s. Accounts of a kind not connected yet, or without credentials,
 * are refused with the reason.
 */
export function adapterFor(s: SourceCtx, { interactive = false, test = false }: { interactive?: boolean; test?: boolean } = {}): MarketplaceAdapter {
  if (!connectedMarketplaceKinds.includes(s.kind)) {
    throw new MarketplaceError('unsupported', `${marketplacePlatformLabels[s.platform]} aún no se conecta desde Mostrador: por ahora solo Falabella y Linio (Seller Center)`);
  }
  if (!s.apiUser) throw new MarketplaceError('config', `Falta el usuario de la API (el correo del usuario de Seller Center) en ${s.name}`);
  if (!s.apiKey) throw new MarketplaceError('config', `Falta la API key de Seller Center en ${s.name}`);
  const url = apiUrlOf(s);
  // what can be said of the address before calling it (the outbound client judges the rest on every call)
  const refusal = urlRefusal(url, { base: true });
  if (refusal) rethrowRefusal(refusal, (msg) => new MarketplaceError('config', msg));
  // a «Probar conexión» answers within seconds (decision 0061); a send or a document a person waits for, within a minute
  const d = { ...marketplaceDefaults, ...(test ? forConnectionTest(marketplaceDefaults) : {}) };
  return createSellerCenterAdapter({
    url,
    userId: s.apiUser,
    apiKey: s.apiKey,
    sellerId: s.sellerId,
    country: s.country,
    dialect: s.platform === 'linio' ? 'classic' : 'business-units',
    fetch: s.sandbox ? sandboxFetch(s.companyId, url, s.country, { userId: s.apiUser, apiKey: s.apiKey }) : d.fetch,
    retries: interactive ? Math.min(d.retries, 3) : d.retries,
    backoffMs: d.backoffMs,
    maxBackoffMs: interactive ? Math.min(d.maxBackoffMs, 5_000) : d.maxBackoffMs,
    timeoutMs: d.timeoutMs,
    pageSize: d.pageSize,
    ordersPageSize: d.ordersPageSize,
    feedBatch: d.feedBatch,
    feedPollMs: d.feedPollMs,
    feedPollTries: interactive ? Math.min(d.feedPollTries, 10) : d.feedPollTries,
  });
}

/**
 * A provider's failure as the API answers it (never a 5xx for the account's own configuration,
 * decision 0035): what the account must fix is a 409, what the marketplace does not have a 404,
 * an unfinished conversation with the marketplace a 502.
 */
export function httpErrorOf(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (!(error instanceof MarketplaceError)) throw error;
  switch (error.kind) {
    case 'not-found':
      return new AppError('NOT_FOUND', error.msg);
    case 'invalid':
      return new AppError('VALIDATION', error.msg);
    case 'rate-limited':
      return new AppError('RATE_LIMITED', error.msg);
    case 'network':
    case 'server':
      return new AppError('PROVIDER_ERROR', error.msg);
    default:
      return new AppError('CONFLICT', error.msg);
  }
}

/** The account a run (a sync, a bulk update) works for: its end, failed, when the account is gone. */
export async function sourceOfRun(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string, sourceId: string): Promise<SourceCtx> {
  const source = await loadSource(db, secrets, companyId, sourceId).catch(() => undefined);
  if (!source) throw new SyncFailed('La fuente de marketplace ya no existe');
  return source;
}

/** The run's adapter: its end, failed with the reason, when the account's settings cannot make one. */
export function adapterOfRun(source: SourceCtx, makeAdapter: (s: SourceCtx) => MarketplaceAdapter): MarketplaceAdapter {
  try {
    return makeAdapter(source);
  } catch (error) {
    throw error instanceof MarketplaceError ? new SyncFailed(error.msg) : error;
  }
}
