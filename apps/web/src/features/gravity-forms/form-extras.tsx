import { type GravityEntryOut, gravityEntryStatusLabels, type GravityFieldOut, type GravityTestOut } from '@mostrador/contract';
import CloseIcon from '@mui/icons-material/Close';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Key from '@mui/icons-material/Key';
import LockOutlined from '@mui/icons-material/LockOutlined';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import Sync from '@mui/icons-material/Sync';
import TableRows from '@mui/icons-material/TableRowsOutlined';
import Webhook from '@mui/icons-material/Webhook';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useEffectEvent, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { formatInstant } from '../../components/crud/cell-value';
import type { ResourceRecord } from '../../components/crud/types';
import { displayNameOf } from '../../components/crud/use-resource';
import { formatCount } from '../../i18n';
import { usePermissions } from '../../lib/permissions';
import { resourceKeys, gravityKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { type ConnectionCheck, ConnectionTestDialog } from '../../components/ui/connection-checks';
import { gravityApi, syncGoing, useEntriesLive, useFormStatus } from './api';

export const gravityTexts = {
  test: 'Probar conexión',
  fields: 'Campos',
  webhook: 'Webhook',
  sync: 'Sincronizar entradas',
  syncing: 'Sincronizando…',
  keysSaved: 'Claves guardadas',
  keysMissing: 'Faltan las claves',
  entriesTitle: 'Entradas recientes',
  entriesEmpty: 'Aún no llegan entradas. Pulsa «Sincronizar entradas» en un formulario con sus claves, o pega su webhook en WordPress.',
  entriesError: 'No se pudieron cargar las entradas.',
  retry: 'Reintentar',
  copy: 'Copiar',
  copied: 'Copiado',
} as const;

const fieldNames: Record<string, string> = { siteUrl: 'la URL del sitio', consumerKey: 'las claves de la API', formId: 'el id del formulario' };

function DialogFrame({ title, open, onClose, children, actions }: { title: string; open: boolean; onClose: () => void; children: ReactNode; actions?: ReactNode }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        {title}
        <IconButton aria-label="Cerrar" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        {children}
      </DialogContent>
      <DialogActions>
        {actions}
        <Button variant="contained" onClick={onClose}>
          Cerrar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Each setting after a test: the failure's field is what to fix; what comes after it on the way
 * (the URL, then the keys, then the form) was not reached, nor the site when the keys are missing.
 * A failure of the site itself (busy, 5xx) marks none.
 */
export function checksOf(result: GravityTestOut, keysSaved: boolean): ConnectionCheck[] {
  const order = ['siteUrl', 'consumerKey', 'formId'] as const;
  const bad = result.ok ? -1 : result.field ? order.indexOf(result.field) : undefined;
  const stateOf = (i: number): ConnectionCheck['state'] => (bad === -1 ? 'ok' : bad === undefined ? 'unknown' : i < bad ? 'ok' : i === bad ? 'bad' : 'unknown');
  const [reached, keys, form] = order.map((_, i) => stateOf(i));
  const url = result.field === 'consumerKey' && !keysSaved ? 'unknown' : reached;
  return [
    { label: 'URL del sitio', state: url, detail: url === 'ok' ? 'Responde como un WordPress con Gravity Forms' : url === 'bad' ? 'No responde como un WordPress con Gravity Forms' : 'Sin probar' },
    {
      label: 'Claves de la API REST',
      state: keys,
      detail: keys === 'ok' ? 'Válidas, con permiso de lectura' : keys === 'bad' ? (keysSaved ? 'No son válidas o no pueden leer formularios' : 'Faltan: guárdalas con «Editar»') : 'Sin probar',
    },
    { label: 'Id del formulario', state: form, detail: form === 'ok' ? 'El sitio tiene ese formulario' : form === 'bad' ? 'El sitio no tiene ese formulario' : 'Sin probar' },
  ];
}

/** «Probar conexión»: reads the form from the site when the dialog opens, and says what to fix. */
function TestDialog({ form, open, onClose }: { form: ResourceRecord; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  return (
    <ConnectionTestDialog
      name={displayNameOf(form)}
      open={open}
      onClose={onClose}
      run={() => gravityApi.test(form._id)}
      onResult={() => {
        void queryClient.invalidateQueries({ queryKey: gravityKeys.status(form._id, companyId) });
        void queryClient.invalidateQueries({ queryKey: resourceKeys('gravity-forms').lists() });
      }}
      subtitle={`${String(form.siteUrl ?? '')} · formulario ${String(form.formId ?? '')}`}
      pendingText="Probando la conexión con el sitio…"
      testId="gravity-test-result"
      checksOf={(result) => checksOf(result, form.consumerKeySet === true && form.consumerSecretSet === true)}
    >
      {(result) =>
        !result.ok && result.field && <Typography variant="body2">Revisa {fieldNames[result.field]} con «Editar» en la fila del formulario y vuelve a probar.</Typography>
      }
    </ConnectionTestDialog>
  );
}

const mapParts: Array<{ key: string; label: string; help?: string }> = [
  { key: 'name', label: 'Nombre completo', help: 'Un campo «Nombre» entero, o un texto' },
  { key: 'firstName', label: 'Nombre (solo)', help: 'Si el nombre viene en dos campos' },
  { key: 'lastName', label: 'Apellido' },
  { key: 'phone', label: 'Teléfono', help: 'Se normaliza con el país de la compañía' },
  { key: 'email', label: 'Correo electrónico' },
  { key: 'message', label: 'Mensaje', help: 'Se guarda en el lead, con el nombre del formulario' },
];

/** «Campos»: which field of the form is the name, phone, e-mail and message, offered from the form's fields as the site gives them. */
function MappingDialog({ form, open, onClose }: { form: ResourceRecord; open: boolean; onClose: () => void }) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const fields = useQuery({ queryKey: gravityKeys.fields(form._id, companyId), queryFn: ({ signal }) => gravityApi.fields(form._id, signal), enabled: open, retry: false });
  const saved = (form.fieldMap ?? {}) as Record<string, string>;
  const [map, setMap] = useState<Record<string, string>>(saved);
  const [touched, setTouched] = useState(false);
  // opening starts from the saved map, and the fields' arrival may suggest one: only those two are what the effects follow
  const restart = useEffectEvent(() => {
    setTouched(false);
    setMap(saved);
  });
  useEffect(() => {
    if (open) restart();
  }, [open]);
  const suggest = useEffectEvent((suggested: Record<string, string>) => {
    // a form never mapped starts from what its fields suggest
    if (!saved.phone && !saved.email && !touched) setMap(suggested);
  });
  useEffect(() => {
    if (fields.data) suggest(fields.data.suggested);
  }, [fields.data]);
  const save = useMutation({
    mutationFn: () => gravityApi.saveMap(form._id, Object.fromEntries(Object.entries(map).filter(([, v]) => v))),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: resourceKeys('gravity-forms').all });
      onClose();
    },
  });
  const noContact = !map.phone && !map.email;
  const options: GravityFieldOut[] = fields.data?.fields ?? [];
  return (
    <DialogFrame
      title={`${gravityTexts.fields} · ${displayNameOf(form)}`}
      open={open}
      onClose={onClose}
      actions={
        <Button variant="outlined" onClick={() => save.mutate()} disabled={save.isPending || noContact || !fields.data}>
          Guardar campos
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary">
        Elige qué campo del formulario es cada dato del lead. Hace falta al menos el teléfono o el correo.
      </Typography>
      {fields.isLoading && <Skeleton variant="rounded" height={180} />}
      {fields.isError && <Alert severity="error">{(fields.error as Error).message || 'No se pudieron leer los campos del formulario.'}</Alert>}
      {fields.data && (
        <>
          <Typography variant="subtitle2">{fields.data.title}</Typography>
          {mapParts.map((part) => (
            <TextField
              key={part.key}
              select
              size="small"
              label={part.label}
              helperText={part.help}
              value={map[part.key] ?? ''}
              onChange={(event) => {
                setTouched(true);
                setMap((m) => ({ ...m, [part.key]: event.target.value }));
              }}
            >
              <MenuItem value="">
                <em>Ninguno</em>
              </MenuItem>
              {options.map((f) => (
                <MenuItem key={f.id} value={f.id}>
                  {f.label} ({f.id})
                </MenuItem>
              ))}
            </TextField>
          ))}
          {noContact && <Alert severity="warning">Asigna el teléfono o el correo: sin ellos ninguna entrada puede ser un lead.</Alert>}
        </>
      )}
    </DialogFrame>
  );
}

