import { AUTOMATION_MESSAGES_PER_CHAT_HOUR_MAX, automationSettingsIn } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { automationKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { automationApi } from './api';
import { automationTexts } from './rule-text';

const t = automationTexts.settings;

/**
 * «Ajustes» on /automatizaciones (decision 0080): how many messages the company's rules may send
 * to one chat in an hour (1–100, 10 until saved). Checked with the contract before it goes; the
 * server's refusal is shown under the field.
 */
export function AutomationSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} maxWidth="xs" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t.title}</DialogTitle>
      {open && <SettingsBody onClose={onClose} />}
    </Dialog>
  );
}

function SettingsBody({ onClose }: { onClose: () => void }) {
  const { companyId } = useSession();
  const formId = useId();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: automationKeys.settings(companyId), queryFn: automationApi.settings });
  // what was typed; undefined until the person types (the saved value shows meanwhile)
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const value = typed ?? (query.data ? String(query.data.messagesPerChatHour) : '');
  const save = useMutation({
    mutationFn: (messagesPerChatHour: number) => automationApi.saveSettings({ messagesPerChatHour }),
    onSuccess: (saved) => {
      queryClient.setQueryData(automationKeys.settings(companyId), saved);
      onClose();
    },
    onError: (e) => {
      if (e instanceof ApiError && e.status === 400) setError(e.messages[0] ?? t.saveFailed);
      else setFailure(e instanceof ApiError ? (e.messages[0] ?? t.saveFailed) : t.saveFailed);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = automationSettingsIn.safeParse({ messagesPerChatHour: value.trim() === '' ? undefined : Number(value) });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? t.saveFailed);
    setError(null);
    save.mutate(parsed.data.messagesPerChatHour);
  };
  return (
    <>
      <DialogContent>
        {query.isLoading ? (
          <Skeleton variant="rounded" height={56} />
        ) : query.isError ? (
          <Alert severity="error" action={<Button onClick={() => query.refetch()}>{automationTexts.retry}</Button>}>
            {t.loadError}
          </Alert>
        ) : (
          <form id={formId} onSubmit={submit} noValidate>
            <TextField
              label={t.messagesPerChatHour}
              type="number"
              value={value}
              onChange={(e) => {
                setTyped(e.target.value);
                if (error) setError(null);
              }}
              error={!!error}
              helperText={error ?? t.help}
              fullWidth
              autoFocus
              margin="dense"
              slotProps={{ htmlInput: { min: 1, max: AUTOMATION_MESSAGES_PER_CHAT_HOUR_MAX, step: 1, inputMode: 'numeric' } }}
            />
          </form>
        )}
        {failure && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.cancel}</Button>
        <Button type="submit" form={formId} variant="contained" disabled={save.isPending || !query.data}>
          {save.isPending ? t.saving : t.save}
        </Button>
      </DialogActions>
    </>
  );
}
