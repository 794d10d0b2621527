import { type WebhookDeadLetter, webhookEventTypeLabels, webhookProviderLabels } from '@mostrador/contract';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Replay from '@mui/icons-material/Replay';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { ChannelIcon } from '../../components/ui/channel-icon';
import { PageHeader } from '../../components/ui/page-header';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { fullDateTime } from '../../lib/time';
import { deadLettersApi } from './api';
import { deadLetterKeys } from '../../lib/query-keys';

export const deadLetterTexts = {
  title: 'Eventos fallidos',
  subtitle: 'Mensajes y avisos de WhatsApp, Messenger e Instagram, y entradas de formularios, que no se pudieron procesar. Nada se pierde: revisa el error y reinténtalo.',
  back: 'Volver a WhatsApp',
  empty: 'No hay eventos fallidos. Todo lo que enviaron los proveedores se procesó.',
  loadError: 'No se pudieron cargar los eventos fallidos.',
  retry: 'Reintentar',
  retrying: 'Reintentando…',
  attempts: (n: number) => `${n} ${n === 1 ? 'intento' : 'intentos'}`,
  error: 'Error',
  noError: 'Sin detalle del error',
  queued: 'En cola',
} as const;

const platformOf = (provider: WebhookDeadLetter['provider']) => (provider === 'messenger' ? 'facebook' : provider === 'gravity-forms' ? 'web' : provider);

function DeadLetterCard({ event, canReplay }: { event: WebhookDeadLetter; canReplay: boolean }) {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  const replay = useMutation({
    mutationFn: () => deadLettersApi.replay(event._id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deadLetterKeys.list(companyId) }),
  });
  const queued = replay.isSuccess && replay.data.status === 'pending';
  return (
    <Card variant="outlined" data-testid="dead-letter">
      <CardContent sx={{ display: 'grid', gap: 1, '&:last-child': { pb: 2 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <ChannelIcon platform={platformOf(event.provider)} decorative fontSize="small" />
          <Typography variant="subtitle2" component="h2">
            {webhookProviderLabels[event.provider]}
          </Typography>
          <Chip size="small" label={webhookEventTypeLabels[event.type] ?? event.type} />
          <Typography variant="caption" color="text.secondary" component="time" dateTime={event.receivedAt} sx={{ ml: { sm: 'auto' } }}>
            {fullDateTime(event.receivedAt)}
          </Typography>
        </Box>
        {event.summary && (
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {event.summary}
          </Typography>
        )}
        <Box sx={{ bgcolor: 'action.hover', borderRadius: 1, px: 1.25, py: 0.75, minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
            {deadLetterTexts.error} · {deadLetterTexts.attempts(event.attempts)}
          </Typography>
          <Typography
            variant="body2"
            component="pre"
            sx={{ m: 0, fontFamily: 'monospace', fontSize: '0.8rem', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 120, overflow: 'auto' }}
          >
            {event.error || deadLetterTexts.noError}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="caption" color="text.secondary" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            {event.eventId}
          </Typography>
          {queued ? (
            <Chip size="small" color="info" label={deadLetterTexts.queued} />
          ) : (
            canReplay && (
              <Button size="small" variant="contained" startIcon={<Replay />} onClick={() => replay.mutate()} disabled={replay.isPending}>
                {replay.isPending ? deadLetterTexts.retrying : deadLetterTexts.retry}
              </Button>
            )
          )}
        </Box>
      </CardContent>
    </Card>
  );
}

/**
 * /whatsapp/fallidos (decision 0020): the company's provider events that could not be stored
 * or processed after the queue's retries, newest first, with their error and a "Reintentar"
 * that puts one back in the queue.
 */
export function DeadLettersPage() {
  const { companyId } = useSession();
  const permissions = usePermissions();
  const query = useQuery({ queryKey: deadLetterKeys.list(companyId), queryFn: deadLettersApi.list });
  const events = query.data?.payload ?? [];
  return (
    <>
      <PageHeader
        title={deadLetterTexts.title}
        subtitle={deadLetterTexts.subtitle}
        actions={
          <Button component={RouterLink} to="/whatsapp" startIcon={<ArrowBack />}>
            {deadLetterTexts.back}
          </Button>
        }
      />
      {query.isLoading ? (
        <Stack spacing={2}>
          <Skeleton variant="rounded" height={140} />
          <Skeleton variant="rounded" height={140} />
        </Stack>
      ) : query.isError ? (
        <Alert severity="error" action={<Button onClick={() => query.refetch()}>{deadLetterTexts.retry}</Button>}>
          {deadLetterTexts.loadError}
        </Alert>
      ) : events.length === 0 ? (
        <Alert severity="success">{deadLetterTexts.empty}</Alert>
      ) : (
        <Stack spacing={2} sx={{ maxWidth: 900 }}>
          {events.map((event) => (
            <DeadLetterCard key={event._id} event={event} canReplay={permissions.can('integrations', 'update')} />
          ))}
        </Stack>
      )}
    </>
  );
}

export default DeadLettersPage;
