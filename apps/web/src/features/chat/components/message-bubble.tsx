import { type ChatMessage, chatMessageStatusLabels } from '@mostrador/contract';
import BlockIcon from '@mui/icons-material/Block';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import MarkChatReadOutlinedIcon from '@mui/icons-material/MarkChatReadOutlined';
import StickyNote2OutlinedIcon from '@mui/icons-material/StickyNote2Outlined';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { clockTime, fullDateTime } from '../../../lib/time';
import { chatTexts, kindTexts } from '../texts';
import { MessageContent } from './message-content';
import { MessageStatus } from './message-status';
import { canSuggest, ReplySuggestion } from './reply-suggestion';

export interface MessageBubbleProps {
  message: ChatMessage;
  /** Shows the delete button (not for agents, not for deleted or unsent messages, never on the customer's own messages). */
  onDelete?: (message: ChatMessage) => void;
  /** «Reintentar» on a failed message of ours (not for notes). */
  onRetry?: (message: ChatMessage) => void;
  /** This message's retry is on its way. */
  retrying?: boolean;
}

const noteColors = { bg: '#FFF4CC', border: '#E7C766', text: '#6B4E00' } as const;

/** Why a message of ours failed (the provider's reason) and «Reintentar». */
function Failure({ message, onRetry, retrying }: Pick<MessageBubbleProps, 'message' | 'onRetry' | 'retrying'>) {
  const reason = message.statusError?.trim();
  return (
    <Box data-testid="message-failure" sx={{ mt: 0.75, pt: 0.75, borderTop: 1, borderColor: 'rgba(211, 47, 47, 0.25)', display: 'grid', gap: 0.5 }}>
      <Typography variant="caption" sx={{ color: 'error.main', fontWeight: 600, lineHeight: 1.35 }}>
        {reason ? `${chatMessageStatusLabels.failed}: ${reason}` : chatMessageStatusLabels.failed}
      </Typography>
      {onRetry && (
        <Button
          size="small"
          color="error"
          variant="outlined"
          startIcon={retrying ? <CircularProgress size={14} color="inherit" /> : <ReplayIcon />}
          disabled={retrying}
          onClick={() => onRetry(message)}
          sx={{ justifySelf: 'start', py: 0.125, bgcolor: 'background.paper' }}
        >
          {retrying ? chatTexts.retrying : chatTexts.retryMessage}
        </Button>
      )}
    </Box>
  );
}

