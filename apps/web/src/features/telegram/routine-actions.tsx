import { telegramExecutionStatusLabels, type TelegramExecutionOut } from '@mostrador/contract';
import History from '@mui/icons-material/History';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { ResourceRecord } from '../../components/crud/types';
import { formatDateTime, useCompanyTimezone } from '../../lib/company-time';
import { usePermissions } from '../../lib/permissions';
import { useExecuteRoutine, useExecutions } from './api';

const statusColor = { running: 'info', sent: 'success', partial: 'warning', failed: 'error' } as const;

/** One execution: when, how it started, and the outcome in each group. */
function ExecutionItem({ execution }: { execution: TelegramExecutionOut }) {
  const started = execution.scheduledFor ?? execution.startedAt;
  // in the company's time zone, the one its routines are scheduled in (decision 0040)
  const timeZone = useCompanyTimezone();
  return (
    <Box component="li" sx={{ listStyle: 'none', borderBottom: 1, borderColor: 'divider', py: 1.5 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="subtitle2">{formatDateTime(started, timeZone)}</Typography>
        <Typography variant="body2" color="text.secondary">
          {execution.trigger === 'schedule' ? 'Programada' : 'Manual'}
        </Typography>
        <Chip size="small" color={statusColor[execution.status]} label={telegramExecutionStatusLabels[execution.status]} />
      </Box>
      <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2 }}>
        {execution.results.map((r) => (
          <Typography component="li" variant="body2" key={r.groupId} color={r.status === 'failed' ? 'error' : 'text.primary'}>
            {r.name}: {r.status === 'sent' ? `enviado (mensaje n.º ${r.messageId})` : `no enviado — ${r.error}`}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

/** The last executions of a routine, newest first. */
function ExecutionLog({ routineId, open }: { routineId: string; open: boolean }) {
  const log = useExecutions(routineId, open);
  if (log.isPending) return <LinearProgress aria-label="Cargando ejecuciones" />;
  if (log.isError) return <Alert severity="error">No se pudieron cargar las ejecuciones</Alert>;
  if (!log.data.payload.length) return <Typography color="text.secondary">Esta rutina aún no se ha ejecutado</Typography>;
  return (
    <Box component="ul" aria-label="Últimas ejecuciones" sx={{ m: 0, p: 0 }}>
      {log.data.payload.map((e) => (
        <ExecutionItem key={e._id} execution={e} />
      ))}
    </Box>
  );
}

/**
 * A routine's row (decision 0040): «Ejecutar ahora» posts it to its groups now
 * (POST /telegram-routines/{id}/execute) and then shows how it went; «Últimas ejecuciones» shows
 * the log, scheduled and manual, with the outcome in each group.
 */
export function RoutineActions({ row }: { row: ResourceRecord }) {
  const canRun = usePermissions().can('messaging', 'update');
  const [open, setOpen] = useState(false);
  const execute = useExecuteRoutine(row._id);
  const name = String(row.name ?? '');
  return (
    <>
      {canRun && (
        <Tooltip title="Ejecutar ahora">
          <span>
            <IconButton
              size="small"
              aria-label={`Ejecutar ahora: ${name}`}
              disabled={execute.isPending}
              onClick={() => execute.mutate(undefined, { onSettled: () => setOpen(true) })}
            >
              <PlayArrow fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      )}
      <Tooltip title="Últimas ejecuciones">
        <IconButton size="small" aria-label={`Últimas ejecuciones: ${name}`} onClick={() => setOpen(true)}>
          <History fontSize="small" />
        </IconButton>
      </Tooltip>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby={`log-${row._id}`}>
        <DialogTitle id={`log-${row._id}`}>Últimas ejecuciones de «{name}»</DialogTitle>
        <DialogContent>
          <ExecutionLog routineId={row._id} open={open} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cerrar</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
