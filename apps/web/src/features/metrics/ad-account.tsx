import { type MetaAdAccountOut, metaAdsMessages, type MetricOutput } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api } from '../../lib/api-client';
import { formatDateTime, useCompanyTimezone } from '../../lib/company-time';
import { formatMoney } from '../../lib/money';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { metricKeys } from '../../lib/query-keys';
import { SaveCancel } from '../../components/ui/save-cancel';


/**
 * The company's Meta ad account in «Ventas» (decision 0047): connect it (Meta confirms the
 * account and the token before it is kept; the token is never shown again), see its last sync
 * and why it failed, sync now, disconnect. A role without the integrations' permission sees only
 * the figures.
 */
export function AdAccountPanel() {
  const { companyId } = useSession();
  const permissions = usePermissions();
  const canRead = permissions.can('integrations', 'read');
  const canEdit = permissions.can('integrations', 'update');
  const timeZone = useCompanyTimezone();
  const client = useQueryClient();
  const account = useQuery({ queryKey: metricKeys.adAccount(companyId), queryFn: () => api.get<MetaAdAccountOut>('/meta-ads/account', { overlay: false }), enabled: canRead });
  const [form, setForm] = useState<{ adAccountId: string; accessToken: string } | null>(null);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: metricKeys.adAccount(companyId) });
    void client.invalidateQueries({ queryKey: metricKeys.all });
  };
  const save = useMutation({
    mutationFn: (body: { adAccountId: string; accessToken: string }) => api.put<MetaAdAccountOut>('/meta-ads/account', body, { success: 'Cuenta publicitaria conectada', notify: false }),
    onSuccess: () => {
      setForm(null);
      refresh();
      // the first sync runs as a job: read again once it had time
      setTimeout(refresh, 3000);
    },
  });
  const sync = useMutation({
    mutationFn: () => api.post<{ msg: string }>('/meta-ads/sync', undefined, { success: true }),
    onSuccess: () => setTimeout(refresh, 3000),
  });
  const remove = useMutation({ mutationFn: () => api.delete<{ msg: string }>('/meta-ads/account', { success: true }), onSuccess: refresh });
  if (!canRead) return null;
  const a = account.data;
  const error = save.error instanceof ApiError ? save.error.messages[0] : undefined;
  return (
    <Box sx={{ display: 'grid', gap: 1 }} aria-label="Cuenta publicitaria de Meta" component="section">
      {a?.configured ? (
        <Typography variant="body2" color="text.secondary">
          {a.name ?? a.adAccountId} ({a.adAccountId}) · token {a.tokenHint}
          {a.sandbox ? ' · sandbox: datos de ejemplo' : ''}
          {a.lastSyncAt ? ` · sincronizada: ${formatDateTime(a.lastSyncAt, timeZone)}` : ' · aún sin sincronizar'}
        </Typography>
      ) : (
        account.isSuccess && <Typography variant="body2">{metaAdsMessages.notConfigured.replace(': guárdala en Métricas › Ventas', '.')}</Typography>
      )}
      {a?.lastSyncError && <Alert severity="warning">{a.lastSyncError}</Alert>}
      {canEdit && !form && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button variant={a?.configured ? 'outlined' : 'contained'} size="small" onClick={() => setForm({ adAccountId: '', accessToken: '' })}>
            {a?.configured ? 'Cambiar cuenta' : 'Conectar cuenta publicitaria'}
          </Button>
          {a?.configured && (
            <>
              <Button size="small" variant="outlined" disabled={sync.isPending} onClick={() => sync.mutate()}>
                Sincronizar ahora
              </Button>
              <Button size="small" color="error" disabled={remove.isPending} onClick={() => remove.mutate()}>
                Desconectar
              </Button>
            </>
          )}
        </Box>
      )}
      {form && (
        <Box
          component="form"
          sx={{ display: 'grid', gap: 1.5, maxWidth: 520 }}
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(form);
          }}
        >
          <TextField
            size="small"
            label="Cuenta publicitaria"
            placeholder="act_1234567890"
            helperText="El número de la cuenta en el Administrador de anuncios de Meta"
            value={form.adAccountId}
            onChange={(e) => setForm({ ...form, adAccountId: e.target.value })}
            autoComplete="off"
          />
          <TextField
            size="small"
            label="Token de acceso"
            helperText="De un usuario del sistema de Meta Business con el permiso ads_read; se guarda cifrado"
            value={form.accessToken}
            onChange={(e) => setForm({ ...form, accessToken: e.target.value })}
            autoComplete="off"
            type="password"
          />
          {error && <Alert severity="error">{error}</Alert>}
          <SaveCancel label="Guardar y sincronizar" disabled={save.isPending || !form.adAccountId.trim() || !form.accessToken.trim()} onCancel={() => setForm(null)} />
        </Box>
      )}
    </Box>
  );
}

/** The campaigns of the window, largest spend first: what each cost, how many saw it and clicked, the leads, chats and sales it brought and what each cost (decision 0047). */
export function AdCampaigns({ data, locale }: { data: MetricOutput<'meta_ad_spend'>; locale: string }) {
  if (!data.campaigns.length) return null;
  return (
    <Box component="ul" aria-label="Campañas de Meta" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.75 }}>
      {data.campaigns.map((c) => (
        <Box component="li" key={`${c.campaignId}-${c.currency}`} sx={{ display: 'flex', gap: 1, justifyContent: 'space-between', flexWrap: 'wrap', borderBottom: 1, borderColor: 'divider', pb: 0.5 }}>
          <Typography variant="body2" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            {c.campaignName}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {formatMoney(c.spend, { currency: c.currency, locale })} · {c.impressions.toLocaleString(locale)} impresiones · {c.clicks.toLocaleString(locale)} clics
          </Typography>
          <Typography variant="body2" sx={{ flexBasis: '100%' }} data-testid={`ad-campaign-${c.campaignId}-brought`}>
            {c.leads === 1 ? '1 lead' : `${c.leads.toLocaleString(locale)} leads`} · {c.chats.toLocaleString(locale)} chats · {c.orders === 1 ? '1 orden' : `${c.orders.toLocaleString(locale)} órdenes`}
            {[
              c.costPerLead !== null ? ` · ${formatMoney(c.costPerLead, { currency: c.currency, locale })} por lead` : '',
              c.costPerChat !== null ? ` · ${formatMoney(c.costPerChat, { currency: c.currency, locale })} por chat` : '',
              c.costPerOrder !== null ? ` · ${formatMoney(c.costPerOrder, { currency: c.currency, locale })} por venta` : '',
            ].join('')}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
