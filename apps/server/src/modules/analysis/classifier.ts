import { SentimentEs, StemmerEs } from '@nlpjs/lang-es';
import { NeuralNetwork } from '@nlpjs/neural';
import { tokensOf } from './normalise.js';

/**
 * The embedded engine's message classifiers (decision 0044): the text normalised (normalise.ts),
 * each word cut to its stem by nlp.js's Spanish stemmer, a negation ("no", "nunca", "ni", "sin",
 * "tampoco", "jamás") marking the next three words (`neg_<stem>`), pairs of neighbouring stems,
 * and nlp.js's Spanish sentiment lexicon (senticon, negation-aware) as two features
 * (`lex_pos`, `lex_neg`). Each classifier is an nlp.js NeuralNetwork trained on the project's own
 * labelled phrases (training/) when the engine is first used, and kept in memory.
 */
const stemmer = new StemmerEs();
const stems = new Map<string, string>();
const stem = (word: string) => {
  let s = stems.get(word);
  if (s === undefined) {
    s = /^[0-9]+$/.test(word) ? 'NUM' : word === '?' || word === '!' || word.startsWith('emoji') || word === 'jaja' ? word : stemmer.stemWord(word);
    if (stems.size < 50_000) stems.set(word, s);
  }
  return s;
};
const NEGATIONS = new Set(['no', 'nunca', 'jamas', 'ni', 'sin', 'tampoco', 'nadie']);
const senticon = SentimentEs.senticon;

/** A message's features for the classifiers. */
export function featuresOf(text: string): Record<string, number> {
  const features: Record<string, number> = {};
  const words = tokensOf(text);
  let negated = 0;
  let lexicon = 0;
  let previous = '';
  for (const word of words) {
    if (word === '?' || word === '!') {
      features[word] = 1;
      negated = 0;
      previous = '';
      continue;
    }
    const s = stem(word);
    if (NEGATIONS.has(word)) {
      features[word] = 1;
      negated = 3;
      previous = word;
      continue;
    }
    const feature = negated > 0 ? `neg_${s}` : s;
    features[feature] = 1;
    const polarity = senticon[s];
    if (polarity !== undefined) lexicon += negated > 0 ? -polarity : polarity;
    if (previous) features[`${previous}_${s}`] = 1;
    previous = s;
    if (negated > 0) negated--;
  }
  if (lexicon > 0.3) features.lex_pos = 1;
  if (lexicon < -0.2) features.lex_neg = 1;
  if (words.length === 0) features.empty = 1;
  return features;
}

export interface Scored<L extends string> {
  label: L;
  score: number;
  scores: Record<L, number>;
}

/** One trained classifier over a set of labels. */
export class MessageClassifier<L extends string> {
  private readonly net = new NeuralNetwork({ iterations: 400, errorThresh: 0.0005, log: false });
  constructor(
    private readonly labels: readonly L[],
    phrases: ReadonlyArray<readonly [string, L]>,
  ) {
    this.net.train(phrases.map(([text, label]) => ({ input: featuresOf(text), output: { [label]: 1 } })));
  }

  /** Classifies features already computed (featuresOf), scores normalised to add up to 1. */
  runFeatures(features: Record<string, number>): Scored<L> {
    const raw = this.net.run(features) ?? {};
    let total = 0;
    for (const l of this.labels) total += Math.max(0, raw[l] ?? 0);
    const scores = {} as Record<L, number>;
    let label = this.labels[0];
    for (const l of this.labels) {
      scores[l] = total > 0 ? Math.max(0, raw[l] ?? 0) / total : 1 / this.labels.length;
      if (scores[l] > scores[label]) label = l;
    }
    return { label, score: scores[label], scores };
  }

  run(text: string): Scored<L> {
    return this.runFeatures(featuresOf(text));
  }
}
