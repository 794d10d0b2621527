import { describe, expect, it } from 'vitest';
import { chatStateReasons } from './chat-composer.js';

describe('why a chat cannot be written to', () => {
  it('speaks of templates on WhatsApp only: Messenger and Instagram wait for the customer to write', () => {
    expect(chatStateReasons.windowClosed('whatsapp')).toContain('plantilla aprobada');
    expect(chatStateReasons.neverWrote('whatsapp')).toContain('plantilla aprobada');
    for (const channel of ['messenger', 'instagram'] as const) {
      expect(chatStateReasons.windowClosed(channel)).not.toContain('plantilla');
      expect(chatStateReasons.neverWrote(channel)).not.toContain('plantilla');
      expect(chatStateReasons.windowClosed(channel)).toContain('cuando vuelva a escribir');
    }
  });
});
