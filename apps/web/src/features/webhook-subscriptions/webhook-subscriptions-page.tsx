import {
  type DomainEventType,
  domainEventTypes,
  type WebhookDeliveryOut,
  type WebhookSubscriptionCreated,
  type WebhookSubscriptionOut,
  webhookEventLabels,
  webhookSubscriptionIn,
} from '@mostrador/contract';
import Add from '@mui/icons-material/Add';
import Replay from '@mui/icons-material/Replay';
import Webhook from '@mui/icons-material/Webhook';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { PageHeader } from '../../components/ui/page-header';
import { CodeBlock, SecretOnceDialog } from '../../components/ui/secret-once-dialog';
import { usePermissions } from '../../lib/permissions';
import { webhookSubscriptionKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { fullDateTime, relativeTime } from '../../lib/time';
import { fieldErrorsOf } from '../../lib/use-schema-form';
import { webhookSubscriptionsApi } from './api';

export const webhookTexts = {
  title: 'Webhooks de salida',
  subtitle:
    'Mostrador avisa a tus sistemas cuando algo pasa (un pedido, un lead, un mensaje): un POST firmado a tu dirección, en orden, reintentado durante 3 días si falla.',
  create: 'Nueva suscripción',
  empty: 'Todavía no hay suscripciones. Crea una para que tu ERP o tu tienda se enteren al instante de lo que pasa en Mostrador.',
  loadError: 'No se pudieron cargar las suscripciones.',
  retry: 'Reintentar',
  active: 'Activa',
  paused: 'Pausada',
  counts: (c: WebhookSubscriptionOut['counts']) => `${c.delivered} entregadas · ${c.pending} pendientes · ${c.failed} fallidas`,
  lastDelivery: (when: string) => `Última entrega: ${when}`,
  noDelivery: 'Sin entregas todavía',
  failingSince: (when: string) => `Sus entregas fallan desde ${when}: se reintentan y, tras 24 horas, se pausa sola.`,
  deliveries: 'Entregas',
  hideDeliveries: 'Ocultar entregas',
  pause: 'Pausar',
  resume: 'Reanudar',
  remove: 'Eliminar',
  removeTitle: 'Eliminar suscripción',
  removeMessage: (url: string) => `Se dejan de enviar eventos a ${url} y se borra su historial de entregas. No se puede deshacer.`,
  noDeliveries: 'Todavía no hay entregas.',
  deliveriesError: 'No se pudieron cargar las entregas.',
  deliveryStatus: { pending: 'Pendiente', delivered: 'Entregada', failed: 'Fallida' } as const,
  attempt: (n: number) => `Intento ${n}`,
  noAnswer: 'sin respuesta',
  nextAttempt: (when: string) => `Próximo intento ${when}`,
  redeliver: 'Reenviar',
  verifyTitle: 'Cómo verificar la firma',
  verifyText:
    'Cada entrega trae Mostrador-Signature: t=<segundos unix>,v1=<HMAC-SHA256 en hexadecimal de "<t>.<cuerpo>" con el secreto>, el mismo esquema de Stripe. Compara en tiempo constante y rechaza un t de hace más de 5 minutos.',
  form: {
    title: 'Nueva suscripción de webhook',
    url: 'Dirección (URL)',
    urlHelp: 'Donde tu sistema recibe el POST, por ejemplo https://erp.tuempresa.com/webhooks/mostrador',
    description: 'Descripción (opcional)',
    events: 'Eventos',
    all: 'Todos',
    cancel: 'Cancelar',
    submit: 'Crear suscripción',
    submitting: 'Creando…',
  },
  secret: { title: 'El secreto de la firma', label: 'Secreto', usage: 'Verifica cada entrega así (Node.js):' },
} as const;

const verifyExample = (secret: string) => `const crypto = require('node:crypto');
// rawBody: el cuerpo tal como llegó (sin parsear); header: req.headers['mostrador-signature']
function verificar(rawBody, header, secreto = '${secret}') {
  const { t, v1 } = Object.fromEntries(header.split(',').map((p) => p.split('=')));
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const esperado = crypto.createHmac('sha256', secreto).update(\`\${t}.\${rawBody}\`).digest('hex');
  return v1.length === esperado.length && crypto.timingSafeEqual(Buffer.from(v1), Buffer.from(esperado));
}`;

const statusColor = { pending: 'warning', delivered: 'success', failed: 'error' } as const;

function DeliveryRow({ subscriptionId, delivery, canRedeliver }: { subscriptionId: string; delivery: WebhookDeliveryOut; canRedeliver: boolean }) {
  const queryClient = useQueryClient();
  const redeliver = useMutation({
    mutationFn: () => webhookSubscriptionsApi.redeliver(subscriptionId, delivery._id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookSubscriptionKeys.all }),
  });
  return (
    <Box data-testid="webhook-delivery" sx={{ py: 1, display: 'grid', gap: 0.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Chip size="small" color={statusColor[delivery.status]} label={webhookTexts.deliveryStatus[delivery.status]} />
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {webhookEventLabels[delivery.eventType as DomainEventType] ?? delivery.eventType}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="time" dateTime={delivery.createdAt} title={fullDateTime(delivery.createdAt)}>
          {relativeTime(delivery.createdAt)}
        </Typography>
        {canRedeliver && (
          <Button size="small" startIcon={<Replay />} onClick={() => redeliver.mutate()} disabled={redeliver.isPending} sx={{ ml: 'auto' }}>
            {webhookTexts.redeliver}
          </Button>
        )}
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
        {delivery.eventId}
      </Typography>
      {delivery.attempts.map((a, i) => (
        <Typography key={a.at} variant="caption" sx={{ overflowWrap: 'anywhere' }} color={a.status !== null && a.status < 300 ? 'text.secondary' : 'error'}>
          {webhookTexts.attempt(i + 1)} · {relativeTime(a.at)} · {a.status ?? webhookTexts.noAnswer} · {a.latencyMs} ms{a.error ? ` · ${a.error}` : ''}
          {a.excerpt ? ` · «${a.excerpt.slice(0, 120)}»` : ''}
        </Typography>
      ))}
      {delivery.nextAttemptAt && (
        <Typography variant="caption" color="text.secondary">
          {webhookTexts.nextAttempt(relativeTimeAhead(delivery.nextAttemptAt))}
        </Typography>
      )}
    </Box>
  );
}

/** «en 3 min», «a las 14:05»: when a retry comes. */
function relativeTimeAhead(iso: string): string {
  const ms = Date.parse(iso) - Date.now();
  if (ms <= 60_000) return 'en menos de un minuto';
  if (ms < 3_600_000) return `en ${Math.round(ms / 60_000)} min`;
  return `el ${fullDateTime(iso)}`;
}

function Deliveries({ subscription, canRedeliver }: { subscription: WebhookSubscriptionOut; canRedeliver: boolean }) {
  const { companyId } = useSession();
  const query = useQuery({ queryKey: webhookSubscriptionKeys.deliveries(companyId, subscription._id), queryFn: () => webhookSubscriptionsApi.deliveries(subscription._id) });
  if (query.isLoading) return <Skeleton variant="rounded" height={80} />;
  if (query.isError) return <Alert severity="error">{webhookTexts.deliveriesError}</Alert>;
  const list = query.data?.payload ?? [];
  if (!list.length) return <Typography variant="body2" color="text.secondary">{webhookTexts.noDeliveries}</Typography>;
  return (
    <Stack divider={<Box sx={{ borderTop: 1, borderColor: 'divider' }} />}>
      {list.map((d) => (
        <DeliveryRow key={d._id} subscriptionId={subscription._id} delivery={d} canRedeliver={canRedeliver} />
      ))}
    </Stack>
  );
}

function SubscriptionCard({ subscription }: { subscription: WebhookSubscriptionOut }) {
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [open, setOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookSubscriptionKeys.all });
  const setStatus = useMutation({ mutationFn: (status: 'active' | 'paused') => webhookSubscriptionsApi.update(subscription._id, { status }), onSettled: refresh });
  const remove = useMutation({ mutationFn: () => webhookSubscriptionsApi.remove(subscription._id), onSettled: refresh });
  const paused = subscription.status === 'paused';
  const ask = async () => {
    if (await confirm({ title: webhookTexts.removeTitle, message: webhookTexts.removeMessage(subscription.url), acceptLabel: webhookTexts.remove, destructive: true })) remove.mutate();
  };
  return (
    <Card variant="outlined" data-testid="webhook-subscription">
      <CardContent sx={{ display: 'grid', gap: 1, '&:last-child': { pb: 2 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Webhook fontSize="small" color={paused ? 'disabled' : 'primary'} aria-hidden />
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, fontFamily: 'monospace', fontSize: '0.95rem', overflowWrap: 'anywhere', minWidth: 0, flex: { sm: 1 } }}>
            {subscription.url}
          </Typography>
          <Chip size="small" color={paused ? 'warning' : 'success'} label={paused ? webhookTexts.paused : webhookTexts.active} />
        </Box>
        {subscription.description && <Typography variant="body2">{subscription.description}</Typography>}
        {paused && subscription.pausedReason && <Alert severity="warning">{subscription.pausedReason}</Alert>}
        {!paused && subscription.failingSince && <Alert severity="error">{webhookTexts.failingSince(relativeTime(subscription.failingSince))}</Alert>}
        <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap' }}>
          {subscription.events.map((e) => (
            <Chip key={e} size="small" variant="outlined" label={webhookEventLabels[e as DomainEventType] ?? e} sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }} />
          ))}
        </Box>
        <Box sx={{ display: 'flex', gap: { xs: 0.25, sm: 2 }, flexWrap: 'wrap', flexDirection: { xs: 'column', sm: 'row' } }}>
          <Typography variant="caption" color="text.secondary">
            {webhookTexts.counts(subscription.counts)}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {subscription.lastDeliveryAt ? webhookTexts.lastDelivery(relativeTime(subscription.lastDeliveryAt)) : webhookTexts.noDelivery}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
          <Button size="small" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
            {open ? webhookTexts.hideDeliveries : webhookTexts.deliveries}
          </Button>
          {can('api', 'update') && (
            <Button size="small" onClick={() => setStatus.mutate(paused ? 'active' : 'paused')} disabled={setStatus.isPending}>
              {paused ? webhookTexts.resume : webhookTexts.pause}
            </Button>
          )}
          {can('api', 'delete') && (
            <Button size="small" color="error" onClick={ask} disabled={remove.isPending}>
              {webhookTexts.remove}
            </Button>
          )}
        </Box>
        <Collapse in={open} unmountOnExit>
          <Box sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}>
            <Deliveries subscription={subscription} canRedeliver={can('api', 'update')} />
          </Box>
        </Collapse>
      </CardContent>
    </Card>
  );
}

function CreateDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (s: WebhookSubscriptionCreated) => void }) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  const formId = useId();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<Set<DomainEventType>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const create = useMutation({ mutationFn: webhookSubscriptionsApi.create, onSuccess: onCreated });
  const input = (over: Partial<{ url: string; description: string; events: DomainEventType[] }> = {}) => ({
    url,
    events: [...events],
    ...(description ? { description } : {}),
    ...over,
  });
  const check = (next = input()) => {
    const result = webhookSubscriptionIn.safeParse(next);
    setErrors(result.success ? {} : fieldErrorsOf(result.error.issues));
    return result.success;
  };
  const setAll = (list: DomainEventType[]) => {
    setEvents(new Set(list));
    if (submitted) check(input({ events: list }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (check()) create.mutate(input());
  };
  const reset = () => {
    setUrl('');
    setDescription('');
    setEvents(new Set());
    setErrors({});
    setSubmitted(false);
    create.reset();
  };
  const eventsError = errors.events ?? Object.entries(errors).find(([k]) => k.startsWith('events.'))?.[1];
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} maxWidth="sm" fullWidth slotProps={{ transition: { onExited: reset } }} aria-labelledby={`${formId}-title`}>
      <DialogTitle id={`${formId}-title`}>{webhookTexts.form.title}</DialogTitle>
      <DialogContent>
        <Box component="form" id={formId} onSubmit={submit} noValidate sx={{ display: 'grid', gap: 2, pt: 1 }}>
          <TextField
            label={webhookTexts.form.url}
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              if (submitted) check(input({ url: e.target.value }));
            }}
            error={!!errors.url}
            helperText={errors.url ?? webhookTexts.form.urlHelp}
            autoFocus
            slotProps={{ htmlInput: { maxLength: 2000, inputMode: 'url' } }}
          />
          <TextField
            label={webhookTexts.form.description}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            error={!!errors.description}
            helperText={errors.description}
            slotProps={{ htmlInput: { maxLength: 300 } }}
          />
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
            <Box sx={{ display: 'flex', alignItems: 'center' }}>
              <Typography component="legend" variant="subtitle2" sx={{ flex: 1 }}>
                {webhookTexts.form.events}
              </Typography>
              <FormControlLabel
                control={
                  <Checkbox
                    size="small"
                    checked={events.size === domainEventTypes.length}
                    indeterminate={events.size > 0 && events.size < domainEventTypes.length}
                    onChange={(e) => setAll(e.target.checked ? [...domainEventTypes] : [])}
                  />
                }
                label={webhookTexts.form.all}
              />
            </Box>
            {eventsError && (
              <Alert severity="error" sx={{ my: 1 }}>
                {eventsError}
              </Alert>
            )}
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 1 }}>
              {domainEventTypes.map((type) => (
                <FormControlLabel
                  key={type}
                  sx={{ alignItems: 'flex-start', mr: 0 }}
                  control={
                    <Checkbox
                      size="small"
                      checked={events.has(type)}
                      onChange={(e) => {
                        const next = new Set(events);
                        if (e.target.checked) next.add(type);
                        else next.delete(type);
                        setAll([...next]);
                      }}
                      sx={{ pt: 0.5 }}
                    />
                  }
                  label={
                    <Box sx={{ pt: 0.5 }}>
                      <Typography variant="body2">{webhookEventLabels[type]}</Typography>
                      <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                        {type}
                      </Typography>
                    </Box>
                  }
                />
              ))}
            </Box>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{webhookTexts.form.cancel}</Button>
        <Button type="submit" form={formId} variant="contained" disabled={create.isPending}>
          {create.isPending ? webhookTexts.form.submitting : webhookTexts.form.submit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * /configuracion/webhooks (issue 28, decision 0073): the company's outbound webhooks. A
 * subscription is a URL and the events it listens to; its signing secret is shown once; each one
 * shows its delivery figures, its pause (by a person, or by itself after 24 h of failures) and its
 * deliveries with every attempt and «Reenviar».
 */
export function WebhookSubscriptionsPage() {
  const { companyId } = useSession();
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: webhookSubscriptionKeys.list(companyId), queryFn: webhookSubscriptionsApi.list, refetchInterval: 15_000 });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<WebhookSubscriptionCreated | null>(null);
  const list = query.data?.payload ?? [];
  return (
    <>
      <PageHeader
        title={webhookTexts.title}
        subtitle={webhookTexts.subtitle}
        actions={
          can('api', 'create') && (
            <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
              {webhookTexts.create}
            </Button>
          )
        }
      />
      <Stack spacing={2} sx={{ maxWidth: 960 }}>
        {query.isLoading ? (
          <>
            <Skeleton variant="rounded" height={140} />
            <Skeleton variant="rounded" height={140} />
          </>
        ) : query.isError ? (
          <Alert severity="error" action={<Button onClick={() => query.refetch()}>{webhookTexts.retry}</Button>}>
            {webhookTexts.loadError}
          </Alert>
        ) : list.length === 0 ? (
          <Alert severity="info">{webhookTexts.empty}</Alert>
        ) : (
          list.map((s) => <SubscriptionCard key={s._id} subscription={s} />)
        )}
        <Card variant="outlined">
          <CardContent sx={{ display: 'grid', gap: 1 }}>
            <Typography variant="subtitle2" component="h2">
              {webhookTexts.verifyTitle}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {webhookTexts.verifyText}
            </Typography>
            <CodeBlock text={verifyExample('whsec_…')} />
          </CardContent>
        </Card>
      </Stack>
      <CreateDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(s) => {
          setCreating(false);
          setCreated(s);
          queryClient.invalidateQueries({ queryKey: webhookSubscriptionKeys.all });
        }}
      />
      <SecretOnceDialog
        open={!!created}
        title={webhookTexts.secret.title}
        label={webhookTexts.secret.label}
        secret={created?.secret ?? ''}
        usage={webhookTexts.secret.usage}
        example={created ? verifyExample(created.secret) : ''}
        onClose={() => setCreated(null)}
      />
    </>
  );
}

export default WebhookSubscriptionsPage;
