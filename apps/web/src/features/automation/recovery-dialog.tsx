import {
  RECOVERY_MAX_HOURS,
  RECOVERY_WINDOW_HOURS,
  type RecoveryFollowup,
  type RecoverySettingsOut,
  recoverySettingsIn,
  recoveryStatusLabels,
  usdTo,
  type WhatsappTemplateList,
  variableCount,
} from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError, api } from '../../lib/api-client';
import { fieldErrorsOf } from '../../lib/use-schema-form';
import { formatMoney, useCompanyMoney } from '../../lib/money';
import { useSession } from '../../lib/session';

export const recoveryTexts = {
  open: 'Recuperar ventas',
  title: 'Recuperar ventas',
  intro:
    'Cuando la IA lee que alguien quería comprar, reconocemos los productos de los que habló y no hace un pedido, le enviamos un solo seguimiento con su carrito listo. Nunca a quien pidió no recibir mensajes, nunca dos veces por conversación, y nada si la conversación fue negativa: esa pasa a un agente.',
  enabled: 'Enviar seguimientos',
  afterHours: 'Horas sin pedido antes del seguimiento',
  text: 'Mensaje (dentro de la ventana de 24 horas)',
  textHint: 'Usa {nombre}, {productos} y {enlace} (el carrito con los productos).',
  template: 'Plantilla fuera de la ventana (WhatsApp)',
  noTemplate: 'Ninguna: fuera de la ventana no se envía',
  templateValue: (n: number) => `Valor {{${n}}}`,
  cost: (amount: string, usd: string) => `Cada seguimiento con esta plantilla cuesta ${amount} (${usd} según la tarifa de marketing de Meta)`,
  noCatalog: 'La compañía no tiene un catálogo predeterminado: elige uno en Catálogos para armar los carritos.',
  save: 'Guardar',
  saved: 'Ajustes guardados',
  runNow: 'Revisar ahora',
  ran: (r: { sent: number; skipped: number; failed: number }) => `Enviados: ${r.sent} · No enviados: ${r.skipped} · Fallidos: ${r.failed}`,
  history: 'Últimos seguimientos',
  historyEmpty: 'Aún no hay seguimientos',
  ordered: (code: string, total: string) => `Compró: ${code} · ${total}`,
  noOrder: `Sin pedido en ${RECOVERY_WINDOW_HOURS} h`,
  openChat: 'Abrir chat',
  close: 'Cerrar',
  loadError: 'No se pudieron cargar los ajustes',
  retry: 'Reintentar',
};
const t = recoveryTexts;

const recoveryKeys = {
  settings: (companyId: string | null) => ['recovery', companyId, 'settings'] as const,
  followups: (companyId: string | null) => ['recovery', companyId, 'followups'] as const,
};

/** «Recuperar ventas» on /automatizaciones (decision 0089): the follow-up's settings, «Revisar ahora» and the latest follow-ups. */
export function RecoveryDialog({ open, onClose, mayUpdate }: { open: boolean; onClose: () => void; mayUpdate: boolean }) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t.title}</DialogTitle>
      {open && <RecoveryBody onClose={onClose} mayUpdate={mayUpdate} />}
    </Dialog>
  );
}

