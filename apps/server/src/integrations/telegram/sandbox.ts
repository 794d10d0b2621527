import { createFakeTelegram, type FakeTelegram } from './fake.js';

/**
 * The in-process Telegram sandbox (decision 0040): a bot whose token starts with «sandbox» talks to
 * a fake account in this process instead of api.telegram.org, so the demo and a fresh `npm start`
 * work with no internet. Every group id or @username is found (named after itself); messages are
 * «sent» with Telegram's shapes and ids.
 */
const accounts = new Map<string, FakeTelegram>();

export const isSandboxToken = (token: string) => token.startsWith('sandbox');

export function sandboxAccount(token: string): FakeTelegram {
  let account = accounts.get(token);
  if (!account) {
    account = createFakeTelegram({ token, openWorld: true, username: 'mostrador_sandbox_bot' });
    accounts.set(token, account);
  }
  return account;
}

/** A `fetch` answered by the sandbox account of the URL's token. */
export const sandboxFetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const token = /^\/bot([^/]+)\//.exec(url.pathname)?.[1] ?? '';
  const answer = sandboxAccount(token).handle({ method: init?.method ?? 'POST', path: url.pathname, body: typeof init?.body === 'string' ? init.body : '' });
  return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
}) as typeof fetch;
