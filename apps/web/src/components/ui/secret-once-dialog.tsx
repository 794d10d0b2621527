import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId } from 'react';
import { showSuccess } from '../../lib/feedback';

export const secretOnceTexts = {
  warning: 'Cópialo ahora y guárdalo en un lugar seguro: por seguridad, Mostrador no lo vuelve a mostrar.',
  copy: 'Copiar',
  copied: 'Copiado',
  done: 'Listo, ya lo copié',
} as const;

/**
 * A secret shown this once (an API key, a webhook's signing secret): read-only, with «Copiar»,
 * and how to use it below. Closing it is the only way out: a click outside does not lose it.
 */
export function SecretOnceDialog({
  open,
  title,
  label,
  secret,
  usage,
  example,
  onClose,
}: {
  open: boolean;
  title: string;
  label: string;
  secret: string;
  usage: string;
  example: string;
  onClose: () => void;
}) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  const titleId = useId();
  const copy = async () => {
    await navigator.clipboard?.writeText(secret);
    showSuccess(secretOnceTexts.copied);
  };
  return (
    <Dialog open={open} fullScreen={fullScreen} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <Alert severity="warning">{secretOnceTexts.warning}</Alert>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <TextField
            value={secret}
            label={label}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'secret-once', style: { fontFamily: 'monospace' } } }}
            onFocus={(e) => e.target.select()}
          />
          <Button variant="outlined" startIcon={<ContentCopy />} onClick={copy} sx={{ flexShrink: 0 }}>
            {secretOnceTexts.copy}
          </Button>
        </Box>
        <Box>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
            {usage}
          </Typography>
          <CodeBlock text={example} />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {secretOnceTexts.done}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A few lines of code an integrator copies. */
export function CodeBlock({ text }: { text: string }) {
  return (
    <Typography
      component="pre"
      variant="body2"
      sx={{ m: 0, p: 1.25, bgcolor: 'action.hover', borderRadius: 1, fontFamily: 'monospace', fontSize: '0.8rem', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {text}
    </Typography>
  );
}
