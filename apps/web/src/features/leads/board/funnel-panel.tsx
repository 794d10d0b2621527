import { FUNNEL_DEFAULT_DAYS } from '@mostrador/contract';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatCount } from '../../../lib/number-format';
import { leadQueryKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';
import { dayStartIso, rangeError } from '../lead-filters';
import { boardApi } from './board-api';
import { formatDuration, formatShare } from './board-model';

const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * «Embudo de etapas» (decision 0099): for the leads that entered each column in the period, how
 * many are still there, how many went further right on the board (the conversion) and how long
 * they stayed (median), from the history of every move. Read only when opened.
 */
export function FunnelPanel() {
  const { companyId } = useSession();
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState(() => {
    const today = new Date();
    return { from: day(new Date(today.getFullYear(), today.getMonth(), today.getDate() - FUNNEL_DEFAULT_DAYS)), to: day(today) };
  });
  const invalid = rangeError(range);
  const query = { from: dayStartIso(range.from), to: dayStartIso(range.to, 1) };
  const funnel = useQuery({
    queryKey: leadQueryKeys.funnel(companyId, query),
    queryFn: ({ signal }) => boardApi.funnel(query, signal),
    enabled: open && !invalid,
    placeholderData: keepPreviousData,
  });
  const nameOf = (stage: string) => funnel.data?.stages.find((s) => s.stage === stage)?.name ?? stage;
  return (
    <Accordion expanded={open} onChange={(_, expanded) => setOpen(expanded)} disableGutters sx={{ mb: 2 }} data-testid="funnel-panel">
      <AccordionSummary expandIcon={<ExpandMore />} aria-controls="funnel-content" id="funnel-header">
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
          Embudo de etapas
        </Typography>
      </AccordionSummary>
      <AccordionDetails id="funnel-content">
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
          <TextField type="date" size="small" label="Desde" value={range.from} onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField
            type="date"
            size="small"
            label="Hasta"
            value={range.to}
            onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
            error={Boolean(invalid)}
            helperText={invalid}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Box>
        {funnel.isError && <Alert severity="error">Error al cargar los datos. Por favor, intente nuevamente.</Alert>}
        {funnel.isPending && !invalid && <Skeleton variant="rounded" height={200} />}
        {funnel.data && (
          <TableContainer>
            <Table size="small" aria-label="Embudo de etapas">
              <TableHead>
                <TableRow>
                  <TableCell>Etapa</TableCell>
                  <TableCell align="right">Entraron</TableCell>
                  <TableCell align="right">Siguen ahí</TableCell>
                  <TableCell align="right">Avanzaron</TableCell>
                  <TableCell align="right">Conversión</TableCell>
                  <TableCell align="right">Tiempo mediano</TableCell>
                  <TableCell>Pasaron a</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {funnel.data.stages.map((s) => (
                  <TableRow key={s.stage} data-testid={`funnel-${s.stage}`}>
                    <TableCell component="th" scope="row" sx={{ pl: s.custom ? 3 : undefined }}>
                      {s.name}
                    </TableCell>
                    <TableCell align="right">{formatCount(s.entered)}</TableCell>
                    <TableCell align="right">{formatCount(s.stillIn)}</TableCell>
                    <TableCell align="right">{formatCount(s.advanced)}</TableCell>
                    <TableCell align="right">{formatShare(s.conversion)}</TableCell>
                    <TableCell align="right">{s.medianSeconds === null ? '—' : formatDuration(s.medianSeconds)}</TableCell>
                    <TableCell>
                      {s.exits.length
                        ? s.exits
                            .slice(0, 3)
                            .map((e) => `${nameOf(e.stage)} ${formatShare(e.rate)}`)
                            .join(' · ')
                        : '—'}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </AccordionDetails>
    </Accordion>
  );
}
