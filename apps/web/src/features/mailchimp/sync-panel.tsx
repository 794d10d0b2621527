import { type MailchimpOutcome, mailchimpOutcomeLabels, type MailchimpSyncOut, mailchimpSyncStatusLabels } from '@mostrador/contract';
import CloseIcon from '@mui/icons-material/Close';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
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
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useId, useState } from 'react';
import { formatInstant } from '../../components/crud/cell-value';
import { RunsPanel } from '../../components/ui/runs-panel';
import { SyncProgress, syncPercent } from '../../components/ui/sync-progress';
import { formatCount } from '../../i18n';
import { isActiveSync, useMailchimpSyncs, useSyncReport } from './api';

const outcomeColors: Record<MailchimpOutcome, 'success' | 'error' | 'default'> = { ok: 'success', error: 'error', skipped: 'default' };

/** What a sync is, in a line: the labels sent (and from which segment), or the audience pulled. */
export function syncTitle(sync: MailchimpSyncOut): string {
  if (sync.kind === 'pull') return `Contactos traídos de ${sync.audienceNames[0] ?? 'Mailchimp'}`;
  const labels = sync.labelNames.length ? sync.labelNames.map((l) => `«${l}»`).join(', ') : 'etiquetas';
  return `Etiquetas ${labels} a Mailchimp${sync.segmentName ? ` · segmento ${sync.segmentName}` : ''}`;
}

export const percentOf = (sync: MailchimpSyncOut) => syncPercent(sync.status, sync.done, sync.total);

