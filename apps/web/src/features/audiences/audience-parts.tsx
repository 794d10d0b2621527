import { type AudienceSendOut, audienceSendStatusLabels, formMessages } from '@mostrador/contract';
import CloudUpload from '@mui/icons-material/CloudUpload';
import HistoryIcon from '@mui/icons-material/History';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type FormEvent, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { RefField } from '../../components/crud/ref-field';
import type { ResourceRecord } from '../../components/crud/types';
import { useRefOptions } from '../../components/crud/use-resource';
import { serverFieldErrors } from '../../components/crud/validation';
import { type SyncPhase, SyncProgress } from '../../components/ui/sync-progress';
import { formatCount } from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { formatDateTime, useCompanyTimezone } from '../../lib/company-time';
import { usePermissions } from '../../lib/permissions';
import {
  type AudienceKind,
  moving,
  useAudienceEntry,
  useAudienceOverview,
  useAudienceProgressLive,
  useAudienceSends,
  useCreateAtFacebook,
  useRetrySend,
  useUploadByLabels,
} from './api';

const kindLabels: Record<AudienceKind, string> = {
  leads: 'Leads',
  'clean-leads': 'Leads limpios',
};
const phases: Record<AudienceSendOut['status'], SyncPhase> = {
  queued: 'queued',
  uploading: 'running',
  finished: 'done',
  failed: 'failed',
  'pendiente-de-integracion': 'stopped',
  cancelado: 'stopped',
};
const phaseOf = (s: AudienceSendOut) => phases[s.status];

/** Above the list: the ad account the audiences live in, or what to do without one; it keeps the sends' progress live. */
export function AudienceAccountPanel() {
  const overview = useAudienceOverview();
  useAudienceProgressLive();
  if (overview.isError) {
    return (
      <Alert severity="error" sx={{ mb: 2 }}>
        No se pudo leer el estado de las audiencias en Facebook. Vuelve a intentarlo en un momento.
      </Alert>
    );
  }
  const account = overview.data?.account;
  if (!account) return null;
  if (!account.configured) {
    return (
      <Alert
        severity="warning"
        sx={{ mb: 2 }}
        action={
          <Button component={RouterLink} to="/metricas" color="inherit" size="small">
            Ir a Métricas
          </Button>
        }
      >
        Para crear y llenar audiencias en Facebook, conecta la cuenta publicitaria de Meta en Métricas › Ventas (con un token con el permiso ads_management).
      </Alert>
    );
  }
  return (
    <Alert severity={account.sandbox ? 'info' : 'success'} sx={{ mb: 2 }} data-testid="audience-account">
      {account.sandbox
        ? `Cuenta publicitaria de demostración (${account.adAccountId}): las subidas van a un sandbox que responde como Meta, nada sale a Facebook.`
        : `Las audiencias se crean y llenan en la cuenta publicitaria ${account.name ? `«${account.name}» ` : ''}(${account.adAccountId}).`}
    </Alert>
  );
}

/** The audience at Facebook: its id, or «Crear en Facebook». */
export function AudienceFacebookCell({ row }: { row: ResourceRecord }) {
  const { entry, overview } = useAudienceEntry(row._id);
  const create = useCreateAtFacebook();
  const permissions = usePermissions();
  const id = entry?.facebookAudienceId ?? (typeof row.facebookAudienceId === 'string' ? row.facebookAudienceId : null);
  if (id) {
    return (
      <Box sx={{ display: 'grid', gap: 0.25 }}>
        <Chip size="small" color="success" variant="outlined" label="En Facebook" sx={{ justifySelf: 'start' }} />
        <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          {id}
        </Typography>
      </Box>
    );
  }
  const canCreate = permissions.can('marketing', 'update') && !!overview?.account.configured;
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <Chip size="small" variant="outlined" label="Sin crear en Facebook" />
      {canCreate && (
        <Button
          size="small"
          onClick={(event) => {
            // the row opens the edit form: this button does only its own
            event.stopPropagation();
            create.mutate(row._id);
          }}
          disabled={create.isPending}
          startIcon={create.isPending ? <CircularProgress size={14} /> : undefined}
        >
          Crear en Facebook
        </Button>
      )}
    </Box>
  );
}

export function AudienceMembersCell({ row }: { row: ResourceRecord }) {
  const { entry } = useAudienceEntry(row._id);
  if (!entry)
    return (
      <Typography variant="body2" color="text.secondary">
        —
      </Typography>
    );
  return (
    <Typography variant="body2" data-testid="audience-members">
      {entry.members === 1 ? '1 persona' : `${formatCount(entry.members)} personas`}
    </Typography>
  );
}

