import type { FetchLike } from '../seller-center/client.js';
import { createFakeGenial, type FakeGenial } from './fake.js';

/**
 * The demo's sandbox Genial (decision 0037): settings whose API URL ends in `.sandbox.test` are
 * answered in-process by the fake of fake.ts — documents accepted, a customer tax id failing its
 * check digit refused with the reason —, so a fresh `npm start` issues invoices with no internet.
 * The token must start with `sandbox`. One account per company and host, in this process's memory.
 */
export const isGenialSandboxUrl = (url: string | undefined) => {
  try {
    return !!url && new URL(url).hostname.endsWith('.sandbox.test');
  } catch {
    return false;
  }
};

const sandboxes = new Map<string, FakeGenial>();

export function genialSandboxFetch(companyId: string, url: string): FetchLike {
  const origin = new URL(url).origin;
  const key = `${companyId}:${origin}`;
  let fake = sandboxes.get(key);
  if (!fake) {
    // numbers go on from where a previous process left them (roughly): by the second since 2026
    const firstNumber = 1000 + Math.max(0, Math.floor((Date.now() - Date.UTC(2026, 0, 1)) / 1000));
    fake = createFakeGenial({ token: (t) => t.startsWith('sandbox'), baseUrl: origin, firstNumber });
    sandboxes.set(key, fake);
  }
  const account = fake;
  return async (target, init) => {
    const u = new URL(target);
    const answer = account.handle({ method: init.method, path: u.pathname, headers: Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v])), body: init.body ?? '' });
    return { status: answer.status, headers: { get: (name: string) => answer.headers[name.toLowerCase()] ?? null }, text: async () => answer.body };
  };
}
