import { moneyText } from '../orders/service.js';
import type { ProductMatch } from './matcher.js';
import { fold } from './text.js';

/**
 * The embedded engine's draft (decision 0087): a Spanish reply written from the matched products
 * alone — name, variant, price in the company's currency, whether it is in stock (out of stock is
 * said so, without a price: it is not offered) — and the company's quick reply that fits the
 * question (payment, delivery, hours, location), its {{nombre}} / {{agente}} / {{telefono}} filled.
 */
export type QuickReply = {
  atajo: string;
  texto: string;
};

/** What a customer asks about besides products, the words that say it, and the words a quick reply answering it has. */
const INTENTS: Array<{ asked: RegExp; answers: RegExp }> = [
  { asked: /\b(yape|yapear|plin|pago|pagos|pagar|pagarte|tarjeta|transferencia|transferir|efectivo|deposito|contra ?entrega|visa|mastercard|metodos? de pago|formas? de pago|cuenta)\b/, answers: /\b(pago|pagos|yape|plin|tarjeta|transferencia)\b/ },
  { asked: /\b(envio|envios|envian|delivery|deliveri|despacho|despachan|llega|llegan|mandan|enviar|envias|provincia|provincias|reparto|reparten|costo de envio|shalom|olva)\b/, answers: /\b(delivery|envio|envios|despacho|reparto)\b/ },
  { asked: /\b(horario|horarios|atienden|abren|cierran|hora|horas|domingo|domingos|feriado|sabado)\b/, answers: /\b(horario|atendemos|abrimos|lunes)\b/ },
  { asked: /\b(direccion|ubicacion|ubicados|donde estan|tienda fisica|local|recojo|recoger)\b/, answers: /\b(direccion|ubicados|recojo|tienda|local)\b/ },
];

/** The quick replies that answer what the message asks, best first (one per question asked). */
export function fittingQuickReplies(text: string, replies: QuickReply[]): QuickReply[] {
  const asked = fold(text);
  const out: QuickReply[] = [];
  for (const intent of INTENTS) {
    if (!intent.asked.test(asked)) continue;
    const reply = replies.find((r) => intent.answers.test(fold(r.atajo))) ?? replies.find((r) => intent.answers.test(fold(r.texto)));
    if (reply && !out.includes(reply)) out.push(reply);
  }
  return out;
}

/** A quick reply's text with its placeholders filled. */
export function fillQuickReply(texto: string, who: { nombre?: string; agente?: string; telefono?: string }) {
  return texto
    .replace(/\{\{\s*nombre\s*\}\}/g, who.nombre ?? '')
    .replace(/\{\{\s*agente\s*\}\}/g, who.agente ?? '')
    .replace(/\{\{\s*telefono\s*\}\}/g, who.telefono ?? '')
    .replace(/ {2,}/g, ' ')
    .replace(/ ([!,.])/g, '$1');
}

const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} y ${items[items.length - 1]}`);

/** One product's line: what it is and what it costs, or that it is sold out. */
export function productLine(p: ProductMatch): string {
  const variant = [p.variant?.size ? `talla ${p.variant.size}` : '', p.variant?.color ?? ''].filter(Boolean).join(', ');
  const what = `${p.quantity ? `${p.quantity} × ` : ''}${p.name}${variant ? ` (${variant})` : ''}`;
  if (p.missing) {
    const asked = [p.missing.size ? `talla ${p.missing.size}` : '', p.missing.color ? `color ${p.missing.color}` : ''].filter(Boolean).join(' ni en ');
    const has = [p.options?.sizes.length ? `tallas ${list(p.options.sizes)}` : '', p.options?.colors.length ? `${list(p.options.colors)}` : ''].filter(Boolean).join(', en ');
    return `${p.name}: no lo tenemos en ${asked}${has ? `; sí hay en ${has}, a ${moneyText(p.price, p.currency)}` : ''}`;
  }
  if (!p.available) return `${what}: agotado por ahora`;
  const price = moneyText(p.price, p.currency);
  const total = p.quantity ? ` (${moneyText(Math.round(p.price * p.quantity * 100) / 100, p.currency)} en total)` : '';
  const few = p.stock <= 5 ? `, quedan ${p.stock}` : '';
  const options = p.options
    ? [p.options.sizes.length ? `tallas ${list(p.options.sizes)}` : '', p.options.colors.length ? `colores ${list(p.options.colors)}` : ''].filter(Boolean).join('; ')
    : '';
  return `${what}: ${price}${p.quantity ? ' c/u' : ''}${total}${few}${options ? ` — en ${options}` : ''}`;
}

/** The contact's first name, unless the chat's name is a phone number. */
export const firstName = (contactName: string | null | undefined) => {
  const word = (contactName ?? '').trim().split(/\s+/)[0] ?? '';
  return /\p{L}/u.test(word) ? word : '';
};

export function embeddedDraft(
  products: ProductMatch[],
  quickReplies: QuickReply[],
  who: { nombre?: string; agente?: string; telefono?: string },
): string {
  const hello = who.nombre ? `¡Hola, ${who.nombre}!` : '¡Hola!';
  const parts: string[] = [];
  const available = products.filter((p) => p.available);
  if (products.length === 1) {
    const [p] = products;
    parts.push(p.available ? `Sí, tenemos ${productLine(p).replace(/: /, ' a ')}.` : `${productLine(p)}.`);
  } else if (products.length > 1) {
    parts.push(`Te cuento lo que tenemos:\n${products.map((p) => `• ${productLine(p)}`).join('\n')}`);
  }
  if (products.length) {
    const needsChoice = available.some((p) => p.options && (p.options.sizes.length > 1 || p.options.colors.length > 1));
    if (!available.length) parts.push('¿Te aviso apenas vuelva a llegar, o te muestro otra opción?');
    else if (needsChoice) parts.push('¿Qué talla y color prefieres?');
    else parts.push(available.length === 1 && !available[0].quantity ? '¿Te lo separo?' : '¿Te los separo?');
  }
  for (const reply of quickReplies) parts.push(fillQuickReply(reply.texto, who).replace(/^¡Hola[^!]*!\s*/u, ''));
  if (!parts.length) parts.push('Gracias por escribirnos. ¿Qué producto estás buscando? Te ayudo con precios y disponibilidad.');
  return `${hello} ${parts.join('\n')}`.trim();
}
