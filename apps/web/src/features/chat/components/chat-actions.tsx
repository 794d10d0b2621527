import { type ChatStatus, type ChatStatusInput, SNOOZE_MAX_DAYS } from '@mostrador/contract';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import EventIcon from '@mui/icons-material/EventOutlined';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import NotificationsNoneIcon from '@mui/icons-material/NotificationsNone';
import ReplayIcon from '@mui/icons-material/Replay';
import SnoozeIcon from '@mui/icons-material/Snooze';
import VolumeUpOutlinedIcon from '@mui/icons-material/VolumeUpOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useCompanyTimezone } from '../../../lib/company-time';
import { askNotificationPermission, notificationPermission, playChime, setAlertPrefs, useAlertPrefs } from '../lib/alerts';
import { instantOf, wallTime } from '../lib/zoned-time';
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
  const [picking, setPicking] = useState(false);
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
        <MenuItem
          disabled={busy}
          onClick={() => {
            close();
            setPicking(true);
          }}
        >
          <ListItemIcon>
            <EventIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={chatTexts.snoozePick} />
        </MenuItem>
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
      {picking && (
        <SnoozePicker
          onClose={() => setPicking(false)}
          onPick={(until) => {
            setPicking(false);
            onStatus({ status: 'snoozed', snoozedUntil: until.toISOString() });
          }}
        />
      )}
    </>
  );
}

/** Tomorrow 9:00 on the company's clock, as the picker starts. */
function tomorrowAtNine(timeZone: string | undefined): string {
  const [year, month, day] = wallTime(new Date(), timeZone).slice(0, 10).split('-').map(Number) as [number, number, number];
  return `${new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10)}T09:00`;
}

/** «Elegir fecha…»: until a date and time on the company's clock (decision 0076), within the contract's 90 days. */
function SnoozePicker({ onClose, onPick }: { onClose: () => void; onPick: (until: Date) => void }) {
  const timezone = useCompanyTimezone();
  const [value, setValue] = useState(() => tomorrowAtNine(timezone));
  const [error, setError] = useState('');
  const submit = () => {
    const until = instantOf(value, timezone);
    if (!until) return setError(chatTexts.snoozePickInvalid);
    if (until.getTime() <= Date.now()) return setError(chatTexts.snoozePickPast);
    if (until.getTime() > Date.now() + SNOOZE_MAX_DAYS * 86_400_000) return setError(chatTexts.snoozePickTooFar(SNOOZE_MAX_DAYS));
    onPick(until);
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="snooze-pick-title" maxWidth="xs" fullWidth>
      <DialogTitle id="snooze-pick-title">{chatTexts.snoozePickTitle}</DialogTitle>
      <DialogContent>
        <TextField
          type="datetime-local"
          label={chatTexts.snoozePickLabel}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError('');
          }}
          error={!!error}
          helperText={error || chatTexts.snoozePickHelp(timezone)}
          fullWidth
          autoFocus
          sx={{ mt: 1 }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: wallTime(new Date(), timezone), 'data-testid': 'snooze-pick-input' } }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') submit();
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{chatTexts.cancel}</Button>
        <Button variant="contained" onClick={submit}>
          {chatTexts.snoozePickConfirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
