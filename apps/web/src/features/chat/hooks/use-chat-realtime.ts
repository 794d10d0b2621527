import { useQueryClient } from '@tanstack/react-query';
import { type RealtimeMessage, useRealtimeEvents } from '../../../lib/realtime';
import { useSession } from '../../../lib/session';
import { patchMessage, type ThreadData, upsertMessage } from '../lib/cache';
import { storeChatSummary } from './use-chat-data';
import { chatKeys, composerKeys } from '../../../lib/query-keys';

/**
 * Keeps the chat screen live (lib/realtime's shared stream): a new message lands in its
 * thread (once, even if our own POST answered it too) and moves its chat to the top with its
 * unread badge; status changes update the ticks; a chat's new summary replaces the old one;
 * when the stream opens (the first time too), everything reloads. `openChatId` is the chat on screen: its
 * incoming messages are read at once (`markRead`).
 */
export function useChatRealtime(openChatId: string | undefined, markRead: (chatId: string) => void, onEvent?: (event: RealtimeMessage) => void): void {
  const queryClient = useQueryClient();
  const { companyId } = useSession();

  useRealtimeEvents((event: RealtimeMessage) => {
    switch (event.type) {
      case 'message.created': {
        const { chat, message } = event;
        queryClient.setQueryData<ThreadData>(chatKeys.thread(chat._id, companyId), (data) => upsertMessage(data, message));
        // an internal note changes nothing of the chat in the lists
        if (message.kind === 'note') break;
        // a customer's message opens the window (and a snoozed chat): the composer asks again
        if (message.direction === 'in') void queryClient.invalidateQueries({ queryKey: composerKeys.state(chat._id, companyId) });
        const reading = chat._id === openChatId && message.direction === 'in' && isVisible();
        storeChatSummary(queryClient, companyId, reading ? { ...chat, unreadCount: 0 } : chat, { toTop: true });
        if (reading) markRead(chat._id);
        break;
      }
      case 'message.updated':
        queryClient.setQueryData<ThreadData>(chatKeys.thread(event.chatId, companyId), (data) =>
          patchMessage(data, event.message._id, () => event.message),
        );
        break;
      case 'chat.updated':
        storeChatSummary(queryClient, companyId, event.chat);
        // resolved, snoozed or opened again elsewhere (or by its snooze ending)
        void queryClient.invalidateQueries({ queryKey: composerKeys.state(event.chat._id, companyId) });
        // a scheduled message went (or failed) at its minute: the strip above the composer
        void queryClient.invalidateQueries({ queryKey: chatKeys.scheduled(event.chat._id, companyId) });
        break;
      case 'lead.updated':
        // The lead shows inside chat summaries (status, agent, labels): reload the lists and the person's chats.
        void queryClient.invalidateQueries({ queryKey: chatKeys.inboxes() });
        void queryClient.invalidateQueries({ queryKey: chatKeys.people() });
        if (openChatId) {
          const open = queryClient.getQueryData<ThreadData>(chatKeys.thread(openChatId, companyId));
          if (open?.pages[0]?.chat.lead?._id === event.leadId) void queryClient.invalidateQueries({ queryKey: chatKeys.thread(openChatId, companyId) });
        }
        break;
      case 'resync':
        void queryClient.invalidateQueries({ queryKey: chatKeys.all });
        break;
    }
    onEvent?.(event);
  });
}

/** A message that arrives while the tab is hidden stays unread until the user comes back. */
function isVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState !== 'hidden';
}