function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <TextField
      label={label}
      value={value}
      size="small"
      fullWidth
      slotProps={{
        input: {
          readOnly: true,
          endAdornment: (
            <Tooltip title={copied ? gravityTexts.copied : gravityTexts.copy}>
              <IconButton
                aria-label={`${gravityTexts.copy}: ${label}`}
                onClick={() => {
                  void navigator.clipboard?.writeText(value).then(() => setCopied(true));
                }}
                edge="end"
              >
                <ContentCopy fontSize="small" />
              </IconButton>
            </Tooltip>
          ),
        },
        htmlInput: { 'data-testid': testId },
      }}
    />
  );
}

/** «Webhook»: the URL to paste in the form's Webhooks add-on feed, and its secret (shown once, when generated). */
function WebhookDialog({ form, open, onClose }: { form: ResourceRecord; open: boolean; onClose: () => void }) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const status = useFormStatus(form._id);
  const generate = useMutation({
    mutationFn: () => gravityApi.webhookSecret(form._id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: gravityKeys.status(form._id, companyId) }),
  });
  const { reset } = generate;
  useEffect(() => {
    if (!open) reset();
  }, [open, reset]);
  const path = status.data?.webhookPath ?? `/api/webhooks/gravity-forms/${form._id}`;
  const url = `${window.location.origin}${path}`;
  const secret = generate.data;
  const had = status.data?.webhookSecretSet;
  return (
    <DialogFrame
      title={`${gravityTexts.webhook} · ${displayNameOf(form)}`}
      open={open}
      onClose={onClose}
      actions={
        <Button startIcon={<Key />} onClick={() => generate.mutate()} disabled={generate.isPending}>
          {had || secret ? 'Generar un secreto nuevo' : 'Generar secreto'}
        </Button>
      }
    >
      <Typography variant="body2">
        En WordPress: Formularios › este formulario › Ajustes › Webhooks › Añadir nuevo. Método POST, formato JSON, cuerpo «Todos los campos», y una cabecera
        «Authorization» con el valor de abajo.
      </Typography>
      <CopyField label="URL del webhook" value={url} testId="gravity-webhook-url" />
      {secret ? (
        <>
          <Alert severity="warning">Copia el valor ahora: el secreto no se vuelve a mostrar. Si lo pierdes, genera uno nuevo (el anterior deja de valer).</Alert>
          <CopyField label="Cabecera Authorization" value={secret.value} testId="gravity-webhook-secret" />
        </>
      ) : had ? (
        <Alert severity="info" icon={<LockOutlined />}>
          Secreto guardado ({status.data?.webhookSecretHint}){status.data?.webhookSecretAt ? `, generado el ${formatInstant(status.data.webhookSecretAt)}` : ''}. No se muestra de nuevo.
        </Alert>
      ) : (
        <Alert severity="info">Este formulario aún no tiene secreto: sin él, sus avisos se rechazan (401). Genera uno y pégalo en WordPress.</Alert>
      )}
      {generate.isError && <Alert severity="error">No se pudo generar el secreto. Inténtalo de nuevo.</Alert>}
    </DialogFrame>
  );
}

