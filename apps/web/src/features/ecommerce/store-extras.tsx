import type { ConnectionProblem, ConnectionTestOut } from '@mostrador/contract';
import LockOutlined from '@mui/icons-material/LockOutlined';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import Sync from '@mui/icons-material/Sync';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatInstant } from '../../components/crud/cell-value';
import type { ResourceRecord } from '../../components/crud/types';
import { displayNameOf } from '../../components/crud/use-resource';
import { formatCount } from '../../i18n';
import { usePermissions } from '../../lib/permissions';
import { ecommerceKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { type ConnectionCheck, ConnectionTestDialog } from '../../components/ui/connection-checks';
import { ecommerceApi, useStartSync, useSyncRuns } from './api';
import { percentOf, SyncStatusChip } from './sync-progress';

/** The last connection test of a store in this tab, kept beside the stores' list. */

const problemLabels: Record<ConnectionProblem, string> = {
  url: 'revisa la URL',
  keys: 'revisa las claves',
  permissions: 'revisa los permisos',
  store: 'la tienda falló',
};

/** The store's REST keys: never shown back (decision 0010), only whether they are saved; and whether its webhooks are signed. */
export function StoreKeys({ store }: { store: ResourceRecord }) {
  const saved = store.consumerKeySet === true && store.consumerSecretSet === true;
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
      <Chip
        size="small"
        variant="outlined"
        color={saved ? 'success' : 'warning'}
        icon={saved ? <LockOutlined fontSize="small" /> : undefined}
        label={saved ? 'Claves guardadas' : 'Faltan las claves'}
      />
      <StoreConnection store={store} />
      <Typography variant="caption" color="text.secondary">
        {store.webhookSecretSet === true ? 'Webhooks firmados' : 'Sin secreto de webhooks'}
      </Typography>
    </Box>
  );
}

/** The store's last connection test in this tab: «Conectada», what to check, or «Sin probar». */
export function StoreConnection({ store }: { store: ResourceRecord }) {
  const { companyId } = useSession();
  const { data } = useQuery<ConnectionTestOut>({ queryKey: ecommerceKeys.storeConnection(store._id, companyId), queryFn: () => Promise.reject(new Error('sin probar')), enabled: false });
  if (!data) return <Chip size="small" variant="outlined" label="Conexión sin probar" />;
  return (
    <Tooltip title={data.msg}>
      <Chip
        size="small"
        color={data.ok ? 'success' : 'error'}
        label={data.ok ? 'Conectada' : `Sin conexión: ${problemLabels[data.problem ?? 'store']}`}
        data-testid="connection-chip"
      />
    </Tooltip>
  );
}

/** The store's latest sync: its state, a small bar while it goes, and when. */
export function StoreLastSync({ store }: { store: ResourceRecord }) {
  const runs = useSyncRuns();
  const last = runs.data?.payload.find((r) => r.storeId === store._id);
  if (!last) return <Typography variant="body2" color="text.secondary">{runs.isLoading ? '…' : 'Nunca'}</Typography>;
  const percent = percentOf(last);
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <SyncStatusChip run={last} />
        {percent !== undefined && last.status === 'running' && <Typography variant="caption">{percent} %</Typography>}
      </Box>
      <Typography variant="caption" color="text.secondary">
        {formatInstant(last.finishedAt ?? last.startedAt ?? last.createdAt)}
      </Typography>
    </Box>
  );
}

