import { dayRangeError, dayStartIso } from './day-range';
import type { ListFilters } from './types';

/**
 * The filters of the two message histories (decision 0042), kept in the address like /ordenes'
 * so a filtered list survives a reload and the back button undoes a change:
 * `?estado=failed&plantilla=promo_fin_de_mes&desde=2026-11-01&hasta=2026-11-30` (days in the
 * browser's zone, both inclusive). The search is the list's own.
 */
export interface HistoryFilterValues {
  status: string;
  /** The template history only: a template's name. */
  template: string;
  /** `YYYY-MM-DD`, inclusive. */
  from: string;
  /** `YYYY-MM-DD`, inclusive. */
  to: string;
}

export const emptyHistoryFilters: HistoryFilterValues = { status: '', template: '', from: '', to: '' };

/** Address parameter of each filter. */
export const historyFilterParams: Record<keyof HistoryFilterValues, string> = { status: 'estado', template: 'plantilla', from: 'desde', to: 'hasta' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (text: string) => DAY.test(text) && !Number.isNaN(new Date(`${text}T00:00:00`).getTime());
const TEMPLATE = /^[a-z0-9_]{1,512}$/;

/** The filters an address holds; values the screen does not know are ignored. */
export function historyFiltersFromParams(params: URLSearchParams, statuses: readonly string[]): HistoryFilterValues {
  const status = params.get(historyFilterParams.status) ?? '';
  const template = params.get(historyFilterParams.template) ?? '';
  const from = params.get(historyFilterParams.from) ?? '';
  const to = params.get(historyFilterParams.to) ?? '';
  return {
    status: statuses.includes(status) ? status : '',
    template: TEMPLATE.test(template) ? template : '',
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
  };
}

/** The address after a filter change: the changed filters set or removed, back to page 1. */
export function withHistoryFilters(params: URLSearchParams, changes: Partial<HistoryFilterValues>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes) as Array<[keyof HistoryFilterValues, string]>) {
    if (value) next.set(historyFilterParams[key], value);
    else next.delete(historyFilterParams[key]);
  }
  next.delete('page');
  return next;
}

export const historyFilterCount = (values: HistoryFilterValues) => [values.status, values.template, values.from, values.to].filter(Boolean).length;

export const historyRangeError = (values: Pick<HistoryFilterValues, 'from' | 'to'>) => dayRangeError(values);

/**
 * The list's query (the contract's `status`, `templateName`, `from`, `to`): the days as
 * instants, `to` exclusive (the start of the day after). An inverted range is not sent.
 */
export function historyApiFilters(values: HistoryFilterValues, withTemplate: boolean): ListFilters {
  const range = historyRangeError(values)
    ? {}
    : { from: values.from ? dayStartIso(values.from) : undefined, to: values.to ? dayStartIso(values.to, 1) : undefined };
  return { status: values.status || undefined, ...(withTemplate ? { templateName: values.template || undefined } : {}), ...range };
}
