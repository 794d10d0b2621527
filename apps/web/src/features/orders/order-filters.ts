import { type OrderStatus, orderStatuses } from '@mostrador/contract';
import { dayRangeError, dayStartIso } from '../../components/crud/day-range';
import type { ListFilters } from '../../components/crud/types';

/**
 * The filters of /ordenes, kept in the address so a filtered list survives a reload and the
 * back button undoes a change: `?estado=created&desde=2025-01-01&hasta=2025-01-31` (days in
 * the browser's zone, both inclusive). The text search is the list's own `q`.
 */
export interface OrderFilterValues {
  status: OrderStatus | '';
  /** `YYYY-MM-DD`, inclusive. */
  from: string;
  /** `YYYY-MM-DD`, inclusive. */
  to: string;
}

export const emptyOrderFilters: OrderFilterValues = { status: '', from: '', to: '' };

/** Address parameter of each filter. */
export const orderFilterParams: Record<keyof OrderFilterValues, string> = { status: 'estado', from: 'desde', to: 'hasta' };

/** `?orden={id}`: the order whose detail is open. */
export const ORDER_PARAM = 'orden';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (text: string) => DAY.test(text) && !Number.isNaN(new Date(`${text}T00:00:00`).getTime());

/** The filters an address holds; unknown values are ignored. */
export function orderFiltersFromParams(params: URLSearchParams): OrderFilterValues {
  const status = params.get(orderFilterParams.status) ?? '';
  const from = params.get(orderFilterParams.from) ?? '';
  const to = params.get(orderFilterParams.to) ?? '';
  return {
    status: (orderStatuses as readonly string[]).includes(status) ? (status as OrderStatus) : '',
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
  };
}

/** The address after a filter change: the changed filters set or removed, back to page 1. */
export function withOrderFilters(params: URLSearchParams, changes: Partial<OrderFilterValues>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes) as Array<[keyof OrderFilterValues, string]>) {
    if (value) next.set(orderFilterParams[key], value);
    else next.delete(orderFilterParams[key]);
  }
  next.delete('page');
  return next;
}

/** How many filters are set (the phone's Filtros button shows it). */
export function orderFilterCount(values: OrderFilterValues): number {
  return [values.status, values.from, values.to].filter(Boolean).length;
}

/** `to` before `from`: the range is empty. */
export const orderRangeError = (values: Pick<OrderFilterValues, 'from' | 'to'>) => dayRangeError(values);

/**
 * GET /orders's query (the contract's `status`, `from`, `to`): the days as instants, `to`
 * exclusive (the start of the day after). An inverted range is not sent.
 */
export function orderApiFilters(values: OrderFilterValues): ListFilters {
  const range = orderRangeError(values)
    ? {}
    : { from: values.from ? dayStartIso(values.from) : undefined, to: values.to ? dayStartIso(values.to, 1) : undefined };
  return { status: values.status || undefined, ...range };
}
