import { marketplaceRunStatusLabels, type MarketplaceSyncRunOut } from '@mostrador/contract';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import Sync from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { formatInstant } from '../../components/crud/cell-value';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import type { ResourceRecord } from '../../components/crud/types';
import { showErrors, showSuccess } from '../../lib/feedback';
import { usePermissions } from '../../lib/permissions';
import { screen } from './marketplace-sources-screen';
import { useMarketplaceRealtime, useSyncRuns, useSyncSource, useTestSource } from './api';

/** The connection test and the sync of one account, in its row. */
function SourceActions({ row }: { row: ResourceRecord }) {
  const test = useTestSource();
  const sync = useSyncSource();
  const can = usePermissions().can('marketplace', 'update');
  const name = String(row.name ?? '');
  return (
    <>
      <Tooltip title="Probar conexión">
        <IconButton
          aria-label={`Probar conexión de ${name}`}
          size="small"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(row._id, {
              onSuccess: (answer) => (answer.ok ? showSuccess(answer.msg) : showErrors([answer.msg])),
            })
          }
        >
          <NetworkCheck fontSize="small" />
        </IconButton>
      </Tooltip>
      {can && (
        <Tooltip title="Sincronizar">
          <IconButton aria-label={`Sincronizar ${name}`} size="small" disabled={sync.isPending} onClick={() => sync.mutate(row._id)}>
            <Sync fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );
}

/** One sync job: its account, where it is (a bar while it runs), its counts and its errors. */
function RunRow({ run }: { run: MarketplaceSyncRunOut }) {
  const active = run.status === 'queued' || run.status === 'running';
  const share = run.total > 0 ? Math.min(100, Math.round((run.done / run.total) * 100)) : 0;
  return (
    <Box component="li" sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', listStyle: 'none' }} data-testid="sync-run">
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'baseline' }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {run.sourceName}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {marketplaceRunStatusLabels[run.status]} · {formatInstant(run.startedAt ?? run.createdAt)}
        </Typography>
      </Box>
      {active && <LinearProgress variant={run.total ? 'determinate' : 'indeterminate'} value={share} aria-label={`Progreso de ${run.sourceName}`} sx={{ my: 1 }} />}
      <Typography variant="body2" color="text.secondary">
        {run.done} de {run.total} leídos · {run.created} nuevos · {run.updated} cambiados · {run.unchanged} sin cambios · {run.requests} solicitudes
      </Typography>
      {run.message && (
        <Alert severity={run.status === 'failed' ? 'error' : 'warning'} sx={{ mt: 1 }}>
          {run.message}
        </Alert>
      )}
      {run.errors.length > 0 && (
        <Box component="ul" sx={{ m: 0, mt: 1, pl: 2 }}>
          {run.errors.slice(0, 5).map((e) => (
            <Typography component="li" variant="body2" key={`${e.item}-${e.msg}`}>
              {e.item}: {e.msg}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}

/**
 * /marketplaces/fuentes: the accounts (credentials sealed: the form only says a key is kept), a
 * connection test that says in Spanish what is wrong, and the sync with its live progress.
 */
export function MarketplaceSourcesPage() {
  const runs = useSyncRuns();
  useMarketplaceRealtime();
  const list = runs.data?.payload ?? [];
  return (
    <>
      <ResourceListPage config={{ ...screen, rowActions: (row) => <SourceActions row={row} /> }} />
      <Card sx={{ mt: 3 }}>
        <CardContent>
          <Typography variant="h2" component="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
            Sincronizaciones
          </Typography>
          {list.length === 0 ? (
            <Typography color="text.secondary">Aún no se ha sincronizado ninguna fuente</Typography>
          ) : (
            <Box component="ul" sx={{ m: 0, p: 0 }} aria-label="Sincronizaciones">
              {list.slice(0, 8).map((run) => (
                <RunRow key={run._id} run={run} />
              ))}
            </Box>
          )}
        </CardContent>
      </Card>
    </>
  );
}

export default MarketplaceSourcesPage;
