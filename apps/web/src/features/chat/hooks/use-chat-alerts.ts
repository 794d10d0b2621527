import type { Page } from '@mostrador/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../../lib/api-client';
import type { RealtimeMessage } from '../../../lib/realtime';
import { useSession } from '../../../lib/session';
import { type AgentLink, getAlertPrefs, isOwnChat, playChime, showNotification, useAlertPrefs } from '../lib/alerts';
import { chatTexts, previewOf } from '../texts';
import { useUnreadCount } from './use-composer-data';
import { composerKeys, agentKeys } from '../../../lib/query-keys';

const TITLE = 'Chat · Mostrador';

/** The tab title with the number of chats that have unread messages: «(3) Chat · Mostrador». */
export function unreadTitle(chats: number): string {
  return chats > 0 ? `(${chats}) ${TITLE}` : TITLE;
}

/**
 * The chat screen's alerts (issue 11): the unread count in the tab title, and — when the
 * agent turned them on — a browser notification and a sound for a customer's new message in
 * a chat of theirs (lib/alerts isOwnChat) that is not the one they are looking at. Returns
 * the handler useChatRealtime calls for every event.
 */
export function useChatAlerts(openChatId: string | undefined): (event: RealtimeMessage) => void {
  const queryClient = useQueryClient();
  const { user, companyId } = useSession();
  const [, setParams] = useSearchParams();
  const prefs = useAlertPrefs();
  const unread = useUnreadCount();
  const agents = useQuery({
    queryKey: agentKeys.alertLinks(companyId),
    queryFn: ({ signal }) => api.get<Page<AgentLink>>('/agentes', { query: { limit: 100 }, overlay: false, notify: false, signal }),
    enabled: (prefs.notify || prefs.sound) && !!companyId,
    staleTime: 5 * 60_000,
    retry: false,
    select: (page) => page.payload,
    meta: { quiet: true },
  });

  useEffect(() => {
    const previous = document.title;
    return () => {
      document.title = previous;
    };
  }, []);
  useEffect(() => {
    document.title = unreadTitle(unread.data?.chats ?? 0);
  }, [unread.data]);

  // a burst of messages asks for the count once
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  const refreshCount = useCallback(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = undefined;
      void queryClient.invalidateQueries({ queryKey: composerKeys.unread(companyId) });
    }, 800);
  }, [queryClient, companyId]);

  const open = useRef(openChatId);
  open.current = openChatId;
  const context = useRef({ userId: user?._id, agents: agents.data });
  context.current = { userId: user?._id, agents: agents.data };

  return useCallback(
    (event: RealtimeMessage) => {
      if (event.type === 'message.created' || event.type === 'chat.updated' || event.type === 'resync') refreshCount();
      if (event.type !== 'message.created' || event.message.direction !== 'in') return;
      const { notify, sound } = getAlertPrefs();
      if (!notify && !sound) return;
      const looking = event.chat._id === open.current && document.visibilityState === 'visible' && document.hasFocus();
      if (looking || !isOwnChat(event.chat, context.current.userId, context.current.agents)) return;
      if (sound) playChime();
      if (notify) {
        showNotification(chatTexts.newMessageFrom(event.chat.contactName), previewOf(event.message), event.chat._id, () =>
          setParams({ chatId: event.chat._id }),
        );
      }
    },
    [refreshCount, setParams],
  );
}
