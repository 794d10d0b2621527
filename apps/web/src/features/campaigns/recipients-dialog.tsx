import { type RecipientOut, type RecipientStatus, recipientStatuses, recipientStatusLabels, type SendOut } from '@mostrador/contract';
import Download from '@mui/icons-material/Download';
import Search from '@mui/icons-material/Search';
import Forum from '@mui/icons-material/ForumOutlined';
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
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { formatCount } from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { saveBlob } from '../../lib/file-transfer';
import { fetchChunkDetail, type RecipientFetcher, type RecipientQuery, serverRecipients, useChunkDetail } from './api';
import { massKeys } from '../../lib/query-keys';

export const PAGE_SIZE = 50;

const recipientColors: Record<RecipientStatus, 'default' | 'info' | 'success' | 'error' | 'primary'> = {
  queued: 'default',
  sending: 'info',
  skipped: 'default',
  sent: 'primary',
  delivered: 'success',
  read: 'success',
  failed: 'error',
};

/** A recipient's status; in a preview (not sent yet) a queued person is one who would receive it. */
export function RecipientChip({ status, preview = false }: { status: RecipientStatus; preview?: boolean }) {
  const label = preview && status === 'queued' ? 'Lo recibiría' : preview && status === 'skipped' ? 'Queda fuera' : recipientStatusLabels[status];
  return <Chip size="small" color={recipientColors[status]} variant={status === 'skipped' || status === 'queued' ? 'outlined' : 'filled'} label={label} />;
}

