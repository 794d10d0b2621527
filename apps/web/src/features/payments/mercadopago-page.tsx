import type { MercadoPagoSettingsIn } from '@mostrador/contract';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { formatInstant } from '../../components/crud/cell-value';
import { PageHeader } from '../../components/ui/page-header';
import { ConnectionChecks } from '../../components/ui/connection-checks';
import { ApiError } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { useMercadoPagoSettings, useSaveMercadoPagoSettings, useTestMercadoPago } from './api';

type Form = { accessToken: string; webhookSecret: string; publicKey: string; sandbox: boolean };

/**
 * /mercadopago (decision 0083): the company's Mercado Pago credentials — access token and the
 * notifications' «clave secreta» never shown back (blank keeps them), the public key, the demo's
 * sandbox —, the notification URL to paste in Mercado Pago, and the connection test.
 */
export function MercadoPagoPage() {
  const settings = useMercadoPagoSettings();
  const save = useSaveMercadoPagoSettings();
  const test = useTestMercadoPago();
  const can = usePermissions().can('integrations', 'update');
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<Form>({ accessToken: '', webhookSecret: '', publicKey: '', sandbox: false });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const saved = settings.data;
  const start = () => {
    setForm({ accessToken: '', webhookSecret: '', publicKey: saved?.publicKey ?? '', sandbox: saved?.sandbox ?? false });
    setErrors({});
    setEditing(true);
  };
  const submit = () => {
    const body: MercadoPagoSettingsIn = {
      sandbox: form.sandbox,
      ...(form.accessToken.trim() ? { accessToken: form.accessToken.trim() } : {}),
      ...(form.webhookSecret.trim() ? { webhookSecret: form.webhookSecret.trim() } : {}),
      ...(form.publicKey.trim() ? { publicKey: form.publicKey.trim() } : {}),
    };
    save.mutate(body, {
      onSuccess: () => {
        setEditing(false);
        test.reset();
      },
      onError: (error) => {
        const details = error instanceof ApiError ? (error.body as { errors?: { details?: Array<{ path: string; msg: string }> } } | null)?.errors?.details : undefined;
        setErrors(Object.fromEntries((details ?? []).map((d) => [d.path, d.msg])));
      },
    });
  };
  const field = (key: 'accessToken' | 'webhookSecret' | 'publicKey', label: string, helperText?: string, secret = false) => (
    <TextField
      size="small"
      label={label}
      type={secret ? 'password' : undefined}
      value={form[key]}
      onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
      error={!!errors[key]}
      helperText={errors[key] ?? helperText}
      autoComplete="off"
    />
  );
  return (
    <>
      <PageHeader title="Mercado Pago" subtitle="Cobra las órdenes del catálogo con un enlace de Checkout Pro: la orden pasa a pagada sola cuando Mercado Pago lo confirma" />
      {settings.isError && <Alert severity="warning">No se pudo leer la configuración de Mercado Pago</Alert>}
      {settings.isLoading ? (
        <Skeleton variant="rectangular" height={200} />
      ) : saved ? (
        <Card variant="outlined" sx={{ maxWidth: 720 }}>
          <CardContent sx={{ display: 'grid', gap: 1.5 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Typography variant="h2" component="h2" sx={{ fontSize: '1.1rem', flex: 1 }}>
                Credenciales
              </Typography>
              {saved.sandbox && <Chip size="small" label="Sandbox" />}
              {!saved.configured && <Chip size="small" variant="outlined" label="Sin configurar" />}
            </Box>
            {editing ? (
              <Box
                component="form"
                aria-label="Credenciales de Mercado Pago"
                sx={{ display: 'grid', gap: 1.5 }}
                onSubmit={(e) => {
                  e.preventDefault();
                  submit();
                }}
              >
                {field('accessToken', 'Access token', saved.accessTokenSet ? 'Guardado: déjalo vacío para conservarlo' : 'Tus integraciones → Credenciales de producción', true)}
                {field('webhookSecret', 'Clave secreta de las notificaciones', saved.webhookSecretSet ? 'Guardada: déjala vacía para conservarla' : 'Tus integraciones → Webhooks → Configurar notificaciones', true)}
                {field('publicKey', 'Public key (opcional)')}
                <FormControlLabel control={<Switch checked={form.sandbox} onChange={(e) => setForm((f) => ({ ...f, sandbox: e.target.checked }))} />} label="Sandbox: pagos simulados en el propio Mostrador (demo)" />
                <Box sx={{ display: 'flex', gap: 1 }}>
                  <Button type="submit" variant="contained" disabled={save.isPending}>
                    Guardar
                  </Button>
                  <Button onClick={() => setEditing(false)}>Cancelar</Button>
                </Box>
              </Box>
            ) : saved.configured ? (
              <Typography variant="body2" color="text.secondary">
                Access token {saved.accessTokenSet ? 'guardado' : 'sin guardar'} · Clave secreta {saved.webhookSecretSet ? 'guardada' : 'sin guardar'}
                {saved.publicKey ? ` · Public key ${saved.publicKey}` : ''}
                {saved.updatedAt ? ` · Actualizado ${formatInstant(saved.updatedAt)}` : ''}
              </Typography>
            ) : (
              <Typography variant="body2" color="text.secondary">
                Sin credenciales no se pueden crear enlaces de pago; «Marcar pagado» sigue disponible en cada orden.
              </Typography>
            )}
            <Box sx={{ display: 'grid', gap: 0.5 }}>
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                URL de notificaciones
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Pégala en Mercado Pago (Tus integraciones → Webhooks), con el evento «Pagos».
              </Typography>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="body2" component="code" data-testid="notification-url" sx={{ overflowWrap: 'anywhere', bgcolor: 'action.hover', px: 1, py: 0.5, borderRadius: 1 }}>
                  {saved.notificationUrl}
                </Typography>
                <Button size="small" startIcon={<ContentCopy />} onClick={() => void navigator.clipboard?.writeText(saved.notificationUrl).catch(() => {})}>
                  Copiar
                </Button>
              </Box>
            </Box>
            {!editing && (
              <ConnectionChecks
                pending={test.isPending}
                pendingText="Probando la conexión con Mercado Pago…"
                failed={test.isError}
                result={test.data}
                testId="mercadopago-test-result"
              />
            )}
            {!editing && (
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                {can && (
                  <Button variant="outlined" size="small" onClick={start}>
                    {saved.configured ? 'Editar' : 'Configurar'}
                  </Button>
                )}
                {saved.configured && (
                  <Button size="small" onClick={() => test.mutate()} disabled={test.isPending}>
                    {test.isPending ? 'Probando…' : 'Probar conexión'}
                  </Button>
                )}
              </Box>
            )}
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}

export default MercadoPagoPage;
