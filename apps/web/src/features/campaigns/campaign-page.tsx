import {
  campaignStatusLabels,
  type CampaignStatus,
  resources,
  type SendOut,
  type SendStatus,
  sendStatusLabels,
} from '@mostrador/contract';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EventBusy from '@mui/icons-material/EventBusy';
import Pause from '@mui/icons-material/Pause';
import People from '@mui/icons-material/PeopleOutlined';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Replay from '@mui/icons-material/Replay';
import Schedule from '@mui/icons-material/Schedule';
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useRefOptions, useResourceRecord } from '../../components/crud/use-resource';
import { PageHeader } from '../../components/ui/page-header';
import { CampaignCheckCard } from '../massive-messages/campaign-check-card';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { displayLocale, formatCount } from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { type ChunkAction, isActive, useCampaignPlan, useChunkAction, useStopAllScheduled } from './api';
import { RecipientsDialog } from './recipients-dialog';

/** Chunk rows shown at once; a campaign of 100 000 people in chunks of 100 has 1000. */
export const PLAN_PAGE = 10;

const sendColors: Record<SendStatus, 'default' | 'info' | 'success' | 'error' | 'warning' | 'primary'> = {
  scheduled: 'primary',
  pending: 'info',
  processing: 'info',
  sent: 'success',
  error: 'error',
  sent_with_some_errors: 'warning',
  stopped: 'default',
};
const campaignColors: Record<CampaignStatus, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  pending: 'default',
  processing: 'info',
  sent: 'success',
  error: 'error',
  sent_with_some_errors: 'warning',
};

const when = (iso: string) => new Date(iso).toLocaleString(displayLocale(), { dateStyle: 'medium', timeStyle: 'short' });

/** The chunk's state in words: «Programado para …» names the time. */
function ChunkStatus({ chunk }: { chunk?: SendOut }) {
  if (!chunk) return <Chip size="small" variant="outlined" label="Sin enviar" data-testid="chunk-status" />;
  const label = chunk.status === 'scheduled' && chunk.scheduledAt ? `Programado para ${when(chunk.scheduledAt)}` : sendStatusLabels[chunk.status];
  return <Chip size="small" color={sendColors[chunk.status]} variant={chunk.status === 'scheduled' ? 'outlined' : 'filled'} label={label} data-testid="chunk-status" />;
}

/** What the counts say, as a funnel: a read message was also delivered and sent. */
export function countsOf(chunk: SendOut) {
  const c = chunk.counts;
  return [
    { key: 'sent', label: 'Enviados', value: c.sent + c.delivered + c.read },
    { key: 'delivered', label: 'Entregados', value: c.delivered + c.read },
    { key: 'read', label: 'Leídos', value: c.read },
    { key: 'failed', label: 'Fallidos', value: c.failed },
    { key: 'skipped', label: 'Omitidos', value: c.skipped },
    { key: 'queued', label: 'En cola', value: c.queued + c.sending },
  ];
}

