import type { ConnectionTestOut, CountryCode, PushResult, SyncRunOut } from '@mostrador/contract';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { resourceKeys, ecommerceKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';
import type { ResourceRecord } from '../../components/crud/types';

const enc = encodeURIComponent;

/** What the crossover answers per product (contract crossoverRow). */
export interface CrossoverSide {
  _id: string;
  country: string;
  name: string;
  price: number;
  regularPrice?: number;
  stock: number;
  status: 'publish' | 'draft' | 'private';
  variations: number;
}
export interface CrossoverRow {
  sku: string;
  product: CrossoverSide;
  others: CrossoverSide[];
  missingIn: string[];
  differences: string[];
}
export interface StoreCategory {
  _id: string;
  name: string;
  slug: string;
  parent: number;
  id?: number;
  country?: string;
  foreignLabelId?: string;
  products: number;
}
export interface Variation {
  _id: string;
  ecommerceId?: string;
  sku: string;
  price: number;
  stock: number;
  attributes: Array<{ nombre: string; value: string }>;
  woocommerceId?: number;
  createdAt: string;
  updatedAt: string;
}
export interface VariationBatch {
  create?: Array<{ sku: string; price: number; stock: number; attributes: Array<{ nombre: string; value: string }> }>;
  update?: Array<{ _id: string; sku?: string; price?: number; stock?: number }>;
  delete?: string[];
}

/** The WooCommerce calls of SPEC §7 "Ecommerce products" (contract ecommerce-api.ts). */
export const ecommerceApi = {
  testConnection: (storeId: string) => api.post<ConnectionTestOut>(`/woocommerces/${enc(storeId)}/test`, undefined, { overlay: false }),
  syncAll: (storeId?: string) => api.post<{ msg: string; runs: SyncRunOut[] }>('/ecommerces/sync-all', storeId ? { storeId } : {}, { overlay: false, success: true }),
  syncSelected: (ids: string[]) => api.post<{ msg: string; runs: SyncRunOut[] }>('/ecommerces/sync-selected', { ids }, { overlay: false, success: true }),
  syncRuns: (signal?: AbortSignal) => api.get<{ payload: SyncRunOut[] }>('/ecommerces/sync-runs', { overlay: false, signal }),
  syncRun: (id: string, signal?: AbortSignal) => api.get<SyncRunOut>(`/ecommerces/sync-runs/${enc(id)}`, { overlay: false, signal }),
  copyMultimedia: (referenceId: string, countries?: string[]) =>
    api.post<{ msg: string; updated: Array<{ _id: string; country: string }>; runs: SyncRunOut[] }>(
      '/ecommerces/copy-multimedia-ref-copys',
      { referenceId, ...(countries?.length ? { countries } : {}) },
      { overlay: false, success: true },
    ),
  patchProduct: (id: string, body: Record<string, unknown>) =>
    api.patch<{ product: ResourceRecord; sync: PushResult }>(`/ecommerces/v2/${enc(id)}`, body, { overlay: false }),
  variations: (productId: string, signal?: AbortSignal) =>
    api.get<{ payload: Variation[]; totalDocs: number }>('/ecommerces-variations', {
      query: { ecommerceId: productId, sort: 'sku', order: 'asc', limit: 100, page: 1 },
      overlay: false,
      signal,
    }),
  putVariation: (productId: string, variationId: string, body: Record<string, unknown>) =>
    api.put<Variation>(`/ecommerces/${enc(productId)}/variations/${enc(variationId)}`, body, { overlay: false }),
  pushVariation: (productId: string, variationId: string) =>
    api.post<PushResult>(`/ecommerces/${enc(productId)}/variations/${enc(variationId)}`, undefined, { overlay: false }),
  batchVariations: (productId: string, body: VariationBatch) =>
    api.post<{ create: Variation[]; update: Variation[]; delete: Array<{ _id: string }>; sync: PushResult }>(`/ecommerces/${enc(productId)}/variations/batch`, body, {
      overlay: false,
    }),
  crossover: (country: string, sku: string, signal?: AbortSignal) =>
    api.get<{ payload: CrossoverRow[] }>(`/ecommerces/crossover/country/${enc(country)}`, { query: { filter: sku, limit: 100 }, overlay: false, signal }),
  categories: (signal?: AbortSignal) => api.get<{ payload: StoreCategory[] }>('/ecommerces/categories', { overlay: false, signal }),
};

const active = (run: SyncRunOut) => run.status === 'queued' || run.status === 'running';

/** A run's newer state into the cached list (newest first), or first when new. */
export function withRun(list: SyncRunOut[] | undefined, run: SyncRunOut): SyncRunOut[] {
  const rest = (list ?? []).filter((r) => r._id !== run._id);
  const known = (list ?? []).find((r) => r._id === run._id);
  // an event may overtake an older answer: never go back
  if (known && known.done > run.done && active(run)) return list ?? [];
  return [run, ...rest].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Runs just started (POST answers) go into the list at once, before their first event. */
export function storeRuns(queryClient: QueryClient, companyId: string | null, runs: SyncRunOut[]) {
  queryClient.setQueryData<{ payload: SyncRunOut[] }>(ecommerceKeys.runs(companyId), (data) => ({
    payload: runs.reduce((list, run) => withRun(list, run), data?.payload ?? []),
  }));
}

/**
 * The company's latest store syncs, live: GET /ecommerces/sync-runs, then each `sync.progress`
 * event of the events stream replaces its run. While a run is going the list is also asked
 * again every few seconds, in case the stream is down or the event was too large to send.
 */
export function useSyncRuns() {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ecommerceKeys.runs(companyId),
    queryFn: ({ signal }) => ecommerceApi.syncRuns(signal),
    refetchInterval: (q) => (q.state.data?.payload.some(active) ? 4000 : false),
  });
  useRealtimeEvents((event: RealtimeMessage) => {
    if (event.type === 'sync.progress') {
      storeRuns(queryClient, companyId, [event.run]);
      if (!active(event.run)) {
        // a finished run changed the products, their variations and the rest of the store's records
        for (const key of ['ecommerces', 'ecommerces-variations', 'ecommerces-categories', 'ecommerces-tags', 'ecommerces-attributes', 'ecommerces-orders', 'ecommerces-contacts']) {
          void queryClient.invalidateQueries({ queryKey: resourceKeys(key).lists() });
        }
      }
    } else if (event.type === 'resync') void queryClient.invalidateQueries({ queryKey: ecommerceKeys.runs(companyId) });
  });
  return query;
}

