import {
  type AiCategory,
  aiCategories,
  type ChatAnalysis,
  type ConsultationMotive,
  consultationMotives,
  type DissatisfactionOrigin,
  dissatisfactionOrigins,
  type Sentiment,
  sentiments,
} from '@mostrador/contract';
import { featuresOf, MessageClassifier, type Scored } from './classifier.js';
import { normalise } from './normalise.js';
import { type BusinessKind, businessPhrases, type OfferReply, offerReplies } from './training/business.js';
import { customerPhrases } from './training/customer.js';
import type { Analyzer, Conversation, ConversationMessage } from './types.js';

/** How many of a chat's newest messages an analysis reads. */
export const WINDOW = 50;

const sentimentOf = { pos: 'positive', neu: 'neutral', neg: 'negative' } as const;

/** The trained classifiers (training/), built once per process. */
export interface Models {
  sentiment: MessageClassifier<Sentiment>;
  motive: MessageClassifier<ConsultationMotive>;
  category: MessageClassifier<AiCategory>;
  origin: MessageClassifier<DissatisfactionOrigin>;
  business: MessageClassifier<BusinessKind>;
  reply: MessageClassifier<OfferReply>;
  /** Milliseconds the training took. */
  trainedInMs: number;
}

let models: Models | undefined;
export function trainedModels(): Models {
  if (models) return models;
  const started = performance.now();
  // the customer's phrases are read once for the four classifiers that learn them
  const read = customerPhrases.map(([t, s, m, c, o]) => [featuresOf(t), s, m, c, o] as const);
  const built = {
    sentiment: new MessageClassifier(sentiments, read.map(([f, s]) => [f, sentimentOf[s]] as const)),
    motive: new MessageClassifier(consultationMotives, read.map(([f, , m]) => [f, m] as const)),
    category: new MessageClassifier(aiCategories, read.map(([f, , , c]) => [f, c] as const)),
    origin: new MessageClassifier(
      dissatisfactionOrigins,
      read.filter((p) => p[1] === 'neg').map(([f, , , , o]) => [f, o ?? 'otro'] as const),
    ),
    business: new MessageClassifier(['crossSell', 'promotion', 'other'] as const, businessPhrases),
    reply: new MessageClassifier(['accepts', 'declines', 'other'] as const, offerReplies),
  };
  models = { ...built, trainedInMs: performance.now() - started };
  return models;
}

/** A customer message as the engine sees it alone (the accuracy bench and the tests use it too). */
export function classifyMessage(text: string) {
  const m = trainedModels();
  const features = featuresOf(text);
  return {
    sentiment: m.sentiment.runFeatures(features),
    motive: m.motive.runFeatures(features),
    category: m.category.runFeatures(features),
    origin: m.origin.runFeatures(features),
  };
}

/** A message's sentences (a question mark, a full stop, an exclamation or a new line ends one). */
const sentencesOf = (text: string) => {
  const parts = text.split(/(?<=[.!?\n])\s+/).filter((p) => /\p{L}{2}/u.test(p));
  return parts.length ? parts : [text];
};
const timeOf = (m: ConversationMessage) => (m.at ? new Date(m.at).getTime() : undefined);
const COURTESY = /\b(gracias|con gusto|saludos|hola|buen[oa]s|disculp\w*|lament\w*|claro)\b/;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function vote<L extends string>(results: Array<Scored<L>>, weightOf: (i: number) => number, ignore?: L, min = 0.4): L | undefined {
  const votes = new Map<L, number>();
  results.forEach((r, i) => {
    if (r.label === ignore || r.score < min) return;
    votes.set(r.label, (votes.get(r.label) ?? 0) + weightOf(i) * r.score);
  });
  let best: L | undefined;
  for (const [label, v] of votes) if (best === undefined || v > (votes.get(best) ?? 0)) best = label;
  return best;
}

/**
 * The conversation's rules over its messages' classes (decision 0044):
 * - sentiment follows the customer's messages, the later weighing more (a conversation ends as
 *   it ends) and a negative one half again as much as a positive one;
 * - motive and category are the customer's messages' votes, the first weighing more (why they
 *   wrote), greetings and "ok" not voting; a complaint makes the category postventa;
 * - the origin of dissatisfaction (negative only) is the negative messages' vote; the business's
 *   slow answers make it "demora" when the texts do not say;
 * - cross-sell offered: a business message offers something more; taken: one of the customer's
 *   next three messages accepts; personalised promotion: a business message makes one;
 * - quality (the business's side, 1–5) starts at 3: +1 for a median reply within 15 minutes,
 *   −1 over 4 hours, +1 when every customer turn was answered with courtesy, −1 when fewer than
 *   half were, 1 when the business never answered, −1 when the customer complains of delay or
 *   of the attention.
 */
