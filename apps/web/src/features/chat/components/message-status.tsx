import { type ChatMessage, chatMessageStatusLabels } from '@mostrador/contract';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import ScheduleIcon from '@mui/icons-material/Schedule';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { chatTexts } from '../texts';

const iconSx = { fontSize: 16, verticalAlign: 'middle' } as const;

/**
 * The delivery state of an outbound message: Pendiente (clock), Enviado (one tick),
 * Entregado (two ticks), Leído (two blue ticks), Fallido (red, with the provider's reason).
 */
export function MessageStatus({ message }: { message: Pick<ChatMessage, 'status' | 'statusError' | 'direction'> }) {
  // inbound messages and notes (status received) have no delivery state
  if (message.direction !== 'out' || message.status === 'received') return null;
  const label = chatMessageStatusLabels[message.status];
  if (message.status === 'failed') {
    // the reason and «Reintentar» sit in the bubble (message-bubble.tsx): here the red mark only
    const reason = message.statusError?.trim();
    return (
      <Tooltip title={reason ? `${chatTexts.failedReason}: ${reason}` : label}>
        <Box component="span" data-testid="message-status" data-status="failed" sx={{ display: 'inline-flex', alignItems: 'center', color: 'error.main' }}>
          <ErrorOutlineIcon sx={iconSx} titleAccess={label} />
        </Box>
      </Tooltip>
    );
  }
  const icon =
    message.status === 'pending' ? (
      <ScheduleIcon sx={iconSx} titleAccess={label} />
    ) : message.status === 'sent' ? (
      <DoneIcon sx={iconSx} titleAccess={label} />
    ) : (
      <DoneAllIcon sx={{ ...iconSx, color: message.status === 'read' ? '#34B7F1' : undefined }} titleAccess={label} />
    );
  return (
    <Tooltip title={label}>
      <Box component="span" data-testid="message-status" data-status={message.status} sx={{ display: 'inline-flex', color: 'text.secondary' }}>
        {icon}
      </Box>
    </Tooltip>
  );
}
