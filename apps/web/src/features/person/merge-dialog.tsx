import type { DuplicateCandidate, MergeResult } from '@mostrador/contract';
import MergeTypeIcon from '@mui/icons-material/MergeType';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { ApiError } from '../../lib/api-client';
import { useMergePerson } from './use-person';
import { personTexts } from './texts';

export interface MergeDialogProps {
  /** The person kept (the one whose panel this is). */
  kept: { _id: string; name: string };
  /** The duplicate to join it; null: closed. */
  candidate: DuplicateCandidate | null;
  onClose: () => void;
  onMerged: (result: MergeResult, candidate: DuplicateCandidate) => void;
}

/**
 * Asks before merging, saying what happens: which person stays, that every conversation and
 * message passes to it, and that the duplicate stops existing (decision 0029). The destructive
 * button says what it does («Unir contactos») and shows progress; the dialog cannot be closed
 * while the merge runs, and a failure is told here (nothing changed).
 */
export function MergeDialog({ kept, candidate, onClose, onMerged }: MergeDialogProps) {
  const titleId = useId();
  const merge = useMergePerson();
  const close = () => {
    if (merge.isPending) return;
    merge.reset();
    onClose();
  };
  const confirm = () => {
    if (!candidate) return;
    merge.mutate(
      { keptId: kept._id, duplicateId: candidate._id },
      {
        onSuccess: (result) => {
          merge.reset();
          onMerged(result, candidate);
        },
      },
    );
  };
  const failure = merge.error instanceof ApiError ? (merge.error.messages[0] ?? personTexts.mergeFailed) : merge.error ? personTexts.mergeFailed : undefined;

  return (
    <Dialog open={!!candidate} onClose={close} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{personTexts.mergeTitle}</DialogTitle>
      {candidate && (
        <DialogContent sx={{ display: 'grid', gap: 1.5 }}>
          <Typography sx={{ fontWeight: 600 }}>{personTexts.mergeWhat(candidate.name, kept.name)}</Typography>
          <Typography variant="body2">{personTexts.mergeMoves(candidate.chats, candidate.messages, kept.name)}</Typography>
          <Typography variant="body2">{personTexts.mergeKeeps(kept.name)}</Typography>
          <Typography variant="body2" color="error.main">
            {personTexts.mergeGone(candidate.name)}
          </Typography>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={merge.isPending}>
          {personTexts.cancel}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={confirm}
          disabled={merge.isPending}
          startIcon={merge.isPending ? <CircularProgress size={16} color="inherit" /> : <MergeTypeIcon />}
        >
          <Box component="span">{merge.isPending ? personTexts.merging : personTexts.mergeConfirm}</Box>
        </Button>
      </DialogActions>
    </Dialog>
  );
}
