import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId } from 'react';

/** One part of a connection's settings after a test: it works, it is what to fix, or the test did not reach it. */
export type ConnectionCheck = { label: string; state: 'ok' | 'bad' | 'unknown'; detail: string };

/** What every «Probar conexión» answers: whether it worked and why, in Spanish. */
export interface ConnectionResult {
  ok: boolean;
  msg: string;
}

const checkIcons: Record<ConnectionCheck['state'], ReactNode> = {
  ok: <CheckCircle color="success" />,
  bad: <Cancel color="error" />,
  unknown: <HelpOutline color="disabled" />,
};

/**
 * A connection test's answer: «Probando…» while it goes, the result as a green or red alert, then
 * each part of the settings with its state (what to fix is marked, what was not reached says
 * «Sin probar») and what the screen adds under them.
 */
export function ConnectionChecks({
  pending,
  pendingText,
  failed,
  failedText,
  result,
  checks,
  testId,
  children,
}: {
  pending: boolean;
  /** «Probando la conexión con …». */
  pendingText: string;
  /** The test itself could not be asked (not a failed connection: that is a result). */
  failed: boolean;
  /** Why it could not be asked, when the server said (a permission, a missing setting). */
  failedText?: string;
  result?: ConnectionResult;
  checks?: ConnectionCheck[];
  /** The result alert's test id. */
  testId: string;
  children?: ReactNode;
}) {
  return (
    <>
      {pending && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }} role="status">
          <CircularProgress size={20} />
          <Typography>{pendingText}</Typography>
        </Box>
      )}
      {failed && <Alert severity="error">{failedText ?? 'No se pudo probar la conexión. Inténtalo de nuevo.'}</Alert>}
      {result && (
        <>
          <Alert severity={result.ok ? 'success' : 'error'} data-testid={testId}>
            {result.msg}
          </Alert>
          {checks && checks.length > 0 && (
            <List dense disablePadding aria-label="Comprobaciones">
              {checks.map((check) => (
                <ListItem key={check.label} disableGutters data-state={check.state}>
                  <ListItemIcon sx={{ minWidth: 36 }}>{checkIcons[check.state]}</ListItemIcon>
                  <ListItemText primary={check.label} secondary={check.detail} />
                </ListItem>
              ))}
            </List>
          )}
          {children}
        </>
      )}
    </>
  );
}

/**
 * «Probar conexión · {name}»: runs the test each time it opens (and on «Probar de nuevo») and shows
 * its answer with ConnectionChecks. Full screen on a phone.
 */
export function ConnectionTestDialog<R extends ConnectionResult>({
  name,
  open,
  onClose,
  run,
  onResult,
  subtitle,
  pendingText,
  testId,
  checksOf,
  children,
}: {
  name: string;
  open: boolean;
  onClose: () => void;
  run: () => Promise<R>;
  /** Keep the answer where the screen shows it (the row's «Conectada» chip, a list to read again). */
  onResult?: (result: R) => void;
  /** Under the title: what is being tested (the address). */
  subtitle?: ReactNode;
  pendingText: string;
  testId: string;
  checksOf?: (result: R) => ConnectionCheck[];
  /** What to add under the checks for this answer. */
  children?: (result: R) => ReactNode;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const test = useMutation({ mutationFn: run, onSuccess: onResult });
  const { mutate, reset } = test;
  useEffect(() => {
    if (open) mutate();
    else reset();
  }, [open, mutate, reset]);
  const result = test.data;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        Probar conexión · {name}
        <IconButton aria-label="Cerrar" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        {subtitle && (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {subtitle}
          </Typography>
        )}
        <ConnectionChecks pending={test.isPending} pendingText={pendingText} failed={test.isError} result={result} checks={result && checksOf?.(result)} testId={testId}>
          {result && children?.(result)}
        </ConnectionChecks>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => test.mutate()} disabled={test.isPending}>
          Probar de nuevo
        </Button>
        <Button variant="contained" onClick={onClose}>
          Cerrar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
