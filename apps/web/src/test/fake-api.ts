import { vi } from 'vitest';
import { jsonResponse } from './render';

/** One call the screen made, as the fake server saw it. */
export interface FakeCall {
  method: string;
  /** Path without /api (`/brands/1`). */
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export type FakeAnswer = { status: number; body: unknown } | undefined;

/**
 * Replaces fetch with a tiny server: `handler` answers each call (undefined: 404). Returns
 * the calls made, so tests can check what was sent.
 */
export function fakeApi(handler: (call: FakeCall) => FakeAnswer) {
  const calls: FakeCall[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const call: FakeCall = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const answer = handler(call) ?? { status: 404, body: { errors: { code: 'NOT_FOUND', msg: 'El registro no existe' } } };
    return jsonResponse(answer.status, answer.body);
  });
  return { calls, spy };
}

/** A list page as the API answers it. */
export function pageOf<T>(payload: T[], { totalDocs = payload.length, page = 1, limit = 30 } = {}) {
  return { payload, totalDocs, totalPages: Math.max(1, Math.ceil(totalDocs / limit)), page, limit };
}