/** What each part of the store's settings looks like after a test (what to fix, and what was not reached). */
export function checksOf(result: ConnectionTestOut): ConnectionCheck[] {
  const problem = result.ok ? undefined : (result.problem ?? 'store');
  const urlOk = problem !== 'url';
  const keysState = problem === 'keys' ? 'bad' : problem === 'url' || problem === 'store' ? 'unknown' : 'ok';
  const writeState = problem === 'permissions' ? 'bad' : problem ? 'unknown' : 'ok';
  return [
    {
      label: 'Dirección (URL)',
      state: urlOk ? 'ok' : 'bad',
      detail: urlOk ? 'Responde como una tienda WooCommerce' : 'No responde como una tienda WooCommerce',
    },
    {
      label: 'Claves de la API (ck_… y cs_…)',
      state: keysState,
      detail: keysState === 'ok' ? 'Válidas para esta tienda' : keysState === 'bad' ? 'No son válidas para esta tienda' : 'Sin probar',
    },
    {
      label: 'Permisos de las claves',
      state: writeState,
      detail: writeState === 'ok' ? 'Lectura y escritura' : writeState === 'bad' ? 'No pueden escribir en la tienda' : 'Sin probar',
    },
  ];
}

/** The connection test of one store (POST /woocommerces/{id}/test), run when the dialog opens, with what to fix. */
export function StoreTestDialog({ store, open, onClose }: { store: ResourceRecord; open: boolean; onClose: () => void }) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  return (
    <ConnectionTestDialog
      name={displayNameOf(store)}
      open={open}
      onClose={onClose}
      run={() => ecommerceApi.testConnection(store._id)}
      onResult={(result) => queryClient.setQueryData(ecommerceKeys.storeConnection(store._id, companyId), result)}
      subtitle={String(store.url ?? '')}
      pendingText="Probando la conexión con la tienda…"
      testId="connection-result"
      checksOf={checksOf}
    >
      {(result) => (
        <>
          {result.products !== undefined && (
            <Typography variant="body2" color="text.secondary">
              La tienda tiene {formatCount(result.products)} {result.products === 1 ? 'producto' : 'productos'}.
            </Typography>
          )}
          {!result.ok && result.problem !== 'store' && <Typography variant="body2">Corrígelo con «Editar» en la fila de la tienda y vuelve a probar.</Typography>}
        </>
      )}
    </ConnectionTestDialog>
  );
}

/**
 * The store's cell: its name, its address, and «Probar conexión» and «Sincronizar» under them
 * (on every width; a click there does not open the edit form).
 */
export function StoreSummary({ store }: { store: ResourceRecord }) {
  const url = typeof store.url === 'string' ? store.url : '';
  return (
    <Box sx={{ display: 'grid', gap: 0.25, justifyItems: 'start', minWidth: 0 }}>
      <Typography sx={{ fontWeight: 600 }}>{displayNameOf(store)}</Typography>
      {url && (
        <Link href={url} target="_blank" rel="noreferrer" variant="caption" onClick={(event) => event.stopPropagation()} sx={{ overflowWrap: 'anywhere' }}>
          {url.replace(/^https?:\/\//, '')}
        </Link>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5, ml: -0.75 }} onClick={(event) => event.stopPropagation()}>
        <StoreActions store={store} />
      </Box>
    </Box>
  );
}

/** «Probar conexión» and «Sincronizar» of a store. */
export function StoreActions({ store }: { store: ResourceRecord }) {
  const [testing, setTesting] = useState(false);
  const { can } = usePermissions();
  const runs = useSyncRuns();
  const start = useStartSync();
  const name = displayNameOf(store);
  const going = runs.data?.payload.some((r) => r.storeId === store._id && (r.status === 'queued' || r.status === 'running'));
  return (
    <>
      <Button size="small" startIcon={<NetworkCheck fontSize="small" />} aria-label={`Probar conexión: ${name}`} onClick={() => setTesting(true)}>
        Probar conexión
      </Button>
      {can('ecommerce', 'update') && (
        <Button
          size="small"
          startIcon={<Sync fontSize="small" />}
          aria-label={`${going ? 'Sincronizando…' : 'Sincronizar'}: ${name}`}
          onClick={() => start.mutate(store._id)}
          disabled={going || start.isPending}
        >
          {going ? 'Sincronizando…' : 'Sincronizar'}
        </Button>
      )}
      <StoreTestDialog store={store} open={testing} onClose={() => setTesting(false)} />
    </>
  );
}
