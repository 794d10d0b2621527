import { countries, type SyncRunOut, syncRunStatusLabels } from '@mostrador/contract';
import CloseIcon from '@mui/icons-material/Close';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useId, useState } from 'react';
import { formatInstant } from '../../components/crud/cell-value';
import { RunsPanel } from '../../components/ui/runs-panel';
import { SyncStatusChip as StatusChip, SyncProgress, SyncProgressBar, syncPercent } from '../../components/ui/sync-progress';
import { formatCount } from '../../i18n';
import { useSyncRun, useSyncRuns } from './api';

export const countryName = (code: string) => countries.find((c) => c.code === code)?.name ?? code;

const isActive = (run: SyncRunOut) => run.status === 'queued' || run.status === 'running';

/** What a run is: the whole store, or the products someone chose. */
export const runKindLabel = (run: SyncRunOut) => (run.kind === 'all' ? 'Sincronización completa' : 'Envío de productos elegidos');

/** Percent done; undefined while the total is not known yet. */
export const percentOf = (run: SyncRunOut) => syncPercent(run.status, run.done, run.total);

/** The run's counts in one line, leaving out what is zero (but always how many changed nothing). */
export function countsOf(run: SyncRunOut): string {
  const parts = [
    run.created ? `${formatCount(run.created)} creados` : '',
    run.updated ? `${formatCount(run.updated)} actualizados` : '',
    `${formatCount(run.unchanged)} sin cambios`,
    run.storeWrites ? `${formatCount(run.storeWrites)} enviados a la tienda` : '',
    run.failedItems ? `${formatCount(run.failedItems)} con error` : '',
  ];
  return parts.filter(Boolean).join(' · ');
}

export function SyncStatusChip({ run }: { run: SyncRunOut }) {
  return <StatusChip phase={run.status} label={syncRunStatusLabels[run.status]} testId="sync-status" />;
}

/** The bar: determinate once the total is known, moving while the run waits to start. */
export function SyncBar({ run }: { run: SyncRunOut }) {
  return <SyncProgressBar phase={run.status} done={run.done} total={run.total} label={`Progreso de ${run.storeName}`} />;
}

/**
 * One sync run as a person follows it: the store, what it does, its state, the bar with how
 * many items of how many, the counts, why it stopped (or will retry), and its error report.
 */
export function SyncRunCard({ run, onDismiss }: { run: SyncRunOut; onDismiss?: () => void }) {
  const [report, setReport] = useState(false);
  const percent = percentOf(run);
  const titleId = useId();
  const retrying = isActive(run) && !!run.message;
  return (
    <Box component="article" aria-labelledby={titleId} data-testid="sync-run" data-status={run.status} sx={{ display: 'grid', gap: 0.75, py: 1.5 }}>
      <SyncProgress
        phase={run.status}
        statusLabel={syncRunStatusLabels[run.status]}
        statusTestId="sync-status"
        done={run.done}
        total={run.total}
        barLabel={`Progreso de ${run.storeName}`}
        title={
          <Typography id={titleId} variant="subtitle2" component="h3">
            {run.storeName} · {countryName(run.country)}
            <Typography component="span" variant="body2" color="text.secondary">
              {' '}
              — {runKindLabel(run)}
            </Typography>
          </Typography>
        }
        aside={
          onDismiss &&
          !isActive(run) && (
            <IconButton size="small" aria-label={`Ocultar la sincronización de ${run.storeName}`} onClick={onDismiss}>
              <CloseIcon fontSize="small" />
            </IconButton>
          )
        }
      />
      <Typography variant="body2" color="text.secondary" data-testid="sync-counts">
        {run.total > 0 || run.status === 'done' ? (
          <>
            <Box component="span" sx={{ color: 'text.primary', fontWeight: 600 }} data-testid="sync-done">
              {formatCount(run.done)} de {formatCount(Math.max(run.total, run.done))} revisados
            </Box>
            {percent !== undefined && ` (${percent} %)`}
            {' · en registros (productos, variaciones, categorías…): '}
            {countsOf(run)}
          </>
        ) : (
          'Contando lo que hay que revisar…'
        )}
      </Typography>
      {run.status === 'failed' && run.message && (
        <Alert severity="error" variant="outlined" sx={{ py: 0 }}>
          {run.message}
        </Alert>
      )}
      {retrying && (
        <Alert severity="warning" variant="outlined" sx={{ py: 0 }}>
          {run.message}
        </Alert>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="caption" color="text.secondary" sx={{ mr: 'auto' }}>
          {run.finishedAt ? `Terminó ${formatInstant(run.finishedAt)}` : `Iniciada ${formatInstant(run.startedAt ?? run.createdAt)}`}
          {` · ${formatCount(run.requests)} solicitudes a la tienda`}
        </Typography>
        {(run.failedItems > 0 || !isActive(run)) && (
          <Button
            size="small"
            color={run.failedItems ? 'warning' : 'primary'}
            startIcon={run.failedItems ? <ErrorOutline fontSize="small" /> : undefined}
            onClick={() => setReport(true)}
            aria-label={`Ver el informe de ${run.storeName}`}
          >
            {run.failedItems === 1 ? 'Ver informe (1 error)' : run.failedItems ? `Ver informe (${formatCount(run.failedItems)} errores)` : 'Ver informe'}
          </Button>
        )}
      </Box>
      <SyncReportDialog runId={report ? run._id : undefined} fallback={run} onClose={() => setReport(false)} />
    </Box>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <TableRow>
      <TableCell component="th" scope="row" sx={{ color: 'text.secondary', fontWeight: 400 }}>
        {label}
      </TableCell>
      <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 600 }}>
        {formatCount(value)}
      </TableCell>
    </TableRow>
  );
}