/** One message of the thread: the customer's on the left, ours on the right with its delivery state. */
export function MessageBubble({ message, onDelete, onRetry, retrying = false }: MessageBubbleProps) {
  const out = message.direction === 'out';
  const note = message.kind === 'note';
  const deleted = !message.isActive;
  const failed = out && !note && !deleted && message.status === 'failed';
  const deletable = !!onDelete && out && !deleted && !message._id.startsWith('temp-');
  // «Sugerir respuesta» (decision 0087) on the customer's text messages
  const suggestible = canSuggest(message);
  return (
    <Box
      data-testid="message"
      data-message-id={message._id}
      data-direction={message.direction}
      data-kind={message.kind}
      sx={{ display: 'flex', justifyContent: out ? 'flex-end' : 'flex-start', px: { xs: 1.5, sm: 2.5 }, py: 0.375, pb: message.content?.reaction ? 1.75 : 0.375 }}
    >
      <Box
        sx={{
          position: 'relative',
          maxWidth: { xs: '85%', md: '70%' },
          minWidth: 88,
          px: 1.5,
          pt: 1,
          pb: 0.5,
          borderRadius: 2.5,
          borderTopRightRadius: out ? 6 : undefined,
          borderTopLeftRadius: out ? undefined : 6,
          bgcolor: note ? noteColors.bg : out ? '#E9E5F8' : 'background.paper',
          border: note ? '1px dashed' : out ? 0 : 1,
          borderColor: note ? noteColors.border : 'divider',
          boxShadow: '0 1px 1px rgba(16, 24, 40, 0.04)',
          '& .message-actions': { opacity: 0, transition: 'opacity 120ms' },
          '&:hover .message-actions, & .message-actions:focus-within': { opacity: 1 },
          '@media (hover: none)': { '& .message-actions': { opacity: 1 } },
        }}
      >
        {note && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: noteColors.text, mb: 0.25 }} data-testid="note-label">
            <StickyNote2OutlinedIcon sx={{ fontSize: 15 }} />
            <Typography variant="caption" sx={{ fontWeight: 700, letterSpacing: 0.2 }}>
              {chatTexts.note}
            </Typography>
          </Box>
        )}
        {message.content?.bot && !deleted && (
          // sent by a Dialogflow bot (decision 0053): its name, and the handover when it passed the chat on
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'text.secondary', mb: 0.25 }} data-testid="bot-label">
            <SmartToyOutlinedIcon sx={{ fontSize: 15 }} />
            <Typography variant="caption" sx={{ fontWeight: 600 }}>
              {`Bot · ${message.content.bot.name}${message.content.bot.handoff ? ' · pasó el chat a una persona' : ''}`}
            </Typography>
          </Box>
        )}
        {message.content?.template && !deleted && (
          // a WhatsApp template sent from the composer (decision 0038): the text is its rendered copy
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'text.secondary', mb: 0.25 }} data-testid="template-label">
            <MarkChatReadOutlinedIcon sx={{ fontSize: 15 }} />
            <Typography variant="caption" sx={{ fontWeight: 600 }}>
              {`Plantilla · ${message.content.template.name}`}
            </Typography>
          </Box>
        )}
        {deleted ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, color: 'text.secondary', pr: 1 }}>
            <BlockIcon sx={{ fontSize: 16 }} />
            <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
              {chatTexts.deleted}
            </Typography>
          </Box>
        ) : (
          <Box sx={{ pr: deletable || suggestible ? 3 : 0 }}>
            <MessageContent message={message} />
          </Box>
        )}
        {suggestible && <ReplySuggestion message={message} />}
        {failed && <Failure message={message} onRetry={onRetry} retrying={retrying} />}
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 0.5, mt: 0.25, flexWrap: 'wrap' }}>
          <Tooltip title={fullDateTime(message.sentAt)}>
            <Typography component="time" dateTime={message.sentAt} variant="caption" color="text.secondary" sx={{ fontSize: '0.7rem' }}>
              {clockTime(message.sentAt)}
            </Typography>
          </Tooltip>
          {!deleted && <MessageStatus message={message} />}
        </Box>
        {message.content?.reaction && !deleted && (
          <Tooltip title={kindTexts.reactedWith}>
            <Box
              data-testid="message-reaction"
              aria-label={`${kindTexts.reactedWith}: ${message.content.reaction}`}
              sx={{
                position: 'absolute',
                bottom: -10,
                left: 8,
                px: 0.5,
                minWidth: 22,
                height: 22,
                lineHeight: '20px',
                textAlign: 'center',
                fontSize: 14,
                borderRadius: 11,
                bgcolor: 'background.paper',
                border: 1,
                borderColor: 'divider',
                boxShadow: '0 1px 2px rgba(16, 24, 40, 0.12)',
              }}
            >
              {message.content.reaction}
            </Box>
          </Tooltip>
        )}
        {deletable && (
          <Box className="message-actions" sx={{ position: 'absolute', top: 2, right: 2 }}>
            <Tooltip title={chatTexts.deleteMessage}>
              <IconButton size="small" aria-label={chatTexts.deleteMessage} onClick={() => onDelete(message)} sx={{ p: 0.5 }}>
                <DeleteOutlineIcon sx={{ fontSize: 18 }} />
              </IconButton>
            </Tooltip>
          </Box>
        )}
      </Box>
    </Box>
  );
}
