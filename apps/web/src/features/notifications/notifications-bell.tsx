import type { NotificationList, NotificationOut } from '@mostrador/contract';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { usePermissions } from '../../lib/permissions';
import { notificationKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';
import { fullDateTime, relativeTime } from '../../lib/time';
import { notificationsApi } from './api';

export const bellTexts = {
  button: 'Avisos',
  title: 'Avisos',
  readAll: 'Marcar todas como leídas',
  empty: 'No tienes avisos',
};

/** How often the bell asks again when no live stream tells it (a role without the inbox, a lost connection). */
const POLL_MS = 60_000;

type Key = ReturnType<typeof notificationKeys.list>;

/** The cache after a notice was read (`id`) or all were (no id), until the server's answer replaces it. */
function markRead(queryClient: QueryClient, key: Key, id?: string) {
  const at = new Date().toISOString();
  queryClient.setQueryData<NotificationList>(key, (list) => {
    if (!list) return list;
    let read = 0;
    const payload = list.payload.map((n) => {
      if (n.readAt || (id && n._id !== id)) return n;
      read++;
      return { ...n, readAt: at };
    });
    return { payload, unread: id ? Math.max(0, list.unread - read) : 0 };
  });
}

/** Live: a notice for this person is put on top at once; a reconnection reads the list again. */
function LiveNotices({ queryKey, userId }: { queryKey: Key; userId: string }) {
  const queryClient = useQueryClient();
  useRealtimeEvents((m: RealtimeMessage) => {
    if (m.type === 'resync') {
      void queryClient.invalidateQueries({ queryKey });
      return;
    }
    if (m.type !== 'notification.created' || m.userId !== userId) return;
    queryClient.setQueryData<NotificationList>(queryKey, (list) => {
      if (!list) return list;
      if (list.payload.some((n) => n._id === m.notification._id)) return list;
      return { payload: [m.notification, ...list.payload], unread: list.unread + (m.notification.readAt ? 0 : 1) };
    });
  });
  return null;
}

function Notice({ notice, onOpen }: { notice: NotificationOut; onOpen: (n: NotificationOut) => void }) {
  const unread = !notice.readAt;
  const link = notice.link ? { component: RouterLink, to: notice.link } : {};
  return (
    <ListItemButton
      {...link}
      onClick={() => onOpen(notice)}
      data-unread={unread ? 'true' : undefined}
      sx={{ alignItems: 'flex-start', gap: 1.5, py: 1.25, px: 2, bgcolor: unread ? 'rgba(40, 21, 108, 0.04)' : undefined }}
    >
      <Box
        aria-hidden
        sx={{ mt: 0.75, width: 8, height: 8, borderRadius: 4, flexShrink: 0, bgcolor: unread ? 'primary.main' : 'transparent' }}
      />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: unread ? 600 : 500 }}>
          {notice.title}
          {unread && (
            <Box component="span" sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
              {' '}(sin leer)
            </Box>
          )}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {notice.body}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="time" dateTime={notice.createdAt} title={fullDateTime(notice.createdAt)}>
          {relativeTime(notice.createdAt)}
        </Typography>
      </Box>
    </ListItemButton>
  );
}

/**
 * The header's bell (decision 0075): the caller's notices in this company, newest first, with
 * the unread count on it; a notice opens where it is dealt with and is marked read; «Marcar
 * todas como leídas». Live through the company's stream when the role has it (GET /events needs
 * the inbox), else asked again each minute and when the tab comes back.
 */
export function NotificationsBell() {
  const { companyId, user } = useSession();
  const { can, ready } = usePermissions();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popoverId = useId();
  const headingId = useId();
  const userId = user?._id ?? '';
  const queryKey = notificationKeys.list({ companyId, userId });
  const query = useQuery({ queryKey, queryFn: notificationsApi.list, enabled: !!userId && !!companyId, refetchInterval: POLL_MS, meta: { quiet: true } });
  const settle = () => queryClient.invalidateQueries({ queryKey });
  const read = useMutation({
    mutationFn: (id: string) => notificationsApi.read(id),
    onMutate: (id) => markRead(queryClient, queryKey, id),
    onSettled: settle,
  });
  const readAll = useMutation({
    mutationFn: () => notificationsApi.readAll(),
    onMutate: () => markRead(queryClient, queryKey),
    onSettled: settle,
  });
  if (!userId) return null;
  const list = query.data?.payload ?? [];
  const unread = query.data?.unread ?? 0;
  const open = (notice: NotificationOut) => {
    if (!notice.readAt) read.mutate(notice._id);
    if (notice.link) setAnchor(null);
  };

  return (
    <>
      {ready && can('chats', 'list') && <LiveNotices queryKey={queryKey} userId={userId} />}
      <IconButton
        color="inherit"
        aria-label={unread ? `${bellTexts.button} (${unread} sin leer)` : bellTexts.button}
        aria-haspopup="dialog"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? popoverId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <Badge badgeContent={unread} max={99} color="error">
          <NotificationsOutlined />
        </Badge>
      </IconButton>
      <Popover
        id={popoverId}
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-labelledby': headingId,
            sx: { width: 'min(380px, calc(100vw - 16px))', maxHeight: 'min(520px, calc(100vh - 88px))', display: 'flex', flexDirection: 'column' },
          } as object,
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, px: 2, py: 1.25 }}>
          <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
            {bellTexts.title}
          </Typography>
          <Button size="small" onClick={() => readAll.mutate()} disabled={unread === 0 || readAll.isPending}>
            {bellTexts.readAll}
          </Button>
        </Box>
        <Divider />
        {list.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 4, textAlign: 'center' }}>
            {query.isPending ? 'Cargando…' : bellTexts.empty}
          </Typography>
        ) : (
          <List disablePadding aria-labelledby={headingId} sx={{ overflowY: 'auto' }}>
            {list.map((n, i) => (
              <Box key={n._id} component="li" sx={{ listStyle: 'none' }}>
                {i > 0 && <Divider component="div" />}
                <Notice notice={n} onOpen={open} />
              </Box>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
