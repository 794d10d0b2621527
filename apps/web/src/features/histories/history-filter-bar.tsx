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
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const active = historyFilterCount(values);
  const [opened, setOpened] = useState(active > 0);
  const barId = useId();
  const open = !phone || opened;
  const range = historyRangeError(values);
  const dateSx = { flex: { xs: '1 1 140px', sm: '0 1 165px' }, minWidth: 0 } as const;
  // a template chosen from a link stays choosable even when the line no longer has it
  const names = templates ? [...new Set([...(values.template ? [values.template] : []), ...templates])].sort() : undefined;
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
        <Box role="group" aria-label="Filtros" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5, px: 2, pb: 2 }}>
          <TextField
            select
            size="small"
            label={statusLabel}
            value={values.status}
            onChange={(event) => onChange({ status: event.target.value })}
            sx={{ flex: { xs: '1 1 100%', sm: '0 1 200px' }, minWidth: 0 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">Todos</MenuItem>
            {Object.entries(statuses).map(([value, label]) => (
              <MenuItem key={value} value={value}>
                {label}
              </MenuItem>
            ))}
          </TextField>
          {names && (
            <TextField
              select
              size="small"
              label={templateLabel}
              value={values.template}
              onChange={(event) => onChange({ template: event.target.value })}
              sx={{ flex: { xs: '1 1 100%', sm: '0 1 240px' }, minWidth: 0 }}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">Todas</MenuItem>
              {names.map((name) => (
                <MenuItem key={name} value={name}>
                  {templateOptionLabel ? templateOptionLabel(name) : name}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            type="date"
            size="small"
            label="Desde"
            value={values.from}
            onChange={(event) => onChange({ from: event.target.value })}
            sx={dateSx}
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
            sx={dateSx}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          {active > 0 && (
            <Button startIcon={<FilterAltOff />} onClick={onClear} sx={{ alignSelf: 'center' }}>
              Limpiar filtros
            </Button>
          )}
        </Box>
      </Collapse>
    </>
  );
}
