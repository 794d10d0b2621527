import { LEAD_IMPORT_MAX_ROWS, type LeadImportResult } from '@mostrador/contract';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { displayLocale, formatCount } from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { showErrors, showSuccess } from '../../lib/feedback';
import { downloadFile, saveBlob, uploadFile } from '../../lib/file-transfer';
import { usePermissions } from '../../lib/permissions';
import { resourceKeys } from '../../lib/query-keys';

export interface LeadCsvActionsProps {
  resource: 'leads' | 'clean-leads';
  /** What the list shows: its field filters and search text (`filter`), sent as they are. */
  filters: Record<string, string | undefined>;
  /** Offer "Importar CSV" (leads only, and only when the role may create leads). */
  canImport?: boolean;
}

/** Rejected rows listed in the dialog; all of them are in the downloadable detail. */
const REJECTED_SHOWN = 200;

/** '1,2 MB' / '850 kB'. */
export function sizeText(bytes: number): string {
  const locale = displayLocale();
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toLocaleString(locale, { maximumFractionDigits: 1 })} MB`;
  return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString(locale)} kB`;
}

const messageOf = (error: unknown) =>
  error instanceof ApiError ? (error.messages[0] ?? 'No se pudo completar') : 'No hay conexión con el servidor. Inténtalo de nuevo.';

/** A template a user can fill in: the columns the import reads, one example row. */
const TEMPLATE = '\uFEFFnombre,telefono,email,plataforma,etiquetas\r\nMaría Fernández,987 001 122,maria.fernandez@gmail.com,whatsapp,"Cliente frecuente, Mayorista"\r\n';

/**
 * The CSV buttons of the lead lists: "Exportar CSV" downloads what the list shows (SPEC §5:
 * email and telefono), with the session's headers; "Importar CSV" (leads) uploads a file and
 * shows what happened to each row. Mounted in the list's search row by the lead screens.
 */
export function LeadCsvActions({ resource, filters, canImport = false }: LeadCsvActionsProps) {
  const permissions = usePermissions();
  const [exporting, setExporting] = useState<{ bytes: number } | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const exportCsv = async () => {
    abort.current = new AbortController();
    setExporting({ bytes: 0 });
    try {
      const file = await downloadFile(`/${resource}/export`, {
        query: filters,
        fallbackName: `${resource === 'leads' ? 'leads' : 'leads-limpios'}.csv`,
        onProgress: (bytes) => setExporting({ bytes }),
        signal: abort.current.signal,
      });
      saveBlob(file);
      showSuccess('Exportación lista');
    } catch (error) {
      // an error the server answered before the file (400, 401…) has its own message; a download
      // cut short (the server ends a failed export that way) saves nothing
      if (!abort.current?.signal.aborted)
        showErrors([error instanceof ApiError ? messageOf(error) : 'La exportación se interrumpió y no se guardó ningún archivo. Inténtalo de nuevo.']);
    } finally {
      setExporting(null);
    }
  };

  const mayImport = canImport && resource === 'leads' && permissions.can('leads', 'create');
  return (
    <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
      <Button
        variant="outlined"
        onClick={exportCsv}
        disabled={!!exporting}
        startIcon={exporting ? <CircularProgress size={16} aria-hidden /> : <FileDownloadOutlined />}
        aria-busy={!!exporting || undefined}
      >
        {exporting ? `Exportando…${exporting.bytes ? ` ${sizeText(exporting.bytes)}` : ''}` : 'Exportar CSV'}
      </Button>
      {mayImport && (
        <Button variant="outlined" onClick={() => setImportOpen(true)} startIcon={<FileUploadOutlined />}>
          Importar CSV
        </Button>
      )}
      {mayImport && <LeadImportDialog open={importOpen} onClose={() => setImportOpen(false)} />}
    </Stack>
  );
}

type ImportState =
  | { step: 'choose'; error?: string }
  | { step: 'uploading'; sent: number }
  | { step: 'processing' }
  | { step: 'done'; result: LeadImportResult };