function RecoveryBody({ onClose, mayUpdate }: { onClose: () => void; mayUpdate: boolean }) {
  const { companyId } = useSession();
  const settings = useQuery({ queryKey: recoveryKeys.settings(companyId), queryFn: () => api.get<RecoverySettingsOut>('/recovery/settings', { overlay: false }) });
  return (
    <>
      <DialogContent dividers>
        {settings.isLoading ? (
          <Skeleton variant="rounded" height={240} />
        ) : settings.isError || !settings.data ? (
          <Alert severity="error" action={<Button onClick={() => settings.refetch()}>{t.retry}</Button>}>
            {t.loadError}
          </Alert>
        ) : (
          <Stack spacing={3}>
            <SettingsForm saved={settings.data} mayUpdate={mayUpdate} />
            <Followups mayUpdate={mayUpdate} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.close}</Button>
      </DialogActions>
    </>
  );
}

function SettingsForm({ saved, mayUpdate }: { saved: RecoverySettingsOut; mayUpdate: boolean }) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const money = useCompanyMoney();
  const [form, setForm] = useState({
    enabled: saved.enabled,
    afterHours: String(saved.afterHours),
    text: saved.text,
    templateId: saved.templateId ?? '',
    templateValues: saved.templateValues,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState(false);
  const templates = useQuery({
    queryKey: ['recovery', companyId, 'templates'],
    queryFn: () => api.get<WhatsappTemplateList>('/whatsapp-templates', { query: { status: 'APPROVED', limit: 100 }, overlay: false, notify: false }),
    staleTime: 60_000,
  });
  const chosen = templates.data?.payload.find((x) => x._id === form.templateId);
  const values = chosen ? variableCount(chosen.body) : 0;
  const save = useMutation({
    mutationFn: (body: unknown) => api.put<RecoverySettingsOut>('/recovery/settings', body, { overlay: false, notify: false }),
    onSuccess: (out) => {
      queryClient.setQueryData(recoveryKeys.settings(companyId), out);
      setDone(true);
    },
    onError: (e) => {
      const details = (e instanceof ApiError ? (e.body as { errors?: { details?: Array<{ path: string; msg: string }> } })?.errors?.details : undefined) ?? [];
      setErrors(Object.fromEntries(details.map((d) => [d.path, d.msg])));
      setFailure(e instanceof Error ? e.message : String(e));
    },
  });
  const submit = () => {
    setFailure('');
    setDone(false);
    const body = {
      enabled: form.enabled,
      afterHours: form.afterHours.trim() === '' ? Number.NaN : Number(form.afterHours),
      text: form.text,
      templateId: form.templateId || null,
      templateValues: form.templateId ? Array.from({ length: values }, (_, i) => form.templateValues[i] ?? '') : [],
    };
    const parsed = recoverySettingsIn.safeParse(body);
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error.issues));
    setErrors({});
    save.mutate(parsed.data);
  };
  const cost = saved.templateCost && saved.templateId === form.templateId ? saved.templateCost : null;
  const rate = usdTo[money.currency];
  return (
    <Stack spacing={2} component="section" aria-label={t.title}>
      <Typography variant="body2" color="text.secondary">
        {t.intro}
      </Typography>
      {!saved.catalogId && <Alert severity="warning">{t.noCatalog}</Alert>}
      <FormControlLabel
        control={<Switch checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} disabled={!mayUpdate} />}
        label={t.enabled}
      />
      <TextField
        label={t.afterHours}
        type="number"
        value={form.afterHours}
        onChange={(e) => setForm({ ...form, afterHours: e.target.value })}
        slotProps={{ htmlInput: { min: 1, max: RECOVERY_MAX_HOURS } }}
        error={!!errors.afterHours}
        helperText={errors.afterHours}
        disabled={!mayUpdate}
        sx={{ maxWidth: 320 }}
      />
      <TextField
        label={t.text}
        value={form.text}
        onChange={(e) => setForm({ ...form, text: e.target.value })}
        multiline
        minRows={3}
        error={!!errors.text}
        helperText={errors.text ?? t.textHint}
        disabled={!mayUpdate}
      />
      <TextField
        select
        label={t.template}
        value={form.templateId}
        onChange={(e) => setForm({ ...form, templateId: e.target.value, templateValues: [] })}
        error={!!errors.templateId}
        helperText={errors.templateId}
        disabled={!mayUpdate}
      >
        <MenuItem value="">{t.noTemplate}</MenuItem>
        {(templates.data?.payload ?? []).map((x) => (
          <MenuItem key={x._id} value={x._id}>
            {x.name} ({x.language})
          </MenuItem>
        ))}
      </TextField>
      {chosen && (
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <Typography variant="body2" sx={{ gridColumn: '1 / -1', whiteSpace: 'pre-wrap', bgcolor: 'action.hover', p: 1.5, borderRadius: 1 }}>
            {chosen.body}
          </Typography>
          {Array.from({ length: values }, (_, i) => (
            <TextField
              // biome-ignore lint/suspicious/noArrayIndexKey: a template's values are its positions
              key={i}
              size="small"
              label={t.templateValue(i + 1)}
              placeholder={i === 0 ? '{nombre}' : '{enlace}'}
              value={form.templateValues[i] ?? ''}
              onChange={(e) => {
                const next = [...form.templateValues];
                next[i] = e.target.value;
                setForm({ ...form, templateValues: next });
              }}
              error={!!errors[`templateValues.${i}`]}
              helperText={errors[`templateValues.${i}`]}
              disabled={!mayUpdate}
            />
          ))}
        </Box>
      )}
      {cost && (
        <Alert severity="info" data-testid="recovery-cost">
          {t.cost(rate ? formatMoney(cost.usd * rate, money) : formatMoney(cost.usd, { currency: 'USD', locale: money.locale }), formatMoney(cost.usd, { currency: 'USD', locale: money.locale }))}
        </Alert>
      )}
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      {done && (
        <Alert severity="success" role="status">
          {t.saved}
        </Alert>
      )}
      {mayUpdate && (
        <Box>
          <Button variant="contained" onClick={submit} disabled={save.isPending}>
            {save.isPending ? <CircularProgress size={20} color="inherit" /> : t.save}
          </Button>
        </Box>
      )}
    </Stack>
  );
}

