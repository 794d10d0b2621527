import { llmFeatures, llmFeatureLabels, type LlmFeature, llmOutcomeLabels, llmOutcomes } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import { useSearchParams } from 'react-router';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import type { ListFilters } from '../../components/crud/types';
import { useCompanyMoney } from '../../lib/money';
import { screen } from './llm-tracker-screen';
import { HistoryFilterBar } from '../../components/crud/history-filter-bar';
import { historyRangeError } from '../../components/crud/history-filters';
import { dayStartIso } from '../../components/crud/day-range';
import { useLlmSummary } from './api';
import { LlmSettingsCard } from './settings-card';
import { LlmTotals } from './totals-panel';

/** Address parameters of the filters: `?funcion=analysis&resultado=fallback&desde=2026-11-01&hasta=2026-11-30` (days inclusive). */
const params = { feature: 'funcion', outcome: 'resultado', from: 'desde', to: 'hasta' } as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface LlmFilterValues {
  outcome: string;
  feature: string;
  from: string;
  to: string;
}

export function llmFiltersFromParams(search: URLSearchParams): LlmFilterValues {
  const outcome = search.get(params.outcome) ?? '';
  const feature = search.get(params.feature) ?? '';
  const from = search.get(params.from) ?? '';
  const to = search.get(params.to) ?? '';
  return {
    outcome: (llmOutcomes as readonly string[]).includes(outcome) ? outcome : '',
    feature: (llmFeatures as readonly string[]).includes(feature) ? feature : '',
    from: DAY.test(from) ? from : '',
    to: DAY.test(to) ? to : '',
  };
}

/** The list's and the totals' query: the days as instants, `to` exclusive; an inverted range is not sent. */
export function llmApiFilters(values: LlmFilterValues): ListFilters & { from?: string; to?: string } {
  const range = historyRangeError(values) ? {} : { from: values.from ? dayStartIso(values.from) : undefined, to: values.to ? dayStartIso(values.to, 1) : undefined };
  return { feature: values.feature || undefined, outcome: values.outcome || undefined, ...range };
}

/** The totals above the list: the month against its budget, the cost per day and per feature over the chosen days (default the last 30). */
function LlmPanel({ from, to }: { from?: string; to?: string }) {
  const summary = useLlmSummary({ from, to });
  const money = useCompanyMoney();
  return (
    <>
      {summary.isError && <Alert severity="warning" sx={{ mb: 2 }}>No se pudieron leer los totales</Alert>}
      {summary.isPending && <Skeleton variant="rectangular" height={240} sx={{ mb: 2 }} />}
      {summary.data && <LlmTotals summary={summary.data} money={money} />}
      <LlmSettingsCard />
    </>
  );
}

/**
 * /seguimiento-gpt (SPEC §2, issue 14, decision 0046): the generic ledger list (search, sort, and
 * filters by feature, outcome and dates kept in the address) under the month's totals and the AI
 * engine's settings.
 */
export function LlmTrackerPage() {
  const [search, setSearch] = useSearchParams();
  const values = llmFiltersFromParams(search);
  const change = (changes: Partial<{ status: string; template: string; from: string; to: string }>) =>
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      const mapped: Record<string, string | undefined> = { [params.outcome]: changes.status, [params.feature]: changes.template, [params.from]: changes.from, [params.to]: changes.to };
      for (const [key, value] of Object.entries(mapped)) {
        if (value === undefined) continue;
        if (value) next.set(key, value);
        else next.delete(key);
      }
      next.delete('page');
      return next;
    });
  const clear = () => change({ status: '', template: '', from: '', to: '' });
  const filters = llmApiFilters(values);
  return (
    <ResourceListPage
      config={{ ...screen, panel: () => <LlmPanel from={filters.from} to={filters.to} /> }}
      filters={filters}
      filterBar={
        <HistoryFilterBar
          values={{ status: values.outcome, template: values.feature, from: values.from, to: values.to }}
          onChange={change}
          onClear={clear}
          statuses={llmOutcomeLabels}
          statusLabel="Resultado"
          templates={llmFeatures}
          templateLabel="Función"
          templateOptionLabel={(name) => llmFeatureLabels[name as LlmFeature] ?? name}
        />
      }
    />
  );
}

export default LlmTrackerPage;