export function countsOf(sync: MailchimpSyncOut): string {
  if (sync.kind === 'pull') return `${formatCount(sync.done)} de ${formatCount(Math.max(sync.total, sync.done))} contactos traídos`;
  return [
    `${formatCount(sync.done)} de ${formatCount(Math.max(sync.total, sync.done))} contactos`,
    `${formatCount(sync.ok)} ${sync.ok === 1 ? 'enviado' : 'enviados'}`,
    sync.failed ? `${formatCount(sync.failed)} con error` : '',
    sync.skipped ? `${formatCount(sync.skipped)} ${sync.skipped === 1 ? 'omitido' : 'omitidos'}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** One sync as a person follows it: what it sends, its state, the bar, the counts, why it stopped, its report. */
export function MailchimpSyncCard({ sync }: { sync: MailchimpSyncOut }) {
  const [report, setReport] = useState(false);
  const titleId = useId();
  const percent = percentOf(sync);
  return (
    <Box component="article" aria-labelledby={titleId} data-testid="mailchimp-sync" data-status={sync.status} sx={{ display: 'grid', gap: 0.75, py: 1.5 }}>
      <SyncProgress
        phase={sync.status}
        statusLabel={sync.kind === 'pull' && sync.status === 'running' ? 'Trayendo' : mailchimpSyncStatusLabels[sync.status]}
        statusTestId="mailchimp-sync-status"
        done={sync.done}
        total={sync.total}
        barLabel={`Progreso: ${syncTitle(sync)}`}
        bar={sync.status !== 'done'}
        title={
          <Typography id={titleId} variant="subtitle2" component="h3" sx={{ overflowWrap: 'anywhere' }}>
            {syncTitle(sync)}
          </Typography>
        }
      />
      <Typography variant="body2" color="text.secondary" data-testid="mailchimp-sync-counts">
        {sync.total > 0 || sync.status === 'done' ? (
          <>
            {countsOf(sync)}
            {percent !== undefined && isActiveSync(sync) && ` (${percent} %)`}
          </>
        ) : isActiveSync(sync) ? (
          'Contando a quién enviar…'
        ) : (
          'Nadie a quien enviar'
        )}
      </Typography>
      {sync.message && (
        <Alert severity={sync.status === 'failed' ? 'error' : 'warning'} variant="outlined" sx={{ py: 0 }}>
          {sync.message}
        </Alert>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="caption" color="text.secondary" sx={{ mr: 'auto' }}>
          {sync.finishedAt ? `Terminó ${formatInstant(sync.finishedAt)}` : `Pedida ${formatInstant(sync.createdAt)}`}
          {sync.kind === 'labels' && sync.audienceNames.length > 0 && ` · ${sync.audienceNames.length === 1 ? 'audiencia' : 'audiencias'} ${sync.audienceNames.join(', ')}`}
          {` · ${formatCount(sync.requests)} ${sync.requests === 1 ? 'solicitud' : 'solicitudes'} a Mailchimp`}
        </Typography>
        {sync.kind === 'labels' && sync.done > 0 && (
          <Button
            size="small"
            color={sync.failed ? 'warning' : 'primary'}
            startIcon={sync.failed ? <ErrorOutline fontSize="small" /> : undefined}
            onClick={() => setReport(true)}
            aria-label={`Ver el informe: ${syncTitle(sync)}`}
          >
            {sync.failed === 1 ? 'Ver informe (1 error)' : sync.failed ? `Ver informe (${formatCount(sync.failed)} errores)` : 'Ver informe'}
          </Button>
        )}
      </Box>
      <MailchimpReportDialog sync={report ? sync : undefined} onClose={() => setReport(false)} />
    </Box>
  );
}

/** The per-contact report of a sync (GET /mailchimp/syncs/{id}/report): errors first, filterable, 50 a page. */
export function MailchimpReportDialog({ sync, onClose }: { sync: MailchimpSyncOut | undefined; onClose: () => void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const [outcome, setOutcome] = useState<MailchimpOutcome | ''>('');
  const [page, setPage] = useState(1);
  const report = useSyncReport(sync?._id, outcome, page);
  const pages = report.data ? Math.max(1, Math.ceil(report.data.totalDocs / report.data.limit)) : 1;
  return (
    <Dialog open={!!sync} onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        Informe por contacto
        <IconButton aria-label="Cerrar" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        {sync && (
          <>
            <Box sx={{ display: 'grid', gap: 0.5 }}>
              <Typography variant="subtitle2">{syncTitle(sync)}</Typography>
              <Typography variant="body2" color="text.secondary">
                {countsOf(sync)}
              </Typography>
            </Box>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={outcome}
              onChange={(_, value: MailchimpOutcome | '' | null) => {
                if (value === null) return;
                setOutcome(value);
                setPage(1);
              }}
              aria-label="Mostrar"
              sx={{ flexWrap: 'wrap' }}
            >
              <ToggleButton value="">Todos</ToggleButton>
              <ToggleButton value="error">Con error ({formatCount(sync.failed)})</ToggleButton>
              <ToggleButton value="skipped">Omitidos ({formatCount(sync.skipped)})</ToggleButton>
              <ToggleButton value="ok">Enviados ({formatCount(sync.ok)})</ToggleButton>
            </ToggleButtonGroup>
          </>
        )}
        {report.isLoading && <Skeleton variant="rounded" height={160} />}
        {report.isError && (
          <Alert severity="warning" action={<Button onClick={() => report.refetch()}>Reintentar</Button>}>
            No se pudo cargar el informe.
          </Alert>
        )}
        {report.data && report.data.payload.length === 0 && (
          <Typography variant="body2" color="text.secondary" data-testid="mailchimp-report-empty">
            {outcome === 'error' ? 'Sin errores: Mailchimp aceptó a todos los contactos enviados.' : 'No hay contactos con este resultado.'}
          </Typography>
        )}
        {report.data && report.data.payload.length > 0 && (
          <Table size="small" aria-label="Contactos de la sincronización" data-testid="mailchimp-report">
            <TableHead>
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>Contacto</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>Resultado</TableCell>
                <TableCell sx={{ fontWeight: 600, display: { xs: 'none', sm: 'table-cell' } }}>Motivo o etiquetas</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.data.payload.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one person appears once per audience
                <TableRow key={i}>
                  <TableCell sx={{ verticalAlign: 'top', overflowWrap: 'anywhere' }}>
                    <Typography variant="body2" sx={{ fontWeight: 500 }}>
                      {row.name ?? row.email ?? '—'}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" component="div">
                      {[row.email ?? 'sin correo', row.audienceName].filter(Boolean).join(' · ')}
                    </Typography>
                    <Typography variant="caption" component="div" sx={{ display: { sm: 'none' }, mt: 0.5 }}>
                      {row.reason ?? row.tags.join(', ')}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <Chip size="small" color={outcomeColors[row.outcome]} variant={row.outcome === 'skipped' ? 'outlined' : 'filled'} label={mailchimpOutcomeLabels[row.outcome]} />
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top', overflowWrap: 'anywhere', display: { xs: 'none', sm: 'table-cell' } }}>
                    {row.reason ?? (row.tags.length ? row.tags.map((t) => <Chip key={t} size="small" variant="outlined" label={t} sx={{ mr: 0.5, mb: 0.5 }} />) : 'Sin etiquetas')}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        {pages > 1 && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mr: 'auto', ml: 1 }}>
            <Button size="small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Anterior
            </Button>
            <Typography variant="caption">
              Página {page} de {pages}
            </Typography>
            <Button size="small" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Siguiente
            </Button>
          </Box>
        )}
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}


/** The company's Mailchimp syncs on a screen: those going on with their live bars, then the last ones. */
export function MailchimpSyncsPanel({ kind, title = 'Envíos a Mailchimp', emptyMessage }: { kind?: MailchimpSyncOut['kind']; title?: string; emptyMessage: string }) {
  const syncs = useMailchimpSyncs();
  return (
    <RunsPanel
      title={title}
      testId="mailchimp-syncs"
      query={syncs}
      runs={(syncs.data?.payload ?? []).filter((s) => !kind || s.kind === kind)}
      isActive={isActiveSync}
      loadError="No se pudieron cargar los envíos a Mailchimp."
      emptyMessage={emptyMessage}
      emptyTestId="mailchimp-syncs-empty"
      renderRun={(sync) => <MailchimpSyncCard key={sync._id} sync={sync} />}
      moreLabel={(n) => `Ver los ${formatCount(n)} últimos`}
    />
  );
}