/** A send's bar and counts: uploaded of total, Meta's invalid entries, the people skipped; why it failed and «Reintentar». */
export function AudienceSendProgress({ send, compact = false }: { send: AudienceSendOut; compact?: boolean }) {
  const retry = useRetrySend();
  const permissions = usePermissions();
  const counts = [
    { key: 'sent', label: 'Subidos', value: send.sent },
    { key: 'invalid', label: 'Inválidos para Meta', value: send.invalid },
    { key: 'skipped', label: 'Sin e-mail ni teléfono', value: send.skipped },
  ];
  return (
    <Box sx={{ display: 'grid', gap: 0.75, minWidth: compact ? 180 : undefined }} data-testid="audience-send" data-status={send.status}>
      <SyncProgress
        phase={phaseOf(send)}
        statusLabel={audienceSendStatusLabels[send.status]}
        statusTestId="audience-send-status"
        done={send.sent}
        total={send.total}
        barLabel="Avance de la subida"
        bar={phaseOf(send) !== 'stopped'}
        barText={send.total > 0 ? `${formatCount(send.sent)} de ${formatCount(send.total)}` : moving(send) ? 'Preparando…' : '0'}
        barTextTestId="audience-send-done"
        aside={
          <Typography variant="caption" color="text.secondary">
            {kindLabels[send.kind]}
            {send.showMissingLeads ? ' · solo los que faltan' : ''}
          </Typography>
        }
      />
      <Box
        component="dl"
        aria-label="Cuentas de la subida"
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          columnGap: 2,
          rowGap: 0.5,
          m: 0,
        }}
      >
        {counts.map((c) => (
          <Box key={c.key}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {c.label}
            </Typography>
            <Typography component="dd" variant="subtitle2" sx={{ m: 0 }} data-testid={`audience-count-${c.key}`}>
              {formatCount(c.value)}
            </Typography>
          </Box>
        ))}
      </Box>
      {send.status === 'failed' && (
        <Alert
          severity="error"
          sx={{ py: 0 }}
          action={
            permissions.can('leads', 'update') ? (
              <Button
                color="inherit"
                size="small"
                onClick={(event) => {
                  event.stopPropagation();
                  retry.mutate(send._id);
                }}
                disabled={retry.isPending}
              >
                Reintentar
              </Button>
            ) : undefined
          }
        >
          {send.reason ?? 'La subida falló'}
        </Alert>
      )}
    </Box>
  );
}

export function AudienceLastSendCell({ row }: { row: ResourceRecord }) {
  const { entry } = useAudienceEntry(row._id);
  if (!entry)
    return (
      <Typography variant="body2" color="text.secondary">
        —
      </Typography>
    );
  if (!entry.lastSend) {
    return (
      <Typography variant="body2" color="text.secondary">
        Sin envíos todavía
      </Typography>
    );
  }
  return <AudienceSendProgress send={entry.lastSend} compact />;
}

function useDialogFrame() {
  const theme = useTheme();
  return {
    fullScreen: useMediaQuery(theme.breakpoints.down('sm')),
    titleId: useId(),
  };
}