/** The form's cell: its name, site and form id, and its actions (a click there does not open the edit form). */
export function GravityFormSummary({ form }: { form: ResourceRecord }) {
  const url = typeof form.siteUrl === 'string' ? form.siteUrl : '';
  const [open, setOpen] = useState<'test' | 'fields' | 'webhook' | null>(null);
  const { can } = usePermissions();
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const status = useFormStatus(form._id);
  const going = syncGoing(status.data?.sync);
  const keys = form.consumerKeySet === true && form.consumerSecretSet === true;
  const sync = useMutation({
    mutationFn: () => gravityApi.sync(form._id),
    onSuccess: (s) => queryClient.setQueryData(gravityKeys.status(form._id, companyId), (old: object | undefined) => (old ? { ...old, sync: s } : old)),
  });
  const name = displayNameOf(form);
  const mayUpdate = can('marketing', 'update');
  return (
    <Box sx={{ display: 'grid', gap: 0.25, justifyItems: 'start', minWidth: 0 }}>
      <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
      <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {url && (
          <Link href={url} target="_blank" rel="noreferrer" onClick={(event) => event.stopPropagation()}>
            {url.replace(/^https?:\/\//, '')}
          </Link>
        )}
        {` · formulario ${String(form.formId ?? '')}`}
        {status.data?.formTitle ? ` («${status.data.formTitle}»)` : ''}
      </Typography>
      {mayUpdate && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5, ml: -0.75 }} onClick={(event) => event.stopPropagation()}>
          <Button size="small" startIcon={<NetworkCheck fontSize="small" />} aria-label={`${gravityTexts.test}: ${name}`} onClick={() => setOpen('test')}>
            {gravityTexts.test}
          </Button>
          <Button size="small" startIcon={<TableRows fontSize="small" />} aria-label={`${gravityTexts.fields}: ${name}`} onClick={() => setOpen('fields')}>
            {gravityTexts.fields}
          </Button>
          <Button size="small" startIcon={<Webhook fontSize="small" />} aria-label={`${gravityTexts.webhook}: ${name}`} onClick={() => setOpen('webhook')}>
            {gravityTexts.webhook}
          </Button>
          <Button
            size="small"
            startIcon={<Sync fontSize="small" />}
            aria-label={`${going ? gravityTexts.syncing : gravityTexts.sync}: ${name}`}
            onClick={() => sync.mutate()}
            disabled={going || sync.isPending || !keys}
          >
            {going ? gravityTexts.syncing : gravityTexts.sync}
          </Button>
        </Box>
      )}
      {/* a click inside a dialog reaches the row through React's tree (portals bubble): it must not open the edit form */}
      <Box component="span" sx={{ display: 'contents' }} onClick={(event) => event.stopPropagation()}>
        <TestDialog form={form} open={open === 'test'} onClose={() => setOpen(null)} />
        {open === 'fields' && <MappingDialog form={form} open onClose={() => setOpen(null)} />}
        <WebhookDialog form={form} open={open === 'webhook'} onClose={() => setOpen(null)} />
      </Box>
    </Box>
  );
}

