import { type BulkRowOut, type BulkRowStatus, bulkRowStatusLabels, type BulkRunOut, bulkStatusLabels } from '@mostrador/contract';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useRefOptions } from '../../components/crud/use-resource';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api-client';
import { formatMoney, moneyOf } from '../../lib/money';
import { usePermissions } from '../../lib/permissions';
import { useApplyBulk, useBulk, useMarketplaceRealtime, usePreviewBulk } from './api';

/** Rows shown at once in the table (the counts above say how many there are). */
const SHOWN_ROWS = 200;
const EXAMPLE = 'sku\tprecio\tstock\nPOLO-PIMA-BLANCO-M\t59.90\t30\nCHOMPA-ALP-GRIS-L\t179\t\nZAP-URB-41\t\t12';

const statusColor: Record<BulkRowStatus, 'default' | 'primary' | 'success' | 'error' | 'warning'> = {
  change: 'primary',
  unchanged: 'default',
  invalid: 'warning',
  sent: 'success',
  refused: 'error',
};

function Change({ value, format }: { value?: { old?: number; new: number }; format: (n: number) => string }) {
  if (!value) return <>—</>;
  return (
    <>
      {value.old !== undefined ? `${format(value.old)} → ` : ''}
      <strong>{format(value.new)}</strong>
    </>
  );
}

/** What a bulk update does, row by row: old → new, or why a row is not sent; after applying, what the marketplace did. */
function RowsTable({ run, only }: { run: BulkRunOut; only?: BulkRowStatus }) {
  const money = { ...moneyOf({ country: run.country }), currency: run.currency };
  const rows = (run.rows ?? []).filter((r: BulkRowOut) => !only || r.status === only);
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label="Filas del lote">
          <TableHead>
            <TableRow>
              <TableCell>Fila</TableCell>
              <TableCell>SKU</TableCell>
              <TableCell>Producto</TableCell>
              <TableCell>Precio</TableCell>
              <TableCell>Stock</TableCell>
              <TableCell>Estado</TableCell>
              <TableCell>Motivo</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.slice(0, SHOWN_ROWS).map((r) => (
              <TableRow key={r.row} data-testid="bulk-row">
                <TableCell>{r.row}</TableCell>
                <TableCell>{r.sku}</TableCell>
                <TableCell>{r.name ?? ''}</TableCell>
                <TableCell>
                  <Change value={r.price} format={(n) => formatMoney(n, money)} />
                </TableCell>
                <TableCell>
                  <Change value={r.stock} format={(n) => String(n)} />
                </TableCell>
                <TableCell>
                  <Chip size="small" label={bulkRowStatusLabels[r.status]} color={statusColor[r.status]} />
                </TableCell>
                <TableCell sx={{ maxWidth: 360 }}>{r.reason ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.length > SHOWN_ROWS && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Se muestran {SHOWN_ROWS} de {rows.length} filas: filtra por estado para ver las demás.
        </Typography>
      )}
    </>
  );
}

/**
 * /marketplaces/lote: a bulk update of prices and stock of one marketplace account (decision 0035).
 * Paste a table from a spreadsheet or upload a CSV (sku, precio, stock), see exactly what will
 * change (old → new) and why a row is not valid before anything is sent, then send the changes
 * and follow them with a progress bar to a per-row report (sent, refused by the marketplace with
 * its reason, invalid). `?lote={id}` keeps the update on a reload.
 */
