import { massSendMessages, type MassAudience, type MassMessage, type SendCheckInput, type SendOut, sendStatusLabels, templateCategoryLabels, templateLeadFields, templateLanguageLabels } from '@mostrador/contract';
import HistoryIcon from '@mui/icons-material/History';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useRefOptions } from '../../components/crud/use-resource';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { PageHeader } from '../../components/ui/page-header';
import { WhatsappTemplatePreview } from '../../components/ui/whatsapp-template-preview';
import { ApiError } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { currentMembership, fullName, useSession } from '../../lib/session';
import { useApprovedTemplates, useImaginaTemplates, useMassSend, useSegmentsWithSize, useSendCheck, useSendProgress } from './api';
import { ImaginaPreview } from './imagina-preview';
import { SendCheckPanel, formatAmount, formatCount, people } from './send-check-panel';

export const HISTORY_PATH = '/marketing/historial_mensajes_masivos';

type AudienceKind = 'segment' | 'labels';
type MessageKind = 'text' | 'whatsapp' | 'imagina';

/** A 400's field details, by the form's three parts; the rest is one message. */
type FormErrors = Partial<Record<'name' | 'audience' | 'message' | 'form', string>>;

function errorsOf(error: unknown): FormErrors {
  if (!(error instanceof ApiError)) return { form: 'No se pudo enviar: revisa tu conexión e inténtalo de nuevo' };
  const out: FormErrors = {};
  const details = (error.body as { errors?: { details?: Array<{ path?: string; msg?: string }> } } | null)?.errors?.details;
  for (const d of Array.isArray(details) ? details : []) {
    if (typeof d?.msg !== 'string') continue;
    const path = String(d.path ?? '').replace(/^body[./]/, '');
    const part = path.startsWith('name') ? 'name' : path.startsWith('audience') ? 'audience' : path.startsWith('message') ? 'message' : 'form';
    out[part] ??= d.msg;
  }
  if (Object.keys(out).length === 0) out.form = error.message;
  return out;
}

const SECTION_SX = { display: 'grid', gap: 1.5, minWidth: 0 } as const;

function Section({ title, children, hint }: { title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, ...SECTION_SX }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, p: 0, mb: 0.5 }}>
        {title}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: -0.5 }}>
          {hint}
        </Typography>
      )}
      {children}
    </Box>
  );
}

