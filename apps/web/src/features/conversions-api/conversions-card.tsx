import {
  type ConversionEventOut,
  type ConversionEventStatus,
  type ConversionSettingsInput,
  type ConversionSettingsOut,
  conversionEventNameLabels,
  conversionEventStatusLabels,
  conversionEventStatuses,
  leadStatuses,
  leadStatusLabels,
} from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api } from '../../lib/api-client';
import { formatDateTime, useCompanyTimezone } from '../../lib/company-time';
import { formatMoney, useCompanyMoney } from '../../lib/money';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { SaveCancel } from '../../components/ui/save-cancel';

const chipColor: Record<ConversionEventStatus, 'default' | 'success' | 'warning' | 'error'> = { pending: 'warning', sent: 'success', skipped: 'default', failed: 'error' };
const channelLabel: Record<string, string> = { whatsapp: 'WhatsApp', messenger: 'Messenger', instagram: 'Instagram' };
const cardTitle = { title: { variant: 'h3', component: 'h2' } } as const;

type Form = { enabled: boolean; datasetId: string; accessToken: string; qualifiedStatus: ConversionSettingsOut['qualifiedStatus']; sendQualified: boolean };

/** What one event says: Meta's answer (received, trace) or the reason it was not sent, in Spanish. */
function answerOf(e: ConversionEventOut): string {
  if (e.status === 'sent') return `Meta lo recibió${e.eventsReceived !== null ? ` (${e.eventsReceived} en el lote)` : ''}${e.fbtraceId ? ` · rastreo ${e.fbtraceId}` : ''}`;
  if (e.reason) return e.reason;
  return e.status === 'pending' ? 'En cola para enviarse' : '';
}

/**
 * The Conversions API for business messaging (issue 31, decision 0098) in «Configuración»: the
 * owner turns it on with the dataset and the token (kept sealed; shown as set or not), picks which
 * lead status counts as qualified, and reads the log of what went to Meta — each event's status,
 * Meta's answer or why not — with a retry for a failed one.
 */