function Followups({ mayUpdate }: { mayUpdate: boolean }) {
  const { companyId } = useSession();
  const money = useCompanyMoney();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: recoveryKeys.followups(companyId),
    queryFn: () => api.get<{ payload: RecoveryFollowup[] }>('/recovery/followups', { overlay: false }),
  });
  const run = useMutation({
    mutationFn: () => api.post<{ sent: number; skipped: number; failed: number }>('/recovery/run', undefined, { overlay: false }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recoveryKeys.followups(companyId) }),
  });
  const when = new Intl.DateTimeFormat('es', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack spacing={1.5} component="section" aria-label={t.history}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h3">
          {t.history}
        </Typography>
        {mayUpdate && (
          <Button variant="outlined" size="small" onClick={() => run.mutate()} disabled={run.isPending}>
            {run.isPending ? <CircularProgress size={18} /> : t.runNow}
          </Button>
        )}
      </Box>
      {run.data && (
        <Alert severity="info" role="status">
          {t.ran(run.data)}
        </Alert>
      )}
      {list.isLoading ? (
        <Skeleton variant="rounded" height={120} />
      ) : (list.data?.payload ?? []).length === 0 ? (
        <Typography color="text.secondary">{t.historyEmpty}</Typography>
      ) : (
        <Stack spacing={1} data-testid="recovery-followups">
          {(list.data?.payload ?? []).map((f) => (
            <Box key={f._id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, display: 'grid', gap: 0.5 }} data-testid="recovery-followup">
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography sx={{ fontWeight: 600 }}>{f.contactName}</Typography>
                <Chip size="small" label={recoveryStatusLabels[f.status]} color={f.status === 'sent' ? 'success' : f.status === 'failed' ? 'error' : 'default'} />
                {f.status === 'sent' && (
                  <Chip size="small" variant="outlined" color={f.order ? 'success' : 'default'} label={f.order ? t.ordered(f.order.code, formatMoney(f.order.total, { ...money, currency: f.order.currency })) : t.noOrder} />
                )}
                <Typography variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
                  {when.format(new Date(f.createdAt))}
                </Typography>
              </Box>
              {f.products.length > 0 && (
                <Typography variant="body2" color="text.secondary">
                  {f.products.map((p) => `${p.quantity} × ${p.name}`).join(' · ')}
                </Typography>
              )}
              {f.reason && <Typography variant="body2">{f.reason}</Typography>}
              <Link component={RouterLink} to={`/chat?chatId=${encodeURIComponent(f.chatId)}`} variant="body2">
                {t.openChat}
              </Link>
            </Box>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
