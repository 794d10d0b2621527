import { type ChatMessageKind, type SendMessageInput, sendMessageInput } from '@mostrador/contract';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { sessionStore } from '../../../lib/session';
import { fieldErrorsOf } from '../../../lib/use-schema-form';
import { classifyMediaUrl } from '../lib/media';
import { chatTexts, kindNames } from '../texts';

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

/** What was typed and not sent, per chat, while the page is open (switching chats keeps each draft); signing out forgets them. */
const drafts = new Map<string, string>();
sessionStore.subscribe(() => {
  if (!sessionStore.get().token) drafts.clear();
});

export interface ComposerProps {
  /** The chat the draft belongs to. */
  chatId: string;
  /** Puts the cursor in the box (desktop: open a chat and type). */
  autoFocus?: boolean;
  /** Free-form messages are not allowed (WhatsApp outside the 24-hour window). */
  closed: boolean;
  /** A message of this chat is on its way. */
  sending: boolean;
  /** Sends; resolves false when it failed (the text comes back to the box). */
  onSend: (body: SendMessageInput) => Promise<boolean>;
  /** The server's refusal of the last send (409: window closed, no channel). */
  refusal?: string;
}

/** Writes to the customer: Enter sends, Shift+Enter is a new line; media go by link. */
export function Composer({ chatId, autoFocus = false, closed, sending, onSend, refusal }: ComposerProps) {
  const [text, setTextState] = useState(() => drafts.get(chatId) ?? '');
  const setText = (next: string | ((current: string) => string)) =>
    setTextState((current) => {
      const value = typeof next === 'function' ? next(current) : next;
      if (value) drafts.set(chatId, value);
      else drafts.delete(chatId);
      return value;
    });
  const [error, setError] = useState<string>();
  const [attaching, setAttaching] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const disabled = closed || sending;

  const send = async (body: SendMessageInput, restore: string) => {
    const ok = await onSend(body);
    if (!ok) setText((current) => current || restore);
    input.current?.focus();
  };

  const submitText = (event?: FormEvent) => {
    event?.preventDefault();
    if (disabled) return;
    const { body, errors } = validateMessage({ kind: 'text', text });
    setError(errors.text);
    if (!body) return;
    const typed = text;
    setText('');
    void send(body, typed);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submitText();
    }
  };

  return (
    <Box component="form" onSubmit={submitText} noValidate sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', px: { xs: 1, sm: 2 }, py: 1.25 }}>
      {refusal && (
        <Alert severity="error" sx={{ mb: 1 }} data-testid="send-refusal">
          {refusal}
        </Alert>
      )}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 1 }}>
        <Tooltip title={chatTexts.attach}>
          <span>
            <IconButton aria-label={chatTexts.attach} onClick={() => setAttaching(true)} disabled={disabled}>
              <AttachFileIcon />
            </IconButton>
          </span>
        </Tooltip>
        <TextField
          inputRef={input}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(validateMessage({ kind: 'text', text: e.target.value }).errors.text);
          }}
          onKeyDown={onKeyDown}
          placeholder={closed ? chatTexts.placeholderClosed : chatTexts.placeholder}
          disabled={closed}
          autoFocus={autoFocus && !closed}
          multiline
          maxRows={6}
          size="small"
          error={!!error}
          helperText={error}
          slotProps={{ htmlInput: { 'aria-label': chatTexts.placeholder, 'aria-describedby': closed ? undefined : 'composer-help' } }}
          sx={{ '& .MuiInputBase-root': { borderRadius: 3, bgcolor: closed ? 'action.hover' : '#F7F7FB' } }}
        />
        <Tooltip title={chatTexts.send}>
          <span>
            <IconButton type="submit" color="primary" aria-label={chatTexts.send} disabled={disabled} sx={{ bgcolor: disabled ? undefined : 'primary.main', color: disabled ? undefined : 'common.white', '&:hover': { bgcolor: 'primary.dark' } }}>
              <SendIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
      {!closed && (
        <Box id="composer-help" sx={{ display: { xs: 'none', sm: 'block' }, typography: 'caption', color: 'text.secondary', mt: 0.5, pl: 7 }}>
          {chatTexts.composerHelp}
        </Box>
      )}
      <AttachDialog open={attaching} onClose={() => setAttaching(false)} onSend={(body) => void send(body, '')} />
    </Box>
  );
}
