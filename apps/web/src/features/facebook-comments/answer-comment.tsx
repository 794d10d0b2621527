import { commentReplyModeLabels, type CommentReplyMode } from '@mostrador/contract';
import ReplyIcon from '@mui/icons-material/Reply';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ResourceRecord } from '../../components/crud/types';
import { ApiError } from '../../lib/api-client';
import { resourceKeys } from '../../lib/query-keys';
import { commentsApi } from './api';

const hints: Record<CommentReplyMode, string> = {
  private: 'Le llega por Messenger y abre un chat con la persona. Facebook permite una sola respuesta privada por comentario, hasta 7 días después.',
  public: 'Se publica como respuesta debajo de su comentario, a la vista de todos.',
};

/**
 * «Responder» on a row of /comentarios-sin-respuesta (decision 0049): a public reply under the
 * comment or a private one in Messenger. On success the comment leaves the list and the screen
 * says what was done instead of 'Registro actualizado con éxito'.
 */
export function AnswerComment({ row }: { row: ResourceRecord }) {
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<CommentReplyMode>('private');
  const [text, setText] = useState('');
  const titleId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const queryClient = useQueryClient();
  const facebook = row.platform === 'facebook' && !!row.commentId;
  const answer = useMutation({
    mutationFn: () => commentsApi.answer(String(row._id), { mode, text: text.trim() }),
    onSuccess: () => {
      setOpen(false);
      setText('');
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: resourceKeys('comments-without-responses').all }),
        queryClient.invalidateQueries({ queryKey: resourceKeys('comment-rules').all }),
      ]);
    },
  });
  const failure = answer.error instanceof ApiError ? answer.error.message : answer.error ? 'No se pudo enviar la respuesta' : undefined;
  const name = String(row.authorName ?? '');
  if (!facebook) return null;
  return (
    <>
      <Tooltip title={`Responder a ${name}`}>
        <IconButton
          size="small"
          aria-label={`Responder a ${name}`}
          onClick={(e) => {
            e.stopPropagation();
            answer.reset();
            setOpen(true);
          }}
        >
          <ReplyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone} onClick={(e) => e.stopPropagation()}>
        <DialogTitle id={titleId}>Responder a {name}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2, whiteSpace: 'pre-wrap' }}>
            «{String(row.message ?? '')}»
          </Typography>
          <RadioGroup row value={mode} onChange={(e) => setMode(e.target.value as CommentReplyMode)} aria-label="Forma de responder">
            {(['private', 'public'] as const).map((m) => (
              <FormControlLabel key={m} value={m} control={<Radio />} label={commentReplyModeLabels[m]} />
            ))}
          </RadioGroup>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1.5 }}>
            {hints[mode]}
          </Typography>
          <TextField
            label="Respuesta"
            value={text}
            onChange={(e) => setText(e.target.value)}
            multiline
            minRows={3}
            fullWidth
            autoFocus
            slotProps={{ htmlInput: { maxLength: 2000 } }}
          />
          {failure ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancelar</Button>
          <Button variant="contained" disabled={!text.trim() || answer.isPending} onClick={() => answer.mutate()}>
            {mode === 'private' ? 'Enviar por Messenger' : 'Publicar respuesta'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
