import type { CountryCode } from './phone.js';
import type { Currency } from './resources/ecommerces-orders.js';

/**
 * The orders' constants without zod (decisions 0031, 0032): the public shop imports these and
 * nothing else of the contract, so its first load stays small.
 */

/**
 * Statuses of an order of the company's own catalogue (SPEC §4: created is 'Creada', done is
 * 'Completada'; the others and the transitions are ours, decision 0032).
 */
export const orderStatuses = ['created', 'paid', 'shipped', 'done', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];
export const orderStatusLabels: Record<OrderStatus, string> = {
  created: 'Creada',
  paid: 'Pagada',
  shipped: 'Enviada',
  done: 'Completada',
  cancelled: 'Cancelada',
};
/**
 * Where an order may go from each status (decision 0032): forward one step at a time (a shop
 * that is paid on delivery may skip paid), or cancelled until it is shipped. Cancelling gives
 * its units back to stock. Completed and cancelled orders stay as they are.
 */
export const orderTransitions: Record<OrderStatus, readonly OrderStatus[]> = {
  created: ['paid', 'shipped', 'cancelled'],
  paid: ['shipped', 'cancelled'],
  shipped: ['done'],
  done: [],
  cancelled: [],
};
export const orderSources = ['catalogo', 'whatsapp', 'chat'] as const;
export type OrderSource = (typeof orderSources)[number];
export const orderSourceLabels: Record<OrderSource, string> = { catalogo: 'Catálogo digital', whatsapp: 'Catálogo de WhatsApp', chat: 'Chat' };

export const shippingMethods = ['delivery', 'pickup'] as const;
export type ShippingMethod = (typeof shippingMethods)[number];
export const shippingMethodLabels: Record<ShippingMethod, string> = {
  delivery: 'Envío a domicilio',
  pickup: 'Recojo en tienda',
};

/** The currency a company sells in, by its country (SPEC §9 countries). */
export const currencyOfCountry: Record<CountryCode, Currency> = { PE: 'PEN', CL: 'CLP', CO: 'COP', ES: 'EUR' };

/** A company's currency: its setting (`settings.currency`), else its country's, else PEN. */
export const companyCurrency = (setting: string | null | undefined, country: string): string =>
  setting ?? (currencyOfCountry as Record<string, Currency | undefined>)[country] ?? 'PEN';

/** Units of one line a customer may order at once. */
export const MAX_LINE_QUANTITY = 999;
