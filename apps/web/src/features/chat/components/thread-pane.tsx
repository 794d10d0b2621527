import type { ChatMessage, ChatSummary, SendMessageInput } from '@mostrador/contract';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ChatOutlinedIcon from '@mui/icons-material/ChatOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { ChannelIcon } from '../../../components/ui/channel-icon';
import { ApiError } from '../../../lib/api-client';
import { usePermissions } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import { newTempId, useDeleteMessage, useSendMessage, useThread } from '../hooks/use-chat-data';
import { type ChatStatusEffects, useAddNote, useChatState, useRetryMessage, useSetChatStatus } from '../hooks/use-composer-data';
import { useRerenderAt } from '../hooks/use-now';
import { type ThreadData, threadChat, threadMessages, upsertMessage } from '../lib/cache';
import { dayKey, dayLabel, fullDateTime, windowIsOpen } from '../../../lib/time';
import { channelNames, chatTexts } from '../texts';
import { ChatActions } from './chat-actions';
import { CreateOrderButton } from './create-order-dialog';
import { Composer } from './composer';
import { ScheduledStrip } from './scheduled-messages';
import { MessageBubble } from './message-bubble';
import { chatKeys } from '../../../lib/query-keys';

/** How close to the bottom (px) still counts as "at the bottom": new messages then scroll into view. */
const STICK_DISTANCE = 160;

/** Whether free-form messages are closed for this chat (WhatsApp only: 24 h after the customer's last message). */
export function isOutsideWindow(chat: Pick<ChatSummary, 'platform' | 'windowOpenUntil'> | undefined, now = Date.now()): boolean {
  return chat?.platform === 'whatsapp' && !windowIsOpen(chat.windowOpenUntil, now);
}

export interface ThreadPaneProps {
  chatId: string;
  /** The chat's summary from the inbox, shown while the thread loads. */
  summary?: ChatSummary;
  canDelete: boolean;
  /** Phones: back to the list. */
  onBack?: () => void;
  panelOpen: boolean;
  onTogglePanel: () => void;
  markRead: (chatId: string) => void;
  /** Resolving, snoozing, reopening: what the inbox does with it (decision 0076). */
  statusEffects?: ChatStatusEffects;
}

