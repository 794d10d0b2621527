import {
  type ChatMessage,
  type ChatTemplates,
  type TemplateLeadField,
  templateLeadFields,
  templateVariables,
  variableCount,
  type WhatsappTemplate,
} from '@mostrador/contract';
import SendIcon from '@mui/icons-material/Send';
import ScheduleSendIcon from '@mui/icons-material/ScheduleSend';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import ListSubheader from '@mui/material/ListSubheader';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useEffectEvent, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { WhatsappTemplatePreview } from '../../../components/ui/whatsapp-template-preview';
import { ApiError, api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useImaginaTemplates } from '../../massive-messages/api';
import { ImaginaPreview } from '../../massive-messages/imagina-preview';
import { chatKeys } from '../../../lib/query-keys';
import { ScheduleDialog } from './scheduled-messages';

const enc = encodeURIComponent;

export const templatePickerTexts = {
  open: 'Enviar plantilla',
  title: 'Enviar una plantilla de WhatsApp',
  template: 'Plantilla aprobada',
  none: 'Esta línea no tiene plantillas aprobadas.',
  manage: 'Ir a Mensajes de plantilla',
  headerValue: 'Variable del encabezado {{1}}',
  valueOf: (n: number, field?: string) => (field ? `{{${n}}} · ${field}` : `{{${n}}}`),
  fromLead: (field: string) => `Completado con: ${field}. Puedes cambiarlo.`,
  leadHasNone: (field: string) => `El lead no tiene ${field.toLowerCase()}: escríbelo tú.`,
  typed: (example?: string) => (example ? `Escríbelo tú (ejemplo: ${example})` : 'Escríbelo tú'),
  missing: (n: number) => `Completa el valor de {{${n}}}`,
  headerMissing: 'Completa el valor de la variable del encabezado',
  preview: 'Así lo recibirá el cliente',
  cancel: 'Cancelar',
  send: 'Enviar plantilla',
  schedule: 'Programar…',
  failed: 'No se pudo enviar la plantilla',
  whatsappGroup: 'Plantillas de WhatsApp',
  imaginaGroup: 'Plantillas Imagina',
  imaginaLinked: (name: string) =>
    `Si el cliente escribió en las últimas 24 horas le llega como este texto (sin costo); si no, como la plantilla de WhatsApp «${name}».`,
  imaginaNoLink: 'sin plantilla de WhatsApp vinculada',
  imaginaUnlinked: 'Solo llega si el cliente escribió en las últimas 24 horas: no tiene plantilla de WhatsApp vinculada para fuera de esa ventana.',
} as const;

/** The select's value of an Imagina template (WhatsApp templates are their id). */
const IMAGINA = 'imagina:';

/** The composer's template calls (decision 0038). */
export const templatePickerApi = {
  list: (chatId: string, signal?: AbortSignal) => api.get<ChatTemplates>(`/chats/${enc(chatId)}/templates`, { overlay: false, notify: false, signal }),
  send: (chatId: string, body: { templateId: string; bodyValues: string[]; headerValue?: string }, idempotencyKey: string) =>
    api.post<ChatMessage>(`/chats/${enc(chatId)}/template`, body, { overlay: false, notify: false, idempotencyKey }),
  /** An Imagina template to this chat (decision 0043): queued; the message reaches the thread by its events. */
  sendImagina: (chatId: string, imaginaTemplateId: string, idempotencyKey: string) =>
    api.post<{ msg: string }>('/imagina_template_messages/send_single_message', { imaginaTemplateId, chatId }, { overlay: false, notify: false, success: true, idempotencyKey }),
};

/** Each body variable prefilled from the lead field the template maps it to. */
export function prefill(t: WhatsappTemplate, values: ChatTemplates['values']): string[] {
  return Array.from({ length: variableCount(t.body) }, (_, i) => {
    const field = t.variableFields[i] as TemplateLeadField | '' | undefined;
    return (field && values[field]) || '';
  });
}