export function MarketplaceBulkPage() {
  const [params, setParams] = useSearchParams();
  const bulkId = params.get('lote') ?? undefined;
  const { options } = useRefOptions(['marketplace-sources']);
  const [sourceId, setSourceId] = useState('');
  const [mode, setMode] = useState<'text' | 'file'>('text');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File>();
  const [error, setError] = useState<string>();
  const [only, setOnly] = useState<BulkRowStatus>();
  const [live, setLive] = useState<BulkRunOut>();
  const preview = usePreviewBulk();
  const apply = useApplyBulk();
  const can = usePermissions().can('marketplace', 'update');
  const running = live?._id === bulkId ? live?.status === 'queued' || live?.status === 'running' : false;
  const stored = useBulk(bulkId, running);
  useMarketplaceRealtime((run) => {
    if (run._id === bulkId) setLive(run);
  });
  const run = stored.data && live?._id === stored.data._id && live.status !== stored.data.status ? { ...stored.data, ...live, rows: stored.data.rows } : stored.data;
  const inProgress = run?.status === 'queued' || run?.status === 'running';
  const settled = run ? run.sent + run.refused : 0;

  const open = (id: string | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (id) next.set('lote', id);
      else next.delete('lote');
      return next;
    });

  const submit = () => {
    setError(undefined);
    if (!sourceId) return setError('Elige la fuente de marketplace');
    if (mode === 'text' && !text.trim()) return setError('Pega la tabla: una fila de títulos (sku, precio, stock) y una fila por SKU');
    if (mode === 'file' && !file) return setError('Elige el archivo CSV');
    preview.mutate(mode === 'file' && file ? { sourceId, file } : { sourceId, text }, {
      onSuccess: (answer) => {
        setOnly(undefined);
        open(answer._id);
      },
      onError: (e) => setError(e instanceof ApiError ? e.messages[0] : 'No se pudo preparar la vista previa'),
    });
  };

  return (
    <>
      <PageHeader title="Actualización masiva" subtitle="Precios y stock de muchos SKU a la vez: primero ves qué cambia, luego lo envías" />
      {!bulkId && (
        <Card>
          <CardContent sx={{ display: 'grid', gap: 2 }}>
            <TextField select label="Fuente de marketplace" value={sourceId} onChange={(e) => setSourceId(e.target.value)} sx={{ maxWidth: 360 }}>
              {options.map((o) => (
                <MenuItem key={o.id} value={o.id}>
                  {o.label}
                </MenuItem>
              ))}
            </TextField>
            <Tabs value={mode} onChange={(_e, value) => setMode(value)} aria-label="Cómo traer las filas">
              <Tab value="text" label="Pegar tabla" />
              <Tab value="file" label="Subir CSV" />
            </Tabs>
            {mode === 'text' ? (
              <TextField
                label="Tabla (copiada de una hoja de cálculo)"
                multiline
                minRows={6}
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder={EXAMPLE}
                helperText="Columnas: sku, precio y/o stock. Una celda vacía deja ese valor como está."
                slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
              />
            ) : (
              <Box>
                <Button component="label" variant="outlined" startIcon={<UploadFile />}>
                  {file ? file.name : 'Elegir archivo CSV'}
                  <input hidden type="file" accept=".csv,.txt,text/csv" onChange={(e) => setFile(e.target.files?.[0])} />
                </Button>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  CSV de Excel (UTF-8 o «CSV» de Windows), con coma, punto y coma o tabulador.
                </Typography>
              </Box>
            )}
            {error && <Alert severity="error">{error}</Alert>}
            <Box>
              <Button variant="contained" onClick={submit} disabled={preview.isPending || !can}>
                Ver qué cambia
              </Button>
            </Box>
          </CardContent>
        </Card>
      )}
      {bulkId && run && (
        <Card>
          <CardContent sx={{ display: 'grid', gap: 2 }}>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="h2" component="h2" sx={{ fontSize: '1.1rem', flex: 1 }}>
                {run.sourceName}: {bulkStatusLabels[run.status]}
              </Typography>
              <Button onClick={() => open(undefined)}>Nueva actualización</Button>
            </Box>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} aria-label="Resumen del lote">
              {(
                [
                  ['change', run.changes],
                  ['unchanged', run.unchanged],
                  ['invalid', run.invalid],
                  ...(run.status === 'preview' ? [] : ([['sent', run.sent], ['refused', run.refused]] as const)),
                ] as Array<[BulkRowStatus, number]>
              ).map(([status, count]) => (
                <Chip
                  key={status}
                  label={`${bulkRowStatusLabels[status]}: ${count}`}
                  color={only === status ? statusColor[status] : 'default'}
                  variant={only === status ? 'filled' : 'outlined'}
                  onClick={() => setOnly(only === status ? undefined : status)}
                />
              ))}
            </Box>
            {inProgress && (
              <Box>
                <LinearProgress variant="determinate" value={run.changes ? Math.round((settled / run.changes) * 100) : 0} aria-label="Progreso del envío" />
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {settled} de {run.changes} cambios enviados
                </Typography>
              </Box>
            )}
            {run.message && <Alert severity={run.status === 'failed' ? 'error' : 'warning'}>{run.message}</Alert>}
            {run.status === 'preview' && (
              <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
                <Button variant="contained" disabled={!run.changes || apply.isPending || !can} onClick={() => apply.mutate(run._id)}>
                  Enviar {run.changes} {run.changes === 1 ? 'cambio' : 'cambios'}
                </Button>
                <Typography variant="body2" color="text.secondary">
                  Solo se envían las filas que cambian; las demás no salen de aquí.
                </Typography>
              </Box>
            )}
            {run.status === 'done' && (
              <Alert severity={run.refused ? 'warning' : 'success'}>
                {run.sent} enviadas, {run.refused} rechazadas por el marketplace, {run.invalid} no válidas · {run.requests} solicitudes al marketplace
              </Alert>
            )}
            <RowsTable run={run} only={only} />
          </CardContent>
        </Card>
      )}
    </>
  );
}

export default MarketplaceBulkPage;