/** «Subir por etiquetas»: leads or clean leads with some labels, optionally only those not in it yet; then the upload's progress. */
export function UploadByLabelsDialog({ audience, open, onClose }: { audience: ResourceRecord; open: boolean; onClose: () => void }) {
  const { fullScreen, titleId } = useDialogFrame();
  const formId = useId();
  const [kind, setKind] = useState<AudienceKind>('clean-leads');
  const [labels, setLabels] = useState<string[]>([]);
  const [missingOnly, setMissingOnly] = useState(false);
  const [labelError, setLabelError] = useState<string>();
  const upload = useUploadByLabels();
  const { entry } = useAudienceEntry(audience._id);
  const result = upload.data;
  const errors = upload.error instanceof ApiError ? serverFieldErrors(upload.error.body) : {};
  const failure = upload.error instanceof ApiError ? upload.error.messages[0] : upload.error ? 'No se pudo iniciar la subida' : undefined;
  const close = () => {
    onClose();
    upload.reset();
    setLabels([]);
    setMissingOnly(false);
    setLabelError(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (labels.length === 0) {
      setLabelError(formMessages.required);
      return;
    }
    setLabelError(undefined);
    const facebookAudienceId = entry?.facebookAudienceId ?? undefined;
    upload.mutate({
      kind,
      body: {
        audienceId: audience._id,
        mostradorLabels: labels,
        showMissingLeads: missingOnly,
        ...(facebookAudienceId ? { facebookAudienceId } : {}),
      },
    });
  };
  const live = result && entry?.lastSend?._id === result.sendId ? entry.lastSend : undefined;
  const name = String(audience.name ?? '');
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Subir a «{name}»</DialogTitle>
      <DialogContent dividers>
        {result ? (
          <Box sx={{ display: 'grid', gap: 2 }} data-testid="audience-upload-result">
            <Typography variant="body2">
              {result.count === 1 ? '1 registro' : `${formatCount(result.count)} registros`} con esas etiquetas. Se suben a Facebook en lotes de hasta 10.000; puedes cerrar esta
              ventana, el avance sigue en la lista.
            </Typography>
            {live ? <AudienceSendProgress send={live} /> : <LinearProgress aria-label="Preparando la subida" />}
          </Box>
        ) : (
          <Box component="form" id={formId} noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2.5, pt: 1 }}>
            <Box>
              <Typography variant="subtitle2" component="p" id={`${formId}-kind`}>
                Qué subir
              </Typography>
              <RadioGroup row aria-labelledby={`${formId}-kind`} value={kind} onChange={(event) => setKind(event.target.value as AudienceKind)}>
                <FormControlLabel value="clean-leads" control={<Radio />} label="Leads limpios (una fila por persona)" />
                <FormControlLabel value="leads" control={<Radio />} label="Leads" />
              </RadioGroup>
            </Box>
            <RefField
              id="audience-upload-labels"
              name="mostradorLabels"
              label="Etiquetas"
              keys={['mostrador-labels']}
              multiple
              required
              value={labels}
              onChange={(ids) => setLabels(ids as string[])}
              error={!!(labelError ?? errors.mostradorLabels)}
              helperText={labelError ?? errors.mostradorLabels ?? 'Las personas con alguna de estas etiquetas; se envían su e-mail y su teléfono cifrados (SHA-256)'}
            />
            <Box>
              <FormControlLabel control={<Checkbox checked={missingOnly} onChange={(event) => setMissingOnly(event.target.checked)} />} label="Solo los que faltan" />
              <FormHelperText sx={{ mt: -0.5, ml: 4 }}>Solo las personas que aún no están en esta audiencia</FormHelperText>
            </Box>
            {failure && !errors.mostradorLabels && (
              <Alert severity="error" data-testid="audience-upload-error">
                {failure}
              </Alert>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        {result ? (
          <Button variant="contained" onClick={close}>
            Cerrar
          </Button>
        ) : (
          <>
            <Button onClick={close}>Cancelar</Button>
            <Button type="submit" form={formId} variant="contained" disabled={upload.isPending}>
              Subir
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** The audience's sends, newest first: when, who, the counts and how each ended. */
export function AudienceHistoryDialog({ audience, open, onClose }: { audience: ResourceRecord; open: boolean; onClose: () => void }) {
  const { fullScreen, titleId } = useDialogFrame();
  const sends = useAudienceSends(audience._id, open);
  const labels = useRefOptions(['mostrador-labels'], open);
  const timeZone = useCompanyTimezone();
  const nameOf = (id: string) => labels.options.find((o) => o.id === id)?.label ?? 'Etiqueta borrada';
  const list = sends.data?.payload ?? [];
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Envíos a «{String(audience.name ?? '')}»</DialogTitle>
      <DialogContent dividers>
        {sends.isLoading && <LinearProgress aria-label="Cargando los envíos" />}
        {sends.isError && <Alert severity="error">No se pudieron leer los envíos de esta audiencia. Vuelve a intentarlo.</Alert>}
        {sends.isSuccess && list.length === 0 && (
          <Typography color="text.secondary">Aún no se subió nadie a esta audiencia. Usa «Subir por etiquetas» para enviar tus leads.</Typography>
        )}
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }} aria-label="Historial de envíos">
          {list.map((s) => (
            <Box
              component="li"
              key={s._id}
              sx={{
                display: 'grid',
                gap: 0.75,
                pb: 2,
                borderBottom: 1,
                borderColor: 'divider',
                '&:last-child': { borderBottom: 0, pb: 0 },
              }}
            >
              <Typography variant="subtitle2">
                {formatDateTime(s.createdAt, timeZone)} · {s.labels.map(nameOf).join(', ')}
              </Typography>
              <AudienceSendProgress send={s} />
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button variant="contained" onClick={onClose}>
          Cerrar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The row's own actions: «Subir por etiquetas» and «Historial». */
export function AudienceRowActions({ row }: { row: ResourceRecord }) {
  const [open, setOpen] = useState<'upload' | 'history' | null>(null);
  const permissions = usePermissions();
  const name = String(row.name ?? '');
  return (
    <>
      {permissions.can('leads', 'update') && (
        <Tooltip title="Subir por etiquetas">
          <IconButton aria-label={`Subir por etiquetas a ${name}`} onClick={() => setOpen('upload')} size="small">
            <CloudUpload fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <Tooltip title="Historial de envíos">
        <IconButton aria-label={`Historial de envíos de ${name}`} onClick={() => setOpen('history')} size="small">
          <HistoryIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open === 'upload' && <UploadByLabelsDialog audience={row} open onClose={() => setOpen(null)} />}
      {open === 'history' && <AudienceHistoryDialog audience={row} open onClose={() => setOpen(null)} />}
    </>
  );
}
