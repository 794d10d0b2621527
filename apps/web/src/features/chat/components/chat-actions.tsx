import type { ChatStatus, ChatStatusInput } from '@mostrador/contract';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import NotificationsNoneIcon from '@mui/icons-material/NotificationsNone';
import ReplayIcon from '@mui/icons-material/Replay';
import SnoozeIcon from '@mui/icons-material/Snooze';
import VolumeUpOutlinedIcon from '@mui/icons-material/VolumeUpOutlined';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { askNotificationPermission, notificationPermission, playChime, setAlertPrefs, useAlertPrefs } from '../lib/alerts';
import { chatTexts } from '../texts';

type SnoozeChoice = keyof typeof chatTexts.snoozeOptions;

/** When a snooze choice ends, from now: 1 h, 3 h, tomorrow 9:00 (the browser's time), a week. */
export function snoozeUntil(choice: SnoozeChoice, now = new Date()): Date {
  if (choice === '1h') return new Date(now.getTime() + 3_600_000);
  if (choice === '3h') return new Date(now.getTime() + 3 * 3_600_000);
  if (choice === 'week') return new Date(now.getTime() + 7 * 86_400_000);
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  tomorrow.setHours(9, 0, 0, 0);
  return tomorrow;
}

export interface ChatActionsProps {
  status: ChatStatus;
  busy: boolean;
  onStatus: (body: ChatStatusInput) => void;
}

/**
 * The thread header's actions: resolve (or reopen) the chat, snooze it until a time, and the
 * new-message alerts (browser notification, sound) of this browser.
 */
export function ChatActions({ status, busy, onStatus }: ChatActionsProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const prefs = useAlertPrefs();
  const permission = notificationPermission();
  const close = () => setAnchor(null);
  const open = status !== 'open';

  const toggleNotify = async () => {
    if (prefs.notify) return setAlertPrefs({ notify: false });
    const granted = await askNotificationPermission();
    setAlertPrefs({ notify: granted });
  };

  return (
    <>
      <Tooltip title={open ? chatTexts.reopen : chatTexts.resolve}>
        <span>
          <IconButton
            aria-label={open ? chatTexts.reopen : chatTexts.resolve}
            onClick={() => onStatus({ status: open ? 'open' : 'closed' })}
            disabled={busy}
            color={status === 'closed' ? 'success' : 'default'}
          >
            {open ? <ReplayIcon /> : <CheckCircleOutlineIcon />}
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={chatTexts.chatActions}>
        <IconButton aria-label={chatTexts.chatActions} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
          <MoreVertIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={close} slotProps={{ paper: { sx: { minWidth: 260 } } }}>
        <ListSubheader sx={{ lineHeight: '32px' }}>{chatTexts.snooze}</ListSubheader>
        {(Object.keys(chatTexts.snoozeOptions) as SnoozeChoice[]).map((choice) => (
          <MenuItem
            key={choice}
            disabled={busy}
            onClick={() => {
              close();
              onStatus({ status: 'snoozed', snoozedUntil: snoozeUntil(choice).toISOString() });
            }}
          >
            <ListItemIcon>
              <SnoozeIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={chatTexts.snoozeFor(chatTexts.snoozeOptions[choice])} />
          </MenuItem>
        ))}
        <Divider />
        <ListSubheader sx={{ lineHeight: '32px' }}>{chatTexts.alerts}</ListSubheader>
        <MenuItem onClick={() => void toggleNotify()} disabled={permission === 'unsupported'}>
          <ListItemIcon>
            <NotificationsNoneIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={chatTexts.alertsNotify} secondary={permission === 'denied' ? chatTexts.alertsBlocked : undefined} />
          <Switch edge="end" size="small" checked={prefs.notify} tabIndex={-1} slotProps={{ input: { 'aria-label': chatTexts.alertsNotify } }} />
        </MenuItem>
        <MenuItem
          onClick={() => {
            const sound = !prefs.sound;
            setAlertPrefs({ sound });
            if (sound) playChime();
          }}
        >
          <ListItemIcon>
            <VolumeUpOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={chatTexts.alertsSound} />
          <Switch edge="end" size="small" checked={prefs.sound} tabIndex={-1} slotProps={{ input: { 'aria-label': chatTexts.alertsSound } }} />
        </MenuItem>
        <ListItemText secondary={chatTexts.alertsHint} sx={{ px: 2, pb: 1, maxWidth: 280 }} />
      </Menu>
    </>
  );
}
