import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useRef, useState } from 'react';

const ConfirmDialogView = lazy(() => import('./confirm-dialog-view'));

export interface ConfirmOptions {
  message: ReactNode;
  /** Defaults to 'Advertencia' (SPEC §9). */
  title?: ReactNode;
  /**
   * What the accepting button says (default 'Aceptar'): an irreversible action names itself
   * ('Cancelar orden', decision 0030), and `destructive` paints it as such.
   */
  acceptLabel?: string;
  /** What the dismissing button says (default 'Cancelar'; 'Volver' when the action itself is a cancelling). */
  cancelLabel?: string;
  destructive?: boolean;
}

export type Confirm = (options: ConfirmOptions | string) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/** Holds the one confirmation dialog of the app; `useConfirm()` opens it. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  // The last options stay while the dialog fades out; `open` drives visibility.
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const [open, setOpen] = useState(false);
  const resolver = useRef<((value: boolean) => void) | null>(null);

  const confirm = useCallback<Confirm>((next) => {
    resolver.current?.(false);
    setOptions(typeof next === 'string' ? { message: next } : next);
    setOpen(true);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const settle = useCallback((value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOpen(false);
  }, []);

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {options && (
        <Suspense fallback={null}>
          <ConfirmDialogView
            open={open}
            title={options.title}
            message={options.message}
            acceptLabel={options.acceptLabel}
            cancelLabel={options.cancelLabel}
            destructive={options.destructive}
            onSettle={settle}
          />
        </Suspense>
      )}
    </ConfirmContext.Provider>
  );
}

/** `const confirm = useConfirm(); if (await confirm('¿Eliminar el registro?')) …` — resolves true on Aceptar. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside <ConfirmProvider>');
  return confirm;
}
