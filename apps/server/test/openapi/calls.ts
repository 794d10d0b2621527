import type { Api } from './client.js';

/**
 * Calls an integrator makes, written against the generated types only (no import from the
 * server or the contract): `npm run lint` type-checks them, test/openapi.test.ts runs them.
 * A field the document forgets, or marks optional when it is always there, fails here.
 */
export async function leadRoundTrip(api: Api) {
  const listed = await api.GET('/api/leads', { params: { query: { limit: 5, status: 'sin-asignar' } } });
  if (!listed.data) throw new Error(`leads.list: ${listed.response.status}`);
  const firstName: string | undefined = listed.data.payload[0]?.name;

  const created = await api.POST('/api/leads', { body: { name: 'Valeria Campos', platform: 'web', status: 'sin-asignar', email: 'valeria.campos@gmail.com' } });
  if (!created.data) throw new Error(`leads.create: ${created.response.status} ${JSON.stringify(created.error)}`);
  const id: string = created.data._id;

  const updated = await api.PUT('/api/leads/{id}', { params: { path: { id } }, body: { status: 'informado-al-agente' } });
  if (!updated.data) throw new Error(`leads.update: ${updated.response.status} ${JSON.stringify(updated.error)}`);
  const status: 'sin-asignar' | 're-conectar' | 'informado-al-agente' | 'compra-realizada' | 'compra-fallida' = updated.data.status;

  const refused = await api.PUT('/api/leads/{id}', { params: { path: { id } }, body: { status: 'no-existe' as never } });
  const refusal: string | undefined = refused.error?.errors.msg;

  return { total: listed.data.totalDocs, firstName, id, status, createdAt: created.data.createdAt, refusal, refusedStatus: refused.response.status };
}

export async function placeOrder(api: Api, key: string) {
  const product = await api.POST('/api/products', { body: { name: 'Taza de cerámica', sku: 'TZ-OPENAPI', price: 4990, stock: 10 } });
  if (!product.data) throw new Error(`products.create: ${product.response.status} ${JSON.stringify(product.error)}`);
  const catalog = await api.POST('/api/catalogs', { body: { name: 'Catálogo de integración', productIds: [product.data._id] } });
  if (!catalog.data) throw new Error(`catalogs.create: ${catalog.response.status} ${JSON.stringify(catalog.error)}`);
  const placed = await api.POST('/api/orders/place', {
    params: { header: { 'idempotency-key': key } },
    body: {
      catalog: catalog.data._id,
      items: [{ productId: product.data._id, quantity: 2 }],
      customer: { name: 'Camila Rojas', telefono: '+56 9 8765 4321' },
      shippment: { method: 'pickup' },
    },
  });
  if (!placed.data) throw new Error(`orders.place: ${placed.response.status} ${JSON.stringify(placed.error)}`);
  const code: string = placed.data.order.code;
  return { token: placed.data.token, code, status: placed.response.status };
}

export async function dashboard(api: Api) {
  const read = await api.POST('/api/metrics/ceo_dashboard', { body: { from: '2026-01-01', to: '2026-03-31' } });
  if (!read.data) throw new Error(`metrics.dashboard: ${read.response.status} ${JSON.stringify(read.error)}`);
  return read.data;
}
