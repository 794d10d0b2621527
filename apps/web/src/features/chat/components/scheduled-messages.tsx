import { type DriveKind, driveKindLabels, SCHEDULE_MAX_DAYS, type ScheduledMessageIn, type ScheduledMessageOut, scheduledMessageTexts } from '@mostrador/contract';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import ScheduleIcon from '@mui/icons-material/Schedule';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError, api } from '../../../lib/api-client';
import { useCompanyTimezone } from '../../../lib/company-time';
import { chatKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';
import { driveKindOf, driveTooBig, uploadToDrive } from '../../drive/api';
import { fileNameOf } from '../lib/media';
import { instantOf, wallTime } from '../lib/zoned-time';
import { chatTexts, kindNames } from '../texts';

const enc = encodeURIComponent;
/** How often the strip looks again, besides the chat's realtime updates (a send the job made). */
const REFRESH_MS = 30_000;

/** «Enviar más tarde» (decision 0079): the chat's scheduled messages. Quiet: the dialog and the strip show the outcome. */
export const scheduledApi = {
  list: (chatId: string, signal?: AbortSignal) =>
    api.get<{ payload: ScheduledMessageOut[] }>(`/chats/${enc(chatId)}/scheduled-messages`, { overlay: false, notify: false, signal }),
  create: (chatId: string, body: ScheduledMessageIn) => api.post<ScheduledMessageOut>(`/chats/${enc(chatId)}/scheduled-messages`, body, { overlay: false, notify: false }),
  update: (chatId: string, id: string, body: ScheduledMessageIn) =>
    api.put<ScheduledMessageOut>(`/chats/${enc(chatId)}/scheduled-messages/${enc(id)}`, body, { overlay: false, notify: false }),
  cancel: (chatId: string, id: string) => api.delete<ScheduledMessageOut>(`/chats/${enc(chatId)}/scheduled-messages/${enc(id)}`, { overlay: false, notify: false }),
};

export function useScheduledMessages(chatId: string) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: chatKeys.scheduled(chatId, companyId),
    queryFn: ({ signal }) => scheduledApi.list(chatId, signal),
    refetchInterval: REFRESH_MS,
    retry: false,
    meta: { quiet: true },
  });
}

const weekday = new Map<string, Intl.DateTimeFormat>();
const fmt = (timeZone: string | undefined, options: Intl.DateTimeFormatOptions) => {
  const key = `${timeZone ?? ''}|${JSON.stringify(options)}`;
  let f = weekday.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('es', { ...options, timeZone });
    weekday.set(key, f);
  }
  return f;
};

/** «lun 14:30» within the coming week, «lun 14 dic 14:30» further on, on the company's clock. */
export function scheduledWhen(at: string | Date, timeZone?: string, now = Date.now()): string {
  const date = new Date(at);
  const day = fmt(timeZone, { weekday: 'short' }).format(date).replace('.', '');
  const time = wallTime(date, timeZone).slice(11);
  if (date.getTime() - now < 6 * 86_400_000) return `${day} ${time}`;
  const dm = fmt(timeZone, { day: 'numeric', month: 'short' }).format(date).replace('.', '');
  return `${day} ${dm} ${time}`;
}

/** In an hour, on the minute, on the company's clock: where the picker starts. */
function inAnHour(timeZone: string | undefined): string {
  return wallTime(new Date(Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000), timeZone);
}

/** The file a new scheduled message carries: what Drive kept of the upload. */
interface Attachment {
  kind: DriveKind;
  url: string;
  name: string;
  /** The picked image itself, shown small. */
  preview?: string;
}

export interface ScheduleDialogProps {
  chatId: string;
  /** The composer's text (a new one), or the scheduled message being changed. */
  text?: string;
  editing?: ScheduledMessageOut;
  /** A new template's send (the template picker's «Programar…»): its values, already checked. */
  template?: { templateId: string; bodyValues: string[]; headerValue?: string };
  onClose: () => void;
  /** Scheduled (or changed): the composer empties its box. */
  onSaved?: (scheduled: ScheduledMessageOut) => void;
}

