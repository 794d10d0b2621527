import { chatMessages_es, type MassiveMessageResult, massiveMessageInput } from '@mostrador/contract';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { showSuccess } from '../../../lib/feedback';
import { fieldErrorsOf } from '../../../lib/use-schema-form';
import { chatApi } from '../api';
import { massiveHeadline, massiveSkippedLine, skippedReasons } from '../lib/massive-summary';
import { chatTexts } from '../texts';
import { chatKeys } from '../../../lib/query-keys';

export interface MassiveMessageDialogProps {
  open: boolean;
  chatIds: string[];
  /** Names of the chats on screen, for the skipped list when the server does not name them. */
  names: ReadonlyMap<string, string>;
  onClose: () => void;
  /** The send went through (the selection can be cleared). */
  onSent: () => void;
}

/**
 * One text to the chosen chats (POST /chats/send_massive_message, validated by the
 * contract's massiveMessageInput). Shows 'Mensajes enviados con éxito' and, when some chats
 * were skipped (outside the WhatsApp window, no channel), how many out of how many and why —
 * in the snackbar's second line and in the dialog: a headline, the count per reason, and
 * which chats.
 */
export function MassiveMessageDialog({ open, chatIds, names, onClose, onSent }: MassiveMessageDialogProps) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<MassiveMessageResult & { total: number }>();
  const send = useMutation({
    mutationFn: (body: { chatIds: string[]; text: string }) => chatApi.sendMassive(body),
    onSuccess: (answer, body) => {
      if (answer.queued > 0) showSuccess(chatMessages_es.sent, massiveSkippedLine(answer, body.chatIds.length));
      void queryClient.invalidateQueries({ queryKey: chatKeys.inboxes() });
      onSent();
      if (answer.skipped.length > 0) setResult({ ...answer, total: body.chatIds.length });
      else onClose();
    },
  });

  useEffect(() => {
    if (open) {
      setText('');
      setError(undefined);
      setResult(undefined);
    }
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = massiveMessageInput.safeParse({ chatIds, text });
    if (!parsed.success) {
      const errors = fieldErrorsOf(parsed.error.issues);
      setError(errors.text ?? errors.chatIds);
      return;
    }
    setError(undefined);
    send.mutate(parsed.data);
  };

  return (
    <Dialog open={open} onClose={send.isPending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="massive-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="massive-title">{chatTexts.massiveTitle}</DialogTitle>
        <DialogContent>
          {result ? (
            <>
              <Alert severity={result.queued > 0 ? 'info' : 'warning'} sx={{ mb: 2 }} data-testid="massive-summary">
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {massiveHeadline(result, result.total)}
                </Typography>
                {result.queued > 0 && <Typography variant="body2">{chatTexts.massiveQueued(result.queued)}</Typography>}
                <List dense disablePadding aria-label="Motivos">
                  {skippedReasons(result).map((r) => (
                    <ListItem key={r.reason} disableGutters sx={{ py: 0 }}>
                      <ListItemText primary={`${r.count} × ${r.reason}`} slotProps={{ primary: { variant: 'body2' } }} />
                    </ListItem>
                  ))}
                </List>
              </Alert>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {chatTexts.massiveSkipped}
              </Typography>
              <List dense data-testid="massive-skipped">
                {result.skipped.map((s) => (
                  <ListItem key={s.chatId} disableGutters>
                    <ListItemText primary={s.contactName ?? names.get(s.chatId) ?? s.chatId} secondary={s.reason} />
                  </ListItem>
                ))}
              </List>
            </>
          ) : (
            <>
              <DialogContentText sx={{ mb: 2 }}>{chatTexts.massiveHelp(chatIds.length)}</DialogContentText>
              <TextField
                label={chatTexts.massiveText}
                value={text}
                onChange={(e) => setText(e.target.value)}
                error={!!error}
                helperText={error}
                multiline
                minRows={4}
                maxRows={10}
                autoFocus
              />
            </>
          )}
        </DialogContent>
        <DialogActions>
          {result ? (
            <Button onClick={onClose} variant="contained">
              {chatTexts.close}
            </Button>
          ) : (
            <>
              <Button onClick={onClose} disabled={send.isPending}>
                {chatTexts.cancel}
              </Button>
              <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={send.isPending}>
                {chatTexts.massiveSend}
              </Button>
            </>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