/** Starts a sync of one store (or all) and puts its runs on screen. */
export function useStartSync() {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (storeId?: string) => ecommerceApi.syncAll(storeId),
    onSuccess: ({ runs }) => storeRuns(queryClient, companyId, runs),
  });
}

export function useSyncSelected() {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => ecommerceApi.syncSelected(ids),
    onSuccess: ({ runs }) => storeRuns(queryClient, companyId, runs),
  });
}

export function useCopyMultimedia() {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ referenceId, countries }: { referenceId: string; countries?: string[] }) => ecommerceApi.copyMultimedia(referenceId, countries),
    onSuccess: ({ runs }) => {
      storeRuns(queryClient, companyId, runs);
      // the products that received the copy (their runs are on screen already)
      void queryClient.invalidateQueries({ queryKey: resourceKeys('ecommerces').lists() });
      void queryClient.invalidateQueries({ queryKey: resourceKeys('ecommerces').details() });
    },
  });
}

/** One run with its whole error report (GET /ecommerces/sync-runs/{id}). */
export function useSyncRun(id: string | undefined) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: ecommerceKeys.run(id ?? '', companyId),
    queryFn: ({ signal }) => ecommerceApi.syncRun(id ?? '', signal),
    enabled: !!id,
  });
}

export function useCrossover(country: CountryCode | string | undefined, sku: string | undefined) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: ecommerceKeys.crossover(country ?? '', sku ?? '', companyId),
    queryFn: ({ signal }) => ecommerceApi.crossover(country ?? '', sku ?? '', signal),
    enabled: !!country && !!sku,
    select: (data) => data.payload.find((row) => row.sku === sku),
  });
}

export function useVariations(productId: string | undefined) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: ecommerceKeys.variations(productId ?? '', companyId),
    queryFn: ({ signal }) => ecommerceApi.variations(productId ?? '', signal),
    enabled: !!productId,
  });
}

export function useCategoryTree(enabled = true) {
  const { companyId } = useSession();
  return useQuery({ queryKey: ecommerceKeys.categoryTree(companyId), queryFn: ({ signal }) => ecommerceApi.categories(signal), enabled });
}

/**
 * The runs a person started on a screen (sync the chosen products, copy pictures and texts):
 * that screen shows them until they are dismissed. Kept in the query cache, per company.
 */
export function useWatchedRuns() {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  // not under `ecommerces`: refreshing the products must not forget them
  const key = ['ecommerce-watched-runs', companyId] as const;
  const { data: ids = [] } = useQuery<string[]>({ queryKey: key, queryFn: () => [], staleTime: Number.POSITIVE_INFINITY, gcTime: Number.POSITIVE_INFINITY });
  return {
    ids,
    watch: (runs: SyncRunOut[]) => queryClient.setQueryData<string[]>(key, (prev = []) => [...new Set([...runs.map((r) => r._id), ...prev])]),
    dismiss: (id: string) => queryClient.setQueryData<string[]>(key, (prev = []) => prev.filter((x) => x !== id)),
  };
}
