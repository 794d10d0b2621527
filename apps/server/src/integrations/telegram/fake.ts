/**
 * A fake Telegram Bot API account (decision 0040): the answers of `POST /bot<token>/<method>` for
 * getMe, getChat, sendMessage, sendPhoto and sendDocument (media by URL), with Telegram's error
 * shapes — 401 for another token, 400 «chat not found», 403 «bot was kicked», 429 with
 * `parameters.retry_after`. With `parse_mode: 'HTML'` the text must parse (only Telegram's tags,
 * balanced, `&lt;`/`&gt;`/`&amp;`/`&quot;` entities) and is measured after parsing: a caption holds
 * 1024 characters, a text 4096. An inline keyboard's URL buttons need an http(s) URL Telegram can
 * open (not localhost, not a private address): else «BUTTON_URL_INVALID» (decision 0091). Served over HTTP by test/fakes/telegram.ts and in-process by the
 * sandbox (sandbox.ts), so the demo needs no internet.
 */
export interface FakeChat {
  id: number;
  title: string;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  username?: string;
}
export interface FakeSent {
  method: string;
  chatId: number;
  messageId: number;
  text?: string;
  media?: string;
  parseMode?: string;
  /** The inline keyboard's buttons, as sent. */
  buttons?: Array<Array<{ text: string; url?: string }>>;
}

const TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'tg-spoiler', 'span', 'blockquote']);

/** Telegram's HTML parse: the visible text, or why it cannot be parsed (its own words). */
export function parseTelegramHtml(html: string): { text: string } | { error: string } {
  const open: string[] = [];
  let text = '';
  const re = /<(\/?)([a-z-]+)(?:\s[^<>]*)?>|&(lt|gt|amp|quot|#\d+);|[<>&]|[^<>&]+/gi;
  for (const m of html.matchAll(re)) {
    const [whole, closing, tag, entity] = m;
    if (tag !== undefined) {
      const name = tag.toLowerCase();
      if (!TAGS.has(name)) return { error: `Bad Request: can't parse entities: Unsupported start tag "${name}" at byte offset ${m.index}` };
      if (closing) {
        if (open.pop() !== name) return { error: `Bad Request: can't parse entities: Unmatched end tag at byte offset ${m.index}, expected "</${open.at(-1) ?? ''}>", found "</${name}>"` };
      } else open.push(name);
    } else if (entity !== undefined) {
      text += entity === 'lt' ? '<' : entity === 'gt' ? '>' : entity === 'amp' ? '&' : entity === 'quot' ? '"' : String.fromCodePoint(Number(entity.slice(1)));
    } else if (whole === '<' || whole === '>' || whole === '&') {
      return { error: `Bad Request: can't parse entities: Unsupported start tag at byte offset ${m.index}` };
    } else text += whole;
  }
  if (open.length) return { error: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${open.at(-1)}"` };
  return { text };
}

/** A URL a Telegram button may open: http(s) on a public host. */
export function publicButtonUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
    const host = u.hostname.replace(/^\[|\]$/g, '');
    return !(host === 'localhost' || host.endsWith('.localhost') || /^(127\.|10\.|192\.168\.|169\.254\.|0\.)/.test(host) || /^172\.(1[6-9]|2\d|3[01])\./.test(host) || host === '::1' || !host.includes('.'));
  } catch {
    return false;
  }
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
          const parseMode = typeof params.parse_mode === 'string' ? params.parse_mode : undefined;
          let visible = text;
          if (parseMode === 'HTML') {
            const parsed = parseTelegramHtml(text);
            if ('error' in parsed) return fail(400, parsed.error);
            visible = parsed.text;
          }
          if (method === 'sendMessage' && !visible.trim()) return fail(400, 'Bad Request: message text is empty');
          if (method === 'sendMessage' && [...visible].length > 4096) return fail(400, 'Bad Request: message is too long');
          if (method !== 'sendMessage' && [...visible].length > 1024) return fail(400, 'Bad Request: message caption is too long');
          const keyboard = (params.reply_markup as { inline_keyboard?: Array<Array<{ text?: string; url?: string }>> } | undefined)?.inline_keyboard;
          if (keyboard?.some((row) => row.some((b) => !b.text || (b.url !== undefined && !publicButtonUrl(b.url))))) return fail(400, 'Bad Request: BUTTON_URL_INVALID');
          const messageId = nextMessageId++;
          fake.sent.push({
            method,
            chatId: chat.id,
            messageId,
            text,
            ...(typeof media === 'string' ? { media } : {}),
            ...(parseMode ? { parseMode } : {}),
            ...(keyboard ? { buttons: keyboard.map((row) => row.map((b) => ({ text: String(b.text), ...(b.url ? { url: b.url } : {}) }))) } : {}),
          });
          return answer(200, { ok: true, result: { message_id: messageId, date: Math.floor(Date.now() / 1000), chat } });
        }
        default:
          return fail(404, 'Not Found: method not found');
      }
    },
  };
  return fake;
}
