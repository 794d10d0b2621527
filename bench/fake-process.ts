/**
 * The test tree's fakes of Meta's Graph API (with its catalogue and product messages) and of
 * Mercado Pago, each in a process of its own, as the provider is another machine: the server
 * under load does not also run the fake's work on its event loop. Driven over IPC:
 * `startFake('graph' | 'mercadopago')` answers its URL and a `ask()` for its state.
 *
 * The fakes keep every request they saw (the tests read them); here that list is emptied each
 * second, so a long run does not grow without end.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fakeMetaCatalog } from '../apps/server/test/fakes/meta-catalog.js';
import { startFakeGraph } from '../apps/server/test/fakes/meta.js';
import { startFakeMercadoPago } from '../apps/server/test/fakes/mercadopago.js';

type Ask = { type: 'last-send' } | { type: 'pay'; preferenceIds: string[] } | { type: 'sent' };

export interface FakeProcess {
  url: string;
  ask<T>(question: Ask): Promise<T>;
  close(): void;
}

export async function startFake(kind: 'graph' | 'mercadopago', token: string, catalogId = ''): Promise<FakeProcess> {
  const child: ChildProcess = fork(new URL(import.meta.url), ['--child', kind, token, catalogId], { execArgv: ['--import', 'tsx'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('error', reject);
  });
  let seq = 0;
  return {
    url,
    ask<T>(question: Ask) {
      const id = ++seq;
      return new Promise<T>((resolve) => {
        const on = (m: { id?: number; answer?: unknown }) => {
          if (m.id !== id) return;
          child.off('message', on);
          resolve(m.answer as T);
        };
        child.on('message', on);
        child.send({ id, question });
      });
    },
    close: () => child.kill(),
  };
}

async function child(kind: string, token: string, catalogId: string) {
  // the bench that started it is gone: so is the fake
  process.on('disconnect', () => process.exit(0));
  if (kind === 'graph') {
    const meta = fakeMetaCatalog(token, [catalogId]);
    let last: unknown;
    let sent = 0;
    const fake = await startFakeGraph(token, (call, answer) => {
      const mine = meta.route(call, answer);
      if (mine && call.method === 'POST' && call.path.endsWith('/messages')) {
        last = call.body;
        sent++;
      }
      return mine;
    });
    setInterval(() => {
      fake.requests.length = 0;
      meta.sent.length = 0;
      meta.batches.length = 0;
    }, 1000).unref();
    process.on('message', ({ id, question }: { id: number; question: Ask }) => {
      process.send?.({ id, answer: question.type === 'last-send' ? last : question.type === 'sent' ? sent : undefined });
    });
    process.send?.({ url: fake.url });
    return;
  }
  const mp = await startFakeMercadoPago(token);
  setInterval(() => {
    mp.log.length = 0;
  }, 1000).unref();
  process.on('message', ({ id, question }: { id: number; question: Ask }) => {
    const answer = question.type === 'pay' ? question.preferenceIds.map((p) => mp.account.pay(p).id) : undefined;
    process.send?.({ id, answer });
  });
  process.send?.({ url: mp.url });
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], process.argv[5]);
