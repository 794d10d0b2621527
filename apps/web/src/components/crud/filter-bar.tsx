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
import { type ReactNode, useId, useState } from 'react';

/**
 * A list's filter bar (leads, orders, histories, the LLM ledger): its fields in a wrapping row
 * with «Limpiar filtros» when any is set; on a phone the bar folds behind a «Filtros» button with
 * how many are set (open at first when one is).
 */
export function FilterBar({ active, onClear, testId, children }: { active: number; onClear: () => void; testId?: string; children: ReactNode }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [opened, setOpened] = useState(active > 0);
  const barId = useId();
  const open = !phone || opened;
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
        <Box role="group" aria-label="Filtros" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5, px: 2, pb: 2 }} data-testid={testId}>
          {children}
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

/** One choice among options, «Todos» (or `allLabel`) for none; a value no option has (from a link) stays shown. */
export function FilterSelect({
  label,
  value,
  options,
  onChange,
  allLabel = 'Todos',
  width = 180,
}: {
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange: (value: string) => void;
  allLabel?: string;
  width?: number;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ flex: { xs: '1 1 100%', sm: `0 1 ${width}px` }, minWidth: 0 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{allLabel}</MenuItem>
      {value && !options.some((o) => o.value === value) && <MenuItem value={value}>{value}</MenuItem>}
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** «Desde» and «Hasta» days; `error` (a range the wrong way round) under «Hasta». */
export function DateRangeFilter({ from, to, onChange, error }: { from: string; to: string; onChange: (changes: { from?: string; to?: string }) => void; error?: string }) {
  const sx = { flex: { xs: '1 1 140px', sm: '0 1 160px' }, minWidth: 0 } as const;
  return (
    <>
      <TextField type="date" size="small" label="Desde" value={from} onChange={(event) => onChange({ from: event.target.value })} sx={sx} slotProps={{ inputLabel: { shrink: true } }} />
      <TextField
        type="date"
        size="small"
        label="Hasta"
        value={to}
        onChange={(event) => onChange({ to: event.target.value })}
        error={!!error}
        helperText={error}
        sx={sx}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </>
  );
}

/** A record of labels as a select's options. */
export const optionsOf = (labels: Readonly<Record<string, string>>) => Object.entries(labels).map(([value, label]) => ({ value, label }));
