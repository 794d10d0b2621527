import {
  type Channel,
  type ChannelKind,
  type ChannelWebhooks,
  type MetaChannelInput,
  metaChannelInput,
  type PageTestOut,
  normalisePhone,
  type WhatsappChannelInput,
  whatsappChannelInput,
} from '@mostrador/contract';
import ContentCopy from '@mui/icons-material/ContentCopy';
import LinkOff from '@mui/icons-material/LinkOff';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { z } from 'zod';
import { serverFieldErrors, validateBody } from '../../components/crud/validation';
import { ChannelIcon } from '../../components/ui/channel-icon';
import { type ConnectionCheck, ConnectionTestDialog } from '../../components/ui/connection-checks';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api-client';
import { copyText } from '../../lib/feedback';
import { MetaCatalogCard } from './meta-catalog-card';
import { usePermissions } from '../../lib/permissions';
import { currentMembership, useSession } from '../../lib/session';
import { channelsApi } from './api';
import { channelKeys } from '../../lib/query-keys';

const cardTitle = { title: { variant: 'h3', component: 'h2' }, subheader: { component: 'div' } } as const;

type Values = Record<string, string>;
type Errors = Record<string, string>;

/** The typed text as a body: blank fields are left out (an optional id, a token that stays as stored). */
function bodyOf(values: Values): Record<string, string> {
  return Object.fromEntries(Object.entries(values).flatMap(([k, v]) => (v.trim() ? [[k, v.trim()]] : [])));
}

/**
 * A channel form: text values, validated on save by the contract schema the server uses
 * (Spanish messages through the contract's error map), and a 400/409's field details shown
 * under the fields.
 */
function useChannelForm<S extends z.ZodType>(
  schema: S,
  initial: Values,
  save: (data: z.output<S>) => Promise<unknown>,
  prepare: (body: Record<string, string>) => Record<string, string> = (body) => body,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const field = (name: string) => ({
    name,
    value: values[name] ?? '',
    error: !!errors[name],
    helperText: errors[name],
    onChange: (event: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [name]: event.target.value }));
      setErrors(({ [name]: _, ...rest }) => rest);
    },
  });
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const checked = validateBody(schema, prepare(bodyOf(values)), [], {});
    setErrors(checked.errors);
    if (!checked.success) return;
    setPending(true);
    try {
      await save(checked.data as z.output<S>);
      return true;
    } catch (error) {
      if (error instanceof ApiError) setErrors(serverFieldErrors(error.body));
      return false;
    } finally {
      setPending(false);
    }
  };
  return { values, setValues, errors, field, submit, pending };
}

/** The stored token: 'Configurado ····1234' and a button to type a new one, or the field itself. */
function TokenField({
  channel,
  binding,
  replacing,
  onReplace,
  disabled,
}: {
  channel: Channel | undefined;
  binding: ReturnType<ReturnType<typeof useChannelForm>['field']>;
  replacing: boolean;
  onReplace: (on: boolean) => void;
  disabled: boolean;
}) {
  if (channel?.accessTokenSet && !replacing) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', px: 1.5, py: 1, border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Box sx={{ flex: 1, minWidth: 160 }}>
          <Typography variant="caption" color="text.secondary" component="div">
            Token de acceso
          </Typography>
          <Typography data-testid="token-status">Configurado ····{channel.accessTokenLast4 ?? ''}</Typography>
        </Box>
        {!disabled && (
          <Button size="small" onClick={() => onReplace(true)}>
            Reemplazar token
          </Button>
        )}
      </Box>
    );
  }
  return (
    <Box>
      <TextField
        {...binding}
        type="password"
        label={channel?.accessTokenSet ? 'Nuevo token de acceso' : 'Token de acceso'}
        autoComplete="off"
        disabled={disabled}
        helperText={binding.helperText ?? 'El token permanente del usuario del sistema de Meta. Se guarda cifrado y no se vuelve a mostrar.'}
      />
      {channel?.accessTokenSet && (
        <Button size="small" sx={{ mt: 0.5 }} onClick={() => onReplace(false)}>
          Mantener el token guardado
        </Button>
      )}
    </Box>
  );
}

function StatusChip({ connected, label }: { connected: boolean; label?: string }) {
  return <Chip size="small" color={connected ? 'success' : 'default'} variant={connected ? 'filled' : 'outlined'} label={label ?? (connected ? 'Conectado' : 'Sin conectar')} />;
}

