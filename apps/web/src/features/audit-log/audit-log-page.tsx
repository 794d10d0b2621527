import { type AuditEntry, auditActionLabels, auditEntityLabels, fieldLabelOf } from '@mostrador/contract';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api-client';
import { showErrors, showSuccess } from '../../lib/feedback';
import { downloadFile, saveBlob } from '../../lib/file-transfer';
import { auditLogKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { fullDateTime } from '../../lib/time';
import { type AuditFilters, auditLogApi } from './api';

export const auditTexts = {
  title: 'Auditoría',
  subtitle: 'Quién cambió qué, cuándo y desde dónde en esta compañía: cada registro creado, modificado o eliminado, cada inicio de sesión, cambio de rol, clave de API y exportación.',
  empty: 'No hay movimientos con estos filtros.',
  error: 'No se pudo cargar el registro de auditoría.',
  more: 'Cargar más',
  export: 'Exportar CSV',
};

const entityOptions = Object.entries(auditEntityLabels).sort(([, a], [, b]) => a.localeCompare(b, 'es'));
const filterNames = ['entity', 'entityId', 'actor', 'from', 'to'] as const;

/** A value of the log as a person reads it: empty, a secret's mask, a text or the JSON of anything else. */
const shown = (value: unknown) => (value === null || value === undefined || value === '' ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

function Changes({ entry }: { entry: AuditEntry }) {
  const fields = Object.entries(entry.changes);
  if (!fields.length) return <Typography variant="body2" color="text.secondary">—</Typography>;
  return (
    <Stack spacing={0.25}>
      {fields.map(([field, c]) => (
        <Typography key={field} variant="body2" sx={{ wordBreak: 'break-word' }}>
          <strong>{fieldLabelOf(field) || field}</strong>: {shown(c.from)} → {shown(c.to)}
        </Typography>
      ))}
    </Stack>
  );
}

const what = (e: AuditEntry) => `${auditActionLabels[e.action] ?? e.action} · ${auditEntityLabels[e.entity] ?? e.entity}`;

/** `/auditoria` (module `audit`, decision 0072): the company's audit log, filtered by the URL's query. */
export function AuditLogPage() {
  const { companyId } = useSession();
  const phone = useMediaQuery('(max-width:599.95px)');
  const [params, setParams] = useSearchParams();
  const filters: AuditFilters = useMemo(() => {
    const out: Record<string, string> = {};
    for (const name of filterNames) {
      const value = params.get(name);
      if (value) out[name] = name === 'from' || name === 'to' ? new Date(value).toISOString() : value;
    }
    return out as AuditFilters;
  }, [params]);
  const setFilter = (name: (typeof filterNames)[number], value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const [exporting, setExporting] = useState(false);

  const log = useInfiniteQuery({
    queryKey: auditLogKeys.list({ companyId, ...filters }),
    queryFn: ({ pageParam, signal }) => auditLogApi.page(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
  const entries = log.data?.pages.flatMap((p) => p.payload) ?? [];
  const actors = useMemo(() => {
    const seen = new Map<string, string>();
    for (const e of entries) if (e.actor.id) seen.set(e.actor.id, e.actor.name);
    const current = params.get('actor');
    if (current && !seen.has(current)) seen.set(current, current);
    return [...seen];
  }, [entries, params]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      saveBlob(await downloadFile('/audit-log.csv', { query: filters, fallbackName: 'auditoria.csv' }));
      showSuccess('Exportación lista');
    } catch (error) {
      showErrors([error instanceof ApiError ? error.message : 'La exportación se interrumpió y no se guardó ningún archivo.']);
    } finally {
      setExporting(false);
    }
  };

  const dateValue = (name: 'from' | 'to') => params.get(name)?.slice(0, 10) ?? '';
  return (
    <Box>
      <PageHeader
        title={auditTexts.title}
        subtitle={auditTexts.subtitle}
        actions={
          <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={exportCsv} disabled={exporting}>
            {auditTexts.export}
          </Button>
        }
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2, '& > *': { flex: { xs: '1 1 100%', sm: '1 1 180px' }, maxWidth: { sm: 260 } } }}>
        <TextField select size="small" label="Entidad" value={params.get('entity') ?? ''} onChange={(e) => setFilter('entity', e.target.value)} >
          <MenuItem value="">Todas</MenuItem>
          {entityOptions.map(([key, label]) => (
            <MenuItem key={key} value={key}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <TextField size="small" label="Id del registro" value={params.get('entityId') ?? ''} onChange={(e) => setFilter('entityId', e.target.value.trim())} />
        <TextField select size="small" label="Quién" value={params.get('actor') ?? ''} onChange={(e) => setFilter('actor', e.target.value)} >
          <MenuItem value="">Todos</MenuItem>
          {actors.map(([id, name]) => (
            <MenuItem key={id} value={id}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <TextField size="small" type="date" label="Desde" value={dateValue('from')} onChange={(e) => setFilter('from', e.target.value ? `${e.target.value}T00:00:00` : '')} slotProps={{ inputLabel: { shrink: true } }} />
        <TextField size="small" type="date" label="Hasta" value={dateValue('to')} onChange={(e) => setFilter('to', e.target.value ? `${e.target.value}T23:59:59` : '')} slotProps={{ inputLabel: { shrink: true } }} />
      </Box>

      {log.isError ? (
        <Alert severity="error" action={<Button onClick={() => log.refetch()}>Reintentar</Button>}>
          {log.error instanceof ApiError ? log.error.message : auditTexts.error}
        </Alert>
      ) : log.isPending ? (
        <Stack spacing={1}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={56} />
          ))}
        </Stack>
      ) : entries.length === 0 ? (
        <Alert severity="info">{auditTexts.empty}</Alert>
      ) : phone ? (
        <Stack spacing={1.5}>
          {entries.map((e) => (
            <Card key={e._id} variant="outlined">
              <CardContent>
                <Typography variant="subtitle2">{what(e)}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {fullDateTime(e.at)} · {e.actor.name}
                  {e.ip ? ` · ${e.ip}` : ''}
                </Typography>
                {e.entityId && (
                  <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                    {e.entityId}
                  </Typography>
                )}
                <Box sx={{ mt: 1 }}>
                  <Changes entry={e} />
                </Box>
              </CardContent>
            </Card>
          ))}
        </Stack>
      ) : (
        <TableContainer component={Card} variant="outlined">
          <Table size="small" aria-label="Registro de auditoría">
            <TableHead>
              <TableRow>
                <TableCell>Cuándo</TableCell>
                <TableCell>Quién</TableCell>
                <TableCell>Qué</TableCell>
                <TableCell>Cambios</TableCell>
                <TableCell>IP</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {entries.map((e) => (
                <TableRow key={e._id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{fullDateTime(e.at)}</TableCell>
                  <TableCell>{e.actor.name}</TableCell>
                  <TableCell>
                    {what(e)}
                    {e.entityId && (
                      <Typography variant="caption" color="text.secondary" component="div" sx={{ wordBreak: 'break-all' }}>
                        {e.entityId}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 420 }}>
                    <Changes entry={e} />
                  </TableCell>
                  <TableCell>{e.ip ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {log.hasNextPage && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Button onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {auditTexts.more}
          </Button>
        </Box>
      )}
    </Box>
  );
}

export default AuditLogPage;
