import { type LeadPlatform, type LeadStatus, leadPlatforms, leadStatuses } from '@mostrador/contract';
import type { ListFilters } from '../../components/crud/types';

/**
 * The filters of /lead/todos, kept in the address so a filtered list can be shared and the
 * back button undoes a change: `?estado=&canal=&agente=&etiquetas=a,b&desde=2025-01-01&hasta=…`
 * (days, in the browser's zone). The text search is the list's own `q`.
 */
export interface LeadFilterValues {
  status: LeadStatus | '';
  platform: LeadPlatform | '';
  agenteId: string;
  labels: string[];
  /** `YYYY-MM-DD`, inclusive. */
  from: string;
  /** `YYYY-MM-DD`, inclusive. */
  to: string;
}

export const emptyLeadFilters: LeadFilterValues = { status: '', platform: '', agenteId: '', labels: [], from: '', to: '' };

/** Address parameter of each filter. */
export const filterParamNames: Record<keyof LeadFilterValues, string> = {
  status: 'estado',
  platform: 'canal',
  agenteId: 'agente',
  labels: 'etiquetas',
  from: 'desde',
  to: 'hasta',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (text: string) => DAY.test(text) && !Number.isNaN(new Date(`${text}T00:00:00`).getTime());

/** The filters an address holds; unknown values are ignored. */
export function filtersFromParams(params: URLSearchParams): LeadFilterValues {
  const status = params.get(filterParamNames.status) ?? '';
  const platform = params.get(filterParamNames.platform) ?? '';
  const from = params.get(filterParamNames.from) ?? '';
  const to = params.get(filterParamNames.to) ?? '';
  return {
    status: (leadStatuses as readonly string[]).includes(status) ? (status as LeadStatus) : '',
    platform: (leadPlatforms as readonly string[]).includes(platform) ? (platform as LeadPlatform) : '',
    agenteId: params.get(filterParamNames.agenteId)?.trim() ?? '',
    labels: (params.get(filterParamNames.labels) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
  };
}

/** The address after a filter change: the changed filters set or removed, back to page 1. */
export function withFilters(params: URLSearchParams, changes: Partial<LeadFilterValues>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes) as Array<[keyof LeadFilterValues, string | string[]]>) {
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text) next.set(filterParamNames[key], text);
    else next.delete(filterParamNames[key]);
  }
  next.delete('page');
  return next;
}

/** How many filters are set (the phone's Filtros button shows it). */
export function countOf(values: LeadFilterValues): number {
  return [values.status, values.platform, values.agenteId, values.labels.length ? 'x' : '', values.from, values.to].filter(Boolean).length;
}

export function hasFilters(values: LeadFilterValues): boolean {
  return countOf(values) > 0;
}

/** The start of a day in the browser's zone, plus `days`, as an ISO instant. */
export function dayStartIso(day: string, days = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y as number, (m as number) - 1, (d as number) + days).toISOString();
}

/** `to` before `from`: the range is empty. */
export function rangeError(values: Pick<LeadFilterValues, 'from' | 'to'>): string | undefined {
  return values.from && values.to && values.to < values.from ? 'La fecha final debe ser posterior a la inicial' : undefined;
}

/**
 * The list's query (leadFilterQuery): labels as comma-separated ids, the days as instants,
 * `to` exclusive (the start of the day after). An inverted range is not sent.
 */
export function apiFilters(values: LeadFilterValues): ListFilters {
  const range = rangeError(values) ? {} : { from: values.from ? dayStartIso(values.from) : undefined, to: values.to ? dayStartIso(values.to, 1) : undefined };
  return {
    status: values.status || undefined,
    platform: values.platform || undefined,
    agenteId: values.agenteId || undefined,
    mostradorLabels: values.labels.length ? values.labels.join(',') : undefined,
    ...range,
  };
}