/** A card's subtitle with its status chips under it. */
function Subheader({ text, children }: { text: string; children: ReactNode }) {
  return (
    <>
      <Box component="span" sx={{ display: 'block' }}>
        {text}
      </Box>
      <Box component="span" sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 1 }}>
        {children}
      </Box>
    </>
  );
}

interface CardProps {
  channels: Channel[];
  canSave: boolean;
  canDisconnect: boolean;
  onDisconnect: (kinds: ChannelKind[], message: string) => Promise<void>;
  onSaved: () => Promise<void>;
}

function WhatsappCard({ channels, canSave, canDisconnect, onDisconnect, onSaved }: CardProps) {
  const formId = useId();
  const country = currentMembership(useSession())?.company.country;
  const line = channels.find((c) => c.kind === 'whatsapp');
  const [replacing, setReplacing] = useState(false);
  const form = useChannelForm(
    whatsappChannelInput,
    { phoneNumberId: line?.providerId ?? '', businessAccountId: line?.businessAccountId ?? '', displayPhoneNumber: line?.displayPhoneNumber ?? '', accessToken: '' },
    async (data: WhatsappChannelInput) => {
      await channelsApi.saveWhatsapp(data);
      await onSaved();
    },
    // SPEC §5: a number typed with spaces or without its dialling code is normalised with the company's country
    (body) => (body.displayPhoneNumber ? { ...body, displayPhoneNumber: normalisePhone(body.displayPhoneNumber, country) ?? body.displayPhoneNumber } : body),
  );
  return (
    <Card>
      <CardHeader
        avatar={<ChannelIcon platform="whatsapp" decorative />}
        title="WhatsApp Business"
        subheader={
          <Subheader text="La línea de WhatsApp Cloud API de la compañía">
            <StatusChip connected={!!line} />
          </Subheader>
        }
        slotProps={cardTitle}
      />
      <CardContent sx={{ pt: 0 }}>
        <Stack component="form" id={formId} noValidate spacing={2.5} onSubmit={form.submit} aria-label="WhatsApp Business">
          <TextField {...form.field('phoneNumberId')} label="ID del número de teléfono" required disabled={!canSave} helperText={form.errors.phoneNumberId ?? 'Phone number ID, en Meta: WhatsApp › Configuración de la API'} />
          <TextField {...form.field('businessAccountId')} label="ID de la cuenta de WhatsApp" disabled={!canSave} helperText={form.errors.businessAccountId ?? 'WhatsApp Business Account ID (WABA)'} />
          <TextField {...form.field('displayPhoneNumber')} label="Número visible" disabled={!canSave} helperText={form.errors.displayPhoneNumber ?? 'El número que ven los clientes, con código de país: 51987654321'} />
          <TokenField channel={line} binding={form.field('accessToken')} replacing={replacing} onReplace={setReplacing} disabled={!canSave} />
        </Stack>
        <Actions
          formId={formId}
          pending={form.pending}
          canSave={canSave}
          onDisconnect={line && canDisconnect ? () => onDisconnect(['whatsapp'], '¿Desconectar la línea de WhatsApp? Mostrador dejará de recibir y enviar sus mensajes.') : undefined}
        />
      </CardContent>
    </Card>
  );
}

/** Each part of the page's settings after a test: the token, whose page it is, its permissions. */
export function pageChecksOf(result: PageTestOut): ConnectionCheck[] {
  const p = result.ok ? undefined : (result.problem ?? 'facebook');
  const token: ConnectionCheck['state'] = p === 'token' ? 'bad' : p === 'network' || p === 'facebook' ? 'unknown' : 'ok';
  const page: ConnectionCheck['state'] = p === 'page' ? 'bad' : p === 'token' || p === 'network' || p === 'facebook' ? 'unknown' : 'ok';
  const permissions: ConnectionCheck['state'] = p === 'permissions' ? 'bad' : p ? 'unknown' : 'ok';
  return [
    { label: 'Token de acceso', state: token, detail: token === 'ok' ? 'Facebook lo acepta' : token === 'bad' ? 'Venció o no es válido' : 'Sin probar' },
    { label: 'Página', state: page, detail: page === 'ok' ? `Es el token de «${result.page?.name ?? ''}»` : page === 'bad' ? 'El token es de otra página o de un usuario' : 'Sin probar' },
    { label: 'Permisos', state: permissions, detail: permissions === 'ok' ? 'Puede leer y responder los mensajes' : permissions === 'bad' ? 'Le faltan pages_messaging y pages_manage_metadata' : 'Sin probar' },
  ];
}

