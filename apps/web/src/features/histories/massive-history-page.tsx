import { campaignStatuses, campaignStatusLabels, type SendOut } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { formatCount } from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { screen } from './massive-messages-logs-screen';
import { RecipientsReportDialog } from '../campaigns/recipients-dialog';
import { isSending, massiveRecipients, useMassiveSend } from './api';
import { SendProgress } from './massive-cells';
import { HistoryFilterBar } from '../../components/crud/history-filter-bar';
import { emptyHistoryFilters, type HistoryFilterValues, historyApiFilters, historyFiltersFromParams, withHistoryFilters } from '../../components/crud/history-filters';

/** `?envio={id}`: the massive send whose report is open. */
export const SEND_PARAM = 'envio';

/** What the phones reported of a send: a read message was also delivered and sent. */
function Summary({ send }: { send: SendOut }) {
  const c = send.counts;
  const items = [
    { key: 'sent', label: 'Enviados', value: c.sent + c.delivered + c.read },
    { key: 'delivered', label: 'Entregados', value: c.delivered + c.read },
    { key: 'read', label: 'Leídos', value: c.read },
    { key: 'failed', label: 'Fallidos', value: c.failed },
    { key: 'queued', label: 'En cola', value: c.queued + c.sending },
  ];
  return (
    <Box sx={{ display: 'grid', gap: 1.5, mb: 2 }}>
      <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 1.5, sm: 2.5 }, m: 0 }} aria-label="Cuentas del envío">
        {items.map((i) => (
          <Box key={i.key} sx={{ minWidth: 64 }}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {i.label}
            </Typography>
            <Typography component="dd" variant="subtitle2" sx={{ m: 0 }} color={i.key === 'failed' && i.value ? 'error' : 'text.primary'}>
              {formatCount(i.value)}
            </Typography>
          </Box>
        ))}
      </Box>
      {isSending(send.status) && <SendProgress send={send} label="Progreso del envío" />}
    </Box>
  );
}

/** A massive send's people: each one's status (the provider's reason when it failed), by status, searched, as CSV. */
function MassiveReportDialog({ logId, onClose }: { logId: string | undefined; onClose: () => void }) {
  const live = useMassiveSend(logId);
  const send = live.data;
  const missing = live.isError;
  return (
    <RecipientsReportDialog
      open={!!logId}
      onClose={onClose}
      title={send ? `Destinatarios de «${send.name}»` : 'Destinatarios del envío'}
      fetcher={logId && send ? massiveRecipients(logId) : undefined}
      filename={`envio-masivo-${(send?.name ?? 'destinatarios').normalize('NFD').replace(/[^a-zA-Z0-9]+/g, '-').toLowerCase()}.csv`}
      searchable
      emptyMessage="Este envío no tuvo destinatarios"
      emptyFilteredMessage="Nadie de este envío coincide con el filtro"
      notice={
        <>
          {live.isPending && !!logId && <LinearProgress aria-label="Cargando el envío" sx={{ mb: 2 }} />}
          {missing && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {live.error instanceof ApiError ? live.error.message : 'No se pudo cargar el envío'}
            </Alert>
          )}
          {send && <Summary send={send} />}
        </>
      }
    />
  );
}

/**
 * /marketing/historial_mensajes_masivos (decision 0042): one row per massive send, newest first,
 * with its counts and a live progress bar while it goes out; by status and date (kept in the
 * address); a row opens its per-recipient report (`?envio={id}`). Read only: the sends write it.
 */
export function MassiveHistoryPage() {
  const [params, setParams] = useSearchParams();
  const values = historyFiltersFromParams(params, campaignStatuses);
  const openId = params.get(SEND_PARAM) ?? undefined;
  const change = (changes: Partial<HistoryFilterValues>) => setParams((prev) => withHistoryFilters(prev, changes));
  const clear = () => setParams((prev) => withHistoryFilters(prev, emptyHistoryFilters));
  const open = (id: string | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (id) next.set(SEND_PARAM, id);
      else next.delete(SEND_PARAM);
      return next;
    });
  return (
    <>
      <ResourceListPage
        config={screen}
        filters={historyApiFilters(values, false)}
        filterBar={<HistoryFilterBar values={values} onChange={change} onClear={clear} statuses={campaignStatusLabels} />}
        onRowClick={(row) => open(row._id)}
      />
      <MassiveReportDialog logId={openId} onClose={() => open(undefined)} />
    </>
  );
}

export default MassiveHistoryPage;
