import {
  type GoogleCallbackOutcome,
  googleCallbackMessages,
  googleCallbackOutcomes,
  type GooglePhoneOut,
  googlePhoneStateLabels,
} from '@mostrador/contract';
import GoogleIcon from '@mui/icons-material/Google';
import SyncLock from '@mui/icons-material/SyncLock';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { ResourceRecord } from '../../components/crud/types';
import { ApiError } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { googleApi, goToConsent, useGooglePhones } from './api';

/** The redirect URI to register in Google Cloud for the OAuth client. */
export const callbackUrl = () => `${window.location.origin}/api/google-people/callback`;

/** A phone's Google state as a chip: not connected, connected as its account, or to reconnect (the reason on hover). */
export function GoogleStateChip({ phone }: { phone?: GooglePhoneOut }) {
  if (!phone) return <>—</>;
  const label = phone.state === 'conectado' && phone.googleContactEmail ? phone.googleContactEmail : googlePhoneStateLabels[phone.state];
  const color = phone.state === 'conectado' ? 'success' : phone.state === 'reconectar' ? 'warning' : phone.state === 'falta-autorizar' ? 'info' : 'default';
  const chip = (
    <Chip
      size="small"
      variant={phone.state === 'sin-conectar' ? 'outlined' : 'filled'}
      color={color}
      icon={phone.state === 'conectado' ? <GoogleIcon /> : undefined}
      label={phone.sandbox && phone.state === 'conectado' ? `${label} · demo` : label}
      sx={{ maxWidth: 260 }}
    />
  );
  return phone.reason ? (
    <Tooltip title={phone.reason}>
      <span>{chip}</span>
    </Tooltip>
  ) : (
    chip
  );
}

/** The /telefonos column: the row's state from one call for every phone. */
export function GoogleStateCell({ row }: { row: ResourceRecord }) {
  const phones = useGooglePhones();
  return <GoogleStateChip phone={phones.data?.payload.find((p) => p.telefonoId === row._id)} />;
}

/**
 * «Conectar con Google»: the OAuth client's id and secret, posted to the server at once (kept
 * sealed), and on to Google's consent. The secret never goes in an address.
 */
export function ConnectGoogleDialog({ telefonoId, numero, open, onClose }: { telefonoId: string; numero?: string; open: boolean; onClose: () => void }) {
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const save = useMutation({
    mutationFn: () => googleApi.credentials(telefonoId, { clientId, clientSecret }),
    onSuccess: (answer) => {
      setClientSecret('');
      goToConsent(answer.url);
    },
  });
  const errors = save.error instanceof ApiError ? save.error.messages : save.error ? ['No se pudo guardar: inténtalo de nuevo'] : [];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="google-connect-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="google-connect-title">Conectar con Google{numero ? ` · ${numero}` : ''}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            Crea un cliente OAuth de tipo «Aplicación web» en Google Cloud (con la People API habilitada), agrega esta URI de redirección autorizada y pega aquí su Client ID y su Client
            secret. Luego Google te pedirá permiso para los contactos de la cuenta del teléfono.
          </Typography>
          <TextField size="small" label="URI de redirección autorizada" value={callbackUrl()} slotProps={{ input: { readOnly: true } }} />
          <TextField required label="Client ID" value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" placeholder="1234567890-abc123.apps.googleusercontent.com" />
          <TextField required label="Client secret" type="password" value={clientSecret} onChange={(e) => setClientSecret(e.target.value)} autoComplete="new-password" />
          {errors.map((m) => (
            <Alert key={m} severity="error">
              {m}
            </Alert>
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="contained" startIcon={<GoogleIcon />} disabled={save.isPending || !clientId.trim() || !clientSecret.trim()}>
            Continuar en Google
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The row's Google action on /telefonos: connect, authorize the kept client, or reconnect. */
export function GoogleRowAction({ row }: { row: ResourceRecord }) {
  const phones = useGooglePhones();
  const can = usePermissions().can('integrations', 'update');
  const [open, setOpen] = useState(false);
  const authorize = useMutation({ mutationFn: () => googleApi.authorize(row._id), onSuccess: (answer) => goToConsent(answer.url) });
  const phone = phones.data?.payload.find((p) => p.telefonoId === row._id);
  if (!can || !phone) return null;
  const numero = String(row.numero ?? '');
  if (phone.state === 'sin-conectar' || phone.state === 'conectado') {
    const label = phone.state === 'conectado' ? 'Cambiar cuenta de Google' : 'Conectar con Google';
    return (
      <>
        <Tooltip title={label}>
          <IconButton size="small" aria-label={`${label}: ${numero}`} onClick={() => setOpen(true)}>
            <GoogleIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        {open && <ConnectGoogleDialog telefonoId={row._id} numero={numero} open onClose={() => setOpen(false)} />}
      </>
    );
  }
  const label = phone.state === 'reconectar' ? 'Reconectar con Google' : 'Autorizar en Google';
  return (
    <Tooltip title={label}>
      <IconButton size="small" color="warning" aria-label={`${label}: ${numero}`} disabled={authorize.isPending} onClick={() => authorize.mutate()}>
        <SyncLock fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

const isOutcome = (v: string | null): v is GoogleCallbackOutcome => !!v && (googleCallbackOutcomes as readonly string[]).includes(v);

/**
 * Above the /telefonos list: what Google's consent ended in (`?google=…` from the OAuth
 * callback; a code, so no text is read from the address), then the address is cleaned.
 */
export function GoogleCallbackNotice() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const outcome = params.get('google');
  const [shown, setShown] = useState<GoogleCallbackOutcome | null>(isOutcome(outcome) ? outcome : null);
  useEffect(() => {
    if (!outcome) return;
    if (isOutcome(outcome)) setShown(outcome);
    navigate('/telefonos', { replace: true });
  }, [outcome, navigate]);
  if (!shown) return null;
  return (
    <Box sx={{ mb: 2 }}>
      <Alert severity={shown === 'conectado' ? 'success' : 'warning'} onClose={() => setShown(null)} data-testid="google-outcome">
        {googleCallbackMessages[shown]}
      </Alert>
    </Box>
  );
}