/** The run's result (GET /ecommerces/sync-runs/{id}): its counts and each item it could not take or send, with why. */
export function SyncReportDialog({ runId, fallback, onClose }: { runId: string | undefined; fallback?: SyncRunOut; onClose: () => void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const query = useSyncRun(runId);
  const run = query.data ?? fallback;
  return (
    <Dialog open={!!runId} onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        Informe de la sincronización{run ? ` · ${run.storeName}` : ''}
        <IconButton aria-label="Cerrar" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        {!run && query.isLoading && <Skeleton variant="rounded" height={200} />}
        {!run && query.isError && <Alert severity="warning">No se pudo cargar el informe.</Alert>}
        {run && (
          <>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <SyncStatusChip run={run} />
              <Typography variant="body2" color="text.secondary">
                {runKindLabel(run)} de {countryName(run.country)} · {run.finishedAt ? `terminó ${formatInstant(run.finishedAt)}` : `iniciada ${formatInstant(run.startedAt ?? run.createdAt)}`}
              </Typography>
            </Box>
            {isActive(run) && <SyncBar run={run} />}
            {run.message && <Alert severity={run.status === 'failed' ? 'error' : 'warning'}>{run.message}</Alert>}
            <Table size="small" aria-label="Resultado" sx={{ maxWidth: 420 }}>
              <TableBody>
                <Count label="Elementos revisados" value={run.done} />
                <Count label="Creados aquí" value={run.created} />
                <Count label="Actualizados aquí" value={run.updated} />
                <Count label="Sin cambios" value={run.unchanged} />
                <Count label="Enviados a la tienda" value={run.storeWrites} />
                <Count label="Solicitudes a la tienda" value={run.requests} />
                <Count label="Con error" value={run.failedItems} />
              </TableBody>
            </Table>
            <Typography variant="subtitle2" component="h3">
              Errores por elemento
            </Typography>
            {run.errors.length === 0 ? (
              <Typography variant="body2" color="text.secondary" data-testid="no-errors">
                {isActive(run) ? 'Sin errores por ahora.' : 'Sin errores: todos los elementos revisados se sincronizaron.'}
              </Typography>
            ) : (
              <>
                <Table size="small" aria-label="Errores por elemento">
                  <TableHead>
                    <TableRow>
                      <TableCell sx={{ fontWeight: 600 }}>Elemento</TableCell>
                      <TableCell sx={{ fontWeight: 600 }}>Motivo</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {run.errors.map((error, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the same item may fail twice
                      <TableRow key={i}>
                        <TableCell sx={{ whiteSpace: { sm: 'nowrap' }, verticalAlign: 'top' }}>{error.item}</TableCell>
                        <TableCell sx={{ overflowWrap: 'anywhere' }}>{error.msg}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
                {run.failedItems > run.errors.length && (
                  <Typography variant="caption" color="text.secondary">
                    Se muestran los primeros {formatCount(run.errors.length)} de {formatCount(run.failedItems)} errores.
                  </Typography>
                )}
              </>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}

/** How many finished runs the panel shows before «Ver más». */

/**
 * The company's store syncs on a screen: those going on, with their live bars, then the last
 * ones with their results. `filter` narrows them (one screen's runs); empty: says so.
 */
export function SyncRunsPanel({
  title = 'Sincronizaciones',
  filter,
  emptyMessage = 'Aún no se ha sincronizado ninguna tienda. Usa «Sincronizar» en una tienda para traer sus productos, pedidos y clientes.',
  hideWhenEmpty = false,
  onDismiss,
}: {
  title?: string;
  filter?: (run: SyncRunOut) => boolean;
  emptyMessage?: string;
  hideWhenEmpty?: boolean;
  onDismiss?: (run: SyncRunOut) => void;
}) {
  const runs = useSyncRuns();
  const list = (runs.data?.payload ?? []).filter((r) => !filter || filter(r));
  if (hideWhenEmpty && list.length === 0) return null;
  return (
    <RunsPanel
      title={title}
      testId="sync-panel"
      query={runs}
      runs={list}
      isActive={isActive}
      loadError="No se pudieron cargar las sincronizaciones."
      emptyMessage={emptyMessage}
      emptyTestId="sync-empty"
      renderRun={(run, finished) => <SyncRunCard key={run._id} run={run} onDismiss={finished && onDismiss ? () => onDismiss(run) : undefined} />}
      finishedHeading="Últimas sincronizaciones"
      moreLabel={(n) => `Ver las ${formatCount(n)} últimas`}
    />
  );
}
