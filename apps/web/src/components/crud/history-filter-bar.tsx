import { DateRangeFilter, FilterBar, FilterSelect, optionsOf } from './filter-bar';
import { historyFilterCount, type HistoryFilterValues, historyRangeError } from './history-filters';

export interface HistoryFilterBarProps {
  values: HistoryFilterValues;
  onChange: (changes: Partial<HistoryFilterValues>) => void;
  onClear: () => void;
  /** The statuses to choose from, with their Spanish labels. */
  statuses: Readonly<Record<string, string>>;
  /** The template history: the names to choose from (absent: no template filter). */
  templates?: readonly string[];
  /** Another list's words for the two selects (the LLM ledger: «Resultado», «Función» and each function's label). */
  statusLabel?: string;
  templateLabel?: string;
  templateOptionLabel?: (name: string) => string;
}

/**
 * The histories' filters: status, (template,) and a date range of the send. On a phone the bar
 * folds behind a Filtros button (open at first when one is set), as /ordenes' does.
 */
export function HistoryFilterBar({ values, onChange, onClear, statuses, templates, statusLabel = 'Estado', templateLabel = 'Plantilla', templateOptionLabel }: HistoryFilterBarProps) {
  // a template chosen from a link stays choosable even when the line no longer has it
  const names = templates ? [...new Set([...(values.template ? [values.template] : []), ...templates])].sort() : undefined;
  return (
    <FilterBar active={historyFilterCount(values)} onClear={onClear}>
      <FilterSelect label={statusLabel} value={values.status} options={optionsOf(statuses)} onChange={(status) => onChange({ status })} width={200} />
      {names && (
        <FilterSelect
          label={templateLabel}
          value={values.template}
          allLabel="Todas"
          options={names.map((name) => ({ value: name, label: templateOptionLabel ? templateOptionLabel(name) : name }))}
          onChange={(template) => onChange({ template })}
          width={240}
        />
      )}
      <DateRangeFilter from={values.from} to={values.to} onChange={onChange} error={historyRangeError(values)} />
    </FilterBar>
  );
}