/** The form's state: keys, webhook, the last pull (a bar while it goes) and what its entries became. */
export function GravityFormState({ form }: { form: ResourceRecord }) {
  const status = useFormStatus(form._id);
  useEntriesLive(form._id);
  const keys = form.consumerKeySet === true && form.consumerSecretSet === true;
  const s = status.data;
  const sync = s?.sync;
  const mapped = Boolean((form.fieldMap as Record<string, string> | undefined)?.phone || (form.fieldMap as Record<string, string> | undefined)?.email);
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start', minWidth: 0 }} data-testid="gravity-form-state">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
        <Chip size="small" variant="outlined" color={keys ? 'success' : 'warning'} icon={keys ? <LockOutlined fontSize="small" /> : undefined} label={keys ? gravityTexts.keysSaved : gravityTexts.keysMissing} />
        <Chip size="small" variant="outlined" color={mapped ? 'default' : 'warning'} label={mapped ? 'Campos asignados' : 'Sin campos asignados'} />
        {s && <Chip size="small" variant="outlined" color={s.webhookSecretSet ? 'default' : 'warning'} label={s.webhookSecretSet ? 'Webhook con secreto' : 'Webhook sin secreto'} />}
      </Box>
      {status.isLoading && <Skeleton width={160} />}
      {status.isError && (
        <Typography variant="caption" color="error">
          No se pudo leer el estado del formulario.
        </Typography>
      )}
      {s && sync && (
        <>
          {syncGoing(sync) ? (
            <Box sx={{ width: '100%', maxWidth: 260 }} role="status" aria-label="Progreso de la sincronización">
              <LinearProgress variant={sync.total ? 'determinate' : 'indeterminate'} value={sync.total ? Math.min(100, (sync.done / sync.total) * 100) : undefined} />
              <Typography variant="caption">
                {formatCount(sync.done)} de {formatCount(sync.total)} entradas
              </Typography>
            </Box>
          ) : sync.status === 'done' || sync.status === 'failed' ? (
            <Typography variant="caption" color="text.secondary">
              Última sincronización: {sync.finishedAt ? formatInstant(sync.finishedAt) : '—'}
              {sync.status === 'done' ? ` · ${formatCount(sync.done)} ${sync.done === 1 ? 'entrada nueva' : 'entradas nuevas'}` : ''}
            </Typography>
          ) : null}
          {sync.error && (
            <Alert severity={syncGoing(sync) ? 'warning' : 'error'} sx={{ py: 0, maxWidth: 360 }}>
              {sync.error}
            </Alert>
          )}
          <Typography variant="caption" color="text.secondary">
            {formatCount(s.entries.created)} {s.entries.created === 1 ? 'lead nuevo' : 'leads nuevos'} · {formatCount(s.entries.merged)} sumadas a leads ·{' '}
            {formatCount(s.entries.rejected)} rechazadas
          </Typography>
        </>
      )}
    </Box>
  );
}