/** «Programar envío»: the text (or a file and its caption) and a date and time on the company's clock, within 90 days. */
export function ScheduleDialog({ chatId, text: initialText = '', editing, template, onClose, onSaved }: ScheduleDialogProps) {
  const timezone = useCompanyTimezone();
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const [text, setText] = useState(editing?.text ?? initialText);
  const [when, setWhen] = useState(() => (editing ? wallTime(new Date(editing.sendAt), timezone) : inAnHour(timezone)));
  const [errors, setErrors] = useState<{ text?: string; when?: string; form?: string; file?: string }>({});
  // a file to go with it (a new message): uploaded to Drive as the library does, its public link sent
  const [attachment, setAttachment] = useState<Attachment>();
  const [uploading, setUploading] = useState<{ name: string; sent: number; abort: AbortController }>();
  const fileInput = useRef<HTMLInputElement>(null);
  const kind = editing?.kind ?? (template ? 'template' : (attachment?.kind ?? 'text'));
  const attach = (file: File | undefined) => {
    if (!file) return;
    const tooBig = driveTooBig(file);
    if (tooBig) return setErrors((x) => ({ ...x, file: tooBig }));
    uploading?.abort.abort();
    const abort = new AbortController();
    setErrors((x) => ({ ...x, file: undefined, text: undefined }));
    setAttachment(undefined);
    setUploading({ name: file.name, sent: 0, abort });
    const preview = driveKindOf(file) === 'image' && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : undefined;
    uploadToDrive(file, '', (sent) => setUploading((u) => (u?.abort === abort ? { ...u, sent } : u)), abort.signal)
      .then((answer) => {
        if (abort.signal.aborted) return;
        setUploading(undefined);
        setAttachment({ kind: answer.file.kind, url: answer.file.url, name: answer.file.name, preview });
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        setUploading(undefined);
        setErrors((x) => ({ ...x, file: error instanceof ApiError ? error.message : chatTexts.scheduleUploadFailed }));
      });
  };
  const removeAttachment = () => {
    uploading?.abort.abort();
    if (attachment?.preview) URL.revokeObjectURL(attachment.preview);
    setUploading(undefined);
    setAttachment(undefined);
    setErrors((x) => ({ ...x, file: undefined }));
  };
  const save = useMutation({
    mutationFn: (body: ScheduledMessageIn) => (editing ? scheduledApi.update(chatId, editing._id, body) : scheduledApi.create(chatId, body)),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: chatKeys.scheduled(chatId, companyId) });
      onSaved?.(saved);
      onClose();
    },
    // the server's reason in Spanish (a text too long for the channel, a chat gone, one already sent)
    onError: (error) => setErrors({ form: error instanceof Error ? error.message : chatTexts.scheduleFailed }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const at = instantOf(when, timezone);
    const next: typeof errors = {};
    if (!at) next.when = chatTexts.snoozePickInvalid;
    else if (at.getTime() <= Date.now()) next.when = scheduledMessageTexts.sendAtPast;
    else if (at.getTime() > Date.now() + SCHEDULE_MAX_DAYS * 86_400_000) next.when = scheduledMessageTexts.sendAtFar;
    if (uploading) next.file = chatTexts.scheduleUploading;
    else if (kind === 'text' && !text.trim()) next.text = scheduledMessageTexts.textMissing;
    setErrors(next);
    if (next.when || next.text || next.file || !at) return;
    const body: ScheduledMessageIn = editing
      ? { kind: editing.kind, text: text.trim() || undefined, mediaUrl: editing.mediaUrl ?? undefined, template: editing.template ?? undefined, sendAt: at.toISOString() }
      : template
        ? { kind: 'template', template, sendAt: at.toISOString() }
        : attachment
          ? { kind: attachment.kind, mediaUrl: attachment.url, text: text.trim() || undefined, sendAt: at.toISOString() }
          : { kind: 'text', text: text.trim(), sendAt: at.toISOString() };
    save.mutate(body);
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="schedule-title" maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id="schedule-title">{editing ? chatTexts.scheduleEditTitle : chatTexts.scheduleTitle}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          {errors.form && <Alert severity="error">{errors.form}</Alert>}
          {!editing && !template && (
            <Box sx={{ display: 'grid', gap: 0.75, minWidth: 0 }}>
              <input
                ref={fileInput}
                type="file"
                hidden
                aria-label={chatTexts.scheduleFileInput}
                accept="image/*,video/*,audio/*,.pdf,.txt,.csv,.doc,.docx,.xls,.xlsx"
                onChange={(e) => {
                  attach(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
              {attachment ? (
                <Box data-testid="schedule-attachment" sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0, p: 1, border: 1, borderColor: 'divider', borderRadius: 2 }}>
                  {attachment.preview ? (
                    <Box component="img" src={attachment.preview} alt="" sx={{ width: 48, height: 48, objectFit: 'cover', borderRadius: 1, flexShrink: 0 }} />
                  ) : (
                    <InsertDriveFileOutlinedIcon color="action" sx={{ flexShrink: 0 }} />
                  )}
                  <Box sx={{ minWidth: 0, flex: 1 }}>
                    <Typography variant="body2" noWrap title={attachment.name}>
                      {attachment.name}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {driveKindLabels[attachment.kind]}
                    </Typography>
                  </Box>
                  <IconButton aria-label={chatTexts.scheduleFileRemove(attachment.name)} onClick={removeAttachment} size="small">
                    <CloseIcon fontSize="small" />
                  </IconButton>
                </Box>
              ) : uploading ? (
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                  <Box sx={{ minWidth: 0, flex: 1 }}>
                    <Typography variant="caption" color="text.secondary" noWrap component="div" title={uploading.name}>
                      {chatTexts.scheduleUploadingName(uploading.name)}
                    </Typography>
                    <LinearProgress variant="determinate" value={Math.round(uploading.sent * 100)} aria-label={chatTexts.scheduleUploadingName(uploading.name)} />
                  </Box>
                  <IconButton aria-label={chatTexts.scheduleFileRemove(uploading.name)} onClick={removeAttachment} size="small">
                    <CloseIcon fontSize="small" />
                  </IconButton>
                </Box>
              ) : (
                <Button variant="outlined" color="inherit" size="small" startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()} sx={{ justifySelf: 'start' }}>
                  {chatTexts.scheduleAttach}
                </Button>
              )}
              {errors.file && (
                <Alert severity="error" sx={{ py: 0 }}>
                  {errors.file}
                </Alert>
              )}
            </Box>
          )}
          {kind === 'template' ? (
            <Typography variant="body2" color="text.secondary">
              {chatTexts.scheduleTemplate}
            </Typography>
          ) : (
            <TextField
              label={kind === 'text' ? chatTexts.scheduleText : chatTexts.caption}
              value={text}
              onChange={(e) => setText(e.target.value)}
              multiline
              minRows={2}
              maxRows={8}
              fullWidth
              error={!!errors.text}
              helperText={errors.text}
              slotProps={{ htmlInput: { maxLength: 4096 } }}
            />
          )}
          <TextField
            type="datetime-local"
            label={chatTexts.snoozePickLabel}
            value={when}
            onChange={(e) => {
              setWhen(e.target.value);
              setErrors((x) => ({ ...x, when: undefined }));
            }}
            error={!!errors.when}
            helperText={errors.when || chatTexts.scheduleHelp(timezone)}
            fullWidth
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: wallTime(new Date(), timezone), 'data-testid': 'schedule-input' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{chatTexts.cancel}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending} startIcon={<ScheduleIcon />}>
            {editing ? chatTexts.scheduleSaveEdit : chatTexts.scheduleConfirm}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** A scheduled message in a line: its text, the template, or the file's kind and name with its caption, clipped. */
