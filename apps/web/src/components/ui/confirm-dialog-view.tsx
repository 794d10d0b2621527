import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { ReactNode } from 'react';
import { useT } from '../../i18n';

export interface ConfirmDialogViewProps {
  open: boolean;
  title?: ReactNode;
  message?: ReactNode;
  acceptLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
  onSettle: (accepted: boolean) => void;
}

/** SPEC §9: title 'Advertencia', buttons 'Aceptar' and 'Cancelar' (an irreversible action may name its own). */
export function ConfirmDialogView({ open, title, message, acceptLabel, cancelLabel, destructive, onSettle }: ConfirmDialogViewProps) {
  const t = useT();
  return (
    <Dialog
      open={open}
      onClose={() => onSettle(false)}
      aria-labelledby="confirm-dialog-title"
      aria-describedby="confirm-dialog-message"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="confirm-dialog-title">{title ?? t('confirm.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-dialog-message" component="div">
          {message}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onSettle(false)} autoFocus={destructive}>
          {cancelLabel ?? t('confirm.cancel')}
        </Button>
        <Button onClick={() => onSettle(true)} variant="contained" color={destructive ? 'error' : 'primary'} autoFocus={!destructive}>
          {acceptLabel ?? t('confirm.accept')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default ConfirmDialogView;
