import { type CampaignStatus, campaignStatusLabels, type SendOut } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ResourceRecord } from '../../components/crud/types';
import { displayLocale, formatCount } from '../../i18n';
import { isSending, useMassiveSend } from './api';

/** The massive history's cells (massive-messages-logs-screen.ts), live while a send goes out. */
export const massiveStatusColors: Record<CampaignStatus, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  pending: 'default',
  processing: 'info',
  sent: 'success',
  error: 'error',
  sent_with_some_errors: 'warning',
};

/** How far a send is: the people already settled of all of them. */
export function SendProgress({ send, label }: { send: SendOut; label: string }) {
  const { total, queued, sending } = send.counts;
  const done = total - queued - sending;
  const value = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 140 }}>
      <LinearProgress variant={total > 0 ? 'determinate' : 'indeterminate'} value={value} sx={{ flex: 1, height: 6, borderRadius: 3 }} aria-label={label} />
      <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        {total > 0 ? `${formatCount(done)} de ${formatCount(total)}` : 'Preparando…'}
      </Typography>
    </Box>
  );
}

/** A log's status; while it is being sent, a live progress bar from its send. */
export function MassiveStatusCell({ row }: { row: ResourceRecord }) {
  const status = row.status as CampaignStatus;
  const live = useMassiveSend(row._id, isSending(status));
  const send = live.data;
  const sending = isSending(send?.status ?? status);
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
      <Chip size="small" color={massiveStatusColors[status] ?? 'default'} label={campaignStatusLabels[status] ?? String(row.status)} />
      {sending && send && <SendProgress send={send} label={`Progreso de ${String(row.name)}`} />}
    </Box>
  );
}


/** The send's name; on a phone, where the count columns are hidden, its counts and date under it. */
export function MassiveNameCell({ row }: { row: ResourceRecord }) {
  const n = (v: unknown) => formatCount(typeof v === 'number' ? v : 0);
  const failed = typeof row.failed === 'number' ? row.failed : 0;
  const when = typeof row.createdAt === 'string' ? new Date(row.createdAt).toLocaleDateString(displayLocale(), { day: 'numeric', month: 'short' }) : '';
  return (
    <Box>
      <Typography variant="body2">{String(row.name ?? '')}</Typography>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ display: { xs: 'block', sm: 'none' } }}>
        {`${n(row.total)} personas · ${n(row.sent)} enviados`}
        {failed ? ` · ${n(failed)} fallidos` : ''}
        {when ? ` · ${when}` : ''}
      </Typography>
    </Box>
  );
}
