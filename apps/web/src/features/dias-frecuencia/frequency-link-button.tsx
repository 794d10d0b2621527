import type { FrequencyLink } from '@mostrador/contract';
import ContentCopy from '@mui/icons-material/ContentCopy';
import EventRepeat from '@mui/icons-material/EventRepeat';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { displayLocale } from '../../i18n';
import { copyText } from '../../lib/feedback';
import { usePermissions } from '../../lib/permissions';
import { frequencyApi } from './api';

/**
 * For staff, on a clean lead (the lead screens mount it): makes the /dias-frecuencia link to
 * send to the person, and shows it to copy. Hidden when the role may not update leads.
 */
export function FrequencyLinkButton({ cleanLeadId }: { cleanLeadId: string }) {
  const permissions = usePermissions();
  const titleId = useId();
  const [link, setLink] = useState<FrequencyLink | null>(null);
  const create = useMutation({ mutationFn: () => frequencyApi.link(cleanLeadId), onSuccess: setLink });
  if (!permissions.can('leads', 'update')) return null;

  const copy = () => link && copyText(link.url, 'Enlace copiado');
  const expires = link ? new Date(link.expiresAt).toLocaleDateString(displayLocale(), { dateStyle: 'long' }) : '';

  return (
    <>
      <Button variant="outlined" size="small" startIcon={<EventRepeat />} onClick={() => create.mutate()} disabled={create.isPending}>
        Enlace de frecuencia
      </Button>
      <Dialog open={!!link} onClose={() => setLink(null)} fullWidth maxWidth="sm" aria-labelledby={titleId}>
        <DialogTitle id={titleId}>Enlace de frecuencia de mensajes</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Envíale este enlace a la persona: en él elige cada cuánto quiere recibir mensajes o que no le escriban más. No necesita
            iniciar sesión. Vence el {expires}.
          </Typography>
          <TextField
            value={link?.url ?? ''}
            label="Enlace"
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, onFocus: (e: React.FocusEvent<HTMLInputElement>) => e.target.select() } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setLink(null)}>Cerrar</Button>
          <Button variant="contained" startIcon={<ContentCopy />} onClick={copy}>
            Copiar enlace
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