const statusColor: Record<GravityEntryOut['status'], 'success' | 'info' | 'error' | 'default'> = { created: 'success', merged: 'info', rejected: 'error', pending: 'default' };

function EntryRow({ entry }: { entry: GravityEntryOut }) {
  const who = [entry.name, entry.telefono ? `+${entry.telefono}` : undefined, entry.email].filter(Boolean).join(' · ') || 'Sin datos de contacto';
  const search = entry.telefono ?? entry.email ?? entry.leadName ?? '';
  return (
    <Box
      component="li"
      data-testid="gravity-entry"
      sx={{ display: 'grid', gap: 0.5, py: 1.25, borderBottom: 1, borderColor: 'divider', gridTemplateColumns: { xs: '1fr', md: '150px 1fr 220px' }, alignItems: 'start' }}
    >
      <Box>
        <Typography variant="caption" color="text.secondary" component="div">
          {entry.submittedAt ? formatInstant(entry.submittedAt) : formatInstant(entry.receivedAt)}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div">
          {entry.formName} · #{entry.entryId} · {entry.source === 'webhook' ? 'webhook' : 'sincronización'}
        </Typography>
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {who}
        </Typography>
        {entry.message && (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
            {entry.message}
          </Typography>
        )}
        {entry.reason && (
          <Typography variant="caption" color={entry.status === 'rejected' ? 'error' : 'text.secondary'} component="div" sx={{ overflowWrap: 'anywhere' }}>
            {entry.reason}
          </Typography>
        )}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: { md: 'flex-end' } }}>
        <Chip size="small" color={statusColor[entry.status]} label={gravityEntryStatusLabels[entry.status]} />
        {entry.leadId && (
          <Link component={RouterLink} to={`/lead/todos?q=${encodeURIComponent(search)}`} variant="body2">
            Ver lead{entry.leadName ? `: ${entry.leadName}` : ''}
          </Link>
        )}
        {entry.eventId && (
          <Link component={RouterLink} to="/whatsapp/fallidos" variant="body2">
            Reintentar en Eventos fallidos
          </Link>
        )}
      </Box>
    </Box>
  );
}

/** Above the forms: the newest entries of all of them, with the lead each made or why it made none. */
export function GravityEntriesPanel() {
  const { companyId } = useSession();
  const query = useQuery({ queryKey: gravityKeys.entries(companyId), queryFn: ({ signal }) => gravityApi.entries(undefined, signal), refetchInterval: 30_000 });
  // an entry the webhook brings shows as soon as it is settled, not at the next 30 s read
  useEntriesLive();
  const entries = query.data?.payload ?? [];
  return (
    <Box component="section" aria-labelledby="gravity-entries-title" sx={{ mb: 3 }}>
      <Typography id="gravity-entries-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {gravityTexts.entriesTitle}
      </Typography>
      {query.isLoading && <Skeleton variant="rounded" height={120} />}
      {query.isError && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              {gravityTexts.retry}
            </Button>
          }
        >
          {gravityTexts.entriesError}
        </Alert>
      )}
      {query.data && entries.length === 0 && <Alert severity="info">{gravityTexts.entriesEmpty}</Alert>}
      {entries.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, maxHeight: 420, overflow: 'auto', borderTop: 1, borderColor: 'divider' }}>
          {entries.map((e) => (
            <EntryRow key={e._id} entry={e} />
          ))}
        </Box>
      )}
    </Box>
  );
}
