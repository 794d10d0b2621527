import type { RealtimeEvent } from '@mostrador/contract';
import { useEffect, useRef } from 'react';
import { API_BASE, buildHeaders, refreshSession } from './api-client';
import { sessionStore } from './session';

/**
 * What a screen hears: the server's events, and `resync` each time the stream opens, the first
 * time too: what happened before the stream listened is not in it (a list fetched while the page
 * loaded, a gap while reconnecting), so a screen reloads what it shows.
 */
export type RealtimeMessage = RealtimeEvent | { type: 'resync' };
type Listener = (message: RealtimeMessage) => void;

const listeners = new Set<Listener>();
let controller: AbortController | null = null;

const emit = (message: RealtimeMessage) => {
  for (const listener of listeners) listener(message);
};

/** Splits an SSE stream into events (`event:` / `data:` lines, blank line ends one). */
export function parseSseChunk(buffer: string): { events: RealtimeEvent[]; rest: string } {
  const events: RealtimeEvent[] = [];
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    try {
      events.push(JSON.parse(data) as RealtimeEvent);
    } catch {
      // a malformed event is skipped; the next reload shows the truth
    }
  }
  return { events, rest };
}

async function run(signal: AbortSignal) {
  let delay = 1000;
  while (!signal.aborted) {
    try {
      const response = await fetch(`${API_BASE}/events`, { headers: buildHeaders({}), signal, credentials: 'same-origin' });
      if (response.status === 401) {
        if (!(await refreshSession().catch(() => false))) return;
        continue;
      }
      if (!response.ok || !response.body) throw new Error(`events ${response.status}`);
      emit({ type: 'resync' });
      delay = 1000;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const { events, rest } = parseSseChunk(buffer + value);
        buffer = rest;
        for (const event of events) emit(event);
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30_000);
  }
}

function connect() {
  if (controller || !sessionStore.get().token) return;
  controller = new AbortController();
  const own = controller;
  void run(own.signal).finally(() => {
    if (controller === own) controller = null;
  });
}

function disconnect() {
  controller?.abort();
  controller = null;
}

let stopWatchingSession: (() => void) | null = null;

/** Listens to the company's real-time events; one stream per tab, shared by every screen, restarted when the company or the session changes. */
export function subscribeRealtime(listener: Listener): () => void {
  listeners.add(listener);
  if (!stopWatchingSession) {
    let seen = sessionStore.get().companyId;
    stopWatchingSession = sessionStore.subscribe(() => {
      const { companyId, token } = sessionStore.get();
      if (companyId === seen && token) return;
      seen = companyId;
      disconnect();
      if (token && listeners.size) connect();
    });
  }
  connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      disconnect();
      stopWatchingSession?.();
      stopWatchingSession = null;
    }
  };
}

/** React: calls `handler` (the latest one) for each event while the component is mounted. */
export function useRealtimeEvents(handler: Listener): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => subscribeRealtime((m) => latest.current(m)), []);
}
