import { type Platform, platforms } from '@mostrador/contract';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDateTime, useCompanyTimezone } from '../../lib/company-time';
import { showSuccess } from '../../lib/feedback';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import type { InboxFilters } from './api';
import { ConversationList } from './components/conversation-list';
import { LeadPanel } from './components/lead-panel';
import { MassiveMessageDialog } from './components/massive-message-dialog';
import { ThreadPane } from './components/thread-pane';
import { useInbox, useMarkRead, useThread, useThreadByLead } from './hooks/use-chat-data';
import { useChatAlerts } from './hooks/use-chat-alerts';
import { useChatRealtime } from './hooks/use-chat-realtime';
import { type ChatStatusEffects, composerApi } from './hooks/use-composer-data';
import { type InboxStatusChoice, statusChoiceOf, statusOfChoice, statusParamOf } from './lib/inbox-status';
import { inboxChats, threadChat, type ThreadData } from './lib/cache';
import { chatTexts } from './texts';
import { chatKeys, composerKeys } from '../../lib/query-keys';

const LIST_WIDTH = { sm: 300, lg: 340 } as const;
const PANEL_WIDTH = 320;

const isPlatform = (value: string | null): value is Platform => !!value && (platforms as readonly string[]).includes(value);

function NoChatSelected() {
  return (
    <Box sx={{ height: '100%', display: 'grid', placeItems: 'center', bgcolor: '#F4F5FA', color: 'text.secondary', p: 3, textAlign: 'center' }}>
      <Box sx={{ display: 'grid', justifyItems: 'center', gap: 1 }}>
        <ForumOutlinedIcon sx={{ fontSize: 48, color: 'action.disabled' }} />
        <Typography>{chatTexts.pickChat}</Typography>
      </Box>
    </Box>
  );
}

/**
 * /chat: the inbox people answer customers from all day. Conversation list, the open thread
 * and the lead's side panel; on phones one pane at a time (list → thread → panel). Live
 * through the shared events stream. `?chatId=` opens a chat; `?leadId=&platform=` opens a
 * lead's chat on that platform (the lead screens link here).
 */
