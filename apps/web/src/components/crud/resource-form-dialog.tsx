import CloseIcon from '@mui/icons-material/Close';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useEffect, useId, useState } from 'react';
import { useT } from '../../i18n';
import { HistoryLink } from './history-link';
import { ResourceFormFields, useResourceForm } from './resource-form';
import type { ResourceRecord, ScreenConfig } from './types';

export interface ResourceFormDialogProps {
  config: ScreenConfig;
  /** The record to edit; none to create. */
  record?: ResourceRecord;
  onClose: () => void;
}

function DialogBody({ config, record, onClose, titleId }: ResourceFormDialogProps & { titleId: string }) {
  const t = useT();
  const formId = useId();
  const form = useResourceForm(config, record, onClose);
  return (
    <>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        {record ? config.editLabel : config.newLabel}
        <IconButton aria-label={t('crud.cancel')} onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        <ResourceFormFields config={config} form={form} record={record} id={formId} />
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        {record && <HistoryLink entity={config.resource.key} entityId={record._id} sx={{ mr: 'auto' }} />}
        <Button onClick={onClose}>{t('crud.cancel')}</Button>
        <Button type="submit" form={formId} variant="contained" disabled={form.pending}>
          {t('crud.save')}
        </Button>
      </DialogActions>
    </>
  );
}

/** The create / edit form of a list screen, in a dialog (full screen on phones). */
export function ResourceFormDialog({ config, record, onClose, open }: ResourceFormDialogProps & { open: boolean }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  // The form stays while the dialog fades out, and starts afresh at the next opening.
  const [mounted, setMounted] = useState(open);
  useEffect(() => {
    if (open) setMounted(true);
  }, [open]);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
      aria-labelledby={titleId}
      slotProps={{ transition: { onExited: () => setMounted(false) } }}
    >
      {(open || mounted) && <DialogBody key={record?._id ?? 'new'} config={config} record={record} onClose={onClose} titleId={titleId} />}
    </Dialog>
  );
}
