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
  onSettle: (accepted: boolean) => void;
}

/** SPEC §9: title 'Advertencia', buttons 'Aceptar' and 'Cancelar'. */
export function ConfirmDialogView({ open, title, message, onSettle }: ConfirmDialogViewProps) {
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
        <Button onClick={() => onSettle(false)}>{t('confirm.cancel')}</Button>
        <Button onClick={() => onSettle(true)} variant="contained" autoFocus>
          {t('confirm.accept')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default ConfirmDialogView;
