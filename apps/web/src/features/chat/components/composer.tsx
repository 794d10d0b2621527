import {
  type ChatMessage,
  type ChatMessageKind,
  type ChatState,
  chatStateReasons,
  fillQuickReply,
  type QuickReplyVariable,
  type SendMessageInput,
  sendMessageInput,
} from '@mostrador/contract';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloudQueueIcon from '@mui/icons-material/CloudQueue';
import LinkIcon from '@mui/icons-material/Link';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import MarkChatReadOutlinedIcon from '@mui/icons-material/MarkChatReadOutlined';
import ScheduleSendIcon from '@mui/icons-material/ScheduleSend';
import SendIcon from '@mui/icons-material/Send';
import StickyNote2OutlinedIcon from '@mui/icons-material/StickyNote2Outlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import { type FormEvent, type KeyboardEvent, lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { fieldErrorsOf } from '../../../lib/use-schema-form';
import { type QuickReply, useQuickReplies } from '../hooks/use-composer-data';
import { readDraft, writeDraft } from '../lib/drafts';
import { onComposerDraft } from '../lib/composer-draft';
import { classifyMediaUrl } from '../lib/media';
import { filterQuickReplies, insertAt, slashQuery } from '../lib/quick-replies';
import { channelNames, chatTexts, kindNames } from '../texts';
import { QuickReplyPicker } from './quick-reply-picker';
import { ScheduleDialog } from './scheduled-messages';
import { TemplatePicker, templatePickerTexts } from './template-picker';
import { ProductPicker, productPickerTexts } from './product-picker';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';

// «Desde Drive» (decision 0056): the picker loads when first opened
const DrivePicker = lazy(() => import('../../drive/drive-picker').then((m) => ({ default: m.DrivePicker })));

type Errors = Partial<Record<'text' | 'mediaUrl' | 'kind', string>>;

/** The body a send takes, validated by the contract's sendMessageInput (the server's own schema). */
export function validateMessage(input: { kind: ChatMessageKind; text: string; mediaUrl?: string }): { body?: SendMessageInput; errors: Errors } {
  const parsed = sendMessageInput.safeParse({
    kind: input.kind,
    text: input.text.trim() === '' ? undefined : input.text,
    mediaUrl: input.mediaUrl?.trim() ? input.mediaUrl.trim() : undefined,
  });
  if (parsed.success) return { body: parsed.data, errors: {} };
  return { errors: fieldErrorsOf(parsed.error.issues) as Errors };
}

const mediaKinds = ['image', 'video', 'audio', 'document'] as const;

