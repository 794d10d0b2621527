/**
 * A fake Telegram Bot API account (decision 0040): the answers of `POST /bot<token>/<method>` for
 * getMe, getChat, sendMessage, sendPhoto and sendDocument (media by URL), with Telegram's error
 * shapes — 401 for another token, 400 «chat not found», 403 «bot was kicked», 429 with
 * `parameters.retry_after`. Served over HTTP by test/fakes/telegram.ts and in-process by the
 * sandbox (sandbox.ts), so the demo needs no internet.
 */
export interface FakeChat {
  id: number;
  title: string;
  type: 'group' | 'supergroup' | 'channel';
  username?: string;
}
export interface FakeSent {
  method: string;
  chatId: number;
  messageId: number;
  text?: string;
  media?: string;
}
export interface FakeTelegram {
  token: string;
  chats: Map<number, FakeChat>;
  /** Chats the bot was removed from: sends answer 403. */
  kicked: Set<number>;
  /** The next n send calls answer 429 with this retry_after (seconds). */
  throttle: { next: number; retryAfter: number };
  /** Every chat not in `chats` is found too (the sandbox): a group named after its id. */
  openWorld: boolean;
  sent: FakeSent[];
  calls: Array<{ method: string; at: number; status: number; chatId?: string }>;
  handle(req: { method: string; path: string; body: string }): { status: number; body: string };
}

export function createFakeTelegram(options: { token: string; chats?: FakeChat[]; openWorld?: boolean; username?: string }): FakeTelegram {
  let nextMessageId = 100;
  const username = options.username ?? 'mostrador_demo_bot';
  const fake: FakeTelegram = {
    token: options.token,
    chats: new Map((options.chats ?? []).map((c) => [c.id, c])),
    kicked: new Set(),
    throttle: { next: 0, retryAfter: 1 },
    openWorld: options.openWorld ?? false,
    sent: [],
    calls: [],
    handle({ path, body }) {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(path);
      const method = match?.[2] ?? '';
      let params: Record<string, unknown> = {};
      try {
        params = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      } catch {
        params = {};
      }
      const answer = (status: number, payload: object) => {
        fake.calls.push({ method, at: Date.now(), status, ...(params.chat_id !== undefined ? { chatId: String(params.chat_id) } : {}) });
        return { status, body: JSON.stringify(payload) };
      };
      const fail = (status: number, description: string, extra: object = {}) => answer(status, { ok: false, error_code: status, description, ...extra });
      if (!match) return fail(404, 'Not Found');
      if (match[1] !== fake.token) return fail(401, 'Unauthorized');
      const chatOf = (): FakeChat | undefined => {
        const raw = String(params.chat_id ?? '');
        if (raw.startsWith('@')) {
          const found = [...fake.chats.values()].find((c) => c.username?.toLowerCase() === raw.slice(1).toLowerCase());
          if (found || !fake.openWorld) return found;
          return { id: -1002000000000 - raw.length, title: raw.slice(1), type: 'channel', username: raw.slice(1) };
        }
        const id = Number(raw);
        if (!Number.isInteger(id) || !raw) return undefined;
        return fake.chats.get(id) ?? (fake.openWorld ? { id, title: `Grupo ${raw}`, type: raw.startsWith('-100') ? 'supergroup' : 'group' } : undefined);
      };
      switch (method) {
        case 'getMe':
          return answer(200, { ok: true, result: { id: 7000000001, is_bot: true, first_name: 'Mostrador', username } });
        case 'getChat': {
          const chat = chatOf();
          if (!chat) return fail(400, 'Bad Request: chat not found');
          return answer(200, { ok: true, result: chat });
        }
        case 'sendMessage':
        case 'sendPhoto':
        case 'sendDocument': {
          if (fake.throttle.next > 0) {
            fake.throttle.next -= 1;
            return fail(429, `Too Many Requests: retry after ${fake.throttle.retryAfter}`, { parameters: { retry_after: fake.throttle.retryAfter } });
          }
          const chat = chatOf();
          if (!chat) return fail(400, 'Bad Request: chat not found');
          if (fake.kicked.has(chat.id)) return fail(403, `Forbidden: bot was kicked from the ${chat.type} chat`);
          const media = method === 'sendPhoto' ? params.photo : method === 'sendDocument' ? params.document : undefined;
          if (method !== 'sendMessage' && (typeof media !== 'string' || !/^https?:\/\//.test(media))) return fail(400, 'Bad Request: wrong remote file identifier specified');
          const text = String((method === 'sendMessage' ? params.text : params.caption) ?? '');
          if (method === 'sendMessage' && !text.trim()) return fail(400, 'Bad Request: message text is empty');
          const messageId = nextMessageId++;
          fake.sent.push({ method, chatId: chat.id, messageId, text, ...(typeof media === 'string' ? { media } : {}) });
          return answer(200, { ok: true, result: { message_id: messageId, date: Math.floor(Date.now() / 1000), chat } });
        }
        default:
          return fail(404, 'Not Found: method not found');
      }
    },
  };
  return fake;
}
