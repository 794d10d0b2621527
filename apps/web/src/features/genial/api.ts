import type { GenialConnectionTestOut, GenialInvoiceOut, GenialOrderKind, GenialRetryOut, GenialSettingsIn, GenialSettingsOut } from '@mostrador/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { downloadFile, saveBlob } from '../../lib/file-transfer';
import { genialKeys } from '../../lib/query-keys';

/**
 * Genial's calls from the screens (decision 0037): each order's invoice, read for a whole list
 * page in one call (`GET /genial/invoices/{kind}?orderIds=`: the cells of one render are
 * gathered), its retry (a job: the cell asks again every second while it is pending), and the
 * company's settings per country.
 */
export const orderPathOf: Record<GenialOrderKind, string> = { marketplace: '/marketplace-orders', ecommerce: '/ecommerces-orders', order: '/orders' };

/** The invoices asked in the same tick travel in one request per kind. */
const waiting = new Map<GenialOrderKind, Map<string, Array<(i: GenialInvoiceOut) => void>>>();
const failing = new Map<GenialOrderKind, Map<string, Array<(e: unknown) => void>>>();

function loadInvoice(kind: GenialOrderKind, orderId: string): Promise<GenialInvoiceOut> {
  return new Promise((resolve, reject) => {
    let batch = waiting.get(kind);
    let fails = failing.get(kind);
    if (!batch || !fails) {
      batch = new Map();
      fails = new Map();
      waiting.set(kind, batch);
      failing.set(kind, fails);
      const mine = batch;
      const mineFails = fails;
      setTimeout(() => {
        waiting.delete(kind);
        failing.delete(kind);
        const ids = [...mine.keys()];
        const chunks: string[][] = [];
        for (let i = 0; i < ids.length; i += 100) chunks.push(ids.slice(i, i + 100));
        for (const chunk of chunks) {
          api
            .get<{ payload: GenialInvoiceOut[] }>(`/genial/invoices/${kind}`, { query: { orderIds: chunk.join(',') }, overlay: false, notify: false })
            .then(({ payload }) => {
              const found = new Map(payload.map((p) => [p.orderId, p]));
              for (const id of chunk) for (const done of mine.get(id) ?? []) done(found.get(id) ?? { kind, orderId: id, status: 'none', attempts: 0 });
            })
            .catch((error: unknown) => {
              for (const id of chunk) for (const fail of mineFails.get(id) ?? []) fail(error);
            });
        }
      }, 0);
    }
    batch.set(orderId, [...(batch.get(orderId) ?? []), resolve]);
    fails.set(orderId, [...(fails.get(orderId) ?? []), reject]);
  });
}

/** An order's invoice; asked again every second while Genial is issuing it. */
export function useInvoice(kind: GenialOrderKind, orderId: string) {
  return useQuery({
    queryKey: genialKeys.invoice(kind, orderId),
    queryFn: () => loadInvoice(kind, orderId),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 1000 : false),
  });
}

/** POST /{orders}/{id}/genial-retry: the invoice goes pending and its job issues it. */
export function useRetryInvoice(kind: GenialOrderKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, customerTaxId }: { orderId: string; customerTaxId?: string }) =>
      api.post<GenialRetryOut>(`${orderPathOf[kind]}/${encodeURIComponent(orderId)}/genial-retry`, customerTaxId !== undefined ? { customerTaxId } : undefined, { overlay: false, notify: false }),
    onSuccess: (out, { orderId }) => queryClient.setQueryData(genialKeys.invoice(kind, orderId), out.invoice),
  });
}

/** A sandbox invoice's PDF or XML, drawn by our server (the real ones are Genial's links). */
export async function downloadInvoiceFile(kind: GenialOrderKind, orderId: string, file: 'pdf' | 'xml', fallbackName: string) {
  saveBlob(await downloadFile(`${orderPathOf[kind]}/${encodeURIComponent(orderId)}/invoice/${file}`, { fallbackName }));
}

/** Whether a link is the demo sandbox's (its host exists only inside the server). */
export const isSandboxLink = (url: string | undefined) => {
  try {
    return !!url && new URL(url).hostname.endsWith('.sandbox.test');
  } catch {
    return false;
  }
};

export function useGenialSettings() {
  return useQuery({ queryKey: genialKeys.settings, queryFn: () => api.get<{ payload: GenialSettingsOut[] }>('/genial/settings', { overlay: false }) });
}

export function useSaveGenialSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ country, body }: { country: string; body: GenialSettingsIn }) => api.put<GenialSettingsOut>(`/genial/settings/${country}`, body, { success: 'Configuración de Genial guardada' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: genialKeys.settings }),
  });
}

/** POST /genial/settings/{country}/test: the saved settings tried against Genial (token, address, issuer). */
export function useTestGenial() {
  return useMutation({
    mutationFn: (country: string) => api.post<GenialConnectionTestOut>(`/genial/settings/${country}/test`, undefined, { overlay: false, notify: false }),
  });
}