const newSendKey = () => `tpl-${globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`}`;

export interface TemplatePickerProps {
  chatId: string;
  open: boolean;
  onClose: () => void;
  /** The message the server stored (sent or failed); the thread adds it. */
  onSent: (message: ChatMessage) => void;
  /** Offers «Programar…»: the template with its values, sent at a date and time (decision 0079). */
  schedulable?: boolean;
}

/**
 * The approved templates of the chat's line, their variables prefilled from the lead (each says
 * which field it comes from), the bubble as the customer will see it, and the send. Used when
 * the 24-hour window is closed.
 */
export function TemplatePicker({ chatId, open, onClose, onSent, schedulable = false }: TemplatePickerProps) {
  const { companyId } = useSession();
  const fullScreen = useMediaQuery('(max-width:600px)');
  const templates = useQuery({
    queryKey: chatKeys.templates(chatId, companyId),
    queryFn: ({ signal }) => templatePickerApi.list(chatId, signal),
    enabled: open,
    retry: false,
    meta: { quiet: true },
  });
  const list = templates.data?.payload ?? [];
  const imagina = useImaginaTemplates(open);
  const imaginaList = (imagina.data?.payload ?? []).filter((t) => t.status === 'approved');
  const [templateId, setTemplateId] = useState('');
  const [imaginaId, setImaginaId] = useState('');
  const chosenImagina = imaginaList.find((t) => t._id === imaginaId);
  const [bodyValues, setBodyValues] = useState<string[]>([]);
  const [headerValue, setHeaderValue] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string>();
  const [sending, setSending] = useState(false);
  const [scheduling, setScheduling] = useState<{ templateId: string; bodyValues: string[]; headerValue?: string }>();
  const chosen = list.find((t) => t._id === templateId);
  // one key per opening of the dialog: a click repeated after a lost answer never sends twice
  const [sendKey, setSendKey] = useState(() => newSendKey());

  const choose = (t: WhatsappTemplate | undefined) => {
    setTemplateId(t?._id ?? '');
    setImaginaId('');
    setBodyValues(t && templates.data ? prefill(t, templates.data.values) : []);
    setHeaderValue('');
    setErrors({});
    setRefusal(undefined);
  };
  useEffect(() => {
    if (!open) return;
    setRefusal(undefined);
    setErrors({});
    setSendKey(newSendKey());
  }, [open]);
  // the first template is chosen when the list arrives, unless one already is: choosing is not what the effect follows
  const chooseFirst = useEffectEvent((payload: ChatTemplates['payload']) => {
    if (!chosen && !chosenImagina) choose(payload.find((t) => t.sendable));
  });
  useEffect(() => {
    if (open && templates.data) chooseFirst(templates.data.payload);
  }, [open, templates.data]);

  const headerNeeds = chosen?.header?.format === 'TEXT' && templateVariables(chosen.header.text).length > 0;
  const n = chosen ? variableCount(chosen.body) : 0;

  /** The values the template needs, each said when missing; undefined when one is. */
  const completeValues = () => {
    if (!chosen) return undefined;
    const found: Record<string, string> = {};
    for (let i = 0; i < n; i++) if (!bodyValues[i]?.trim()) found[`bodyValues.${i}`] = templatePickerTexts.missing(i + 1);
    if (headerNeeds && !headerValue.trim()) found.headerValue = templatePickerTexts.headerMissing;
    setErrors(found);
    if (Object.keys(found).length) return undefined;
    return { templateId: chosen._id, bodyValues: bodyValues.slice(0, n), ...(headerNeeds ? { headerValue } : {}) };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (chosenImagina) {
      setSending(true);
      setRefusal(undefined);
      try {
        await templatePickerApi.sendImagina(chatId, chosenImagina._id, sendKey);
        onClose();
      } catch (error) {
        if (error instanceof ApiError) {
          setSendKey(newSendKey());
          setRefusal(error.messages[0] ?? templatePickerTexts.failed);
        } else setRefusal(templatePickerTexts.failed);
      } finally {
        setSending(false);
      }
      return;
    }
    const values = completeValues();
    if (!values) return;
    setSending(true);
    setRefusal(undefined);
    try {
      const message = await templatePickerApi.send(chatId, values, sendKey);
      onSent(message);
      onClose();
    } catch (error) {
      if (error instanceof ApiError) {
        // the server answered: the next click is a new send (a lost answer keeps the key)
        setSendKey(newSendKey());
        const details = (error.body as { errors?: { details?: Array<{ path: string; msg: string }> } } | undefined)?.errors?.details ?? [];
        setErrors(Object.fromEntries(details.map((d) => [d.path, d.msg])));
        setRefusal(error.messages[0] ?? templatePickerTexts.failed);
      } else setRefusal(templatePickerTexts.failed);
    } finally {
      setSending(false);
    }
  };

  const blocked = templates.data?.blocked ?? (templates.error instanceof ApiError ? templates.error.messages[0] : undefined);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby="template-picker-title">
      <form onSubmit={submit} noValidate aria-label={templatePickerTexts.title}>
        <DialogTitle id="template-picker-title">{templatePickerTexts.title}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(0,1fr) minmax(0,1fr)' }, gap: 3, pt: '8px !important' }}>
          {templates.isLoading ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 3, gridColumn: '1 / -1' }}>
              <CircularProgress size={28} aria-label="Cargando plantillas" />
            </Box>
          ) : blocked || (list.length === 0 && imaginaList.length === 0) ? (
            <Alert
              severity="info"
              sx={{ gridColumn: '1 / -1' }}
              data-testid="no-templates"
              action={
                <Button component={RouterLink} to="/mensajes_de_plantilla" color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }}>
                  {templatePickerTexts.manage}
                </Button>
              }
            >
              {blocked ?? templatePickerTexts.none}
            </Alert>
          ) : (
            <>
              <Box sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
                {refusal && (
                  <Alert severity="error" data-testid="template-send-refusal">
                    {refusal}
                  </Alert>
                )}
                <TextField
                  select
                  label={templatePickerTexts.template}
                  value={chosenImagina ? `${IMAGINA}${chosenImagina._id}` : templateId}
                  onChange={(e) => {
                    const value = e.target.value;
                    if (value.startsWith(IMAGINA)) {
                      choose(undefined);
                      setImaginaId(value.slice(IMAGINA.length));
                    } else choose(list.find((t) => t._id === value));
                  }}
                >
                  {imaginaList.length > 0 && list.length > 0 && <ListSubheader>{templatePickerTexts.whatsappGroup}</ListSubheader>}
                  {list.map((t) => (
                    <MenuItem key={t._id} value={t._id} disabled={!t.sendable}>
                      {t.name} · {t.language}
                    </MenuItem>
                  ))}
                  {imaginaList.length > 0 && <ListSubheader>{templatePickerTexts.imaginaGroup}</ListSubheader>}
                  {imaginaList.map((t) => (
                    // the picker is offered once the 24-hour window closed: only a linked WhatsApp template can reach the customer
                    <MenuItem key={t._id} value={`${IMAGINA}${t._id}`} disabled={!t.whatsappTemplate}>
                      {t.name} · Imagina{t.whatsappTemplate ? '' : ` · ${templatePickerTexts.imaginaNoLink}`}
                    </MenuItem>
                  ))}
                </TextField>
                {chosenImagina && (
                  <Alert severity={chosenImagina.whatsappTemplate ? 'info' : 'warning'} data-testid="imagina-how">
                    {chosenImagina.whatsappTemplate ? templatePickerTexts.imaginaLinked(chosenImagina.whatsappTemplate) : templatePickerTexts.imaginaUnlinked}
                  </Alert>
                )}
                {headerNeeds && (
                  <TextField
                    label={templatePickerTexts.headerValue}
                    value={headerValue}
                    onChange={(e) => setHeaderValue(e.target.value)}
                    error={!!errors.headerValue}
                    helperText={errors.headerValue ?? templatePickerTexts.typed(chosen?.header?.example)}
                  />
                )}
                {chosen &&
                  Array.from({ length: n }, (_, i) => {
                    const field = chosen.variableFields[i] as TemplateLeadField | '' | undefined;
                    const fieldName = field ? templateLeadFields[field] : undefined;
                    const fromLead = field ? templates.data?.values[field] : undefined;
                    const help = fieldName ? (fromLead ? templatePickerTexts.fromLead(fieldName) : templatePickerTexts.leadHasNone(fieldName)) : templatePickerTexts.typed(chosen.bodyExamples[i]);
                    return (
                      <TextField
                        // biome-ignore lint/suspicious/noArrayIndexKey: a variable is its number
                        key={`${chosen._id}-${i}`}
                        label={templatePickerTexts.valueOf(i + 1, fieldName)}
                        value={bodyValues[i] ?? ''}
                        onChange={(e) => {
                          const next = [...bodyValues];
                          next[i] = e.target.value;
                          setBodyValues(next);
                        }}
                        error={!!errors[`bodyValues.${i}`]}
                        helperText={errors[`bodyValues.${i}`] ?? help}
                        slotProps={{ htmlInput: { 'data-variable': i + 1 } }}
                      />
                    );
                  })}
              </Box>
              {chosenImagina && (
                <Box>
                  <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
                    {templatePickerTexts.preview}
                  </Typography>
                  <ImaginaPreview body={chosenImagina.body} values={templates.data?.values ?? {}} />
                </Box>
              )}
              {chosen && (
                <Box>
                  <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
                    {templatePickerTexts.preview}
                  </Typography>
                  <WhatsappTemplatePreview template={chosen} bodyValues={bodyValues} headerValue={headerValue} />
                </Box>
              )}
            </>
          )}
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={onClose}>{templatePickerTexts.cancel}</Button>
          {schedulable && chosen && !chosenImagina && (
            <Button
              startIcon={<ScheduleSendIcon />}
              disabled={sending}
              onClick={() => {
                const values = completeValues();
                if (values) setScheduling(values);
              }}
            >
              {templatePickerTexts.schedule}
            </Button>
          )}
          <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={!(chosen || chosenImagina) || sending}>
            {templatePickerTexts.send}
          </Button>
        </DialogActions>
      </form>
      {scheduling && (
        <ScheduleDialog
          chatId={chatId}
          template={scheduling}
          onClose={() => setScheduling(undefined)}
          onSaved={() => {
            setScheduling(undefined);
            onClose();
          }}
        />
      )}
    </Dialog>
  );
}
