import { describe, expect, it } from 'vitest';
import { message, summary, thread } from '../test-fixtures';
import { type InboxData, inboxChats, patchMessage, removeMessage, type ThreadData, threadMessages, upsertInboxChat, upsertMessage } from './cache';

const threadData = (pages: ThreadData['pages']): ThreadData => ({ pages, pageParams: pages.map(() => undefined) });
const inboxData = (chats: ReturnType<typeof summary>[][]): InboxData => ({
  pages: chats.map((payload, i) => ({ payload, totalDocs: 3, totalPages: chats.length, page: i + 1, limit: 10 })),
  pageParams: chats.map((_, i) => i + 1),
});

describe('thread cache', () => {
  it('lists messages oldest first across pages, each once', () => {
    const old = message({ sentAt: '2025-01-01T10:00:00Z' });
    const mid = message({ sentAt: '2025-01-01T11:00:00Z' });
    const recent = message({ sentAt: '2025-01-01T12:00:00Z' });
    const data = threadData([thread(summary(), [mid, recent]), thread(summary(), [old, mid])]);
    expect(threadMessages(data).map((m) => m._id)).toEqual([old._id, mid._id, recent._id]);
  });

  it('adds a new message once, even when the POST answer and the event both bring it', () => {
    const first = message({ sentAt: '2025-01-01T10:00:00Z' });
    const mine = message({ direction: 'out', status: 'sent', sentAt: '2025-01-01T10:01:00Z' });
    const temp = message({ _id: 'temp-1', direction: 'out', status: 'pending', sentAt: '2025-01-01T10:01:00Z' });
    let data = upsertMessage(threadData([thread(summary(), [first])]), temp);
    data = upsertMessage(data, mine); // the event came first
    data = upsertMessage(data, { ...mine, status: 'delivered' }, 'temp-1'); // then the POST answer
    expect(threadMessages(data).map((m) => [m._id, m.status])).toEqual([
      [first._id, 'received'],
      [mine._id, 'delivered'],
    ]);
  });

  it('patches and removes messages by id', () => {
    const a = message();
    const patched = patchMessage(threadData([thread(summary(), [a])]), a._id, (m) => ({ ...m, isActive: false }));
    expect(threadMessages(patched)[0]?.isActive).toBe(false);
    expect(threadMessages(removeMessage(patched, a._id))).toEqual([]);
  });
});

describe('inbox cache', () => {
  it('moves a chat with new activity to the top, without duplicates', () => {
    const a = summary({ _id: 'a' });
    const b = summary({ _id: 'b' });
    const c = summary({ _id: 'c' });
    const { data, found } = upsertInboxChat(inboxData([[a, b], [c]]), { ...c, unreadCount: 1 }, { toTop: true });
    expect(found).toBe(true);
    expect(inboxChats(data).map((x) => [x._id, x.unreadCount])).toEqual([
      ['c', 1],
      ['a', 0],
      ['b', 0],
    ]);
  });

  it('adds an unknown chat only when asked (an unfiltered list)', () => {
    const a = summary({ _id: 'a' });
    const fresh = summary({ _id: 'new' });
    expect(upsertInboxChat(inboxData([[a]]), fresh, { toTop: true }).data?.pages[0]?.payload.map((x) => x._id)).toEqual(['a']);
    const added = upsertInboxChat(inboxData([[a]]), fresh, { toTop: true, addIfMissing: true }).data;
    expect(added?.pages[0]?.payload.map((x) => x._id)).toEqual(['new', 'a']);
    expect(added?.pages[0]?.totalDocs).toBe(4);
  });

  it('replaces a chat in place when nothing new happened', () => {
    const a = summary({ _id: 'a' });
    const b = summary({ _id: 'b', unreadCount: 3 });
    const { data } = upsertInboxChat(inboxData([[a, b]]), { ...b, unreadCount: 0 });
    expect(inboxChats(data).map((x) => [x._id, x.unreadCount])).toEqual([
      ['a', 0],
      ['b', 0],
    ]);
  });
});
