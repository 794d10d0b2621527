import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of an OpenAI-compatible chat completions endpoint on a real HTTP server (a random
 * port, never the internet): `POST /v1/chat/completions` with `Authorization: Bearer <key>`
 * answers `choices[0].message.content` (the analysis as JSON text) and
 * `usage.prompt_tokens / completion_tokens`. `mode` makes the next calls fail: 500, 429, a
 * timeout (no answer for `hangMs`), content that is not JSON, JSON that is not the schema; a
 * wrong key is a 401. `log` keeps each request's body.
 */
export type FakeOpenAiMode = 'ok' | 'http500' | 'http429' | 'timeout' | 'invalid-json' | 'wrong-schema';

export interface FakeOpenAiServer {
  /** The base URL to configure (…/v1). */
  url: string;
  mode: FakeOpenAiMode;
  /** The analysis answered in mode ok. */
  answer: Record<string, unknown>;
  usage: { prompt_tokens: number; completion_tokens: number };
  hangMs: number;
  /** Mode ok answers after this long (a real model's latency). */
  delayMs: number;
  /** Requests being answered now, and the most there ever were at once. */
  inFlight: number;
  maxInFlight: number;
  log: Array<{ path: string; auth?: string; body: Record<string, unknown> | undefined; status: number }>;
  close(): Promise<void>;
}

export const fakeAnalysis = {
  sentiment: 'negative',
  motive: 'reclamo',
  dissatisfactionOrigin: 'entrega',
  crossSellOffered: false,
  crossSellTaken: false,
  personalisedPromotion: false,
  quality: 2,
  category: 'postventa',
};

export async function startFakeOpenAi(apiKey = 'sk-test-fake-0000-abcd'): Promise<FakeOpenAiServer> {
  const sockets = new Set<import('node:net').Socket>();
  const state: FakeOpenAiServer = {
    url: '',
    mode: 'ok',
    answer: { ...fakeAnalysis },
    usage: { prompt_tokens: 1200, completion_tokens: 80 },
    hangMs: 5_000,
    delayMs: 0,
    inFlight: 0,
    maxInFlight: 0,
    log: [],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      const send = (status: number, payload: unknown) => {
        state.inFlight--;
        state.log.push({ path, auth: req.headers.authorization, body, status });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || path !== '/v1/chat/completions') return send(404, { error: { message: 'Not found', type: 'invalid_request_error' } });
      if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
      const completion = (content: string) => ({
        id: `chatcmpl-${state.log.length + 1}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body?.model ?? 'gpt-4o-mini',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { ...state.usage, total_tokens: state.usage.prompt_tokens + state.usage.completion_tokens },
      });
      switch (state.mode) {
        case 'http500':
          return send(500, { error: { message: 'The server had an error while processing your request', type: 'server_error' } });
        case 'http429':
          return send(429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } });
        case 'timeout':
          setTimeout(() => send(200, completion(JSON.stringify(state.answer))), state.hangMs).unref();
          return;
        case 'invalid-json':
          return send(200, completion('{"sentiment": "negative", "motive": '));
        case 'wrong-schema':
          return send(200, completion(JSON.stringify({ ...state.answer, sentiment: 'furioso' })));
        default:
          if (state.delayMs > 0) {
            setTimeout(() => send(200, completion(JSON.stringify(state.answer))), state.delayMs).unref();
            return;
          }
          return send(200, completion(JSON.stringify(state.answer)));
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}
