import {
  type Action,
  actionLabels,
  actionsOf,
  type ApiKeyCreated,
  type ApiKeyOut,
  apiKeyIn,
  apiKeyModules,
  type Module,
  modules,
  permissionsByModule,
} from '@mostrador/contract';
import Add from '@mui/icons-material/Add';
import Key from '@mui/icons-material/Key';
import MenuBook from '@mui/icons-material/MenuBook';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { PageHeader } from '../../components/ui/page-header';
import { SecretOnceDialog } from '../../components/ui/secret-once-dialog';
import { usePermissions } from '../../lib/permissions';
import { apiKeyKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { fieldErrorsOf } from '../../lib/use-schema-form';
import { fullDateTime, relativeTime } from '../../lib/time';
import { apiKeysApi } from './api';

export const apiKeyTexts = {
  title: 'Claves de API',
  subtitle:
    'Tu ERP, tu tienda, Zapier o tu herramienta de reportes trabajan con Mostrador con una clave de esta compañía, sin la sesión de una persona. Cada clave hace solo lo que le permitas.',
  docs: 'Documentación de la API',
  create: 'Nueva clave',
  empty: 'Todavía no hay claves de API. Crea una para que otro sistema lea o escriba en Mostrador.',
  loadError: 'No se pudieron cargar las claves de API.',
  retry: 'Reintentar',
  active: 'Activa',
  expired: 'Vencida',
  createdBy: (when: string, who: string | undefined) => (who ? `Creada ${when} por ${who}` : `Creada ${when}`),
  lastUsed: (when: string) => `Último uso: ${when}`,
  neverUsed: 'Nunca usada',
  expires: (when: string) => `Vence: ${when}`,
  noExpiry: 'Sin vencimiento',
  revoke: 'Revocar',
  revokeTitle: 'Revocar clave',
  revokeMessage: (name: string) =>
    `La clave «${name}» deja de funcionar de inmediato: lo que la use recibirá un error desde su próxima llamada. No se puede deshacer.`,
  form: {
    title: 'Nueva clave de API',
    name: 'Nombre',
    nameHelp: 'Para reconocerla: el sistema que la usará («ERP», «Zapier»)',
    expiresAt: 'Vence el (opcional)',
    expiresHelp: 'Vacío: funciona hasta que la revoques',
    permissions: 'Qué puede hacer',
    permissionsHelp: 'Solo los permisos que tú tienes en esta compañía. Una clave nunca administra usuarios, roles, compañías ni otras claves.',
    readOnly: 'Solo lectura',
    everything: 'Todo lo que puedo',
    none: 'Ninguno',
    all: 'Todo',
    cancel: 'Cancelar',
    submit: 'Crear clave',
    submitting: 'Creando…',
  },
  secret: {
    title: 'Tu nueva clave de API',
    example: 'Úsala así (no hace falta el encabezado X-Company-Id):',
  },
} as const;

const readActions: readonly Action[] = ['list', 'read'];

/** A key's permissions as lines a person reads: «Leads y contactos: Listar, Ver». */
function PermissionChips({ permissions }: { permissions: string[] }) {
  return (
    <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap' }}>
      {permissionsByModule(permissions).map((m) => (
        <Chip key={m.module} size="small" variant="outlined" label={`${m.label}: ${m.actions.map((a) => actionLabels[a]).join(', ')}`}
          sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
        />
      ))}
    </Box>
  );
}

function KeyCard({ apiKey, canRevoke }: { apiKey: ApiKeyOut; canRevoke: boolean }) {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  const confirm = useConfirm();
  const revoke = useMutation({
    mutationFn: () => apiKeysApi.revoke(apiKey._id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(companyId) }),
  });
  const ask = async () => {
    const yes = await confirm({ title: apiKeyTexts.revokeTitle, message: apiKeyTexts.revokeMessage(apiKey.name), acceptLabel: apiKeyTexts.revoke, destructive: true });
    if (yes) revoke.mutate();
  };
  const expired = apiKey.status === 'expired';
  return (
    <Card variant="outlined" data-testid="api-key" sx={{ opacity: expired ? 0.8 : 1 }}>
      <CardContent sx={{ display: 'grid', gap: 1, '&:last-child': { pb: 2 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Key fontSize="small" color={expired ? 'disabled' : 'primary'} aria-hidden />
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {apiKey.name}
          </Typography>
          <Chip size="small" color={expired ? 'default' : 'success'} label={expired ? apiKeyTexts.expired : apiKeyTexts.active} />
          <Typography variant="body2" component="code" sx={{ fontFamily: 'monospace', color: 'text.secondary', ml: { sm: 'auto' } }}>
            {apiKey.prefix}…
          </Typography>
        </Box>
        <PermissionChips permissions={apiKey.permissions} />
        <Box sx={{ display: 'flex', gap: { xs: 0.25, sm: 2 }, flexWrap: 'wrap', flexDirection: { xs: 'column', sm: 'row' } }}>
          <Typography variant="caption" color="text.secondary" title={fullDateTime(apiKey.createdAt)}>
            {apiKeyTexts.createdBy(relativeTime(apiKey.createdAt), apiKey.createdBy?.name)}
          </Typography>
          <Typography variant="caption" color="text.secondary" title={apiKey.lastUsedAt ? fullDateTime(apiKey.lastUsedAt) : undefined}>
            {apiKey.lastUsedAt ? apiKeyTexts.lastUsed(relativeTime(apiKey.lastUsedAt)) : apiKeyTexts.neverUsed}
          </Typography>
          <Typography variant="caption" color={expired ? 'error' : 'text.secondary'}>
            {apiKey.expiresAt ? apiKeyTexts.expires(fullDateTime(apiKey.expiresAt)) : apiKeyTexts.noExpiry}
          </Typography>
        </Box>
        {canRevoke && (
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button size="small" color="error" onClick={ask} disabled={revoke.isPending}>
              {apiKeyTexts.revoke}
            </Button>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/** The last moment of a picked day, in the browser's zone, as the ISO time the server takes. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();

function CreateKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (key: ApiKeyCreated) => void }) {
  const { can } = usePermissions();
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  const formId = useId();
  const grantable = useMemo(
    () => apiKeyModules.map((module) => ({ module, actions: actionsOf(module).filter((a) => can(module, a)) })).filter((m) => m.actions.length > 0),
    [can],
  );
  const [name, setName] = useState('');
  const [day, setDay] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const create = useMutation({ mutationFn: apiKeysApi.create, onSuccess: onCreated });

  const input = () => ({ name, permissions: [...chosen], ...(day ? { expiresAt: endOfDay(day) } : {}) });
  const check = (next = input()) => {
    const result = apiKeyIn.safeParse(next);
    const found = result.success ? {} : fieldErrorsOf(result.error.issues);
    setErrors(found);
    return result.success;
  };
  const setAll = (list: string[]) => {
    const next = new Set(list);
    setChosen(next);
    if (submitted) check({ ...input(), permissions: [...next] });
  };
  const toggle = (permission: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(permission);
    else next.delete(permission);
    setAll([...next]);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (check()) create.mutate(input());
  };
  const reset = () => {
    setName('');
    setDay('');
    setChosen(new Set());
    setErrors({});
    setSubmitted(false);
    create.reset();
  };
  const permissionError = errors.permissions ?? Object.entries(errors).find(([k]) => k.startsWith('permissions.'))?.[1];

  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth slotProps={{ transition: { onExited: reset } }}>
      <DialogTitle id={`${formId}-title`}>{apiKeyTexts.form.title}</DialogTitle>
      <DialogContent>
        <Box component="form" id={formId} onSubmit={submit} noValidate aria-labelledby={`${formId}-title`} sx={{ display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr' }, pt: 1 }}>
            <TextField
              label={apiKeyTexts.form.name}
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                if (submitted) check({ ...input(), name: e.target.value });
              }}
              error={!!errors.name}
              helperText={errors.name ?? apiKeyTexts.form.nameHelp}
              autoFocus
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
            <TextField
              label={apiKeyTexts.form.expiresAt}
              type="date"
              value={day}
              onChange={(e) => {
                setDay(e.target.value);
                if (submitted) check({ ...input(), ...(e.target.value ? { expiresAt: endOfDay(e.target.value) } : { expiresAt: undefined }) });
              }}
              error={!!errors.expiresAt}
              helperText={errors.expiresAt ?? apiKeyTexts.form.expiresHelp}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Box>
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 0.5 }}>
              <Typography component="legend" variant="subtitle2" sx={{ flex: 1 }}>
                {apiKeyTexts.form.permissions}
              </Typography>
              <Button size="small" onClick={() => setAll(grantable.flatMap((m) => m.actions.filter((a) => readActions.includes(a)).map((a) => `${m.module}.${a}`)))}>
                {apiKeyTexts.form.readOnly}
              </Button>
              <Button size="small" onClick={() => setAll(grantable.flatMap((m) => m.actions.map((a) => `${m.module}.${a}`)))}>
                {apiKeyTexts.form.everything}
              </Button>
              <Button size="small" onClick={() => setAll([])}>
                {apiKeyTexts.form.none}
              </Button>
            </Box>
            <FormHelperText sx={{ mt: 0, mb: 1 }}>{apiKeyTexts.form.permissionsHelp}</FormHelperText>
            {permissionError && (
              <Alert severity="error" sx={{ mb: 1 }}>
                {permissionError}
              </Alert>
            )}
            <Stack divider={<Box sx={{ borderTop: 1, borderColor: 'divider' }} />} sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
              {grantable.map(({ module, actions }) => (
                <ModuleRow key={module} module={module} actions={actions} chosen={chosen} onToggle={toggle} onSet={setAll} />
              ))}
            </Stack>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{apiKeyTexts.form.cancel}</Button>
        <Button type="submit" form={formId} variant="contained" disabled={create.isPending}>
          {create.isPending ? apiKeyTexts.form.submitting : apiKeyTexts.form.submit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function ModuleRow({
  module,
  actions,
  chosen,
  onToggle,
  onSet,
}: {
  module: Module;
  actions: Action[];
  chosen: Set<string>;
  onToggle: (permission: string, on: boolean) => void;
  onSet: (list: string[]) => void;
}) {
  const own = actions.map((a) => `${module}.${a}`);
  const held = own.filter((p) => chosen.has(p)).length;
  const label = modules[module].label;
  return (
    <Box sx={{ display: 'flex', alignItems: { xs: 'flex-start', sm: 'center' }, gap: { xs: 0, sm: 1 }, px: 1.5, py: 0.5, flexDirection: { xs: 'column', sm: 'row' } }}>
      <FormControlLabel
        sx={{ minWidth: 220, mr: 0 }}
        control={
          <Checkbox
            size="small"
            checked={held === own.length}
            indeterminate={held > 0 && held < own.length}
            onChange={(e) => onSet(e.target.checked ? [...new Set([...chosen, ...own])] : [...chosen].filter((p) => !own.includes(p)))}
            slotProps={{ input: { 'aria-label': `${label}: ${apiKeyTexts.form.all}` } }}
          />
        }
        label={<Typography variant="body2" sx={{ fontWeight: 600 }}>{label}</Typography>}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, pl: { xs: 3, sm: 0 } }}>
        {actions.map((action) => (
          <FormControlLabel
            key={action}
            control={
              <Checkbox
                size="small"
                checked={chosen.has(`${module}.${action}`)}
                onChange={(e) => onToggle(`${module}.${action}`, e.target.checked)}
                slotProps={{ input: { 'aria-label': `${label}: ${actionLabels[action]}` } }}
              />
            }
            label={<Typography variant="body2">{actionLabels[action]}</Typography>}
          />
        ))}
      </Box>
    </Box>
  );
}

/**
 * /configuracion/api (issue 28, decision 0071): the company's API keys. A key is made with a
 * name, what it may do (only what its maker may) and an optional expiry; its secret is shown
 * once, then only its prefix, creator and last use; «Revocar» stops it on its next call.
 */
export function ApiKeysPage() {
  const { companyId } = useSession();
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: apiKeyKeys.list(companyId), queryFn: apiKeysApi.list });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const keys = query.data?.payload ?? [];
  return (
    <>
      <PageHeader
        title={apiKeyTexts.title}
        subtitle={apiKeyTexts.subtitle}
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button href="/api/docs" target="_blank" rel="noopener" startIcon={<MenuBook />}>
              {apiKeyTexts.docs}
            </Button>
            {can('api', 'create') && (
              <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
                {apiKeyTexts.create}
              </Button>
            )}
          </Box>
        }
      />
      {query.isLoading ? (
        <Stack spacing={2}>
          <Skeleton variant="rounded" height={120} />
          <Skeleton variant="rounded" height={120} />
        </Stack>
      ) : query.isError ? (
        <Alert severity="error" action={<Button onClick={() => query.refetch()}>{apiKeyTexts.retry}</Button>}>
          {apiKeyTexts.loadError}
        </Alert>
      ) : keys.length === 0 ? (
        <Alert severity="info">{apiKeyTexts.empty}</Alert>
      ) : (
        <Stack spacing={2} sx={{ maxWidth: 960 }}>
          {keys.map((apiKey) => (
            <KeyCard key={apiKey._id} apiKey={apiKey} canRevoke={can('api', 'delete')} />
          ))}
        </Stack>
      )}
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
          queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(companyId) });
        }}
      />
      <SecretOnceDialog
        open={!!created}
        title={apiKeyTexts.secret.title}
        label={created?.name ?? ''}
        secret={created?.key ?? ''}
        usage={apiKeyTexts.secret.example}
        example={created ? `curl -H "Authorization: Bearer ${created.key}" ${window.location.origin}/api/leads` : ''}
        onClose={() => setCreated(null)}
      />
    </>
  );
}

export default ApiKeysPage;