/** The send as it goes: its state, a bar of what is done and the funnel of counts, live from `send.progress`. */
export function SendProgress({ send: initial, onNew }: { send: SendOut; onNew: () => void }) {
  const progress = useSendProgress(initial._id, initial);
  const send = progress.data ?? initial;
  const c = send.counts;
  const done = c.total - c.queued - c.sending;
  const value = c.total > 0 ? Math.round((done / c.total) * 100) : 0;
  const moving = send.status === 'pending' || send.status === 'processing';
  const card = useRef<HTMLElement | null>(null);
  // the button was at the bottom of the form: the progress shows where it is
  useEffect(() => card.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' }), []);
  const counts = [
    { key: 'sent', label: 'Enviados', value: c.sent + c.delivered + c.read },
    { key: 'delivered', label: 'Entregados', value: c.delivered + c.read },
    { key: 'read', label: 'Leídos', value: c.read },
    { key: 'failed', label: 'Fallidos', value: c.failed },
    { key: 'skipped', label: 'Omitidos', value: c.skipped },
    { key: 'queued', label: 'En cola', value: c.queued + c.sending },
  ];
  return (
    <Card component="section" ref={card} aria-label="Avance del envío" sx={{ scrollMarginTop: 80, p: 2, mb: 2, display: 'grid', gap: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {send.name ?? 'Envío masivo'}
        </Typography>
        <Chip size="small" data-testid="send-status" color={send.status === 'sent' ? 'success' : send.status === 'error' ? 'error' : moving ? 'info' : 'default'} label={sendStatusLabels[send.status]} />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <LinearProgress variant={c.total > 0 ? 'determinate' : 'indeterminate'} value={value} aria-label="Progreso del envío" sx={{ flex: 1, height: 8, borderRadius: 4 }} />
        <Typography variant="caption" color="text.secondary" sx={{ minWidth: 80, textAlign: 'right' }} data-testid="send-done">
          {c.total > 0 ? `${formatCount(done)} de ${formatCount(c.total)}` : 'Preparando…'}
        </Typography>
      </Box>
      <Box component="dl" aria-label="Cuentas del envío" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 1.5, sm: 2.5 }, m: 0 }}>
        {counts.map((k) => (
          <Box key={k.key} sx={{ minWidth: 64 }}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {k.label}
            </Typography>
            <Typography component="dd" variant="subtitle2" sx={{ m: 0 }} color={k.key === 'failed' && k.value ? 'error' : 'text.primary'} data-testid={`send-count-${k.key}`}>
              {formatCount(k.value)}
            </Typography>
          </Box>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button component={RouterLink} to={HISTORY_PATH} startIcon={<HistoryIcon />} variant="outlined">
          Ver en el historial
        </Button>
        <Button onClick={onNew}>Nuevo envío</Button>
      </Box>
    </Card>
  );
}

/**
 * /marketing/massive-messages (issue 13, decision 0043): a send to a segment or to people with
 * some Mostrador labels — a free text, an approved WhatsApp template or an Imagina template —
 * with the pre-send check live as the form changes, a confirmation that restates who and how
 * much, and the send's progress.
 */
export function MassiveMessagesPage() {
  const [params] = useSearchParams();
  const session = useSession();
  const membership = currentMembership(session);
  const permissions = usePermissions();
  const mayNotSend = permissions.ready && !permissions.can('marketing', 'create');
  const confirm = useConfirm();

  const [name, setName] = useState('');
  const [audienceKind, setAudienceKind] = useState<AudienceKind>(params.get('labels') ? 'labels' : 'segment');
  const [segmentId, setSegmentId] = useState(params.get('segment') ?? '');
  const [labelIds, setLabelIds] = useState<string[]>([]);
  const [messageKind, setMessageKind] = useState<MessageKind>(params.get('imagina') ? 'imagina' : 'whatsapp');
  const [text, setText] = useState('');
  const [whatsappTemplateId, setWhatsappTemplateId] = useState('');
  const [imaginaTemplateId, setImaginaTemplateId] = useState(params.get('imagina') ?? '');
  const [errors, setErrors] = useState<FormErrors>({});
  const [sent, setSent] = useState<SendOut | undefined>();

  const segments = useSegmentsWithSize();
  const labels = useRefOptions(['mostrador-labels']);
  const templates = useApprovedTemplates();
  const imagina = useImaginaTemplates();
  const approvedTemplates = templates.data?.payload.filter((t) => t.status === 'APPROVED') ?? [];
  const approvedImagina = (imagina.data?.payload ?? []).filter((t) => t.status === 'approved');
  const chosenTemplate = approvedTemplates.find((t) => t._id === whatsappTemplateId);
  const chosenImagina = approvedImagina.find((t) => t._id === imaginaTemplateId);
  // a preselected Imagina template (?imagina=) that cannot be sent says why
  const askedImagina = (imagina.data?.payload ?? []).find((t) => t._id === imaginaTemplateId);

  const audience: MassAudience | null = audienceKind === 'segment' ? (segmentId ? { segmentId } : null) : labelIds.length ? { mostradorLabelIds: labelIds } : null;
  const message: MassMessage | null =
    messageKind === 'text' ? (text.trim() ? { text: text.trim() } : null) : messageKind === 'whatsapp' ? (chosenTemplate ? { whatsappTemplateId } : null) : chosenImagina ? { imaginaTemplateId } : null;
  // the same input object while the form says the same (the check's key and the settle timer follow it)
  const checkKey = JSON.stringify(audience && message ? { audience, message } : null);
  const checkInput = useMemo(() => JSON.parse(checkKey) as SendCheckInput | null, [checkKey]);
  const check = useSendCheck(checkInput);
  const current = checkInput ? check.data : undefined;
  const checkError = checkInput && check.isError ? (check.error instanceof ApiError ? check.error.message : 'No se pudo revisar el envío') : undefined;
  const send = useMassSend();

  const audienceName =
    audienceKind === 'segment'
      ? `del segmento «${segments.options.find((o) => o._id === segmentId)?.name ?? ''}»`
      : `con ${labelIds.length === 1 ? 'la etiqueta' : 'alguna de las etiquetas'} ${labelIds.map((id) => `«${labels.options.find((o) => o.id === id)?.label ?? id}»`).join(', ')}`;

  const ready = !!checkInput && !!current && !check.stale && !check.isFetching && !checkError;
  const blocked = !!current?.blocking;
  const nobody = !!current && current.queued === 0;
  const canSend = ready && !blocked && !nobody && !send.isPending && !mayNotSend;

  const clearError = (part: keyof FormErrors) => setErrors((e) => (e[part] || e.form ? { ...e, [part]: undefined, form: undefined } : e));

  const submit = async () => {
    if (!name.trim()) {
      setErrors((e) => ({ ...e, name: 'Ponle un nombre al envío' }));
      return;
    }
    if (!checkInput || !current) return;
    const skipped = current.audience - current.queued;
    const ok = await confirm({
      title: 'Enviar mensaje masivo',
      message: (
        <>
          <Typography sx={{ mb: 1 }}>{`«${name.trim()}» se enviará a ${people(current.queued)} ${audienceName}.`}</Typography>
          {skipped > 0 && <Typography sx={{ mb: 1 }}>{`${people(skipped)} ${skipped === 1 ? 'queda' : 'quedan'} fuera por las razones de la revisión previa.`}</Typography>}
          <Typography sx={{ mb: 1 }}>{`Costo estimado: ${formatAmount(current.cost.total, current.cost.currency)}${current.cost.total === 0 ? ' (sin costo)' : ''}.`}</Typography>
          {current.dailyLimit.over > 0 && <Alert severity="warning">{`${massSendMessages.overLimit(current.dailyLimit.over)}.`}</Alert>}
        </>
      ),
      acceptLabel: 'Enviar',
    });
    if (!ok) return;
    setErrors({});
    try {
      const out = await send.mutateAsync({ name: name.trim(), ...checkInput });
      setSent(out.send);
    } catch (error) {
      setErrors(errorsOf(error));
    }
  };

  const companyValues = { empresa: membership?.company.name, agente: session.user ? fullName(session.user) : undefined };

  return (
    <>
      <PageHeader
        title="Mensajes masivos"
        subtitle="Escribe a un segmento o a quienes tienen ciertas etiquetas: antes de enviar ves a quién le llega, a quién no y por qué, y cuánto cuesta"
        actions={
          <Button component={RouterLink} to={HISTORY_PATH} startIcon={<HistoryIcon />}>
            Historial
          </Button>
        }
      />
      {sent && <SendProgress key={sent._id} send={sent} onNew={() => setSent(undefined)} />}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }, alignItems: 'start' }}>
        <Card component="form" aria-label="Mensaje masivo" noValidate onSubmit={(e) => { e.preventDefault(); void submit(); }} sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 3, minWidth: 0 }}>
          <TextField
            label="Nombre del envío"
            value={name}
            required
            onChange={(e) => {
              setName(e.target.value);
              clearError('name');
            }}
            error={!!errors.name}
            helperText={errors.name ?? 'Para reconocerlo en el historial, como «Promo fin de mes»'}
            slotProps={{ htmlInput: { maxLength: 200 } }}
            fullWidth
          />

          <Section title="¿A quién?">
            <RadioGroup row aria-label="Audiencia" value={audienceKind} onChange={(e) => { setAudienceKind(e.target.value as AudienceKind); clearError('audience'); }}>
              <FormControlLabel value="segment" control={<Radio />} label="Un segmento" />
              <FormControlLabel value="labels" control={<Radio />} label="Etiquetas Mostrador" />
            </RadioGroup>
            {audienceKind === 'segment' ? (
              !segments.loading && segments.options.length === 0 ? (
                <Alert severity="info">
                  Aún no hay segmentos.{' '}
                  <Link component={RouterLink} to="/marketing/segmentos">
                    Crea uno en Segmentos
                  </Link>{' '}
                  o elige por etiquetas.
                </Alert>
              ) : (
                <TextField
                  select
                  label="Segmento"
                  value={segments.options.some((o) => o._id === segmentId) ? segmentId : ''}
                  slotProps={{ select: { renderValue: (v) => segments.options.find((o) => o._id === v)?.name ?? '' } }}
                  onChange={(e) => { setSegmentId(e.target.value); clearError('audience'); }}
                  error={!!errors.audience}
                  helperText={errors.audience ?? (segmentId && current && !check.stale ? `${people(current.audience)} en este segmento ahora` : 'Las personas que cumplen sus filtros en el momento del envío')}
                  fullWidth
                >
                  {segments.options.map((o) => (
                    <MenuItem key={o._id} value={o._id} sx={{ display: 'flex', gap: 2, justifyContent: 'space-between' }}>
                      <span>{o.name}</span>
                      <Typography component="span" variant="body2" color="text.secondary">
                        {o.size === undefined ? '' : people(o.size)}
                      </Typography>
                    </MenuItem>
                  ))}
                </TextField>
              )
            ) : !labels.loading && labels.options.length === 0 ? (
              <Alert severity="info">
                Aún no hay etiquetas Mostrador.{' '}
                <Link component={RouterLink} to="/etiquetas-mostrador">
                  Créalas en Etiquetas Mostrador
                </Link>
                .
              </Alert>
            ) : (
              <Autocomplete
                multiple
                options={labels.options.map((o) => o.id)}
                value={labelIds}
                onChange={(_, value) => { setLabelIds(value); clearError('audience'); }}
                getOptionLabel={(id) => labels.options.find((o) => o.id === id)?.label ?? id}
                noOptionsText="Sin etiquetas"
                renderValue={(value, getItemProps) => value.map((id, index) => <Chip size="small" label={labels.options.find((o) => o.id === id)?.label ?? id} {...getItemProps({ index })} key={id} />)}
                renderInput={(inputParams) => (
                  <TextField
                    {...inputParams}
                    label="Etiquetas"
                    error={!!errors.audience}
                    helperText={errors.audience ?? (labelIds.length && current && !check.stale ? `${people(current.audience)} con alguna de estas etiquetas` : 'Le llega a quien tenga al menos una de ellas')}
                  />
                )}
              />
            )}
          </Section>

          <Section title="¿Qué les envías?">
            <RadioGroup row aria-label="Mensaje" value={messageKind} onChange={(e) => { setMessageKind(e.target.value as MessageKind); clearError('message'); }}>
              <FormControlLabel value="whatsapp" control={<Radio />} label="Plantilla de WhatsApp" />
              <FormControlLabel value="imagina" control={<Radio />} label="Plantilla Imagina" />
              <FormControlLabel value="text" control={<Radio />} label="Texto" />
            </RadioGroup>
            {messageKind === 'text' && (
              <TextField
                label="Mensaje"
                multiline
                minRows={4}
                value={text}
                onChange={(e) => { setText(e.target.value); clearError('message'); }}
                error={!!errors.message}
                helperText={errors.message ?? `Solo llega a quienes te escribieron en las últimas 24 horas (sin costo); al resto WhatsApp solo le permite una plantilla aprobada. ${text.length}/4096`}
                slotProps={{ htmlInput: { maxLength: 4096 } }}
                fullWidth
              />
            )}
            {messageKind === 'whatsapp' &&
              (templates.data && approvedTemplates.length === 0 ? (
                <Alert severity="info">
                  {templates.data.blocked ?? 'La línea de WhatsApp no tiene plantillas aprobadas.'}{' '}
                  {templates.data.line ? (
                    <Link component={RouterLink} to="/mensajes_de_plantilla">
                      Ir a Mensajes de plantilla
                    </Link>
                  ) : (
                    <Link component={RouterLink} to="/whatsapp">
                      Conectar WhatsApp
                    </Link>
                  )}
                </Alert>
              ) : (
                <>
                  <TextField
                    select
                    label="Plantilla de WhatsApp"
                    value={chosenTemplate ? whatsappTemplateId : ''}
                    onChange={(e) => { setWhatsappTemplateId(e.target.value); clearError('message'); }}
                    error={!!errors.message}
                    helperText={errors.message ?? 'Aprobadas por Meta: llegan también a quienes no escribieron en las últimas 24 horas'}
                    fullWidth
                  >
                    {approvedTemplates.map((t) => (
                      // a variable typed by hand in each chat cannot be filled for many people (the check refuses it too)
                      <MenuItem key={t._id} value={t._id} disabled={t.variableFields.some((f) => !f)}>
                        <Box sx={{ minWidth: 0 }}>
                          <Typography noWrap>{t.name}</Typography>
                          <Typography variant="caption" color="text.secondary">
                            {[
                              templateLanguageLabels[t.language as keyof typeof templateLanguageLabels] ?? t.language,
                              templateCategoryLabels[t.category as keyof typeof templateCategoryLabels] ?? t.category,
                              ...(t.variableFields.some((f) => !f) ? ['tiene variables que se escriben a mano: solo desde un chat'] : []),
                            ].join(' · ')}
                          </Typography>
                        </Box>
                      </MenuItem>
                    ))}
                  </TextField>
                  {chosenTemplate && (
                    <WhatsappTemplatePreview
                      template={chosenTemplate}
                      bodyValues={chosenTemplate.bodyExamples.map((example, i) => templateLeadFields[chosenTemplate.variableFields[i] as keyof typeof templateLeadFields] ?? example)}
                      headerValue={chosenTemplate.header?.example}
                      label="Vista previa de la plantilla"
                    />
                  )}
                </>
              ))}
            {messageKind === 'imagina' &&
              (imagina.data && approvedImagina.length === 0 ? (
                <Alert severity="info">
                  No hay plantillas Imagina aprobadas.{' '}
                  <Link component={RouterLink} to="/imagina_mensajes_de_plantilla">
                    Ir a Plantillas Imagina
                  </Link>
                </Alert>
              ) : (
                <>
                  {askedImagina && askedImagina.status !== 'approved' && (
                    <Alert severity="warning">{`La plantilla Imagina «${askedImagina.name}» es un borrador: apruébala antes de enviarla.`}</Alert>
                  )}
                  <TextField
                    select
                    label="Plantilla Imagina"
                    value={chosenImagina ? imaginaTemplateId : ''}
                    onChange={(e) => { setImaginaTemplateId(e.target.value); clearError('message'); }}
                    error={!!errors.message}
                    helperText={errors.message ?? 'Tu propio mensaje con los datos de cada cliente; solo las aprobadas se pueden enviar'}
                    fullWidth
                  >
                    {approvedImagina.map((t) => (
                      <MenuItem key={t._id} value={t._id}>
                        {t.name}
                      </MenuItem>
                    ))}
                  </TextField>
                  {chosenImagina && (
                    <ImaginaPreview
                      body={chosenImagina.body}
                      values={companyValues}
                      label="Vista previa de la plantilla Imagina"
                      caption={
                        chosenImagina.whatsappTemplate
                          ? `Dentro de las 24 horas va como este texto (sin costo); fuera de ellas, como la plantilla de WhatsApp «${chosenImagina.whatsappTemplate}».`
                          : 'Dentro de las 24 horas va como este texto (sin costo). No tiene plantilla de WhatsApp vinculada: quienes no escribieron en las últimas 24 horas quedan fuera.'
                      }
                    />
                  )}
                </>
              ))}
          </Section>

          {errors.form && (
            <Alert severity="error" data-testid="send-error">
              {errors.form}
            </Alert>
          )}
          {mayNotSend && <Alert severity="info">Tu rol puede revisar envíos pero no enviarlos.</Alert>}
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
              <Button type="submit" variant="contained" size="large" startIcon={<SendIcon />} disabled={!canSend}>
                Enviar
              </Button>
              <FormHelperText sx={{ m: 0 }}>
                {!checkInput
                  ? 'Elige a quién y qué enviar'
                  : !ready
                    ? 'Revisando…'
                    : blocked
                      ? 'No se puede enviar: mira la revisión previa'
                      : nobody
                        ? 'Nadie de esta audiencia lo recibiría'
                        : `Le llega a ${people(current?.queued ?? 0)}`}
              </FormHelperText>
          </Box>
        </Card>
        <Card sx={{ p: { xs: 2, sm: 3 }, position: { lg: 'sticky' }, top: { lg: 80 }, minWidth: 0 }}>
          <SendCheckPanel check={current} loading={!!checkInput && (check.stale || check.isFetching)} error={checkError} />
        </Card>
      </Box>
    </>
  );
}

export default MassiveMessagesPage;
