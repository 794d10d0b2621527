import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseSseChunk, type RealtimeMessage, subscribeRealtime } from './realtime';
import { sessionStore } from './session';

describe('parseSseChunk (the events stream)', () => {
  it('reads complete events and keeps the unfinished tail for the next chunk', () => {
    const first = parseSseChunk(': conectado\n\nevent: lead.updated\ndata: {"type":"lead.updated","leadId":"a"}\n\nevent: lead.upd');
    expect(first.events).toEqual([{ type: 'lead.updated', leadId: 'a' }]);
    const second = parseSseChunk(`${first.rest}ated\ndata: {"type":"lead.updated","leadId":"b"}\n\n`);
    expect(second.events).toEqual([{ type: 'lead.updated', leadId: 'b' }]);
    expect(second.rest).toBe('');
  });

  it('skips comments (pings) and malformed data without losing the next event', () => {
    const { events } = parseSseChunk(': ping\n\ndata: {roto\n\ndata: {"type":"lead.updated","leadId":"c"}\r\n\r\n');
    expect(events).toEqual([{ type: 'lead.updated', leadId: 'c' }]);
  });
});

describe('subscribeRealtime (the shared stream)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('tells screens to reload when the stream opens, the first time too, and after a gap; events in between arrive', async () => {
    vi.useFakeTimers();
    sessionStore.set((s) => ({ ...s, token: 't', companyId: 'c1' }));
    // the first stream sends one event and ends (a gap); the second stays open
    const streams: Array<ReadableStreamDefaultController<Uint8Array>> = [];
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => {
      const body = new ReadableStream<Uint8Array>({ start: (controller) => void streams.push(controller) });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    const heard: RealtimeMessage[] = [];
    const stop = subscribeRealtime((m) => heard.push(m));
    try {
      await vi.waitFor(() => expect(heard).toEqual([{ type: 'resync' }]));
      streams[0].enqueue(new TextEncoder().encode('data: {"type":"lead.updated","leadId":"a"}\n\n'));
      await vi.waitFor(() => expect(heard).toHaveLength(2));
      streams[0].close();
      await vi.advanceTimersByTimeAsync(1000);
      await vi.waitFor(() => expect(heard).toEqual([{ type: 'resync' }, { type: 'lead.updated', leadId: 'a' }, { type: 'resync' }]));
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/events');
    } finally {
      stop();
    }
  });
});
