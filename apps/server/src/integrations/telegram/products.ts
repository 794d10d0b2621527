import { type ChatProductItem, type ChatProductsContent, productPrice } from '@mostrador/contract';
import { chatRef, TelegramError, telegramClient, telegramErrorOf } from './client.js';

/**
 * Products on Telegram (decision 0091). The Bot API has no product message: each product goes as
 * what it has — `sendPhoto` with the product's picture (by its public URL), or `sendMessage` when it
 * has none — with a caption in Telegram HTML (name, the variant chosen, the price in the company's
 * currency, «Sin stock» when none, a short description) and an inline keyboard with one URL button
 * «Ver en el catálogo» to the company's public catalogue. One message per product, at most
 * TELEGRAM_PRODUCTS_MAX: `sendMediaGroup` carries no buttons, so an album would lose each
 * product's link. The agent's text goes first, as its own message. The client's throttler keeps the
 * pace (about 30 calls/s overall, one chat's burst paced), auto-retry honours `retry_after`.
 */

export const TELEGRAM_PRODUCTS_MAX = 10;
/** Telegram's limits, counted on the text after its HTML is parsed. */
export const TELEGRAM_CAPTION_MAX = 1024;
export const TELEGRAM_TEXT_MAX = 4096;
export const TELEGRAM_BUTTON_TEXT = 'Ver en el catálogo';
export const TELEGRAM_SOLD_OUT = 'Sin stock';

/** Telegram HTML escapes only these three (and `"` inside attributes). */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const length = (text: string) => [...text].length;
const cut = (text: string, max: number) => (length(text) <= max ? text : `${[...text].slice(0, Math.max(0, max - 1)).join('').trimEnd()}…`);

export interface TelegramProductMessage {
  method: 'sendPhoto' | 'sendMessage';
  /** The picture's public URL (sendPhoto). */
  photo?: string;
  /** Telegram HTML: the caption of the photo, or the message's text. */
  html: string;
  /** The catalogue link, when Telegram can open it. */
  url?: string;
}

/** A link Telegram lets a button open: http(s) on a public host (a local address is refused, BUTTON_URL_INVALID). */
export function buttonUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    const host = u.hostname;
    const local = host === 'localhost' || host.endsWith('.localhost') || !host.includes('.') || /^(127|10|0)\.|^192\.168\.|^169\.254\.|^172\.(1[6-9]|2\d|3[01])\./.test(host);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !local ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** A picture Telegram can download: an absolute http(s) URL (a path of ours is made absolute with the public URL). */
export function publicImage(image: string | undefined, publicUrl: string): string | undefined {
  if (!image) return undefined;
  const absolute = image.startsWith('/') ? `${publicUrl.replace(/\/+$/, '')}${image}` : image;
  return /^https?:\/\//i.test(absolute) ? absolute : undefined;
}

/**
 * One product's caption: «<b>Polo básico</b>», the variant, «<b>S/ 25.00</b>» (and «Sin stock»),
 * then the description, cut so the visible text fits `max` (1024 for a caption).
 */
export function productCaption(item: ChatProductItem, max = TELEGRAM_CAPTION_MAX): string {
  const soldOut = item.stock !== undefined && item.stock <= 0;
  const name = cut(item.name, 200);
  const variant = item.variantSku && item.variant ? cut(item.variant, 120) : '';
  const price = `${productPrice(item.price, item.currency)}${soldOut ? ` · ${TELEGRAM_SOLD_OUT}` : ''}`;
  const head = [`<b>${escapeHtml(name)}</b>`, variant ? escapeHtml(variant) : '', `<b>${escapeHtml(price)}</b>`].filter(Boolean).join('\n');
  const headLength = length([name, variant, price].filter(Boolean).join('\n'));
  const room = max - headLength - 2; // the blank line before the description
  const description = item.description?.replace(/\s+/g, ' ').trim() ?? '';
  if (!description || room < 10) return head;
  return `${head}\n\n<i>${escapeHtml(cut(description, room))}</i>`;
}

/** The messages one product send makes: the agent's text first, then one per product. */
export function telegramProductMessages(products: ChatProductsContent, text: string | undefined, publicUrl: string): TelegramProductMessage[] {
  const intro = text?.trim();
  return [
    ...(intro ? [{ method: 'sendMessage' as const, html: escapeHtml(cut(intro, TELEGRAM_TEXT_MAX)) }] : []),
    ...products.items.slice(0, TELEGRAM_PRODUCTS_MAX).map((item) => {
      const photo = publicImage(item.image, publicUrl);
      const url = buttonUrl(item.link);
      return photo
        ? { method: 'sendPhoto' as const, photo, html: productCaption(item), ...(url ? { url } : {}) }
        : { method: 'sendMessage' as const, html: productCaption(item, TELEGRAM_TEXT_MAX), ...(url ? { url } : {}) };
    }),
  ];
}

/**
 * Sends them in order through the bot's client; answers Telegram's message ids. A photo Telegram
 * could not download goes again as a text with the same caption and button. A failure after the
 * first message says how many went (the first id kept, as a caption that did not follow a file).
 */
export async function sendTelegramProducts(token: string, chatId: string, products: ChatProductsContent, text: string | undefined, publicUrl: string): Promise<number[]> {
  const api = telegramClient(token);
  const chat = chatRef(chatId);
  const messages = telegramProductMessages(products, text, publicUrl);
  const ids: number[] = [];
  for (const m of messages) {
    const reply_markup = m.url ? { inline_keyboard: [[{ text: TELEGRAM_BUTTON_TEXT, url: m.url }]] } : undefined;
    const options = { parse_mode: 'HTML' as const, ...(reply_markup ? { reply_markup } : {}) };
    try {
      if (m.method === 'sendPhoto' && m.photo) {
        try {
          ids.push((await api.sendPhoto(chat, m.photo, { caption: m.html, ...options })).message_id);
          continue;
        } catch (error) {
          const e = telegramErrorOf(error);
          if (e.kind !== 'bad_request' || !/descargar/.test(e.msg)) throw e;
          // the picture could not be fetched: the product still goes, as text
        }
      }
      ids.push((await api.sendMessage(chat, m.html, { ...options, link_preview_options: { is_disabled: true } })).message_id);
    } catch (error) {
      const e = telegramErrorOf(error);
      if (ids.length) throw new TelegramError(e.kind, `Se enviaron ${ids.length} de ${messages.length} mensajes. ${e.msg}`);
      throw e;
    }
  }
  return ids;
}