export function ChatPage() {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  // the panel sits beside the thread only where the menu, the list, the thread and the panel all fit (a 1280 px laptop keeps a readable thread)
  const wide = useMediaQuery(theme.breakpoints.up(1440));
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  const permissions = usePermissions();
  const [params, setParams] = useSearchParams();
  const chatId = params.get('chatId') ?? undefined;
  const leadId = params.get('leadId') ?? undefined;
  const leadPlatform = params.get('platform');

  // the «Estado» select (decision 0076): Abiertos unless ?estado= says otherwise
  const estadoParam = params.get('estado') ?? undefined;
  const statusChoice = statusChoiceOf(estadoParam);
  const keepEstado = useCallback((next: Record<string, string>) => (estadoParam ? { ...next, estado: estadoParam } : next), [estadoParam]);
  const changeStatus = (choice: InboxStatusChoice) => {
    const value = statusParamOf(choice);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set('estado', value);
        else next.delete('estado');
        return next;
      },
      { replace: false },
    );
  };

  const [filters, setFilters] = useState<InboxFilters>({});
  const listFilters = useMemo<InboxFilters>(() => ({ ...filters, status: statusOfChoice(statusChoice) }), [filters, statusChoice]);
  const inbox = useInbox(listFilters);
  const chats = useMemo(() => inboxChats(inbox.data), [inbox.data]);
  const thread = useThread(chatId);
  const openChat = threadChat(thread.data) ?? chats.find((c) => c._id === chatId);

  const markRead = useMarkRead();
  // the unread count in the tab title and the optional new-message alerts (issue 11)
  const alerts = useChatAlerts(chatId);
  useChatRealtime(chatId, markRead, alerts);

  // /chat?leadId=…&platform=…: find the chat, keep the thread it came with, and show it as ?chatId=.
  const byLead = useThreadByLead(leadId, isPlatform(leadPlatform) ? leadPlatform : undefined);
  useEffect(() => {
    const found = byLead.data;
    if (!found) return;
    queryClient.setQueryData<ThreadData>(chatKeys.thread(found.chat._id, companyId), (data) => data ?? { pages: [found], pageParams: [undefined] });
    setParams(keepEstado({ chatId: found.chat._id }), { replace: true });
  }, [byLead.data, queryClient, companyId, setParams, keepEstado]);

  // The side panel: beside the thread on wide screens, a drawer on narrower ones, a pane of its own on phones.
  const [panelChoice, setPanelChoice] = useState<boolean | null>(null);
  const panelOpen = panelChoice ?? (wide && !phone);

  // Phones open a chat on its thread, not on the panel left open before.
  const openChatById = useCallback(
    (id: string) => {
      if (phone) setPanelChoice(null);
      setParams(keepEstado({ chatId: id }), { replace: !phone && !!chatId });
    },
    [setParams, phone, chatId, keepEstado],
  );
  const backToList = () => {
    setPanelChoice(null);
    setParams(keepEstado({}), { replace: false });
  };

  // A chat resolved or snoozed under «Abiertos» leaves the list; the toast offers to undo it (decision 0076).
  const timezone = useCompanyTimezone();
  const [left, setLeft] = useState<{ id: number; chatId: string; text: string } | null>(null);
  const leavesList = statusChoice === 'open';
  const statusEffects = useMemo<ChatStatusEffects>(
    () => ({
      quietWhen: (body) => leavesList && body.status !== 'open',
      onChanged: (state, body) => {
        if (!leavesList || body.status === 'open') return setLeft(null);
        const text = state.status === 'snoozed' && state.snoozedUntil ? chatTexts.leftSnoozed(formatDateTime(state.snoozedUntil, timezone)) : chatTexts.leftResolved;
        setLeft({ id: Date.now(), chatId: state.chatId, text });
      },
    }),
    [leavesList, timezone],
  );
  const undo = async (chatId: string) => {
    setLeft(null);
    try {
      const state = await composerApi.setStatus(chatId, { status: 'open' }, true);
      queryClient.setQueryData(composerKeys.state(chatId, companyId), state);
      showSuccess(chatTexts.undone);
    } finally {
      void queryClient.invalidateQueries({ queryKey: chatKeys.inboxes() });
      void queryClient.invalidateQueries({ queryKey: chatKeys.countsAll() });
    }
  };

  // Mass message: checkbox mode in the list.
  const canSend = permissions.can('chats', 'create');
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [massiveOpen, setMassiveOpen] = useState(false);
  const names = useMemo(() => new Map(chats.map((c) => [c._id, c.contactName])), [chats]);

  // Another company's chats, agents and labels are not this one's: switching company goes back to the whole list.
  const shownCompany = useRef(companyId);
  useEffect(() => {
    if (shownCompany.current === companyId) return;
    shownCompany.current = companyId;
    setSelected(new Set());
    setFilters({});
    setParams({}, { replace: true });
  }, [companyId, setParams]);

  const selection = canSend
    ? {
        active: selecting,
        ids: selected,
        onActivate: (active: boolean) => {
          setSelecting(active);
          if (!active) setSelected(new Set());
        },
        onToggle: (id: string) =>
          setSelected((prev) => {
            const next = new Set(prev);
            if (next.has(id)) next.delete(id);
            else next.add(id);
            return next;
          }),
        onSend: () => setMassiveOpen(true),
      }
    : undefined;

  const list = (
    <ConversationList
      chats={chats}
      loading={inbox.isLoading}
      fetching={inbox.isFetching && !inbox.isFetchingNextPage}
      failed={inbox.isError}
      onRetry={() => void inbox.refetch()}
      hasMore={!!inbox.hasNextPage}
      loadingMore={inbox.isFetchingNextPage}
      onLoadMore={() => void inbox.fetchNextPage()}
      filters={filters}
      onFiltersChange={({ status: _status, ...next }) => setFilters(next)}
      statusChoice={statusChoice}
      onStatusChoiceChange={changeStatus}
      selectedId={chatId}
      onOpen={openChatById}
      selection={selection}
    />
  );
  const threadPane = chatId ? (
    <ThreadPane
      chatId={chatId}
      summary={openChat}
      canDelete={permissions.can('chats', 'delete')}
      onBack={phone ? backToList : undefined}
      panelOpen={panelOpen}
      onTogglePanel={() => setPanelChoice(!panelOpen)}
      markRead={markRead}
      statusEffects={statusEffects}
    />
  ) : (
    <NoChatSelected />
  );
  const panel = openChat ? <LeadPanel chat={openChat} onClose={() => setPanelChoice(false)} onBack={phone ? () => setPanelChoice(false) : undefined} /> : null;

  return (
    <Box
      sx={{
        // Edge to edge under the app bar: the inbox uses the whole screen.
        m: { xs: -2, sm: -3, md: -4 },
        // The app bar's height (MUI's toolbar: 56px, 48px on landscape phones, 64px from sm up).
        height: 'calc(100dvh - 56px)',
        '@media (orientation: landscape) and (max-width:599.95px)': { height: 'calc(100dvh - 48px)' },
        [theme.breakpoints.up('sm')]: { height: 'calc(100dvh - 64px)' },
        display: 'flex',
        overflow: 'hidden',
        bgcolor: 'background.paper',
      }}
      data-testid="chat-page"
    >
      {phone ? (
        <Box sx={{ flex: 1, minWidth: 0 }}>{!chatId ? list : panelOpen && panel ? panel : threadPane}</Box>
      ) : (
        <>
          <Box sx={{ width: LIST_WIDTH, flexShrink: 0, borderRight: 1, borderColor: 'divider', minWidth: 0 }}>{list}</Box>
          <Box sx={{ flex: 1, minWidth: 0 }}>{threadPane}</Box>
          {chatId && panel && wide && panelOpen && <Box sx={{ width: PANEL_WIDTH, flexShrink: 0, borderLeft: 1, borderColor: 'divider' }}>{panel}</Box>}
          {chatId && panel && !wide && (
            <Drawer
              anchor="right"
              open={panelOpen}
              onClose={() => setPanelChoice(false)}
              // Above the app bar (which the shell lifts over its own drawers).
              sx={{ zIndex: theme.zIndex.drawer + 2, '& .MuiDrawer-paper': { width: PANEL_WIDTH, maxWidth: '90vw' } }}
            >
              {panel}
            </Drawer>
          )}
        </>
      )}
      <Snackbar
        key={left?.id ?? 'left'}
        open={!!left}
        autoHideDuration={8000}
        onClose={(_, reason) => reason !== 'clickaway' && setLeft(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        message={left?.text}
        slotProps={{ content: { 'data-testid': 'chat-left-toast' } as object }}
        action={
          left && (
            <Button color="secondary" size="small" onClick={() => void undo(left.chatId)}>
              {chatTexts.undo}
            </Button>
          )
        }
      />
      {canSend && (
        <MassiveMessageDialog
          open={massiveOpen}
          chatIds={[...selected]}
          names={names}
          onClose={() => setMassiveOpen(false)}
          onSent={() => {
            setSelected(new Set());
            setSelecting(false);
          }}
        />
      )}
    </Box>
  );
}

export default ChatPage;
