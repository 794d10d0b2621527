import { describe, expect, it } from 'vitest';
import { parseSseChunk } from './realtime';

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
