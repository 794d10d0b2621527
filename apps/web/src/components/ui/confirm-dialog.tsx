import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmOptions {
  message: ReactNode;
  /** Defaults to 'Advertencia' (SPEC §9). */
  title?: ReactNode;
}

type Confirm = (options: ConfirmOptions | string) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/** Holds the one confirmation dialog of the app; `useConfirm()` opens it. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((value: boolean) => void) | null>(null);

  const confirm = useCallback<Confirm>((next) => {
    resolver.current?.(false);
    setOptions(typeof next === 'string' ? { message: next } : next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const settle = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOptions(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog
        open={!!options}
        onClose={() => settle(false)}
        aria-labelledby="confirm-dialog-title"
        aria-describedby="confirm-dialog-message"
        maxWidth="xs"
        fullWidth
      >
        <DialogTitle id="confirm-dialog-title">{options?.title ?? t('confirm.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText id="confirm-dialog-message" component="div">
            {options?.message}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => settle(false)}>{t('confirm.cancel')}</Button>
          <Button onClick={() => settle(true)} variant="contained" autoFocus>
            {t('confirm.accept')}
          </Button>
        </DialogActions>
      </Dialog>
    </ConfirmContext.Provider>
  );
}

/** `const confirm = useConfirm(); if (await confirm('¿Eliminar?')) …` */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside <ConfirmProvider>');
  return confirm;
}
