import { defineResource } from '../define-resource.js';
import { zAmount, zCountry, zDateTime, zEmail, zEnum, zInteger, zOptionalText, zRefId, zText } from '../fields.js';
import { currencies } from './ecommerces-orders.js';

/**
 * Statuses of a marketplace order (SPEC §4: shipped is 'Enviada'; the rest is decision 0035).
 * Seller Center keeps a status per item (pending, ready_to_ship, shipped, delivered, canceled,
 * failed_delivery, return_*…); an order shows the earliest stage among its items that are not
 * cancelled (`marketplaceOrderStatusOf`).
 */
export const marketplaceOrderStatuses = ['pending', 'ready_to_ship', 'shipped', 'delivered', 'failed', 'returning', 'returned', 'canceled'] as const;
export type MarketplaceOrderStatus = (typeof marketplaceOrderStatuses)[number];
export const marketplaceOrderStatusLabels: Record<MarketplaceOrderStatus, string> = {
  pending: 'Pendiente',
  ready_to_ship: 'Lista para enviar',
  shipped: 'Enviada',
  delivered: 'Entregada',
  failed: 'Entrega fallida',
  returning: 'En devolución',
  returned: 'Devuelta',
  canceled: 'Cancelada',
};

/** An item's status at Seller Center in ours (unknown ones read as pending). */
export function marketplaceItemStatusOf(raw: string): MarketplaceOrderStatus {
  const s = raw.trim().toLowerCase();
  if (s === 'ready_to_ship' || s === 'packed') return 'ready_to_ship';
  if (s === 'shipped') return 'shipped';
  if (s === 'delivered' || s === 'return_rejected' || s === 'returned_rejected') return 'delivered';
  if (s === 'failed' || s === 'failed_delivery') return 'failed';
  if (s.startsWith('return_') || s === 'returning') return 'returning';
  if (s === 'returned') return 'returned';
  if (s === 'canceled' || s === 'cancelled') return 'canceled';
  return 'pending';
}

/** Which stage an order is at, from its items' statuses: the earliest of those not cancelled; cancelled when all are. */
export function marketplaceOrderStatusOf(itemStatuses: readonly MarketplaceOrderStatus[]): MarketplaceOrderStatus {
  const live = itemStatuses.filter((s) => s !== 'canceled');
  if (!live.length) return itemStatuses.length ? 'canceled' : 'pending';
  const stage: MarketplaceOrderStatus[] = ['pending', 'ready_to_ship', 'shipped', 'failed', 'returning', 'delivered', 'returned'];
  return stage.find((s) => (live as readonly string[]).includes(s)) ?? 'pending';
}

/**
 * marketplace-orders (SPEC §7: GET list with default sort createdAt, order 0 = newest first;
 * GET /{id}/items; GET /{id}/documents?DocumentType=; screen /marketplaces/ordenes): the orders of
 * the marketplace accounts, as their sync reads them (decision 0035). Not shown in the spec,
 * decided here: the marketplace's order number and its own id (externalId), a status, the
 * customer's name, e-mail and phone, the delivery place, the total with its currency, the
 * account (sourceId) and its country, how many items, the payment method, the shipping type,
 * the date the marketplace promises to ship by and when it last changed there. `createdAt` is
 * when the customer placed the order at the marketplace. Listed and read here; they change at the
 * marketplace (and by POST /marketplace-orders/{id}/ready-to-ship).
 */
export const marketplaceOrders = defineResource({
  key: 'marketplace-orders',
  label: 'Orden de marketplace',
  labelPlural: 'Órdenes de marketplace',
  module: 'marketplace',
  operations: ['list', 'get'],
  fields: {
    orderNumber: zText(40),
    externalId: zText(40),
    status: zEnum(marketplaceOrderStatuses),
    customerName: zText(160),
    customerEmail: zEmail().optional(),
    customerPhone: zOptionalText(40).optional(),
    address: zOptionalText(300).optional(),
    city: zOptionalText(120).optional(),
    region: zOptionalText(120).optional(),
    total: zAmount(),
    currency: zEnum(currencies),
    country: zCountry(),
    sourceId: zRefId(),
    itemsCount: zInteger(0),
    paymentMethod: zOptionalText(60).optional(),
    shippingType: zOptionalText(60).optional(),
    promisedShippingAt: zDateTime().optional(),
    marketplaceUpdatedAt: zDateTime().optional(),
  },
  refs: { sourceId: 'marketplace-sources' },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['orderNumber', 'customerName', 'customerEmail'],
  sortable: ['orderNumber', 'total', 'status'],
  filterable: ['sourceId', 'country', 'status', 'createdAt'],
  // the demo's examples are orders of the sandbox accounts (Falabella Chile, Falabella Perú): their first sync links them
  examples: [
    {
      orderNumber: '2771009001',
      externalId: '1104089001',
      status: 'pending',
      customerName: 'Camila Soto',
      customerEmail: 'camila.soto@gmail.com',
      customerPhone: '912345678',
      address: 'Av. Providencia 1234, depto 101',
      city: 'Santiago',
      region: 'Metropolitana',
      total: 58980,
      currency: 'CLP',
      country: 'CL',
      itemsCount: 1,
      paymentMethod: 'Tarjeta de crédito',
      shippingType: 'Dropshipping',
    },
    {
      orderNumber: '3150044103',
      externalId: '2204510103',
      status: 'shipped',
      customerName: 'Rosa Quispe',
      customerEmail: 'rosa.quispe@gmail.com',
      customerPhone: '944112233',
      address: 'Calle Mercaderes 115',
      city: 'Arequipa',
      region: 'Arequipa',
      total: 234,
      currency: 'PEN',
      country: 'PE',
      itemsCount: 1,
      paymentMethod: 'Pago contra entrega',
      shippingType: 'Dropshipping',
    },
    {
      orderNumber: '9001223344',
      externalId: '3301223344',
      status: 'delivered',
      customerName: 'Luis Paredes',
      total: 19990,
      currency: 'CLP',
      country: 'CL',
      itemsCount: 1,
      shippingType: 'Own Warehouse',
    },
  ],
});