export function analyzeConversation(conversation: Conversation): ChatAnalysis {
  const m = trainedModels();
  const now = (conversation.now ?? new Date()).getTime();
  const messages = conversation.messages.slice(-WINDOW);
  const texts = messages.map((msg) => (msg.text ?? '').trim());
  const customer: Array<{ i: number; features: Record<string, number> }> = [];
  messages.forEach((msg, i) => {
    if (msg.direction === 'in' && texts[i]) customer.push({ i, features: featuresOf(texts[i]) });
  });

  // sentiment
  const moods = customer.map((c) => m.sentiment.runFeatures(c.features));
  let sum = 0;
  let weights = 0;
  moods.forEach((r, k) => {
    const w = 1 + k / Math.max(1, moods.length);
    const v = r.label === 'positive' ? 1 : r.label === 'negative' ? -1.5 : 0;
    sum += w * v;
    weights += w;
  });
  const mood = weights ? sum / weights : 0;
  const sentiment: Sentiment = mood > 0.3 ? 'positive' : mood < -0.3 ? 'negative' : 'neutral';

  // motive and category
  const early = (k: number) => 1 / (1 + 0.3 * k);
  const motives = customer.map((c) => m.motive.runFeatures(c.features));
  let motive: ConsultationMotive = vote(motives, early, 'otro') ?? 'otro';
  if (sentiment === 'negative' && motives.some((r) => r.label === 'reclamo' && r.score >= 0.4)) motive = 'reclamo';
  const categories = customer.map((c) => m.category.runFeatures(c.features));
  let category: AiCategory = vote(categories, early) ?? 'informacion';
  if (category !== 'spam' && (motive === 'reclamo' || (sentiment === 'negative' && category === 'venta' && motive !== 'precio'))) category = 'postventa';

  // the business's replies: delays, answered turns, courtesy
  const delays: number[] = [];
  let turns = 0;
  let answered = 0;
  let courteous = false;
  let businessWrote = false;
  for (let i = 0; i < messages.length; i++) {
    const msg = messages[i];
    if (msg.direction === 'out') {
      businessWrote = true;
      if (COURTESY.test(normalise(texts[i]))) courteous = true;
      continue;
    }
    // the end of a customer turn (a run of their messages): answered if the business wrote after it
    if (messages[i + 1]?.direction === 'in') continue;
    const start = (() => {
      let j = i;
      while (j > 0 && messages[j - 1].direction === 'in') j--;
      return j;
    })();
    const reply = messages.slice(i + 1).find((x) => x.direction === 'out');
    const askedAt = timeOf(messages[start]);
    if (reply) {
      turns++;
      answered++;
      const repliedAt = timeOf(reply);
      if (askedAt !== undefined && repliedAt !== undefined) delays.push(Math.max(0, repliedAt - askedAt));
    } else if (askedAt === undefined || now - askedAt > HOUR) {
      // unanswered for over an hour (a turn that just arrived is not counted yet)
      turns++;
      if (askedAt !== undefined) delays.push(now - askedAt);
    }
  }
  delays.sort((a, b) => a - b);
  const median = delays.length ? delays[Math.floor(delays.length / 2)] : undefined;

  // origin of dissatisfaction
  let dissatisfactionOrigin: DissatisfactionOrigin | undefined;
  if (sentiment === 'negative') {
    const negatives = customer.filter((_, k) => moods[k].label === 'negative').map((c) => m.origin.runFeatures(c.features));
    // a specific origin wins over "otro" when any negative message names one
    const found = vote(negatives, () => 1, 'otro', 0.3);
    const confident = negatives.some((r) => r.label === found && r.score >= 0.5);
    dissatisfactionOrigin = median !== undefined && median > 4 * HOUR && (!found || !confident) ? 'demora' : (found ?? 'otro');
  }

  // cross-selling and personalised promotion
  let crossSellOffered = false;
  let crossSellTaken = false;
  let personalisedPromotion = false;
  messages.forEach((msg, i) => {
    if (msg.direction !== 'out' || !texts[i]) return;
    // sentence by sentence: an offer is often one sentence of a longer answer
    const kinds = sentencesOf(texts[i]).map((sentence) => m.business.run(sentence));
    if (kinds.some((k) => k.label === 'promotion' && k.score >= 0.6)) personalisedPromotion = true;
    if (!kinds.some((k) => k.label === 'crossSell' && k.score >= 0.6)) return;
    crossSellOffered = true;
    const replies = messages
      .slice(i + 1)
      .map((x, k) => ({ x, text: texts[i + 1 + k] }))
      .filter(({ x, text }) => x.direction === 'in' && text)
      .slice(0, 3);
    for (const { text } of replies) {
      const r = m.reply.run(text);
      if (r.score < 0.45 || r.label === 'other') continue;
      if (r.label === 'accepts') crossSellTaken = true;
      break;
    }
  });

  // quality of the business's side
  let quality = 3;
  if (!businessWrote && turns > 0) quality = 1;
  else {
    if (median !== undefined && median <= 15 * MINUTE) quality++;
    if (median !== undefined && median > 4 * HOUR) quality--;
    if (turns > 0 && answered === turns && courteous) quality++;
    if (turns > 0 && answered / turns < 0.5) quality--;
    if (dissatisfactionOrigin === 'demora' || dissatisfactionOrigin === 'atencion') quality--;
  }
  quality = Math.min(5, Math.max(1, quality));

  return {
    sentiment,
    motive,
    ...(dissatisfactionOrigin ? { dissatisfactionOrigin } : {}),
    crossSellOffered,
    crossSellTaken,
    personalisedPromotion,
    quality: quality as ChatAnalysis['quality'],
    category,
  };
}

/** The embedded engine: offline, no download at run time (decision 0044). */
export const embeddedAnalyzer: Analyzer = {
  name: 'embedded',
  analyze: async (conversation) => analyzeConversation(conversation),
};
