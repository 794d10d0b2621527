import type { MarkPaidIn, MarkPaidOut, MercadoPagoSettingsIn, MercadoPagoSettingsOut, MercadoPagoTestOut, PaymentLinkOut, PaymentsOut, ProofImageOut } from '@mostrador/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { orderKeys } from '../../lib/query-keys';

/**
 * Payments' calls from the screens (decisions 0083, 0084): an order's payments (under the
 * order's detail key, so an `order.updated` reloads them with the order), its Checkout Pro link,
 * its manual payment, and the company's Mercado Pago settings.
 */
export const paymentKeys = {
  ofOrder: (orderId: string) => [...orderKeys.detail(orderId), 'payments'] as const,
  settings: ['payments', 'mercadopago', 'settings'] as const,
};

export function useOrderPayments(orderId: string) {
  return useQuery({
    queryKey: paymentKeys.ofOrder(orderId),
    queryFn: () => api.get<PaymentsOut>(`/orders/${encodeURIComponent(orderId)}/payments`, { overlay: false, notify: false }),
  });
}

/** The pictures of the order's chat, newest first: a manual payment's proof is picked among them. */
export function useProofImages(orderId: string) {
  return useQuery({
    queryKey: [...orderKeys.detail(orderId), 'proof-images'] as const,
    queryFn: () => api.get<{ payload: ProofImageOut[] }>(`/orders/${encodeURIComponent(orderId)}/proof-images`, { overlay: false, notify: false }),
  });
}

export function usePaymentLink(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<PaymentLinkOut>(`/orders/${encodeURIComponent(orderId)}/payment-link`, undefined, { overlay: false, notify: false }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentKeys.ofOrder(orderId) }),
  });
}

export function useMarkPaid(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkPaidIn) => api.post<MarkPaidOut>(`/orders/${encodeURIComponent(orderId)}/mark-paid`, body, { overlay: false, notify: false, success: 'Orden marcada como pagada' }),
    // the order's status and its lists change too
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

export function useMercadoPagoSettings() {
  return useQuery({ queryKey: paymentKeys.settings, queryFn: () => api.get<MercadoPagoSettingsOut>('/payments/mercadopago/settings', { overlay: false }) });
}

export function useSaveMercadoPagoSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MercadoPagoSettingsIn) => api.put<MercadoPagoSettingsOut>('/payments/mercadopago/settings', body, { success: 'Credenciales de Mercado Pago guardadas' }),
    onSuccess: (out) => queryClient.setQueryData(paymentKeys.settings, out),
  });
}

export function useTestMercadoPago() {
  return useMutation({ mutationFn: () => api.post<MercadoPagoTestOut>('/payments/mercadopago/test', undefined, { overlay: false, notify: false }) });
}