function AttachDialog({ open, onClose, onSend }: { open: boolean; onClose: () => void; onSend: (body: SendMessageInput) => void }) {
  const [kind, setKind] = useState<(typeof mediaKinds)[number]>('image');
  const [mediaUrl, setMediaUrl] = useState('');
  const [caption, setCaption] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);

  useEffect(() => {
    if (open) {
      setKind('image');
      setMediaUrl('');
      setCaption('');
      setErrors({});
      setSubmitted(false);
    }
  }, [open]);

  const check = (next: { kind: ChatMessageKind; text: string; mediaUrl: string }) => validateMessage(next);

  const onUrl = (value: string) => {
    setMediaUrl(value);
    // The kind follows the link's extension (SPEC §5) until the user picks another.
    const detected = classifyMediaUrl(value.trim());
    const nextKind = detected && detected !== 'youtube' ? detected : kind;
    if (nextKind !== kind) setKind(nextKind);
    if (submitted) setErrors(check({ kind: nextKind, text: caption, mediaUrl: value }).errors);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setSubmitted(true);
    const { body, errors: found } = check({ kind, text: caption, mediaUrl });
    setErrors(found);
    if (body) {
      onSend(body);
      onClose();
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="attach-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="attach-title">{chatTexts.attachTitle}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <TextField
            label={chatTexts.mediaUrl}
            value={mediaUrl}
            onChange={(e) => onUrl(e.target.value)}
            error={!!errors.mediaUrl}
            helperText={errors.mediaUrl ?? chatTexts.mediaUrlHelp}
            autoFocus
            inputMode="url"
            placeholder="https://"
          />
          <TextField select label={chatTexts.mediaKind} value={kind} onChange={(e) => setKind(e.target.value as (typeof mediaKinds)[number])} error={!!errors.kind} helperText={errors.kind}>
            {mediaKinds.map((k) => (
              <MenuItem key={k} value={k}>
                {kindNames[k]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={chatTexts.caption}
            value={caption}
            onChange={(e) => {
              setCaption(e.target.value);
              if (submitted) setErrors(check({ kind, text: e.target.value, mediaUrl }).errors);
            }}
            error={!!errors.text}
            helperText={errors.text}
            multiline
            minRows={2}
            maxRows={6}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{chatTexts.cancel}</Button>
          <Button type="submit" variant="contained" startIcon={<SendIcon />}>
            {chatTexts.send}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Where the channel's connection is set up (Integraciones › WhatsApp: the line, the Facebook page and its Instagram account). */
export const CONNECT_PATH = '/whatsapp';

/**
 * What the composer lets the agent do now: the server's state (GET /chats/:id/state) when it
 * has come, the window it saw closing since (the clock moves on), else the inbox's own
 * estimate (WhatsApp outside the window) until it comes or when it could not be read.
 */
export function effectiveState(state: ChatState | undefined, closedEstimate: boolean, now = Date.now()): Pick<ChatState, 'state' | 'canSend' | 'reason' | 'channel'> | undefined {
  if (state) {
    if (state.state === 'open' && state.windowOpenUntil && Date.parse(state.windowOpenUntil) <= now) {
      return { state: 'window_closed', canSend: false, reason: chatStateReasons.windowClosed(state.channel), channel: state.channel };
    }
    return state;
  }
  return closedEstimate ? { state: 'window_closed', canSend: false, reason: chatStateReasons.windowClosed('whatsapp'), channel: 'whatsapp' } : undefined;
}

const channelLabel = { whatsapp: channelNames.whatsapp, messenger: channelNames.facebook, instagram: channelNames.instagram } as const;

/** Why free-form messages cannot go out now, in the composer: the window, the connection, the recipient. */
function StateBanner({ state, canConnect, onTemplate }: { state: NonNullable<ReturnType<typeof effectiveState>>; canConnect: boolean; onTemplate?: () => void }) {
  const name = channelLabel[state.channel];
  if (state.state === 'window_closed') {
    // WhatsApp: an approved template may go out now (decision 0038)
    const templates = state.channel === 'whatsapp' && onTemplate;
    return (
      <Alert severity="warning" data-testid="outside-window" data-state="window_closed" sx={{ mb: 1, py: 0.25 }}>
        <AlertTitle sx={{ mb: 0.25 }}>{chatTexts.windowClosedTitle}</AlertTitle>
        {state.reason}
        {templates && (
          <>
            <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
              {chatStateReasons.templateNeeded}
            </Box>
            <Button color="inherit" size="small" variant="outlined" startIcon={<MarkChatReadOutlinedIcon />} onClick={onTemplate} sx={{ mt: 0.75, mb: 0.25, whiteSpace: 'nowrap' }}>
              {templatePickerTexts.open}
            </Button>
          </>
        )}
      </Alert>
    );
  }
  if (state.state === 'not_connected') {
    return (
      <Alert
        severity="info"
        icon={<LockOutlinedIcon />}
        data-testid="composer-locked"
        data-state="not_connected"
        sx={{ mb: 1, py: 0.25 }}
        action={
          canConnect ? (
            <Button component={RouterLink} to={CONNECT_PATH} color="inherit" size="small" variant="outlined" sx={{ whiteSpace: 'nowrap' }}>
              {chatTexts.connectChannel(name)}
            </Button>
          ) : undefined
        }
      >
        <AlertTitle sx={{ mb: 0.25 }}>{chatTexts.notConnectedTitle(name)}</AlertTitle>
        {state.reason}
        {!canConnect && (
          <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
            {chatTexts.askAdmin}
          </Box>
        )}
      </Alert>
    );
  }
  return (
    <Alert severity="warning" data-testid="composer-locked" data-state={state.state} sx={{ mb: 1, py: 0.25 }}>
      {state.reason}
    </Alert>
  );
}

export interface ComposerProps {
  /** The chat the draft belongs to. */
  chatId: string;
  /** Puts the cursor in the box (desktop: open a chat and type). */
  autoFocus?: boolean;
  /** The inbox's estimate that free-form messages are not allowed (WhatsApp outside the 24-hour window), until the server's state comes. */
  closed: boolean;
  /** What the server says the chat's channel allows now (decision 0027). */
  state?: ChatState;
  /** The user may connect channels (shows the link to the screen that does). */
  canConnect?: boolean;
  /** A message of this chat is on its way. */
  sending: boolean;
  /** Sends; resolves false when it failed (the text comes back to the box). */
  onSend: (body: SendMessageInput) => Promise<boolean>;
  /** Saves an internal note; resolves false when it failed. Without it there is no note mode. */
  onNote?: (text: string) => Promise<boolean>;
  /** The server's refusal of the last send (409: window closed, no channel). */
  refusal?: string;
  /** What a quick reply's {{variables}} become in this chat. */
  variables?: Partial<Record<QuickReplyVariable, string>>;
  /** A WhatsApp template was sent (window closed): the thread adds the message. Without it no template is offered. */
  onTemplateSent?: (message: ChatMessage) => void;
  /** Offers «Programar envío» next to the send button (decision 0079): the typed text, at a date and time. */
  schedule?: boolean;
}

/**
 * Writes to the customer, or an internal note: Enter sends, Shift+Enter is a new line, "/"
 * opens the quick replies; media go by link. It knows the channel's state before anything is
 * typed: a closed window or a channel that is not connected locks the answer (notes stay
 * open) and says why in Spanish.
 */
export function Composer({ chatId, autoFocus = false, closed, state, canConnect = false, sending, onSend, onNote, refusal, variables = {}, onTemplateSent, schedule = false }: ComposerProps) {
  const [draft] = useState(() => readDraft(chatId));
  const [text, setTextState] = useState(draft.text);
  const [note, setNoteState] = useState(!!onNote && !!draft.note);
  const setText = (value: string) => {
    setTextState(value);
    writeDraft(chatId, { text: value, note });
  };
  const setNote = (value: boolean) => {
    setNoteState(value);
    writeDraft(chatId, { text, note: value });
  };
  const [error, setError] = useState<string>();
  const [attaching, setAttaching] = useState(false);
  const [attachMenu, setAttachMenu] = useState<HTMLElement | null>(null);
  const [fromDrive, setFromDrive] = useState(false);
  const [pickingTemplate, setPickingTemplate] = useState(false);
  const [pickingProducts, setPickingProducts] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // «Usar respuesta» of a reply suggestion (lib/composer-draft.ts): the text goes in the box as an answer, ready to edit
  useEffect(
    () =>
      onComposerDraft(chatId, (value) => {
        setTextState(value);
        setNoteState(false);
        input.current?.focus();
      }),
    [chatId],
  );

  const effective = effectiveState(state, closed);
  const locked = !note && !!effective && !effective.canSend;
  const disabled = locked || sending;
  // nothing can go out until the channel is connected or the person has an id to write to: no
  // «Programar envío» then (a closed window still lets a template, or a text for when it opens, be scheduled)
  const unschedulable = !!effective && (effective.state === 'not_connected' || effective.state === 'no_recipient');

  // "/" quick replies
  const pickerId = useId();
  const [caret, setCaret] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const [highlighted, setHighlighted] = useState(0);
  const slash = locked ? undefined : slashQuery(text, caret);
  const quickReplies = useQuickReplies(!!slash);
  const query = slash?.query;
  const matches = useMemo(() => (query === undefined ? [] : filterQuickReplies(quickReplies.data ?? [], query)), [query, quickReplies.data]);
  const pickerOpen = !!slash && !dismissed;
  // biome-ignore lint/correctness/useExhaustiveDependencies: another query starts the highlight at its first match
  useEffect(() => setHighlighted(0), [query]);

  const pick = (reply: QuickReply) => {
    if (!slash) return;
    const filled = fillQuickReply(reply.texto, variables);
    const next = insertAt(text, slash.start, caret, filled);
    setText(next.text);
    setCaret(next.caret);
    setDismissed(false);
    requestAnimationFrame(() => {
      const el = input.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };

  const send = async (body: SendMessageInput, restore: string) => {
    const ok = await onSend(body);
    if (!ok && restore) setTextState((current) => current || restore);
    input.current?.focus();
  };

  const submitText = (event?: FormEvent) => {
    event?.preventDefault();
    if (note) {
      const typed = text.trim();
      if (!typed) return setError(chatTexts.writeNote);
      if (!onNote || sending) return;
      setError(undefined);
      setText('');
      void onNote(typed).then((ok) => {
        if (!ok) setTextState((current) => current || typed);
        input.current?.focus();
      });
      return;
    }
    if (disabled) return;
    const { body, errors } = validateMessage({ kind: 'text', text });
    setError(errors.text);
    if (!body) return;
    const typed = text;
    setText('');
    void send(body, typed);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (pickerOpen && matches.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setHighlighted((i) => (i + step + matches.length) % matches.length);
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        event.preventDefault();
        pick(matches[Math.min(highlighted, matches.length - 1)]);
        return;
      }
    }
    if (pickerOpen && event.key === 'Escape') {
      event.preventDefault();
      setDismissed(true);
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submitText();
    }
  };

  const placeholder = note ? chatTexts.placeholderNote : locked ? chatTexts.placeholderLocked : chatTexts.placeholder;
  return (
    <Box
      component="form"
      onSubmit={submitText}
      noValidate
      data-testid="composer"
      data-mode={note ? 'note' : 'reply'}
      data-state={effective?.state ?? 'open'}
      sx={{ borderTop: 1, borderColor: 'divider', bgcolor: note ? '#FFFBEA' : 'background.paper', px: { xs: 1, sm: 2 }, pt: 1, pb: 1.25 }}
    >
      {!note && effective && !effective.canSend && (
        <StateBanner state={effective} canConnect={canConnect} onTemplate={onTemplateSent ? () => setPickingTemplate(true) : undefined} />
      )}
      {refusal && !note && !(effective && !effective.canSend) && (
        <Alert severity="error" sx={{ mb: 1 }} data-testid="send-refusal">
          {refusal}
        </Alert>
      )}
      {onNote && (
        <ToggleButtonGroup
          exclusive
          size="small"
          value={note ? 'note' : 'reply'}
          onChange={(_e, value: 'note' | 'reply' | null) => {
            if (!value) return;
            setNote(value === 'note');
            setError(undefined);
            requestAnimationFrame(() => input.current?.focus());
          }}
          aria-label={chatTexts.composerMode}
          sx={{ mb: 0.75, '& .MuiToggleButton-root': { py: 0.25, px: 1.25, textTransform: 'none', fontSize: '0.8rem' } }}
        >
          <ToggleButton value="reply">{chatTexts.modeReply}</ToggleButton>
          <ToggleButton value="note" sx={{ '&.Mui-selected': { bgcolor: '#FFF1C2', color: '#6B4E00' } }}>
            <StickyNote2OutlinedIcon sx={{ fontSize: 16, mr: 0.5 }} />
            {chatTexts.modeNote}
          </ToggleButton>
        </ToggleButtonGroup>
      )}
      <Box ref={box} sx={{ display: 'flex', alignItems: 'flex-end', gap: 1 }}>
        {!note && (
          <Tooltip title={chatTexts.attach}>
            <span>
              <IconButton aria-label={chatTexts.attach} aria-haspopup="menu" onClick={(e) => setAttachMenu(e.currentTarget)} disabled={disabled}>
                <AttachFileIcon />
              </IconButton>
            </span>
          </Tooltip>
        )}
        {!note && onTemplateSent && (
          <Tooltip title={productPickerTexts.open}>
            <span>
              <IconButton aria-label={productPickerTexts.open} onClick={() => setPickingProducts(true)} disabled={sending || unschedulable} data-testid="products-button">
                <StorefrontOutlinedIcon />
              </IconButton>
            </span>
          </Tooltip>
        )}
        <TextField
          inputRef={input}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart ?? e.target.value.length);
            setDismissed(false);
            if (error) setError(note ? undefined : validateMessage({ kind: 'text', text: e.target.value }).errors.text);
          }}
          onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? 0)}
          onKeyDown={onKeyDown}
          onBlur={() => setDismissed(true)}
          onFocus={() => setDismissed(false)}
          placeholder={placeholder}
          disabled={locked}
          autoFocus={autoFocus && !locked}
          multiline
          maxRows={6}
          size="small"
          fullWidth
          error={!!error}
          helperText={error}
          slotProps={{
            htmlInput: {
              'aria-label': note ? chatTexts.placeholderNote : chatTexts.placeholder,
              'aria-describedby': locked ? undefined : 'composer-help',
              'aria-controls': pickerOpen ? pickerId : undefined,
              'aria-activedescendant': pickerOpen && matches.length ? `${pickerId}-${highlighted}` : undefined,
              'aria-autocomplete': 'list',
            },
          }}
          sx={{
            flex: 1,
            '& .MuiInputBase-root': { borderRadius: 3, bgcolor: note ? '#FFF6D6' : locked ? 'action.hover' : '#F7F7FB' },
          }}
        />
        {schedule && !note && (
          <Tooltip title={chatTexts.schedule}>
            <span>
              <IconButton aria-label={chatTexts.schedule} onClick={() => setScheduling(true)} disabled={sending || unschedulable} data-testid="schedule-button">
                <ScheduleSendIcon />
              </IconButton>
            </span>
          </Tooltip>
        )}
        <Tooltip title={note ? chatTexts.saveNote : chatTexts.send}>
          <span>
            <IconButton
              type="submit"
              color="primary"
              aria-label={note ? chatTexts.saveNote : chatTexts.send}
              disabled={note ? sending : disabled}
              sx={{
                bgcolor: (note ? sending : disabled) ? undefined : note ? '#B7791F' : 'primary.main',
                color: (note ? sending : disabled) ? undefined : 'common.white',
                '&:hover': { bgcolor: note ? '#975A16' : 'primary.dark' },
              }}
            >
              {note ? <StickyNote2OutlinedIcon /> : <SendIcon />}
            </IconButton>
          </span>
        </Tooltip>
      </Box>
      {!locked && (
        <Box id="composer-help" sx={{ display: { xs: 'none', sm: 'block' }, typography: 'caption', color: 'text.secondary', mt: 0.5, pl: note ? 0.5 : 7 }}>
          {note ? chatTexts.noteHelp : chatTexts.composerHelp}
        </Box>
      )}
      <QuickReplyPicker
        id={pickerId}
        anchorEl={box.current}
        open={pickerOpen}
        query={slash?.query ?? ''}
        items={matches}
        loading={quickReplies.isLoading}
        highlighted={highlighted}
        onHighlight={setHighlighted}
        onPick={pick}
      />
      {scheduling && (
        <ScheduleDialog
          chatId={chatId}
          text={text}
          onClose={() => {
            setScheduling(false);
            requestAnimationFrame(() => input.current?.focus());
          }}
          onSaved={() => setText('')}
        />
      )}
      {onTemplateSent && <TemplatePicker chatId={chatId} open={pickingTemplate} onClose={() => setPickingTemplate(false)} onSent={onTemplateSent} schedulable={schedule} />}
      {onTemplateSent && pickingProducts && (
        <ProductPicker
          chatId={chatId}
          open
          channel={effective?.channel}
          windowClosed={effective?.state === 'window_closed'}
          onClose={() => setPickingProducts(false)}
          onSent={onTemplateSent}
          onTemplate={effective?.channel === 'whatsapp' ? () => setPickingTemplate(true) : undefined}
        />
      )}
      <Menu anchorEl={attachMenu} open={!!attachMenu} onClose={() => setAttachMenu(null)}>
        <MenuItem
          onClick={() => {
            setAttachMenu(null);
            setFromDrive(true);
          }}
        >
          <ListItemIcon>
            <CloudQueueIcon fontSize="small" />
          </ListItemIcon>
          {chatTexts.attachDrive}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAttachMenu(null);
            setAttaching(true);
          }}
        >
          <ListItemIcon>
            <LinkIcon fontSize="small" />
          </ListItemIcon>
          {chatTexts.attachLink}
        </MenuItem>
      </Menu>
      <AttachDialog open={attaching} onClose={() => setAttaching(false)} onSend={(body) => void send(body, '')} />
      {fromDrive && (
        <Suspense fallback={null}>
          <DrivePicker
            open={fromDrive}
            onClose={() => setFromDrive(false)}
            title={chatTexts.attachDriveTitle}
            pickLabel={chatTexts.send}
            caption
            onPick={(file, caption) => {
              setFromDrive(false);
              // the file's public address, as the link attachment sends one (a document's name is its last segment)
              void send({ kind: file.kind, mediaUrl: file.url, text: caption.trim() || undefined }, '');
            }}
          />
        </Suspense>
      )}
    </Box>
  );
}