const what = (s: ScheduledMessageOut) => {
  if (s.kind === 'template') return chatTexts.scheduleTemplateShort;
  if (s.kind === 'text') return s.text || '';
  const file = `${kindNames[s.kind]}: ${(s.mediaUrl && fileNameOf(s.mediaUrl)) || chatTexts.scheduleFile}`;
  return s.text ? `${file} — ${s.text}` : file;
};

/**
 * Above the composer: the chat's pending scheduled messages («Programado para el lun 14:30 —
 * Editar · Cancelar») and those that failed, with their reason. Nothing when there are none.
 */
export function ScheduledStrip({ chatId }: { chatId: string }) {
  const timezone = useCompanyTimezone();
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const { data } = useScheduledMessages(chatId);
  const [editing, setEditing] = useState<ScheduledMessageOut>();
  const [problem, setProblem] = useState<string>();
  const cancel = useMutation({
    mutationFn: (id: string) => scheduledApi.cancel(chatId, id),
    onSuccess: () => setProblem(undefined),
    onError: (error) => setProblem(error instanceof Error ? error.message : chatTexts.scheduleFailed),
    onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.scheduled(chatId, companyId) }),
  });
  const shown = (data?.payload ?? []).filter((s) => s.status === 'pending' || s.status === 'sending' || s.status === 'failed');
  if (!shown.length && !problem) return null;
  return (
    <Box data-testid="scheduled-strip" sx={{ flexShrink: 0, borderTop: 1, borderColor: 'divider', bgcolor: '#F4F6FB', px: { xs: 1, sm: 2 }, py: 0.5, maxHeight: 132, overflowY: 'auto' }}>
      {problem && (
        <Alert severity="error" onClose={() => setProblem(undefined)} sx={{ my: 0.5, py: 0 }}>
          {problem}
        </Alert>
      )}
      {shown.map((s) => (
        <Box
          key={s._id}
          data-testid="scheduled-item"
          data-status={s.status}
          sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, py: 0.5, minWidth: 0, typography: 'body2' }}
        >
          {s.status === 'failed' ? <ErrorOutlineIcon color="error" sx={{ fontSize: 18, mt: '2px' }} /> : <ScheduleIcon color="primary" sx={{ fontSize: 18, mt: '2px' }} />}
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, alignItems: 'baseline' }}>
              <Typography component="span" variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {s.status === 'failed'
                  ? chatTexts.scheduledFailed(scheduledWhen(s.sendAt, timezone))
                  : s.status === 'sending'
                    ? chatTexts.scheduledSending
                    : chatTexts.scheduledFor(scheduledWhen(s.sendAt, timezone))}
              </Typography>
              {s.status === 'pending' && (
                <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
                  —{' '}
                  <Link component="button" type="button" onClick={() => setEditing(s)} aria-label={chatTexts.scheduleEditLabel(scheduledWhen(s.sendAt, timezone))}>
                    {chatTexts.scheduleEdit}
                  </Link>
                  {' · '}
                  <Link
                    component="button"
                    type="button"
                    color="error"
                    disabled={cancel.isPending}
                    onClick={() => cancel.mutate(s._id)}
                    aria-label={chatTexts.scheduleCancelLabel(scheduledWhen(s.sendAt, timezone))}
                  >
                    {chatTexts.scheduleCancel}
                  </Link>
                </Typography>
              )}
            </Box>
            <Typography variant="caption" color="text.secondary" noWrap component="div" title={what(s)}>
              {what(s)}
            </Typography>
            {s.status === 'failed' && s.error && (
              <Typography variant="caption" color="error" component="div" data-testid="scheduled-error">
                {s.error}
              </Typography>
            )}
          </Box>
        </Box>
      ))}
      {editing && <ScheduleDialog chatId={chatId} editing={editing} onClose={() => setEditing(undefined)} />}
    </Box>
  );
}