export function ConversionsCard() {
  const { companyId } = useSession();
  const permissions = usePermissions();
  const canRead = permissions.can('integrations', 'read');
  const canEdit = permissions.can('integrations', 'update');
  const timeZone = useCompanyTimezone();
  const { locale } = useCompanyMoney();
  const client = useQueryClient();
  const [status, setStatus] = useState<ConversionEventStatus | ''>('');
  const [form, setForm] = useState<Form | null>(null);
  const settingsKey = ['conversions-api', companyId, 'settings'];
  const eventsKey = ['conversions-api', companyId, 'events', status];
  const settings = useQuery({ queryKey: settingsKey, queryFn: () => api.get<ConversionSettingsOut>('/conversions-api/settings', { overlay: false }), enabled: canRead });
  const events = useQuery({
    queryKey: eventsKey,
    queryFn: () => api.get<{ data: ConversionEventOut[]; nextCursor?: string }>('/conversions-api/events', { overlay: false, query: { status: status || undefined } }),
    enabled: canRead,
  });
  const save = useMutation({
    mutationFn: (body: ConversionSettingsInput) => api.put<ConversionSettingsOut>('/conversions-api/settings', body, { success: 'Ajustes guardados', notify: false }),
    onSuccess: (saved) => {
      client.setQueryData(settingsKey, saved);
      setForm(null);
    },
  });
  const retry = useMutation({
    mutationFn: (id: string) => api.post<ConversionEventOut>(`/conversions-api/events/${id}/retry`, undefined, { success: 'Se reintentará el envío ahora' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['conversions-api', companyId, 'events'] });
    },
  });
  if (!canRead) return null;
  const s = settings.data;
  const error = save.error instanceof ApiError ? save.error.messages[0] : undefined;
  const edit = () => s && setForm({ enabled: s.enabled, datasetId: s.datasetId ?? '', accessToken: '', qualifiedStatus: s.qualifiedStatus, sendQualified: s.sendQualified });
  const rows = events.data?.data ?? [];

  return (
    <Card component="section" aria-label="API de conversiones de Meta">
      <CardHeader title="API de conversiones de Meta" subheader="Compras y leads calificados que llegaron desde un anuncio de WhatsApp, Messenger o Instagram" slotProps={cardTitle} />
      <CardContent sx={{ pt: 0, display: 'grid', gap: 2, minWidth: 0 }}>
        {s && !form && (
          <Box sx={{ display: 'grid', gap: 0.5 }}>
            <Typography variant="body2">
              {s.enabled ? 'Activada' : 'Desactivada'} · conjunto de datos {s.datasetId ?? 'sin guardar'} · token {s.tokenSet ? `guardado ${s.tokenHint ?? ''}`.trim() : 'sin guardar'}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {s.sendQualified ? `Lead calificado: al pasar a «${leadStatusLabels[s.qualifiedStatus]}»` : 'No se envían leads calificados'}
            </Typography>
            {canEdit && (
              <Box>
                <Button size="small" variant="outlined" onClick={edit}>
                  Cambiar ajustes
                </Button>
              </Box>
            )}
          </Box>
        )}
        {form && (
          <Box
            component="form"
            sx={{ display: 'grid', gap: 1.5, maxWidth: 520 }}
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate({
                enabled: form.enabled,
                ...(form.datasetId.trim() ? { datasetId: form.datasetId.trim() } : {}),
                ...(form.accessToken.trim() ? { accessToken: form.accessToken.trim() } : {}),
                qualifiedStatus: form.qualifiedStatus,
                sendQualified: form.sendQualified,
              });
            }}
          >
            <FormControlLabel control={<Switch checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />} label="Enviar los resultados a Meta" />
            <TextField
              size="small"
              label="Conjunto de datos"
              helperText="El id del conjunto de datos (dataset) en el Administrador de eventos de Meta"
              value={form.datasetId}
              onChange={(e) => setForm({ ...form, datasetId: e.target.value })}
              autoComplete="off"
            />
            <TextField
              size="small"
              label="Token de acceso"
              helperText={s?.tokenSet ? 'Guardado: déjalo vacío para conservarlo' : 'Del usuario del sistema con acceso al conjunto de datos; se guarda cifrado'}
              value={form.accessToken}
              onChange={(e) => setForm({ ...form, accessToken: e.target.value })}
              autoComplete="off"
              type="password"
            />
            <FormControlLabel control={<Switch checked={form.sendQualified} onChange={(e) => setForm({ ...form, sendQualified: e.target.checked })} />} label="Enviar leads calificados" />
            <TextField
              select
              size="small"
              label="Estado que cuenta como lead calificado"
              value={form.qualifiedStatus}
              disabled={!form.sendQualified}
              onChange={(e) => setForm({ ...form, qualifiedStatus: e.target.value as Form['qualifiedStatus'] })}
            >
              {leadStatuses.map((v) => (
                <MenuItem key={v} value={v}>
                  {leadStatusLabels[v]}
                </MenuItem>
              ))}
            </TextField>
            {error && <Alert severity="error">{error}</Alert>}
            <SaveCancel disabled={save.isPending} onCancel={() => setForm(null)} />
          </Box>
        )}
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="subtitle2" component="h3" sx={{ flexGrow: 1 }}>
            Eventos enviados
          </Typography>
          <TextField select size="small" label="Estado" value={status} onChange={(e) => setStatus(e.target.value as ConversionEventStatus | '')} sx={{ minWidth: 160 }}>
            <MenuItem value="">Todos</MenuItem>
            {conversionEventStatuses.map((v) => (
              <MenuItem key={v} value={v}>
                {conversionEventStatusLabels[v]}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        {events.isSuccess && rows.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {status ? 'No hay eventos con este estado.' : 'Aún no se envió ningún evento: aparecerán aquí las compras pagadas y los leads calificados que llegaron desde un anuncio.'}
          </Typography>
        ) : rows.length === 0 ? null : (
          <Box component="ul" aria-label="Eventos de la API de conversiones" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
            {rows.map((e) => (
              <Box component="li" key={e._id} sx={{ display: 'grid', gap: 0.25, borderBottom: 1, borderColor: 'divider', pb: 1, minWidth: 0 }}>
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                  <Chip size="small" label={conversionEventStatusLabels[e.status]} color={chipColor[e.status]} />
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {conversionEventNameLabels[e.eventName]}
                    {e.channel ? ` · ${channelLabel[e.channel] ?? e.channel}` : ''}
                    {e.value !== null && e.currency ? ` · ${formatMoney(e.value, { currency: e.currency, locale })}` : ''}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {formatDateTime(e.eventTime, timeZone)}
                  </Typography>
                </Box>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {answerOf(e)}
                </Typography>
                {canEdit && e.status === 'failed' && (
                  <Box>
                    <Button size="small" disabled={retry.isPending} onClick={() => retry.mutate(e._id)}>
                      Reintentar
                    </Button>
                  </Box>
                )}
              </Box>
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
