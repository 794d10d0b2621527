/**
 * «Crear pedido» asked from inside the thread (the WhatsApp cart's card, decision 0088): the open
 * thread's header button opens its dialog, which starts from the chat's latest cart not yet an order.
 */
const CREATE_ORDER_EVENT = 'mostrador:create-order';

export function requestCreateOrder(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(CREATE_ORDER_EVENT));
}

/** Calls `listener` on each request; returns the unsubscribe (a useEffect's cleanup). */
export function onCreateOrderRequest(listener: () => void): () => void {
  window.addEventListener(CREATE_ORDER_EVENT, listener);
  return () => window.removeEventListener(CREATE_ORDER_EVENT, listener);
}
