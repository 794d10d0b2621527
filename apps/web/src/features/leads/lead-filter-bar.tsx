import { leadPlatforms, leadStatuses, leadStatusLabels } from '@mostrador/contract';
import FilterAltOff from '@mui/icons-material/FilterAltOff';
import FilterList from '@mui/icons-material/FilterList';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useId, useState } from 'react';
import { RefField } from '../../components/crud/ref-field';
import { useRefOptions } from '../../components/crud/use-resource';
import { channelLabel } from '../../components/ui/channel-icon';
import { countOf, hasFilters, type LeadFilterValues, rangeError } from './lead-filters';

export interface LeadFilterBarProps {
  values: LeadFilterValues;
  onChange: (changes: Partial<LeadFilterValues>) => void;
  onClear: () => void;
}

const ALL = 'Todos';

/**
 * /lead/todos: status, channel, agent, labels and a date range (the text is the list's search
 * box). On a phone the bar folds behind a Filtros button (open at first when a filter is set).
 */
export function LeadFilterBar({ values, onChange, onClear }: LeadFilterBarProps) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const active = countOf(values);
  const [opened, setOpened] = useState(active > 0);
  const barId = useId();
  const open = !phone || opened;
  const agents = useRefOptions(['agentes']);
  const range = rangeError(values);
  const select = (label: string, value: string, field: 'status' | 'platform' | 'agenteId', options: Array<{ value: string; label: string }>) => (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange({ [field]: event.target.value })}
      sx={{ flex: { xs: '1 1 100%', sm: '0 1 160px' }, minWidth: 0 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{ALL}</MenuItem>
      {value && !options.some((o) => o.value === value) && <MenuItem value={value}>{value}</MenuItem>}
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <>
      {phone && (
        <Box sx={{ px: 2, pb: 1.5, mt: -0.5 }}>
          <Button
            size="small"
            startIcon={
              <Badge badgeContent={active} color="primary">
                <FilterList />
              </Badge>
            }
            aria-expanded={open}
            aria-controls={barId}
            onClick={() => setOpened((o) => !o)}
          >
            Filtros
          </Button>
        </Box>
      )}
      <Collapse in={open} id={barId}>
    <Box
      role="group"
      aria-label="Filtros"
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5, px: 2, pb: 2 }}
      data-testid="lead-filter-bar"
    >
      {select('Estado', values.status, 'status', leadStatuses.map((s) => ({ value: s, label: leadStatusLabels[s] })))}
      {select('Canal', values.platform, 'platform', leadPlatforms.map((p) => ({ value: p, label: channelLabel(p) })))}
      {select('Agente', values.agenteId, 'agenteId', agents.options.map((o) => ({ value: o.id, label: o.label })))}
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
      <TextField
        type="date"
        size="small"
        label="Desde"
        value={values.from}
        onChange={(event) => onChange({ from: event.target.value })}
        sx={{ flex: { xs: '1 1 140px', sm: '0 1 155px' }, minWidth: 0 }}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        type="date"
        size="small"
        label="Hasta"
        value={values.to}
        onChange={(event) => onChange({ to: event.target.value })}
        error={!!range}
        helperText={range}
        sx={{ flex: { xs: '1 1 140px', sm: '0 1 155px' }, minWidth: 0 }}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      {hasFilters(values) && (
        <Button startIcon={<FilterAltOff />} onClick={onClear} sx={{ alignSelf: 'center' }}>
          Limpiar filtros
        </Button>
      )}
    </Box>
      </Collapse>
    </>
  );
}
