import type { BoardCard as Card } from '@mostrador/contract';
import { useDraggable } from '@dnd-kit/core';
import DragIndicator from '@mui/icons-material/DragIndicator';
import MoreVert from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { type KeyboardEventHandler, memo, type PointerEventHandler, useId, useState } from 'react';
import { ChannelIcon, channelLabel } from '../../../components/ui/channel-icon';
import { formatDateTime } from '../../../lib/company-time';
import { formatMoney, type Money } from '../../../lib/money';

export interface BoardCardProps {
  card: Card;
  /** The column it is in (its key). */
  stage: string;
  /** Every column, for «Mover a…». */
  columns: ReadonlyArray<{ stage: string; name: string }>;
  agentName?: string;
  labelName: (id: string) => string | undefined;
  money: Money;
  timeZone?: string;
  /** The role may move leads (leads · update). */
  canMove: boolean;
  onMove: (card: Card, toStage: string) => void;
}

/**
 * One lead on the board: name, channel, agent, labels, last message, open orders' value. It is
 * dragged by its handle (pointer or keyboard: Space to lift, arrows to another column, Space to
 * drop) or anywhere on it with a pointer; «Mover a…» moves it without dragging (phones, keyboards).
 */
export const BoardCardView = memo(function BoardCardView({ card, stage, columns, agentName, labelName, money, timeZone, canMove, onMove }: BoardCardProps) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: card._id, data: { card, stage }, disabled: !canMove });
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const menuId = useId();
  // dnd-kit's listeners are typed as plain functions: the pointer ones on the card, the keyboard ones on the handle
  const onPointerDown = listeners?.onPointerDown as PointerEventHandler<HTMLElement> | undefined;
  const onKeyDown = listeners?.onKeyDown as KeyboardEventHandler<HTMLButtonElement> | undefined;
  const labels = card.mostradorLabels.map(labelName).filter((l): l is string => Boolean(l));
  return (
    <Paper
      ref={setNodeRef}
      component="article"
      variant="outlined"
      aria-label={card.name}
      data-testid="board-card"
      onPointerDown={canMove ? onPointerDown : undefined}
      sx={{ p: 1.25, display: 'flex', flexDirection: 'column', gap: 0.5, opacity: isDragging ? 0.4 : 1, cursor: canMove ? 'grab' : 'default', touchAction: 'manipulation' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
        {canMove && (
          <IconButton
            size="small"
            {...attributes}
            onKeyDown={onKeyDown}
            aria-label={`Arrastrar a otra columna: ${card.name}`}
            sx={{ ml: -0.75, cursor: 'grab' }}
          >
            <DragIndicator fontSize="small" />
          </IconButton>
        )}
        <ChannelIcon platform={card.platform} fontSize="small" />
        <Typography component="h3" variant="body2" sx={{ fontWeight: 600, flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {card.name}
        </Typography>
        {canMove && (
          <IconButton
            size="small"
            aria-label={`Mover a…: ${card.name}`}
            aria-haspopup="menu"
            aria-controls={menu ? menuId : undefined}
            onPointerDown={(event) => event.stopPropagation()}
            onClick={(event) => setMenu(event.currentTarget)}
            sx={{ mr: -0.75 }}
          >
            <MoreVert fontSize="small" />
          </IconButton>
        )}
      </Box>
      <Typography variant="caption" color="text.secondary" component="p">
        {channelLabel(card.platform)} · {agentName ?? (card.agenteId ? 'Agente' : 'Sin agente')}
      </Typography>
      {labels.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }} aria-label="Etiquetas">
          {labels.map((l) => (
            <Chip key={l} label={l} size="small" variant="outlined" />
          ))}
        </Box>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'baseline' }}>
        <Typography variant="caption" color="text.secondary">
          {card.lastMessageAt ? <time dateTime={card.lastMessageAt}>{formatDateTime(card.lastMessageAt, timeZone)}</time> : 'Sin mensajes'}
        </Typography>
        {card.openOrderValue > 0 && (
          <Typography variant="caption" sx={{ fontWeight: 600 }} aria-label={`Órdenes abiertas: ${formatMoney(card.openOrderValue, money)}`}>
            {formatMoney(card.openOrderValue, money)}
          </Typography>
        )}
      </Box>
      <Menu id={menuId} anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
        <ListSubheader>Mover a…</ListSubheader>
        {columns.map((c) => (
          <MenuItem
            key={c.stage}
            disabled={c.stage === stage}
            onClick={() => {
              setMenu(null);
              onMove(card, c.stage);
            }}
          >
            {c.name}
          </MenuItem>
        ))}
      </Menu>
    </Paper>
  );
});