/** The open conversation: header, the 24-hour banner, the messages (older on demand) and the composer. */
export function ThreadPane({ chatId, summary, canDelete, onBack, panelOpen, onTogglePanel, markRead, statusEffects }: ThreadPaneProps) {
  const confirm = useConfirm();
  const thread = useThread(chatId);
  const send = useSendMessage(chatId);
  const remove = useDeleteMessage(chatId);
  const chat = threadChat(thread.data) ?? summary;
  const messages = useMemo(() => threadMessages(thread.data), [thread.data]);
  const [refusal, setRefusal] = useState<string>();
  const permissions = usePermissions();
  const { user } = useSession();
  const channelState = useChatState(chatId);
  const state = channelState.data?.chatId === chatId ? channelState.data : undefined;
  const retry = useRetryMessage(chatId);
  const addNote = useAddNote(chatId);
  const setStatus = useSetChatStatus(chatId, statusEffects);
  // the window closes while the chat is open: the composer locks at that moment
  useRerenderAt(state?.windowOpenUntil ?? (chat?.platform === 'whatsapp' ? chat.windowOpenUntil : undefined));
  const closed = isOutsideWindow(chat);
  const chatStatus = state?.status ?? chat?.status;

  // Opening a chat reads it.
  useEffect(() => {
    markRead(chatId);
    setRefusal(undefined);
  }, [chatId, markRead]);

  // Scrolling: open at the bottom; keep the place when older messages come in above; follow
  // new ones while the reader is at the bottom, else offer a jump.
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const fromBottom = useRef(0);
  const shown = useRef<{ chatId: string; last?: string } | null>(null);
  const [unseen, setUnseen] = useState(false);
  const toBottom = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
    fromBottom.current = 0;
    setUnseen(false);
  }, []);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const last = messages.at(-1);
    const before = shown.current;
    if (!before || before.chatId !== chatId) toBottom();
    else if (last && last._id !== before.last) {
      if (fromBottom.current < STICK_DISTANCE || last.direction === 'out') toBottom();
      else setUnseen(true);
    } else el.scrollTop = el.scrollHeight - el.clientHeight - fromBottom.current;
    shown.current = { chatId, last: last?._id };
  }, [messages, chatId, toBottom]);
  // Media that load later grow the thread: stay at the bottom when we were there.
  useEffect(() => {
    const el = content.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (fromBottom.current < STICK_DISTANCE && scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    fromBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight;
    if (fromBottom.current < STICK_DISTANCE && unseen) setUnseen(false);
  };

  const onSend = async (body: SendMessageInput): Promise<boolean> => {
    try {
      await send.mutateAsync({ body, tempId: newTempId() });
      setRefusal(undefined);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setRefusal(error.messages[0]);
        // the channel's state changed under us (window closed, channel removed): ask again
        void channelState.refetch();
      }
      return false;
    }
  };

  // a WhatsApp template sent from the composer (decision 0038): it joins the thread at once
  const queryClient = useQueryClient();
  const { companyId: currentCompany } = useSession();
  const onTemplateSent = (message: ChatMessage) => {
    queryClient.setQueryData<ThreadData>(chatKeys.thread(chatId, currentCompany), (data) => upsertMessage(data, message));
    setRefusal(undefined);
  };

  const onNote = async (text: string): Promise<boolean> => {
    try {
      await addNote.mutateAsync(text);
      return true;
    } catch {
      // the api client already showed why
      return false;
    }
  };

  const onRetry = (message: ChatMessage) => {
    retry.mutate(message._id);
  };

  const onDelete = async (message: ChatMessage) => {
    if (!(await confirm({ message: chatTexts.confirmDeleteMessage }))) return;
    try {
      await remove.mutateAsync(message._id);
    } catch {
      // The api client already showed why.
    }
  };

  const now = Date.now();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0, bgcolor: '#F4F5FA' }} aria-label={chat?.contactName ?? chatTexts.title} role="region">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, px: { xs: 1, sm: 2 }, py: 1, minHeight: 60, bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
        {onBack && (
          <IconButton aria-label={chatTexts.backToList} onClick={onBack} edge="start">
            <ArrowBackIcon />
          </IconButton>
        )}
        {chat ? (
          <>
            <Avatar sx={{ bgcolor: '#EEEAF9', width: 40, height: 40, display: { xs: 'none', sm: 'flex' } }}>
              <ChannelIcon platform={chat.platform} label={channelNames[chat.platform]} />
            </Avatar>
            <Box sx={{ minWidth: 0, flex: 1 }}>
              <Typography variant="h2" component="h2" noWrap sx={{ fontSize: '1.05rem' }} data-testid="thread-title">
                {chat.contactName}
              </Typography>
              <Typography variant="caption" color="text.secondary" noWrap component="p" data-testid="thread-subtitle">
                {[
                  channelNames[chat.platform],
                  chat.lead?.telefono,
                  chatStatus === 'closed' ? chatTexts.resolved : undefined,
                  chatStatus === 'snoozed' && state?.snoozedUntil ? chatTexts.snoozedUntil(fullDateTime(state.snoozedUntil)) : undefined,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Typography>
            </Box>
          </>
        ) : (
          <Box sx={{ flex: 1 }}>
            <Skeleton width={180} height={28} />
          </Box>
        )}
        {chat && permissions.can('chats', 'create') && <CreateOrderButton chatId={chat._id} />}
        {chat && (
          <ChatActions
            status={chatStatus ?? 'open'}
            busy={setStatus.isPending}
            onStatus={(body) => setStatus.mutate(body)}
          />
        )}
        <Tooltip title={panelOpen ? chatTexts.hidePanel : chatTexts.showPanel}>
          <IconButton aria-label={panelOpen ? chatTexts.hidePanel : chatTexts.showPanel} aria-pressed={panelOpen} onClick={onTogglePanel} color={panelOpen ? 'primary' : 'default'}>
            <InfoOutlinedIcon />
          </IconButton>
        </Tooltip>
      </Box>

      <Box sx={{ position: 'relative', flex: 1, minHeight: 0 }}>
        <Box ref={scroller} onScroll={onScroll} sx={{ position: 'absolute', inset: 0, overflowY: 'auto', overscrollBehavior: 'contain' }} data-testid="thread-scroller">
          <Box ref={content} role="log" aria-live="polite" aria-label={chatTexts.messages} sx={{ py: 1.5 }}>
            {thread.hasNextPage && (
              <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
                <Button size="small" variant="outlined" onClick={() => void thread.fetchNextPage()} disabled={thread.isFetchingNextPage} sx={{ bgcolor: 'background.paper' }}>
                  {thread.isFetchingNextPage ? <CircularProgress size={16} /> : chatTexts.loadOlder}
                </Button>
              </Box>
            )}
            {thread.isLoading && (
              <Box sx={{ display: 'grid', gap: 1.5, px: 2.5 }}>
                {[180, 240, 140, 260].map((w, i) => (
                  <Skeleton key={w} variant="rounded" width={w} height={44} sx={{ justifySelf: i % 2 ? 'end' : 'start' }} />
                ))}
              </Box>
            )}
            {thread.isError && (
              <Box sx={{ p: 3, textAlign: 'center' }}>
                <Typography color="text.secondary" gutterBottom>
                  {chatTexts.threadError}
                </Typography>
                <Button onClick={() => void thread.refetch()}>{chatTexts.retry}</Button>
              </Box>
            )}
            {thread.isSuccess && messages.length === 0 && (
              <Box sx={{ display: 'grid', justifyItems: 'center', gap: 1, color: 'text.secondary', py: 6 }}>
                <ChatOutlinedIcon />
                <Typography variant="body2">{chatTexts.noMessages}</Typography>
              </Box>
            )}
            {messages.map((message, index) => {
              const previous = messages[index - 1];
              const newDay = !previous || dayKey(previous.sentAt) !== dayKey(message.sentAt);
              return (
                <Fragment key={message._id}>
                  {newDay && (
                    <Divider sx={{ my: 1.5, px: 3, '&::before, &::after': { borderColor: 'divider' } }}>
                      <Chip size="small" label={dayLabel(message.sentAt, now)} sx={{ bgcolor: 'background.paper', border: 1, borderColor: 'divider', fontWeight: 500 }} />
                    </Divider>
                  )}
                  <MessageBubble
                    message={message}
                    onDelete={canDelete ? onDelete : undefined}
                    onRetry={onRetry}
                    retrying={retry.isPending && retry.variables === message._id}
                  />
                </Fragment>
              );
            })}
          </Box>
        </Box>
        {unseen && (
          <Button
            size="small"
            variant="contained"
            startIcon={<ArrowDownwardIcon />}
            onClick={toBottom}
            sx={{ position: 'absolute', bottom: 12, left: '50%', transform: 'translateX(-50%)', borderRadius: 5, boxShadow: 2 }}
          >
            {chatTexts.newMessages}
          </Button>
        )}
      </Box>

      <ScheduledStrip key={`scheduled-${chatId}`} chatId={chatId} />
      <Composer
        key={chatId}
        chatId={chatId}
        autoFocus={!onBack}
        closed={closed}
        state={state}
        canConnect={permissions.can('integrations', 'update')}
        sending={send.isPending || addNote.isPending || !chat}
        onSend={onSend}
        onNote={onNote}
        refusal={refusal}
        variables={{ nombre: chat?.lead?.name || chat?.contactName, telefono: chat?.lead?.telefono, agente: user?.first_name }}
        onTemplateSent={onTemplateSent}
        schedule={permissions.can('chats', 'create')}
      />
    </Box>
  );
}