/**
 * Choose a CSV, upload it with its progress, then the counts and the rejected rows with their
 * reasons. The leads' «Importar CSV», and a RetailRocket segment's import (`url`, `title` and a
 * `note` of what else the import does).
 */
export function LeadImportDialog({
  open,
  onClose,
  url = '/leads/import',
  title = 'Importar leads desde CSV',
  note,
}: {
  open: boolean;
  onClose: () => void;
  url?: string;
  title?: string;
  note?: string;
}) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const titleId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<ImportState>({ step: 'choose' });
  const busy = state.step === 'uploading' || state.step === 'processing';

  const reset = () => {
    setFile(null);
    setState({ step: 'choose' });
  };
  const close = () => {
    if (busy) return;
    onClose();
    reset();
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    setFile(event.target.files?.[0] ?? null);
    setState({ step: 'choose' });
  };

  const start = async () => {
    if (!file) {
      setState({ step: 'choose', error: 'Elige un archivo CSV' });
      return;
    }
    setState({ step: 'uploading', sent: 0 });
    try {
      const result = await uploadFile<LeadImportResult>(url, file, {
        contentType: 'text/csv',
        onProgress: (sent) => setState(sent >= 1 ? { step: 'processing' } : { step: 'uploading', sent }),
      });
      setState({ step: 'done', result });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: resourceKeys('leads').all }),
        queryClient.invalidateQueries({ queryKey: resourceKeys('clean-leads').all }),
      ]);
    } catch (error) {
      setState({ step: 'choose', error: messageOf(error) });
    }
  };

  const downloadTemplate = () => saveBlob({ blob: new Blob([TEMPLATE], { type: 'text/csv;charset=utf-8' }), filename: 'plantilla-leads.csv' });

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {state.step !== 'done' ? (
          <Stack spacing={2}>
            {note && <Alert severity="info">{note}</Alert>}
            <Typography variant="body2" color="text.secondary">
              La primera fila debe tener los títulos de las columnas: <strong>nombre</strong>, <strong>telefono</strong>,{' '}
              <strong>email</strong> y, si quieres, <strong>plataforma</strong> y <strong>etiquetas</strong> (nombres de etiquetas
              Mostrador separados por comas). Los teléfonos sin código de país usan el de la compañía. Si un lead con el mismo
              teléfono o email ya existe, se combina en vez de duplicarse. Hasta {formatCount(LEAD_IMPORT_MAX_ROWS)} filas.{' '}
              <Link component="button" type="button" onClick={downloadTemplate} sx={{ verticalAlign: 'baseline' }}>
                Descargar plantilla
              </Link>
            </Typography>
            <Box
              sx={{
                border: 1,
                borderStyle: 'dashed',
                borderColor: 'divider',
                borderRadius: 2,
                p: 2,
                display: 'flex',
                alignItems: 'center',
                gap: 2,
                flexWrap: 'wrap',
              }}
            >
              <Button component="label" htmlFor={inputId} variant="outlined" startIcon={<UploadFileOutlined />} disabled={busy}>
                Elegir archivo
              </Button>
              <input
                id={inputId}
                type="file"
                accept=".csv,text/csv"
                onChange={choose}
                disabled={busy}
                aria-label="Archivo CSV"
                style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
              />
              <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {file ? `${file.name} (${sizeText(file.size)})` : 'Ningún archivo elegido'}
              </Typography>
            </Box>
            {state.step === 'uploading' && (
              <Box>
                <Typography variant="body2" sx={{ mb: 0.5 }}>
                  Subiendo archivo… {Math.round(state.sent * 100)} %
                </Typography>
                <LinearProgress variant="determinate" value={state.sent * 100} aria-label="Subiendo archivo" />
              </Box>
            )}
            {state.step === 'processing' && (
              <Box>
                <Typography variant="body2" sx={{ mb: 0.5 }}>
                  Procesando filas…
                </Typography>
                <LinearProgress aria-label="Procesando filas" />
              </Box>
            )}
            {state.step === 'choose' && state.error && (
              <Alert severity="error" data-testid="import-error">
                {state.error}
              </Alert>
            )}
          </Stack>
        ) : (
          <ImportResultView result={state.result} />
        )}
      </DialogContent>
      <DialogActions>
        {state.step === 'done' ? (
          <>
            <Button onClick={reset}>Importar otro archivo</Button>
            <Button variant="contained" onClick={close}>
              Cerrar
            </Button>
          </>
        ) : (
          <>
            <Button onClick={close} disabled={busy}>
              Cancelar
            </Button>
            <Button variant="contained" onClick={start} disabled={busy || !file}>
              Importar
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

type RowNote = LeadImportResult['rejected'][number] & { kind: 'Rechazada' | 'Importada con aviso' };

/** The rejected rows and the warnings, in file order. */
const notesOf = (result: LeadImportResult): RowNote[] =>
  [
    ...result.rejected.map((r) => ({ ...r, kind: 'Rechazada' as const })),
    ...(result.warnings ?? []).map((w) => ({ ...w, kind: 'Importada con aviso' as const })),
  ].sort((a, b) => a.row - b.row);

/** The rejected and warned rows as CSV (fila,resultado,motivo), to fix them in the spreadsheet. */
function rejectedCsv(result: LeadImportResult): Blob {
  const quote = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const lines = notesOf(result).map((r) => `${r.row},${r.kind},${quote(r.reason)}`);
  return new Blob([`\uFEFFfila,resultado,motivo\r\n${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' });
}

function ImportResultView({ result }: { result: LeadImportResult }) {
  const rejected = result.rejected.length;
  const warnings = result.warnings?.length ?? 0;
  const notes = notesOf(result);
  // the table holds refused rows, rows imported with a warning, or both: its name says which
  const notesTitle = warnings ? (rejected ? 'Filas rechazadas y avisos' : 'Avisos de la importación') : 'Filas rechazadas';
  return (
    <Stack spacing={2}>
      <Alert severity={rejected || warnings ? 'warning' : 'success'} role="status">
        {result.msg}
      </Alert>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Chip color="success" variant="outlined" label={`Nuevos: ${formatCount(result.created)}`} />
        <Chip color="primary" variant="outlined" label={`Combinados: ${formatCount(result.merged)}`} />
        <Chip color={rejected ? 'error' : 'default'} variant="outlined" label={`Rechazados: ${formatCount(rejected)}`} />
        {warnings > 0 && <Chip color="warning" variant="outlined" label={`Avisos: ${formatCount(warnings)}`} />}
      </Stack>
      {notes.length > 0 && (
        <TableContainer sx={{ maxHeight: 280, border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" stickyHeader aria-label={notesTitle}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ fontWeight: 600, width: 80 }}>Fila</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>Motivo</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {notes.slice(0, REJECTED_SHOWN).map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: an import's notes never change; a row may have two
                <TableRow key={`${r.row}-${i}`}>
                  <TableCell>{r.row}</TableCell>
                  <TableCell>
                    {r.kind === 'Importada con aviso' && (
                      <Chip size="small" color="warning" variant="outlined" label="Importada" sx={{ mr: 1 }} />
                    )}
                    {r.reason}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {notes.length > 0 && (
        <Typography variant="body2" color="text.secondary">
          {notes.length > REJECTED_SHOWN ? `Se muestran las primeras ${REJECTED_SHOWN} de ${formatCount(notes.length)}. ` : ''}
          <Link
            component="button"
            type="button"
            onClick={() => saveBlob({ blob: rejectedCsv(result), filename: rejected > 0 ? 'filas-rechazadas.csv' : 'avisos-importacion.csv' })}
            sx={{ verticalAlign: 'baseline' }}
          >
            {rejected > 0 ? 'Descargar filas rechazadas (CSV)' : 'Descargar avisos (CSV)'}
          </Link>
        </Typography>
      )}
    </Stack>
  );
}
