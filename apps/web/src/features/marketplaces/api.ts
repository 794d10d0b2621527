import type {
  BulkRunOut,
  MarketplaceDocumentType,
  MarketplaceOrderItemOut,
  MarketplacePushOut,
  MarketplaceSyncRunOut,
  MarketplaceTestOut,
  MarketplaceVariationPatch,
} from '@mostrador/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ResourceRecord } from '../../components/crud/types';
import { api } from '../../lib/api-client';
import { downloadFile, saveBlob, uploadFile } from '../../lib/file-transfer';
import { marketplaceKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';

/**
 * The marketplace calls the screens make (decision 0035), one hook per call. Lists are the
 * generic ones (`['marketplace-products', 'list', …]`); a send, a sync or a bulk update that
 * moves on reloads them.
 */
const id = (value: string) => encodeURIComponent(value);

/** POST /marketplace-sources/{id}/test: `{ ok, msg }`, shown where the person clicked. */
export function useTestSource() {
  return useMutation({ mutationFn: (sourceId: string) => api.post<MarketplaceTestOut>(`/marketplace-sources/${id(sourceId)}/test`) });
}

/** POST /marketplace-sources/{id}/sync: the run starts (or the one running is answered). */
export function useSyncSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sourceId: string) => api.post<{ msg: string; run: MarketplaceSyncRunOut }>(`/marketplace-sources/${id(sourceId)}/sync`, undefined, { success: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: marketplaceKeys.runs.all }),
  });
}

/** The latest sync runs (GET /marketplace-sync-runs), kept live by `useMarketplaceRealtime`. */
export function useSyncRuns() {
  return useQuery({
    queryKey: marketplaceKeys.runs.lists(),
    queryFn: () => api.get<{ payload: MarketplaceSyncRunOut[] }>('/marketplace-sync-runs', { overlay: false }),
  });
}

/** PATCH /marketplace-products/variations/{id}: price and/or stock, saved here (pending until sent). */
export function usePatchVariation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ variationId, patch }: { variationId: string; patch: MarketplaceVariationPatch }) =>
      api.patch<ResourceRecord>(`/marketplace-products/variations/${id(variationId)}`, patch, { success: 'Registro actualizado con éxito' }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: marketplaceKeys.variations.all }), queryClient.invalidateQueries({ queryKey: marketplaceKeys.products.all })]),
  });
}

/** POST /marketplace-products/variations/{id}/sync: sends the price and stock; the answer says what the marketplace did. */
export function usePushVariation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variationId: string) => api.post<MarketplacePushOut>(`/marketplace-products/variations/${id(variationId)}/sync`),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: marketplaceKeys.variations.all }), queryClient.invalidateQueries({ queryKey: marketplaceKeys.products.all })]),
  });
}

/** GET /marketplace-orders/{id}/items. */
export function useOrderItems(orderId: string | undefined) {
  return useQuery({
    queryKey: marketplaceKeys.items(orderId ?? ''),
    queryFn: () => api.get<{ payload: MarketplaceOrderItemOut[] }>(`/marketplace-orders/${id(orderId ?? '')}/items`, { overlay: false }),
    enabled: !!orderId,
  });
}

/** POST /marketplace-orders/{id}/ready-to-ship. */
export function useReadyToShip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => api.post<{ msg: string; order: ResourceRecord }>(`/marketplace-orders/${id(orderId)}/ready-to-ship`, undefined, { success: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: marketplaceKeys.orders.all }),
  });
}

/** GET /marketplace-orders/{id}/documents?DocumentType=: the file, handed to the browser as a download. */
export async function downloadDocument(orderId: string, type: MarketplaceDocumentType, fallbackName: string) {
  saveBlob(await downloadFile(`/marketplace-orders/${id(orderId)}/documents`, { query: { DocumentType: type }, fallbackName }));
}

/** POST /marketplace-products/bulk/preview (rows pasted as text) or …/bulk/csv (a file): what would change. */
export function usePreviewBulk() {
  return useMutation({
    mutationFn: (input: { sourceId: string; text: string } | { sourceId: string; file: File }) =>
      'file' in input
        ? uploadFile<BulkRunOut>(`/marketplace-products/bulk/csv?sourceId=${id(input.sourceId)}`, input.file, { contentType: 'text/csv' })
        : api.post<BulkRunOut>('/marketplace-products/bulk/preview', { sourceId: input.sourceId, text: input.text }),
  });
}

/** POST /marketplace-products/bulk/{id}/apply: the job starts. */
export function useApplyBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bulkId: string) => api.post<{ msg: string; run: BulkRunOut }>(`/marketplace-products/bulk/${id(bulkId)}/apply`, undefined, { success: true }),
    onSettled: (_data, _error, bulkId) => queryClient.invalidateQueries({ queryKey: marketplaceKeys.bulk.detail(bulkId) }),
  });
}

/** GET /marketplace-products/bulk/{id}: the run and its rows (the report once applied). */
export function useBulk(bulkId: string | undefined, running: boolean) {
  return useQuery({
    queryKey: marketplaceKeys.bulk.detail(bulkId ?? ''),
    queryFn: () => api.get<BulkRunOut>(`/marketplace-products/bulk/${id(bulkId ?? '')}`, { overlay: false }),
    enabled: !!bulkId,
    // the live events carry the counts; the rows are read again every few seconds while it runs
    refetchInterval: running ? 3000 : false,
  });
}

/**
 * The marketplace screens live: a sync or a bulk update that moves on reloads what they show
 * (decision 0035), and so does the stream opening (events may have been missed). `onBulk` hears of
 * bulk updates' counts as they move.
 */
export function useMarketplaceRealtime(onBulk?: (run: BulkRunOut) => void) {
  const queryClient = useQueryClient();
  useRealtimeEvents((message: RealtimeMessage) => {
    if (message.type === 'marketplace.sync' || message.type === 'resync') {
      void queryClient.invalidateQueries({ queryKey: marketplaceKeys.runs.all });
      if (message.type === 'resync' || message.run.status === 'done') {
        for (const keys of [marketplaceKeys.products, marketplaceKeys.variations, marketplaceKeys.orders]) void queryClient.invalidateQueries({ queryKey: keys.all });
      }
    }
    if (message.type === 'marketplace.bulk') {
      onBulk?.(message.run);
      if (message.run.status === 'done' || message.run.status === 'failed') {
        void queryClient.invalidateQueries({ queryKey: marketplaceKeys.bulk.detail(message.run._id) });
        void queryClient.invalidateQueries({ queryKey: marketplaceKeys.variations.all });
      }
    }
  });
}