/** A report's people as CSV (nombre,telefono,estado,motivo,intentos), UTF-8 with BOM for Excel. */
export function recipientsCsv(rows: RecipientOut[], preview = false): Blob {
  const quote = (text: string) => (/[",\r\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const label = (s: RecipientStatus) => (preview && s === 'queued' ? 'Lo recibiría' : preview && s === 'skipped' ? 'Queda fuera' : recipientStatusLabels[s]);
  const lines = rows.map((r) => [r.name, r.telefono ?? '', label(r.status), r.reason ?? '', String(r.attempts)].map(quote).join(','));
  return new Blob([`\uFEFFnombre,telefono,estado,motivo,intentos\r\n${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' });
}

const chatLink = (r: RecipientOut) => (r.chatId ? `/chat?${new URLSearchParams({ chatId: r.chatId })}` : undefined);

function RecipientsTable({ rows, compact, preview }: { rows: RecipientOut[]; compact: boolean; preview: boolean }) {
  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table size="small" aria-label="Destinatarios">
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>Nombre</TableCell>
            {!compact && <TableCell sx={{ fontWeight: 600 }}>Teléfono</TableCell>}
            <TableCell sx={{ fontWeight: 600 }}>Estado</TableCell>
            {!compact && <TableCell sx={{ fontWeight: 600 }}>Motivo</TableCell>}
            <TableCell sx={{ fontWeight: 600, width: 48 }} aria-label="Chat" />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => {
            const link = chatLink(r);
            return (
              <TableRow key={r._id}>
                <TableCell>
                  <Typography variant="body2">{r.name}</Typography>
                  {compact && r.telefono && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {r.telefono}
                    </Typography>
                  )}
                  {compact && r.reason && (
                    <Typography variant="caption" color={r.status === 'failed' ? 'error' : 'text.secondary'} component="div">
                      {r.reason}
                    </Typography>
                  )}
                </TableCell>
                {!compact && <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.telefono ?? '—'}</TableCell>}
                <TableCell>
                  <RecipientChip status={r.status} preview={preview} />
                </TableCell>
                {!compact && (
                  <TableCell>
                    <Typography variant="body2" color={r.status === 'failed' ? 'error' : 'text.secondary'}>
                      {r.reason ?? '—'}
                    </Typography>
                  </TableCell>
                )}
                <TableCell padding="checkbox">
                  {link && (
                    <Tooltip title="Abrir chat">
                      <IconButton size="small" component={RouterLink} to={link} aria-label={`Abrir chat de ${r.name}`}>
                        <Forum fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The people of a list already in hand (a chunk's preview), filtered and paged here as the server would. */
export function localRecipients(key: readonly unknown[], load: () => Promise<RecipientOut[]>): RecipientFetcher {
  return {
    key,
    page: async ({ status, q, page, limit }) => {
      const text = q?.trim().toLowerCase();
      const rows = (await load()).filter((r) => (!status || r.status === status) && (!text || r.name.toLowerCase().includes(text) || (r.telefono ?? '').includes(text)));
      return { payload: rows.slice((page - 1) * limit, page * limit), total: rows.length, page, limit };
    },
    all: async () => ({ rows: await load(), preview: true }),
  };
}

export interface RecipientsReportDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  /** Absent: nobody to list yet (`notice` says why). */
  fetcher?: RecipientFetcher;
  /** The CSV's file name. */
  filename: string;
  /** Not sent yet: the people are who would receive it and who is left out. */
  preview?: boolean;
  /** The statuses the filter offers. */
  statuses?: readonly RecipientStatus[];
  /** A search box on name or phone. */
  searchable?: boolean;
  /** Above the controls: what the report is (counts, a progress bar, a notice). */
  notice?: ReactNode;
  /** What an empty report says, unfiltered and filtered. */
  emptyMessage: string;
  emptyFilteredMessage: string;
}

/**
 * A send's per-recipient report: each person's status (the provider's reason when it failed),
 * filtered by status (and searched), paged, a link to each chat, «Exportar CSV» of everyone.
 * The people come from `fetcher`: a campaign chunk's, a chunk's preview, a massive send's.
 */
export function RecipientsReportDialog({
  open,
  onClose,
  title,
  fetcher,
  filename,
  preview = false,
  statuses = recipientStatuses,
  searchable = false,
  notice,
  emptyMessage,
  emptyFilteredMessage,
}: RecipientsReportDialogProps) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [status, setStatus] = useState<RecipientStatus | ''>('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const query: RecipientQuery = { status: status || undefined, q: search.trim() || undefined, page, limit: PAGE_SIZE };
  const report = useQuery({
    queryKey: [...(fetcher?.key ?? ['recipients']), query],
    queryFn: () => (fetcher as RecipientFetcher).page(query),
    enabled: open && !!fetcher,
    placeholderData: (previous) => previous,
  });
  const rows = report.data?.payload ?? [];
  const total = report.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const loading = !!fetcher && report.isPending;
  const id = `recipients-${title.replace(/[^a-zA-Z0-9]+/g, '-')}`;
  const filtered = !!status || !!search.trim();

  const exportCsv = async () => {
    if (!fetcher) return;
    setExporting(true);
    try {
      const all = await fetcher.all();
      saveBlob({ blob: recipientsCsv(all.rows, all.preview ?? preview), filename });
    } catch {
      // the client already showed the server's message
    } finally {
      setExporting(false);
    }
  };

  const close = () => {
    onClose();
    setStatus('');
    setSearch('');
    setPage(1);
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby={id}>
      <DialogTitle id={id}>{title}</DialogTitle>
      <DialogContent>
        {notice}
        <Box sx={{ display: fetcher ? 'flex' : 'none', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <TextField
            select
            size="small"
            label="Estado"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as RecipientStatus | '');
              setPage(1);
            }}
            fullWidth={false}
            sx={{ width: { xs: '100%', sm: 200 } }}
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          >
            <MenuItem value="">Todos</MenuItem>
            {statuses.map((s) => (
              <MenuItem key={s} value={s}>
                {preview ? (s === 'queued' ? 'Lo recibiría' : s === 'skipped' ? 'Queda fuera' : recipientStatusLabels[s]) : recipientStatusLabels[s]}
              </MenuItem>
            ))}
          </TextField>
          {searchable && (
            <TextField
              size="small"
              label="Buscar"
              placeholder="Nombre o teléfono"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setPage(1);
              }}
              sx={{ width: { xs: '100%', sm: 220 } }}
              slotProps={{
                inputLabel: { shrink: true },
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <Search fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
            />
          )}
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }} role="status">
            {loading ? 'Cargando…' : `${formatCount(total)} ${total === 1 ? 'persona' : 'personas'}`}
          </Typography>
          <Button startIcon={<Download />} onClick={() => void exportCsv()} disabled={exporting || loading}>
            Exportar CSV
          </Button>
        </Box>
        {loading && <LinearProgress aria-label="Cargando destinatarios" />}
        {report.isError && <Alert severity="error">{report.error instanceof ApiError ? report.error.message : 'No se pudieron cargar los destinatarios'}</Alert>}
        {fetcher && !loading && !report.isError && rows.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
            {filtered ? emptyFilteredMessage : emptyMessage}
          </Typography>
        )}
        {!loading && !report.isError && rows.length > 0 && <RecipientsTable rows={rows} compact={phone} preview={preview} />}
        {pages > 1 && (
          <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
            <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} size="small" aria-label="Páginas de destinatarios" />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}

interface RecipientsDialogProps {
  open: boolean;
  onClose: () => void;
  campaignId: string;
  chunkPage: number;
  /** The chunk once sent or programmed; absent: the preview of who would receive it. */
  chunk?: SendOut;
}

/**
 * «Ver destinatarios» of a chunk: before it is sent, who would receive it and who is left out
 * and why (chunk_detail, the same check the send makes); after, each recipient's status from
 * the report (GET /sends/{id}/recipients), filtered and paged; «Exportar CSV» either way.
 */
export function RecipientsDialog({ open, onClose, campaignId, chunkPage, chunk }: RecipientsDialogProps) {
  // a programmed chunk has no recipients written yet: its preview is what it would send
  const written = !!chunk && chunk.status !== 'scheduled' && chunk.counts.total > 0;
  const preview = useChunkDetail(campaignId, chunkPage, open && !written);
  const previewRows = preview.data?.payload ?? [];
  // a chunk programmed (or stopped before it started) chooses its people when it starts
  const waiting = !written && !!chunk && !!preview.data && previewRows.length === 0;
  const skipped = previewRows.filter((r) => r.status === 'skipped').length;

  let fetcher: RecipientFetcher | undefined;
  if (written && chunk) {
    // the CSV of a chunk is its whole detail (at most 1000 people)
    const all = async () => {
      const detail = await fetchChunkDetail(campaignId, chunkPage);
      return { rows: detail.payload, preview: !detail.chunk };
    };
    fetcher = { ...serverRecipients(`/sends/${encodeURIComponent(chunk._id)}/recipients`, massKeys.sendRecipients(chunk._id)), all };
  } else if (!waiting) {
    const key = preview.data ? ['chunk-preview', campaignId, chunkPage, preview.dataUpdatedAt] : undefined;
    if (key) fetcher = localRecipients(key, async () => previewRows);
  }

  return (
    <RecipientsReportDialog
      open={open}
      onClose={onClose}
      title={`Destinatarios del bloque ${chunkPage + 1}`}
      fetcher={fetcher}
      filename={`campana-bloque-${chunkPage + 1}.csv`}
      preview={!written}
      statuses={written ? recipientStatuses : (['queued', 'skipped'] as const)}
      emptyMessage="Este bloque no tiene personas: el segmento tiene menos"
      emptyFilteredMessage="Nadie de este bloque está en ese estado"
      notice={
        <>
          {waiting && (
            <Alert severity="info" sx={{ mb: 2 }}>
              Las personas de este bloque se eligen cuando empiece a enviarse, con el segmento de ese momento.
            </Alert>
          )}
          {!written && preview.data && !waiting && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {chunk?.status === 'scheduled' ? 'Así quedaría el bloque con el segmento de ahora: ' : 'Aún no se envía. Si se envía ahora: '}
              {formatCount(previewRows.length - skipped)} recibirían el mensaje
              {skipped ? ` y ${formatCount(skipped)} quedan fuera (el motivo está en cada uno)` : ''}.
            </Alert>
          )}
          {!written && preview.isPending && open && <LinearProgress aria-label="Cargando destinatarios" />}
          {!written && preview.isError && (
            <Alert severity="error">{preview.error instanceof ApiError ? preview.error.message : 'No se pudieron cargar los destinatarios'}</Alert>
          )}
        </>
      }
    />
  );
}