function MetaCard({ channels, canSave, canDisconnect, onDisconnect, onSaved }: CardProps) {
  const formId = useId();
  const page = channels.find((c) => c.kind === 'messenger');
  const instagram = channels.find((c) => c.kind === 'instagram');
  const [replacing, setReplacing] = useState(false);
  const [testing, setTesting] = useState(false);
  const { can } = usePermissions();
  const form = useChannelForm(
    metaChannelInput,
    { pageId: page?.providerId ?? '', pageName: page?.name ?? '', instagramAccountId: instagram?.providerId ?? '', accessToken: '' },
    async (data: MetaChannelInput) => {
      // a cleared Instagram id disconnects the account that was linked
      await channelsApi.saveMeta({ ...data, ...(instagram && !data.instagramAccountId ? { instagramAccountId: null } : {}) });
      await onSaved();
    },
  );
  const kinds: ChannelKind[] = [...(page ? (['messenger'] as const) : []), ...(instagram ? (['instagram'] as const) : [])];
  return (
    <Card>
      <CardHeader
        avatar={<ChannelIcon platform="facebook" decorative />}
        title="Messenger e Instagram"
        subheader={
          <Subheader text="La página de Facebook y la cuenta de Instagram vinculada">
            <StatusChip connected={!!page} label={page ? 'Messenger conectado' : 'Sin conectar'} />
            {instagram && <Chip size="small" color="success" icon={<ChannelIcon platform="instagram" decorative />} label="Instagram conectado" />}
          </Subheader>
        }
        slotProps={cardTitle}
      />
      <CardContent sx={{ pt: 0 }}>
        <Stack component="form" id={formId} noValidate spacing={2.5} onSubmit={form.submit} aria-label="Messenger e Instagram">
          <TextField {...form.field('pageId')} label="ID de la página de Facebook" required disabled={!canSave} />
          <TextField {...form.field('pageName')} label="Nombre de la página" disabled={!canSave} />
          <TextField
            {...form.field('instagramAccountId')}
            label="ID de la cuenta de Instagram"
            disabled={!canSave}
            helperText={form.errors.instagramAccountId ?? 'La cuenta profesional vinculada a la página. Déjalo vacío para no usar Instagram.'}
          />
          <TokenField channel={page} binding={form.field('accessToken')} replacing={replacing} onReplace={setReplacing} disabled={!canSave} />
        </Stack>
        <Actions
          formId={formId}
          pending={form.pending}
          canSave={canSave}
          onTest={page?.accessTokenSet && can('integrations', 'read') ? () => setTesting(true) : undefined}
          onDisconnect={
            kinds.length && canDisconnect
              ? () => onDisconnect(kinds, '¿Desconectar la página y su cuenta de Instagram? Mostrador dejará de recibir y enviar sus mensajes.')
              : undefined
          }
        />
        {page && (
          <ConnectionTestDialog
            name={page.name ?? page.providerId}
            open={testing}
            onClose={() => setTesting(false)}
            run={channelsApi.testMeta}
            pendingText="Probando el token de la página con Facebook…"
            testId="page-test-result"
            checksOf={pageChecksOf}
          >
            {(result) => !result.ok && result.problem !== 'network' && result.problem !== 'facebook' && <Typography variant="body2">Pega el token correcto en «Token de acceso», guarda y vuelve a probar.</Typography>}
          </ConnectionTestDialog>
        )}
      </CardContent>
    </Card>
  );
}

function Actions({ formId, pending, canSave, onTest, onDisconnect }: { formId: string; pending: boolean; canSave: boolean; onTest?: () => void; onDisconnect?: () => void }) {
  if (!canSave && !onDisconnect && !onTest) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 3, flexWrap: 'wrap' }}>
      {onTest && (
        <Button startIcon={<NetworkCheck />} onClick={onTest}>
          Probar conexión
        </Button>
      )}
      {onDisconnect && (
        <Button color="error" startIcon={<LinkOff />} onClick={onDisconnect}>
          Desconectar
        </Button>
      )}
      {canSave && (
        <Button type="submit" form={formId} variant="contained" disabled={pending}>
          Guardar
        </Button>
      )}
    </Box>
  );
}

