import { type OrderStatus, successMessages } from '@mostrador/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResourceRecord } from '../../components/crud/types';
import { api } from '../../lib/api-client';
import { orderKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';

/**
 * POST /orders/{id}/status (decision 0032): 'Registro actualizado con éxito' on success; a
 * refused move shows the server's Spanish reason through the api client. The lists and the
 * open detail reload.
 */
export function useMoveOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: OrderStatus }) =>
      api.post<ResourceRecord>(`/orders/${encodeURIComponent(id)}/status`, { status }, { success: successMessages.updated }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

/**
 * DELETE /orders/{id} from its detail (a test or spam order; no stock comes back): the lists
 * reload, the detail is forgotten, not asked for again (it would be a 404).
 */
export function useDeleteOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/orders/${encodeURIComponent(id)}`, { success: successMessages.deleted }),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: orderKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: orderKeys.lists() });
    },
  });
}

/**
 * The open /ordenes lives: an order placed (on the catalogue or through WhatsApp) or moved
 * anywhere reloads the lists and the open detail (decision 0032), and so does the stream opening
 * (events may have been missed). `onPlaced` hears of new orders.
 */
export function useOrdersRealtime(onPlaced?: (order: { id: string; code: string }) => void) {
  const queryClient = useQueryClient();
  useRealtimeEvents((message: RealtimeMessage) => {
    if (message.type !== 'order.updated' && message.type !== 'resync') return;
    void queryClient.invalidateQueries({ queryKey: orderKeys.all });
    if (message.type === 'order.updated' && message.created) onPlaced?.({ id: message.orderId, code: message.code });
  });
}
