import type { OutboundChoices } from './send.js';

/**
 * WhatsApp Cloud API reply buttons and lists (decision 0100), the `interactive` object of a
 * `type: interactive` message:
 *
 * - buttons: `{type:'button', body:{text ≤1024}, action:{buttons:[{type:'reply', reply:{id ≤256, title ≤20}}]}}`, 1–3 buttons;
 * - list: `{type:'list', body:{text}, action:{button ≤20, sections:[{title ≤24, rows:[{id ≤200, title ≤24}]}]}}`, at most 10 rows.
 *
 * The customer's tap comes back as an inbound `interactive` message with `button_reply` or
 * `list_reply` {id, title} (integrations/meta/events.ts keeps both in the message's content).
 */
export const WHATSAPP_BUTTONS_MAX = 3;
export const WHATSAPP_LIST_ROWS_MAX = 10;
export const WHATSAPP_BUTTON_TITLE_MAX = 20;
export const WHATSAPP_ROW_TITLE_MAX = 24;
export const WHATSAPP_INTERACTIVE_BODY_MAX = 1024;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export function whatsappChoicesInteractive(choices: OutboundChoices, body: string): object {
  const text = cut(body.trim() || '¿Cómo te atendimos?', WHATSAPP_INTERACTIVE_BODY_MAX);
  if (choices.style === 'buttons') {
    return {
      type: 'button',
      body: { text },
      action: {
        buttons: choices.options.slice(0, WHATSAPP_BUTTONS_MAX).map((o) => ({ type: 'reply', reply: { id: o.id, title: cut(o.title, WHATSAPP_BUTTON_TITLE_MAX) } })),
      },
    };
  }
  return {
    type: 'list',
    body: { text },
    action: {
      button: cut(choices.button ?? 'Elegir', WHATSAPP_BUTTON_TITLE_MAX),
      sections: [{ title: cut(choices.button ?? 'Opciones', WHATSAPP_ROW_TITLE_MAX), rows: choices.options.slice(0, WHATSAPP_LIST_ROWS_MAX).map((o) => ({ id: o.id, title: cut(o.title, WHATSAPP_ROW_TITLE_MAX) })) }],
    },
  };
}