function Counts({ chunk }: { chunk: SendOut }) {
  return (
    <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 1.5, sm: 2.5 }, m: 0 }} aria-label="Cuentas del bloque">
      {countsOf(chunk).map((c) => (
        <Box key={c.key} sx={{ minWidth: 64 }}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {c.label}
          </Typography>
          <Typography component="dd" variant="subtitle2" sx={{ m: 0 }} color={c.key === 'failed' && c.value ? 'error' : 'text.primary'} data-testid={`count-${c.key}`}>
            {formatCount(c.value)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function Progress({ chunk }: { chunk: SendOut }) {
  const { total, queued, sending } = chunk.counts;
  const done = total - queued - sending;
  const value = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <LinearProgress variant={total > 0 ? 'determinate' : 'indeterminate'} value={value} sx={{ flex: 1, height: 6, borderRadius: 3 }} aria-label={`Progreso del bloque ${(chunk.chunkPage ?? 0) + 1}`} />
      <Typography variant="caption" color="text.secondary" sx={{ minWidth: 72, textAlign: 'right' }}>
        {total > 0 ? `${formatCount(done)} de ${formatCount(total)}` : 'Preparando…'}
      </Typography>
    </Box>
  );
}

/** A datetime-local value (this device's time) a minute from now, the earliest a chunk can be programmed for. */
function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function ScheduleDialog({ chunkPage, open, onClose, onSchedule }: { chunkPage: number; open: boolean; onClose: () => void; onSchedule: (iso: string) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const submit = () => {
    const date = new Date(value);
    if (!value || Number.isNaN(date.getTime())) return setError('Elige la fecha y la hora');
    if (date.getTime() <= Date.now()) return setError('Elige una fecha y hora futura');
    setError('');
    onSchedule(date.toISOString());
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={`schedule-${chunkPage}`}>
      <DialogTitle id={`schedule-${chunkPage}`}>Programar el bloque {chunkPage + 1}</DialogTitle>
      <DialogContent>
        <TextField
          type="datetime-local"
          label="Fecha y hora"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={!!error}
          helperText={error || 'En la hora de este equipo'}
          fullWidth
          sx={{ mt: 1 }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: localInput(new Date(Date.now() + 60_000)) } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" onClick={submit}>
          Programar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface ChunkRowProps {
  campaignId: string;
  segmentId: string;
  chunkPage: number;
  chunkSize: number;
  audience: number;
  templateName: string;
  chunk?: SendOut;
  canSend: boolean;
  canUpdate: boolean;
  sendable: boolean;
}

/** One chunk of the plan: its people, its state and counts, and what can be done with it now. */
function ChunkRow({ campaignId, segmentId, chunkPage, chunkSize, audience, templateName, chunk, canSend, canUpdate, sendable }: ChunkRowProps) {
  const confirm = useConfirm();
  const action = useChunkAction(campaignId);
  const [recipientsOpen, setRecipientsOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const size = chunk?.chunkSize ?? chunkSize;
  const from = chunkPage * size + 1;
  const to = Math.min(audience, (chunkPage + 1) * size);
  const label = `Bloque ${chunkPage + 1}`;
  const ref = { campaignId, chunkPage };
  const run = (a: ChunkAction, body: Record<string, unknown> = ref) => action.mutate({ action: a, body });

  const sendNow = async () => {
    const ok = await confirm({
      title: `Enviar el bloque ${chunkPage + 1}`,
      message: `Se enviará la plantilla «${templateName}» a las personas ${to >= from ? `${formatCount(from)} a ${formatCount(to)} ` : ''}del segmento. Quienes no pasen la revisión (pidieron no recibir mensajes, sin chat de WhatsApp, datos faltantes) quedan fuera: míralos en «Ver destinatarios».`,
      acceptLabel: 'Enviar ahora',
    });
    if (ok) run('send_chunk', { chunkPage, chunkSize, segment: segmentId, campaign: campaignId });
  };

  const status = chunk?.status;
  const busy = action.isPending;
  const buttons = [];
  if (!chunk && canSend && sendable) {
    buttons.push(
      <Button key="send" size="small" variant="contained" startIcon={<Send />} disabled={busy} onClick={() => void sendNow()}>
        Enviar ahora
      </Button>,
      <Button key="schedule" size="small" startIcon={<Schedule />} disabled={busy} onClick={() => setScheduleOpen(true)}>
        Programar
      </Button>,
    );
  }
  if (chunk && canUpdate) {
    if (status === 'scheduled')
      buttons.push(
        <Button key="stop" size="small" color="warning" startIcon={<EventBusy />} disabled={busy} onClick={() => run('stop_scheduled_chunk')}>
          Detener
        </Button>,
      );
    if (status === 'pending' || status === 'processing')
      buttons.push(
        <Button key="stop" size="small" color="warning" startIcon={<Pause />} disabled={busy || chunk.stopRequested} onClick={() => run('stop_manually_chunk')}>
          {chunk.stopRequested ? 'Deteniendo…' : 'Detener'}
        </Button>,
      );
    if (status === 'stopped')
      buttons.push(
        <Button key="resume" size="small" startIcon={<PlayArrow />} disabled={busy} onClick={() => run('resume_chunk')}>
          Reanudar
        </Button>,
      );
    if (chunk.counts.failed > 0 && !isActive(chunk) && status !== 'scheduled')
      buttons.push(
        <Button key="retry" size="small" startIcon={<Replay />} disabled={busy} onClick={() => run('retry_failed_chunk')}>
          Reintentar fallidos
        </Button>,
      );
  }
  buttons.push(
    <Button key="recipients" size="small" startIcon={<People />} onClick={() => setRecipientsOpen(true)}>
      Ver destinatarios
    </Button>,
  );

  return (
    <Box
      component="li"
      aria-label={label}
      sx={{ listStyle: 'none', px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {to >= from ? `personas ${formatCount(from)}–${formatCount(to)}` : `hasta ${formatCount(size)} personas`}
        </Typography>
        <ChunkStatus chunk={chunk} />
      </Box>
      {chunk?.error && (
        <Alert severity="error" sx={{ py: 0 }}>
          {chunk.error}
        </Alert>
      )}
      {chunk && isActive(chunk) && <Progress chunk={chunk} />}
      {chunk && status !== 'scheduled' && chunk.counts.total > 0 && <Counts chunk={chunk} />}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{buttons}</Box>
      <RecipientsDialog open={recipientsOpen} onClose={() => setRecipientsOpen(false)} campaignId={campaignId} chunkPage={chunkPage} chunk={chunk} />
      {scheduleOpen && (
        <ScheduleDialog
          chunkPage={chunkPage}
          open
          onClose={() => setScheduleOpen(false)}
          onSchedule={(scheduledAt) => {
            setScheduleOpen(false);
            run('send_chunk', { chunkPage, chunkSize, segment: segmentId, campaign: campaignId, scheduledAt });
          }}
        />
      )}
    </Box>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 120 }}>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography variant="body1" component="dd" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

/**
 * /marketing/campaigns/{id} (issue 13, decision 0041): the campaign, the plan of its chunks
 * with each one's state and counts, live while it is sent, the actions on each chunk and who
 * is in it.
 */
export function CampaignPage() {
  const { id = '' } = useParams();
  const permissions = usePermissions();
  const canSend = permissions.can('marketing', 'create');
  const canUpdate = permissions.can('marketing', 'update');
  const campaign = useResourceRecord(resources['marketing-campaigns'], id);
  const record = campaign.data as Record<string, unknown> | undefined;
  const segmentId = typeof record?.segmentId === 'string' ? record.segmentId : undefined;
  // segments have no GET by id (SPEC §7): the name comes from the list the ref fields use
  const segments = useRefOptions(['marketing-segments'], !!segmentId);
  const segmentName = segments.options.find((o) => o.id === segmentId)?.label;
  const plan = useCampaignPlan(id, !!record);
  const stopAll = useStopAllScheduled(id);
  const [planPage, setPlanPage] = useState(1);

  const name = typeof record?.name === 'string' ? record.name : 'Campaña';
  const templateName = typeof record?.templateName === 'string' ? record.templateName : '';
  const channel = record?.channel;
  const whatsapp = channel === 'whatsapp';
  const status = (plan.data?.status ?? record?.status) as CampaignStatus | undefined;

  const byPage = new Map<number, SendOut>();
  for (const chunk of plan.data?.payload ?? []) if (chunk.chunkPage !== undefined) byPage.set(chunk.chunkPage, chunk);
  const rows = Math.max(plan.data?.chunks ?? 0, ...[...byPage.keys()].map((p) => p + 1));
  const pages = Math.ceil(rows / PLAN_PAGE);
  const shown = Array.from({ length: Math.max(0, Math.min(PLAN_PAGE, rows - (planPage - 1) * PLAN_PAGE)) }, (_, i) => (planPage - 1) * PLAN_PAGE + i);
  const scheduled = [...byPage.values()].filter((c) => c.status === 'scheduled').length;

  return (
    <>
      <Button component={RouterLink} to="/marketing/campaigns" startIcon={<ArrowBackIcon />} sx={{ mb: 1, ml: -1 }}>
        Campañas
      </Button>
      <PageHeader
        title={name}
        subtitle="Envía la campaña por bloques, sigue su avance y revisa a cada destinatario"
        actions={
          canUpdate && scheduled > 0 ? (
            <Button variant="outlined" color="warning" startIcon={<EventBusy />} disabled={stopAll.isPending} onClick={() => stopAll.mutate()}>
              Detener todos los programados
            </Button>
          ) : undefined
        }
      />
      {campaign.isPending && <Skeleton variant="rounded" height={160} />}
      {campaign.isError && <Alert severity="warning">{campaign.error instanceof ApiError ? campaign.error.message : 'No se pudo cargar la campaña'}</Alert>}
      {record && (
        <Card sx={{ p: 2, mb: 2 }}>
          <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 2, sm: 4 }, m: 0 }}>
            <Fact label="Estado">{status ? <Chip size="small" color={campaignColors[status]} label={campaignStatusLabels[status]} data-testid="campaign-status" /> : '—'}</Fact>
            <Fact label="Plantilla">{templateName || '—'}</Fact>
            <Fact label="Segmento">{segmentId ? (segmentName ?? (segments.loading ? '…' : '—')) : 'Sin segmento'}</Fact>
            <Fact label="Tamaño del bloque">{formatCount(Number(record.chunkSize ?? 0))}</Fact>
            {plan.data && <Fact label="Audiencia">{`${formatCount(plan.data.audience)} ${plan.data.audience === 1 ? 'persona' : 'personas'}`}</Fact>}
            {plan.data && <Fact label="Bloques">{formatCount(plan.data.chunks)}</Fact>}
          </Box>
        </Card>
      )}
      {record && !segmentId && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Esta campaña no tiene segmento: edítala y elige uno para ver sus bloques y enviarla.
        </Alert>
      )}
      {record && channel !== undefined && !whatsapp && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Por ahora las campañas se envían por WhatsApp: edita la campaña y elige el canal WhatsApp para enviarla.
        </Alert>
      )}
      {record && segmentId && whatsapp && <CampaignCheckCard campaignId={id} />}
      {record && segmentId && (
        <Card>
          <Box sx={{ px: 2, py: 1.5 }}>
            <Typography variant="h6" component="h2">
              Bloques
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Cada bloque va a las siguientes personas del segmento, en el orden en que llegaron; nadie recibe la campaña dos veces.
            </Typography>
          </Box>
          {plan.isPending && <LinearProgress aria-label="Cargando bloques" />}
          {plan.isError && (
            <Alert severity="error" sx={{ m: 2 }}>
              {plan.error instanceof ApiError ? plan.error.message : 'No se pudieron cargar los bloques'}
            </Alert>
          )}
          {plan.data && rows === 0 && (
            <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
              El segmento no tiene personas ahora: cuando las tenga, aquí aparecerán sus bloques.
            </Typography>
          )}
          {plan.data && rows > 0 && (
            <Box component="ul" aria-label="Bloques de la campaña" sx={{ m: 0, p: 0 }}>
              {shown.map((page) => (
                <ChunkRow
                  key={page}
                  campaignId={id}
                  segmentId={segmentId}
                  chunkPage={page}
                  chunkSize={plan.data.chunkSize}
                  audience={plan.data.audience}
                  templateName={templateName}
                  chunk={byPage.get(page)}
                  canSend={canSend}
                  canUpdate={canUpdate}
                  sendable={whatsapp}
                />
              ))}
            </Box>
          )}
          {pages > 1 && (
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 1.5, borderTop: 1, borderColor: 'divider' }}>
              <Pagination count={pages} page={planPage} onChange={(_, p) => setPlanPage(p)} size="small" aria-label="Páginas de bloques" />
            </Box>
          )}
        </Card>
      )}
    </>
  );
}

export default CampaignPage;
