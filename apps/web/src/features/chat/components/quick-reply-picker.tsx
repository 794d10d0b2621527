import BoltIcon from '@mui/icons-material/BoltOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Typography from '@mui/material/Typography';
import type { QuickReply } from '../hooks/use-composer-data';
import { chatTexts } from '../texts';

export interface QuickReplyPickerProps {
  id: string;
  anchorEl: HTMLElement | null;
  open: boolean;
  query: string;
  items: QuickReply[];
  /** Still loading the company's quick replies. */
  loading: boolean;
  highlighted: number;
  onHighlight: (index: number) => void;
  onPick: (reply: QuickReply) => void;
}

/**
 * The "/" picker of the composer: the company's quick replies filtered as the agent types,
 * above the box. The box keeps the focus; ↑ ↓ move, Enter or Tab insert, Esc closes.
 */
export function QuickReplyPicker({ id, anchorEl, open, query, items, loading, highlighted, onHighlight, onPick }: QuickReplyPickerProps) {
  return (
    <Popper open={open && !!anchorEl} anchorEl={anchorEl} placement="top-start" sx={{ zIndex: (t) => t.zIndex.modal, width: anchorEl?.clientWidth }}>
      <Paper elevation={6} sx={{ mb: 1, maxHeight: 320, overflowY: 'auto', border: 1, borderColor: 'divider' }} data-testid="quick-reply-picker">
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, px: 1.5, py: 0.75, borderBottom: 1, borderColor: 'divider', color: 'text.secondary' }}>
          <BoltIcon sx={{ fontSize: 18 }} />
          <Typography variant="caption">{chatTexts.quickRepliesTitle}</Typography>
        </Box>
        {items.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ px: 1.5, py: 1.25 }}>
            {loading ? chatTexts.loading : query ? chatTexts.quickRepliesNoMatch(query) : chatTexts.quickRepliesEmpty}
          </Typography>
        ) : (
          <Box component="ul" role="listbox" id={id} aria-label={chatTexts.quickRepliesTitle} sx={{ listStyle: 'none', m: 0, p: 0.5 }}>
            {items.map((reply, index) => (
              <Box
                component="li"
                role="option"
                id={`${id}-${index}`}
                key={reply._id}
                aria-selected={index === highlighted}
                // the box keeps the focus: pick on mouse down, before it would blur
                onMouseDown={(event) => {
                  event.preventDefault();
                  onPick(reply);
                }}
                onMouseEnter={() => onHighlight(index)}
                sx={{
                  px: 1,
                  py: 0.75,
                  borderRadius: 1,
                  cursor: 'pointer',
                  bgcolor: index === highlighted ? 'action.selected' : undefined,
                }}
              >
                <Typography variant="body2" sx={{ fontWeight: 600 }} component="span">
                  /{reply.atajo}
                </Typography>
                <Typography variant="body2" color="text.secondary" noWrap component="p">
                  {reply.texto}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </Paper>
    </Popper>
  );
}
