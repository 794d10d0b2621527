import { orderStatuses, orderStatusLabels } from '@mostrador/contract';
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
import { type OrderFilterValues, orderFilterCount, orderRangeError } from './order-filters';

export interface OrderFilterBarProps {
  values: OrderFilterValues;
  onChange: (changes: Partial<OrderFilterValues>) => void;
  onClear: () => void;
}

/**
 * /ordenes: status and a date range of placement (the code, customer or phone go in the list's
 * search box). On a phone the bar folds behind a Filtros button (open at first when one is set).
 */
export function OrderFilterBar({ values, onChange, onClear }: OrderFilterBarProps) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const active = orderFilterCount(values);
  const [opened, setOpened] = useState(active > 0);
  const barId = useId();
  const open = !phone || opened;
  const range = orderRangeError(values);
  const dateSx = { flex: { xs: '1 1 140px', sm: '0 1 165px' }, minWidth: 0 } as const;
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
          data-testid="order-filter-bar"
        >
          <TextField
            select
            size="small"
            label="Estado"
            value={values.status}
            onChange={(event) => onChange({ status: event.target.value as OrderFilterValues['status'] })}
            sx={{ flex: { xs: '1 1 100%', sm: '0 1 180px' }, minWidth: 0 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">Todos</MenuItem>
            {orderStatuses.map((s) => (
              <MenuItem key={s} value={s}>
                {orderStatusLabels[s]}
              </MenuItem>
            ))}
          </TextField>
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
