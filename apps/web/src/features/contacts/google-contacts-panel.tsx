import type { GoogleLeadOut } from '@mostrador/contract';
import CloudSync from '@mui/icons-material/CloudSync';
import SyncLock from '@mui/icons-material/SyncLock';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { formatDateTime, useCompanyTimezone } from '../../lib/company-time';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { googleApi, goToConsent, syncGoing, useGooglePhone } from './api';
import { ConnectGoogleDialog, GoogleStateChip } from './google-phones';
import { googleKeys } from '../../lib/query-keys';
import { companyLocale } from '../../lib/number-format';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString(companyLocale())} ${n === 1 ? one : many}`;

function LeadGoogleState({ lead }: { lead: GoogleLeadOut }) {
  if (lead.resourceName) return <Chip size="small" color="success" variant="outlined" label="En Google" />;
  if (lead.problem)
    return (
      <Tooltip title={lead.problem}>
        <Chip size="small" color="warning" variant="outlined" label="No se pudo crear" />
      </Tooltip>
    );
  return <Chip size="small" variant="outlined" label="Pendiente" />;
}

/**
 * The Google side of /telefonos/contactos/{id} (decision 0052): the phone's Google account and
 * state, «Sincronizar con Google» with its live progress (`google.sync` events), and the phone's
 * leads, each already a Google contact, pending, or refused with the reason.
 */
export function GoogleContactsPanel({ telefonoId }: { telefonoId: string }) {
  const { companyId } = useSession();
  const timeZone = useCompanyTimezone();
  const permissions = usePermissions();
  const can = permissions.can('integrations', 'update');
  const canRemove = permissions.can('integrations', 'delete');
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const phone = useGooglePhone(telefonoId);
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const leads = useQuery({
    queryKey: googleKeys.leads(telefonoId, companyId, page + 1, q),
    queryFn: ({ signal }) => googleApi.leads(telefonoId, page + 1, q, signal),
    placeholderData: keepPreviousData,
    enabled: phone.isSuccess,
  });
  const [connecting, setConnecting] = useState(false);
  const sync = useMutation({
    mutationFn: () => googleApi.sync(telefonoId),
    onSuccess: (s) => {
      queryClient.setQueryData(googleKeys.phone(telefonoId, companyId), (old: typeof phone.data) => (old ? { ...old, lastSync: s } : old));
      if (!syncGoing(s)) void queryClient.invalidateQueries({ queryKey: googleKeys.all });
    },
  });
  const authorize = useMutation({ mutationFn: () => googleApi.authorize(telefonoId), onSuccess: (a) => goToConsent(a.url) });
  const disconnect = useMutation({ mutationFn: () => googleApi.disconnect(telefonoId), onSuccess: () => void queryClient.invalidateQueries({ queryKey: googleKeys.all }) });
  const askDisconnect = async () => {
    const ok = await confirm({
      title: 'Desconectar de Google',
      message: 'Se olvidan las credenciales y el permiso de Google de este teléfono. Los contactos ya creados quedan en la cuenta de Google.',
      acceptLabel: 'Desconectar',
      destructive: true,
    });
    if (ok) disconnect.mutate();
  };
  const p = phone.data;
  if (phone.isError) return null;
  const s = p?.lastSync;
  const going = syncGoing(s);
  const pending = p ? Math.max(0, p.leads - p.synced) : 0;
  return (
    <Card variant="outlined" sx={{ mb: 2 }} component="section" aria-label="Contactos de Google">
      <CardContent sx={{ display: 'grid', gap: 1.5 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mr: 1 }}>
            Contactos de Google
          </Typography>
          <GoogleStateChip phone={p} />
          <Box sx={{ flex: 1 }} />
          {can && p?.state === 'conectado' && (
            <Button variant="contained" size="small" startIcon={<CloudSync />} disabled={going || sync.isPending} onClick={() => sync.mutate()}>
              Sincronizar con Google
            </Button>
          )}
          {can && (p?.state === 'reconectar' || p?.state === 'falta-autorizar') && (
            <Button variant="contained" color="warning" size="small" startIcon={<SyncLock />} disabled={authorize.isPending} onClick={() => authorize.mutate()}>
              {p.state === 'reconectar' ? 'Reconectar con Google' : 'Autorizar en Google'}
            </Button>
          )}
          {canRemove && p && p.state !== 'sin-conectar' && (
            <Button size="small" color="error" disabled={disconnect.isPending || going} onClick={() => void askDisconnect()}>
              Desconectar
            </Button>
          )}
          {can && p?.state === 'sin-conectar' && (
            <Button variant="contained" size="small" onClick={() => setConnecting(true)}>
              Conectar con Google
            </Button>
          )}
        </Box>
        {p && (
          <Typography variant="body2" color="text.secondary">
            {plural(p.leads, 'lead', 'leads')} de este teléfono · {plural(p.synced, 'ya está', 'ya están')} en Google
            {pending ? ` · ${plural(pending, 'pendiente', 'pendientes')}` : ''}
            {p.sandbox ? ' · Google de demostración (no sale a internet)' : ''}
          </Typography>
        )}
        {p?.state === 'reconectar' && p.reason && <Alert severity="warning">{p.reason}</Alert>}
        {s && going && (
          <Box role="status" aria-live="polite">
            <LinearProgress variant={s.total ? 'determinate' : 'indeterminate'} value={s.total ? Math.min(100, (s.done / s.total) * 100) : undefined} />
            <Typography variant="caption" color="text.secondary">
              {s.status === 'en-cola' ? 'En cola…' : `Sincronizando: ${s.done.toLocaleString(companyLocale())} de ${s.total.toLocaleString(companyLocale())} · ${plural(s.created, 'creado', 'creados')}`}
            </Typography>
          </Box>
        )}
        {s && !going && s.message && (
          <Alert severity={s.status === 'fallida' ? 'warning' : 'success'} variant="outlined">
            {s.message}
            {s.finishedAt ? ` · ${formatDateTime(s.finishedAt, timeZone)}` : ''}
          </Alert>
        )}
        <TextField size="small" label="Buscar lead" value={search} onChange={(e) => { setSearch(e.target.value); setPage(0); }} sx={{ maxWidth: 320 }} />
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Leads del teléfono en Google">
            <TableHead>
              <TableRow>
                <TableCell>Lead</TableCell>
                <TableCell>Teléfono</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Correo</TableCell>
                <TableCell>Google</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(leads.data?.payload ?? []).map((l) => (
                <TableRow key={l._id}>
                  <TableCell>{l.name}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{l.telefono ? `+${l.telefono}` : '—'}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{l.email ?? '—'}</TableCell>
                  <TableCell>
                    <LeadGoogleState lead={l} />
                  </TableCell>
                </TableRow>
              ))}
              {leads.isSuccess && leads.data.payload.length === 0 && (
                <TableRow>
                  <TableCell colSpan={4}>{q ? 'Ningún lead coincide con la búsqueda' : 'Este teléfono aún no tiene leads'}</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </Box>
        {(leads.data?.total ?? 0) > 20 && (
          <TablePagination
            component="div"
            count={leads.data?.total ?? 0}
            page={page}
            onPageChange={(_, n) => setPage(n)}
            rowsPerPage={20}
            rowsPerPageOptions={[20]}
            labelDisplayedRows={({ from, to, count }) => `${from}–${to} de ${count}`}
          />
        )}
        {connecting && <ConnectGoogleDialog telefonoId={telefonoId} numero={p?.numero} open onClose={() => setConnecting(false)} />}
      </CardContent>
    </Card>
  );
}
