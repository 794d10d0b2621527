import { type TemplateDeliveryStatus, templateDeliveryStatusLabels, type TemplateLogSource, templateLogSourceLabels } from '@mostrador/contract';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Forum from '@mui/icons-material/ForumOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { ListFilters, ResourceRecord } from '../../components/crud/types';
import { ApiError } from '../../lib/api-client';
import { showErrors, showSuccess } from '../../lib/feedback';
import { downloadFile, saveBlob } from '../../lib/file-transfer';
import { usePermissions } from '../../lib/permissions';

/** The template history's cells (template-messages-logs-screen.ts). */
const statusColors: Record<TemplateDeliveryStatus, 'default' | 'primary' | 'success' | 'error'> = {
  pending: 'default',
  sent: 'primary',
  delivered: 'success',
  read: 'success',
  failed: 'error',
};

/** The message's status; a failed one says the provider's reason under it. */
export function TemplateStatusCell({ row }: { row: ResourceRecord }) {
  const status = row.status as TemplateDeliveryStatus;
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start', maxWidth: 360 }}>
      <Chip size="small" color={statusColors[status] ?? 'default'} variant={status === 'pending' ? 'outlined' : 'filled'} label={templateDeliveryStatusLabels[status] ?? String(row.status)} />
      {status === 'failed' && typeof row.error === 'string' && (
        <Typography variant="caption" color="error" sx={{ lineHeight: 1.3 }}>
          {row.error}
        </Typography>
      )}
    </Box>
  );
}

/** Who got it: the name, and the phone under it. */
export function RecipientCell({ row }: { row: ResourceRecord }) {
  return (
    <Box>
      <Typography variant="body2">{typeof row.nombre === 'string' && row.nombre ? row.nombre : 'Sin nombre'}</Typography>
      {typeof row.telefono === 'string' && (
        <Typography variant="caption" color="text.secondary" component="div">
          {row.telefono}
        </Typography>
      )}
    </Box>
  );
}

/** Where it was sent from: a chat, or the campaign chunk or massive send by name. */
export function SourceCell({ row }: { row: ResourceRecord }) {
  const source = row.source as TemplateLogSource;
  return (
    <Box>
      <Typography variant="body2">{templateLogSourceLabels[source] ?? String(row.source ?? '')}</Typography>
      {typeof row.sendName === 'string' && (
        <Typography variant="caption" color="text.secondary" component="div">
          {row.sendName}
        </Typography>
      )}
    </Box>
  );
}

/** The chat the message is in. */
export function ChatLink({ row }: { row: ResourceRecord }) {
  if (typeof row.chatId !== 'string') return null;
  const name = typeof row.nombre === 'string' && row.nombre ? row.nombre : String(row.telefono ?? '');
  return (
    <Tooltip title="Abrir chat">
      <IconButton size="small" component={RouterLink} to={`/chat?${new URLSearchParams({ chatId: row.chatId })}`} aria-label={`Abrir chat de ${name}`} onClick={(e) => e.stopPropagation()}>
        <Forum fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/**
 * «Exportar CSV»: what the list shows (its search and filters), every row, streamed by the server.
 * Every recipient's phone in a file is a leads export: only for a role with leads · export, as the
 * server requires (decision 0061).
 */
export function TemplateLogCsvButton({ query }: { query: ListFilters }) {
  const permissions = usePermissions();
  const [exporting, setExporting] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const exportCsv = async () => {
    abort.current = new AbortController();
    setExporting(true);
    try {
      const file = await downloadFile('/template-messages-logs/export', { query: { ...query }, fallbackName: 'historial-plantillas.csv', signal: abort.current.signal });
      saveBlob(file);
      showSuccess('Exportación lista');
    } catch (error) {
      if (!abort.current?.signal.aborted)
        showErrors([error instanceof ApiError ? (error.messages[0] ?? 'No se pudo exportar') : 'La exportación se interrumpió y no se guardó ningún archivo. Inténtalo de nuevo.']);
    } finally {
      setExporting(false);
    }
  };
  if (!permissions.can('leads', 'export')) return null;
  return (
    <Button
      variant="outlined"
      onClick={() => void exportCsv()}
      disabled={exporting}
      startIcon={exporting ? <CircularProgress size={16} aria-hidden /> : <FileDownloadOutlined />}
      aria-busy={exporting || undefined}
      sx={{ flexShrink: 0 }}
    >
      {exporting ? 'Exportando…' : 'Exportar CSV'}
    </Button>
  );
}