function CopyRow({ label, value }: { label: string; value: string }) {
  const copy = () => copyText(value, 'Copiado');
  return (
    <TextField
      label={label}
      value={value}
      slotProps={{
        htmlInput: { readOnly: true },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title="Copiar">
                <IconButton aria-label={`Copiar ${label}`} onClick={copy} edge="end" size="small">
                  <ContentCopy fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

function WebhooksCard({ webhooks }: { webhooks: ChannelWebhooks | undefined }) {
  if (!webhooks) return null;
  let verifyNote: ReactNode;
  if (!webhooks.configured) {
    verifyNote = (
      <Alert severity="warning">
        El servidor no tiene <code>WEBHOOK_VERIFY_TOKEN</code> ni <code>META_APP_SECRET</code>: Meta no podrá verificar los webhooks hasta que
        el administrador del servidor los configure.
      </Alert>
    );
  } else if (webhooks.demoVerifyToken) {
    verifyNote = (
      <Alert severity="info">
        Token de verificación: en esta instalación de prueba es <strong>{webhooks.demoVerifyToken}</strong>. En producción es el valor de{' '}
        <code>WEBHOOK_VERIFY_TOKEN</code> del servidor.
      </Alert>
    );
  } else {
    verifyNote = (
      <Alert severity="info">
        Token de verificación: el valor de <code>WEBHOOK_VERIFY_TOKEN</code> del servidor (pídelo a quien lo administra; no se muestra aquí).
      </Alert>
    );
  }
  return (
    <Card sx={{ gridColumn: '1 / -1' }}>
      <CardHeader title="Webhooks en Meta" subheader="Pega estas direcciones en la configuración de webhooks de tu app de Meta" slotProps={cardTitle} />
      <CardContent sx={{ pt: 0 }}>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <CopyRow label="URL de devolución de llamada de WhatsApp" value={webhooks.whatsappUrl} />
          <CopyRow label="URL de devolución de llamada de Messenger e Instagram" value={webhooks.metaUrl} />
        </Box>
        <Stack spacing={1.5} sx={{ mt: 2.5 }}>
          {verifyNote}
          <Typography variant="body2" color="text.secondary">
            Suscribe el campo <strong>messages</strong> en WhatsApp y <strong>messages</strong>, <strong>message_deliveries</strong> en
            Messenger e Instagram. Meta firma cada evento con el secreto de la app (<code>META_APP_SECRET</code>).
          </Typography>
        </Stack>
      </CardContent>
    </Card>
  );
}

/**
 * /whatsapp (SPEC §2, issue 4): the company's WhatsApp line and its Messenger page with the
 * linked Instagram account — save, replace the token, disconnect — and what to paste in Meta.
 */
export function WhatsappPage() {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const permissions = usePermissions();
  const query = useQuery({ queryKey: channelKeys.list(companyId), queryFn: channelsApi.list });
  const refresh = () => queryClient.invalidateQueries({ queryKey: channelKeys.all });
  const disconnect = useMutation({
    mutationFn: async (kinds: ChannelKind[]) => {
      for (const kind of kinds) await channelsApi.disconnect(kind);
    },
    onSettled: refresh,
  });
  const onDisconnect = async (kinds: ChannelKind[], message: string) => {
    if (!(await confirm({ message }))) return;
    await disconnect.mutateAsync(kinds).catch(() => undefined);
  };
  const channels = query.data?.payload ?? [];
  // a form starts from what is stored: a new key re-creates it after a save or a disconnect
  const stamp = (kinds: ChannelKind[]) => kinds.map((k) => channels.find((c) => c.kind === k)?.updatedAt ?? '-').join('|');
  const cardProps = {
    channels,
    canSave: permissions.can('integrations', 'update'),
    canDisconnect: permissions.can('integrations', 'delete'),
    onDisconnect,
    onSaved: refresh,
  };

  return (
    <>
      <PageHeader
        title="WhatsApp"
        subtitle="Los canales de mensajería de la compañía: WhatsApp, Messenger e Instagram"
        actions={
          cardProps.canSave && (
            <Button component={RouterLink} to="/whatsapp/fallidos" startIcon={<ReportProblemOutlined />}>
              Eventos fallidos
            </Button>
          )
        }
      />
      {query.isLoading ? (
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
          <Skeleton variant="rounded" height={360} />
          <Skeleton variant="rounded" height={360} />
        </Box>
      ) : query.isError ? (
        <Alert severity="error" action={<Button onClick={() => query.refetch()}>Reintentar</Button>}>
          No se pudieron cargar los canales.
        </Alert>
      ) : (
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, alignItems: 'start' }}>
          <WhatsappCard key={`wa-${companyId}-${stamp(['whatsapp'])}`} {...cardProps} />
          <MetaCard key={`meta-${companyId}-${stamp(['messenger', 'instagram'])}`} {...cardProps} />
          <MetaCatalogCard key={`catalog-${companyId}-${stamp(['whatsapp'])}`} />
          <WebhooksCard webhooks={query.data?.webhooks} />
        </Box>
      )}
    </>
  );
}

export default WhatsappPage;
