import { BOT_SANDBOX_PREFIX } from '@mostrador/contract';
import type { DetectIntentInput, DetectIntentResult } from './client.js';

/**
 * The demo's sandbox agent (decision 0053): a bot whose project id starts with `sandbox:` is
 * answered here, in-process, without Google or the internet, as a small Dialogflow ES agent
 * would: a welcome intent, prices, opening hours, delivery, thanks; anything else is the
 * fallback intent (which hands the chat to a person). Spanish or English by the bot's language.
 */
export const isSandboxProject = (projectId: string | null | undefined) => Boolean(projectId?.startsWith(BOT_SANDBOX_PREFIX));

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

interface SandboxIntent {
  name: string;
  words: RegExp;
  es: string;
  en: string;
}

/** The first that matches wins: the specific questions before the greeting («Buenas, ¿a qué hora abren?» asks for the hours). */
const intents: SandboxIntent[] = [
  {
    name: 'precios',
    words: /\b(precio|precios|cuanto cuesta|cuanto sale|cuanto esta|costo|cuesta|price|prices|how much)\b/,
    es: 'Nuestros precios están en el catálogo: el pack familiar cuesta S/ 49.90 y el combo personal S/ 19.90. ¿Quieres que te lo envíe?',
    en: 'Our prices are in the catalogue: the family pack is S/ 49.90 and the personal combo S/ 19.90. Shall I send it?',
  },
  {
    name: 'horarios',
    words: /\b(horario|horarios|hora|abren|cierran|atienden|abierto|open|hours)\b/,
    es: 'Atendemos de lunes a sábado de 9:00 a 20:00 y los domingos de 10:00 a 14:00.',
    en: 'We are open Monday to Saturday 9:00–20:00 and Sundays 10:00–14:00.',
  },
  {
    name: 'envios',
    words: /\b(delivery|envio|envios|despacho|reparto|llevan|shipping)\b/,
    es: 'Hacemos delivery en Lima Metropolitana: llega el mismo día si pides antes de las 14:00 (S/ 8, gratis desde S/ 100).',
    en: 'We deliver in Lima: same day if you order before 14:00 (S/ 8, free from S/ 100).',
  },
  {
    name: 'gracias',
    words: /\b(gracias|muchas gracias|thanks|thank you)\b/,
    es: '¡Con gusto! Si necesitas algo más, aquí estoy.',
    en: "You're welcome! I'm here if you need anything else.",
  },
  {
    name: 'Default Welcome Intent',
    words: /\b(hola|buenas|buenos dias|buenas tardes|buenas noches|hello|hi|hey|saludos)\b/,
    es: '¡Hola! Soy el asistente virtual de la tienda. Puedo contarte precios, horarios y envíos. ¿En qué te ayudo?',
    en: "Hi! I'm the shop's virtual assistant. I can tell you about prices, opening hours and delivery. How can I help?",
  },
];

const fallback = {
  es: 'Disculpa, no entendí tu consulta.',
  en: "Sorry, I didn't get that.",
};


export function sandboxDetectIntent(input: Pick<DetectIntentInput, 'projectId' | 'text' | 'languageCode'>): DetectIntentResult {
  const lang = input.languageCode.startsWith('en') ? 'en' : 'es';
  const text = fold(input.text);
  const found = intents.find((i) => i.words.test(text));
  if (!found) return { intent: 'Default Fallback Intent', isFallback: true, confidence: 1, reply: fallback[lang], action: 'input.unknown' };
  return { intent: found.name, isFallback: false, confidence: 0.92, reply: found[lang] };
}
