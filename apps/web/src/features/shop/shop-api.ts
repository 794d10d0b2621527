import type { OrderPlaceInput, OrderPlaceOut, PublicCatalog, PublicOrder, PublicProductsPage } from '@mostrador/contract';

/**
 * The public shop's calls (decisions 0031, 0032): no session, no company header, plain fetch
 * (the staff app's client and its overlay are not part of this page).
 */
export class ShopError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Array<{ path: string; msg: string }> = [],
  ) {
    super(message);
  }
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { ...init, headers: { 'accept-language': 'es', ...(init?.headers ?? {}) } });
  } catch {
    throw new ShopError(0, 'No hay conexión. Revisa tu internet e inténtalo de nuevo.');
  }
  const body = (await response.json().catch(() => ({}))) as { errors?: { msg?: string; details?: Array<{ path: string; msg: string }> } };
  if (!response.ok) {
    throw new ShopError(response.status, body.errors?.msg ?? 'Algo salió mal. Inténtalo de nuevo en un momento.', body.errors?.details ?? []);
  }
  return body as T;
}

export interface ProductQuery {
  page: number;
  filter?: string;
  categoryId?: string;
  brandId?: string;
}

export const shopApi = {
  catalog: (by: { id?: string; company?: string }) =>
    request<PublicCatalog>(by.id ? `/catalogo-digital/${encodeURIComponent(by.id)}` : `/catalogo-digital?company=${encodeURIComponent(by.company ?? '')}`),
  products: (catalogId: string, q: ProductQuery) => {
    const params = new URLSearchParams({ page: String(q.page), limit: '24' });
    if (q.filter) params.set('filter', q.filter);
    if (q.categoryId) params.set('categoryId', q.categoryId);
    if (q.brandId) params.set('brandId', q.brandId);
    return request<PublicProductsPage>(`/catalogo-digital/${encodeURIComponent(catalogId)}/products?${params}`);
  },
  place: (input: OrderPlaceInput, idempotencyKey: string) =>
    request<OrderPlaceOut>('/orders/place', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(input),
    }),
  order: (token: string) => request<PublicOrder>(`/orders/public/${encodeURIComponent(token)}`),
};
