import SendIcon from '@mui/icons-material/Send';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { Link as RouterLink } from 'react-router';
import type { ResourceRecord } from '../../components/crud/types';

/** «Enviar» on a segment's row: the massive messages' composer with this segment chosen (decision 0043). */
export function SegmentSendAction({ row }: { row: ResourceRecord }) {
  return (
    <Tooltip title="Enviar un mensaje masivo">
      <IconButton size="small" component={RouterLink} to={`/marketing/massive-messages?segment=${encodeURIComponent(row._id)}`} aria-label={`Enviar un mensaje masivo: ${String(row.name ?? '')}`}>
        <SendIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
