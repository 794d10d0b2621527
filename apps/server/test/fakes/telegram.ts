import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeTelegram, type FakeChat, type FakeTelegram } from '../../src/integrations/telegram/fake.js';

/**
 * A local fake of the Telegram Bot API on a real HTTP server (a random port): the account of
 * src/integrations/telegram/fake.ts — getMe, getChat, sendMessage, sendPhoto / sendDocument by URL,
 * 429 with parameters.retry_after, 403 «bot was kicked», 400 «chat not found» — at `/bot<token>/<method>`.
 * `delayMs` slows every answer.
 */
export interface FakeTelegramServer {
  url: string;
  account: FakeTelegram;
  delayMs: number;
  close(): Promise<void>;
}

export async function startFakeTelegram(token: string, chats: FakeChat[]): Promise<FakeTelegramServer> {
  const account = createFakeTelegram({ token, chats });
  const fake = { url: '', account, delayMs: 0, close: async () => {} } as FakeTelegramServer;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const answer = account.handle({ method: req.method ?? 'POST', path, body: Buffer.concat(chunks).toString('utf8') });
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      }, fake.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
