import { leadPlatforms, leadStatuses, leadStatusLabels } from '@mostrador/contract';
import Box from '@mui/material/Box';
import { DateRangeFilter, FilterBar, FilterSelect } from '../../components/crud/filter-bar';
import { RefField } from '../../components/crud/ref-field';
import { useRefOptions } from '../../components/crud/use-resource';
import { channelLabel } from '../../components/ui/channel-icon';
import { countOf, type LeadFilterValues, rangeError } from './lead-filters';

export interface LeadFilterBarProps {
  values: LeadFilterValues;
  onChange: (changes: Partial<LeadFilterValues>) => void;
  onClear: () => void;
}

/**
 * /lead/todos: status, channel, agent, labels and a date range (the text is the list's search
 * box). On a phone the bar folds behind a Filtros button (open at first when a filter is set).
 */
export function LeadFilterBar({ values, onChange, onClear }: LeadFilterBarProps) {
  const agents = useRefOptions(['agentes']);
  return (
    <FilterBar active={countOf(values)} onClear={onClear} testId="lead-filter-bar">
      <FilterSelect label="Estado" value={values.status} options={leadStatuses.map((s) => ({ value: s, label: leadStatusLabels[s] }))} onChange={(status) => onChange({ status: status as LeadFilterValues['status'] })} width={160} />
      <FilterSelect label="Canal" value={values.platform} options={leadPlatforms.map((p) => ({ value: p, label: channelLabel(p) }))} onChange={(platform) => onChange({ platform: platform as LeadFilterValues['platform'] })} width={160} />
      <FilterSelect label="Agente" value={values.agenteId} options={agents.options.map((o) => ({ value: o.id, label: o.label }))} onChange={(agenteId) => onChange({ agenteId })} width={160} />
      <Box sx={{ flex: { xs: '1 1 100%', sm: '1 1 180px' }, minWidth: 0, maxWidth: { sm: 420 } }}>
        <RefField
          id="lead-filter-labels"
          name="etiquetas"
          label="Etiquetas"
          keys={['mostrador-labels']}
          multiple
          value={values.labels}
          onChange={(ids) => onChange({ labels: ids as string[] })}
          size="small"
        />
      </Box>
      <DateRangeFilter from={values.from} to={values.to} onChange={onChange} error={rangeError(values)} />
    </FilterBar>
  );
}
