import { type MetricName, type MetricOutput, type MetricsFilter, metricFilters } from '@mostrador/contract';
import { type UseQueryResult, keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, NetworkError } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { metricKeys } from '../../lib/query-keys';

/** The window and channel the screen asks for; each call gets only the filters it takes. */
export interface MetricsQuery {
  from: string;
  to: string;
  channel?: MetricsFilter['channel'];
}

/** The body of one call: the window, and the channel only where the call takes it (web only for leads). */
export function filterFor(name: MetricName, query: MetricsQuery): MetricsFilter {
  const filter: MetricsFilter = { from: query.from, to: query.to };
  if (query.channel && metricFilters[name].includes('channel') && (query.channel !== 'web' || name === 'leads_by_month')) filter.channel = query.channel;
  return filter;
}

/** POST /api/metrics/<name>: no overlay (a screen of charts loads in parts), no snackbar (the screen says it, SPEC §8). */
export function fetchMetric<N extends MetricName>(name: N, filter: MetricsFilter, signal?: AbortSignal): Promise<MetricOutput<N>> {
  return api.post<MetricOutput<N>>(`/metrics/${name}`, filter, { overlay: false, notify: false, signal });
}

/** A request the page gave up on (the filter changed, the page closed): SPEC §8 rethrows it silently. */
export function isCancelled(error: unknown): boolean {
  if (!error) return false;
  if (error instanceof NetworkError) return !error.timedOut && isCancelled(error.cause);
  const name = (error as { name?: unknown }).name;
  return name === 'AbortError' || name === 'CancelledError';
}

/** One metric call for the screen's window. */
export function useMetric<N extends MetricName>(name: N, query: MetricsQuery, enabled = true): UseQueryResult<MetricOutput<N>> {
  const { companyId } = useSession();
  const filter = filterFor(name, query);
  return useQuery({
    queryKey: metricKeys.one(companyId, name, filter),
    queryFn: ({ signal }) => fetchMetric(name, filter, signal),
    enabled,
    placeholderData: keepPreviousData,
    // the screen shows its own message (METRICS_LOAD_ERROR), never the snackbar
    meta: { quiet: true },
  });
}
