import { SentimentEs } from '@nlpjs/lang-es';
import { cuesOf, wordInfo } from './cues.js';
import { clauseTokensOf } from './normalise.js';

/**
 * The embedded engine's message classifiers (decisions 0044, 0103): the text normalised
 * (normalise.ts) with its clause breaks (a comma, full stop, `?`, `!` or new line ends a
 * negation's reach and a pair of words), each word cut to the stem of its folded spelling
 * (cues.ts: «grasias» is «gracias», «yego» is «llego»), a negation ("no", "nunca", "ni", "sin",
 * "nadie", "nada", "ningún"…) marking the next three words (`neg_<stem>`), pairs of neighbouring
 * stems, nlp.js's Spanish sentiment lexicon (senticon, negation-aware) as two features
 * (`lex_pos`, `lex_neg`), the project's own cues of complaint and praise (cues.ts: `cue_neg`,
 * `cue_pos`, negated ones, sarcasm…) and the message's shape (ALL CAPS, «??», «!!», long). Each
 * classifier is an nlp.js NeuralNetwork trained on the project's own labelled phrases (training/)
 * when the engine is first used, and kept in memory.
 */
const senticon = SentimentEs.senticon;
const LETTER = /\p{L}/gu;
const UPPER = /\p{Lu}/gu;
const SHOUTING = /\p{Lu}{3}/u;

/** A message's features for the classifiers. */
export function featuresOf(text: string): Record<string, number> {
  const tokens = clauseTokensOf(text);
  const info = tokens.map(wordInfo);
  const { features, sarcastic, plain, contrast } = cuesOf(tokens, info);
  const before: string[] = [];
  let negated = 0;
  let lexicon = 0;
  let previous = '';
  let words = 0;
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i];
    if (word === '?' || word === '!' || word === ',') {
      if (word !== ',') features[word] = 1;
      negated = 0;
      previous = '';
      continue;
    }
    words++;
    // a sarcastic opener («genial, otra vez tarde») is not read as praise: cue_sarcasm says it
    if (sarcastic.length > 0 && sarcastic.includes(i)) {
      previous = '';
      continue;
    }
    const { lexicon: lex, stem: s } = info[i];
    const negator = info[i].negator && !(plain.length > 0 && plain.includes(i));
    if (negator) {
      features[word] = 1;
      negated = 3;
      previous = word;
      continue;
    }
    const feature = negated > 0 ? `neg_${s}` : s;
    features[feature] = 1;
    if (i < contrast) before.push(feature);
    const polarity = senticon[lex];
    if (polarity !== undefined) lexicon += negated > 0 ? -polarity : polarity;
    if (previous) features[`${previous}_${s}`] = 1;
    previous = s;
    if (negated > 0) negated--;
  }
  if (lexicon > 0.3) features.lex_pos = 1;
  if (lexicon < -0.2) features.lex_neg = 1;
  if (words === 0) features.empty = 1;
  if (words > 25) features.long = 1;
  // the words weigh 3/√n each (n: the message's word features): a long message is not read as a
  // complaint for being long (the network had learnt «the more words, the less neutral» from «el»,
  // «me», «que»…); the cues keep theirs
  let n = 0;
  for (const k in features) if (!k.startsWith('cue_')) n++;
  const weight = 3 / Math.sqrt(Math.max(1, n));
  for (const k in features) if (!k.startsWith('cue_')) features[k] = weight;
  // before a «pero» the words weigh half: «me encantó pero llegó tarde» ends as a complaint
  for (const k of before) features[k] = weight / 2;
  // the shape: shouting, «??», «!!»
  if (SHOUTING.test(text)) {
    const letters = text.match(LETTER)?.length ?? 0;
    if (letters >= 8 && (text.match(UPPER)?.length ?? 0) / letters > 0.7) features.shout = 1;
  }
  if (/\?\s*\?/.test(text)) features.qq = 1;
  if (/!\s*!/.test(text)) features.ee = 1;
  return features;
}

export interface Scored<L extends string> {
  label: L;
  score: number;
  scores: Record<L, number>;
}

/** nlp.js NeuralNetwork's training settings (its defaults, iterations capped as decision 0044 did). */
const SETTINGS = { iterations: 400, errorThresh: 0.0005, deltaErrorThresh: 0.000001, learningRate: 0.6, momentum: 0.5, alpha: 0.07 };

/** A trained network: nlp.js NeuralNetwork's JSON (`toJSON`/`fromJSON`: features, labels, each label's weights then bias). */
export interface NetworkJson {
  settings: Record<string, unknown>;
  features: string[];
  intents: string[];
  perceptrons: number[][];
}

/**
 * nlp.js NeuralNetwork's training (`train` in @nlpjs/neural 4.25: one leaky-ReLU perceptron per
 * label, momentum, a decaying learning rate, the same order of examples, the same float32 weights)
 * written over typed arrays: nlp.js keeps each example's features in an object keyed by number and
 * spends ~150 ns per weight update, which with issue 31's 900 phrases was seconds of CPU; this is
 * the same arithmetic in the same order, about ten times faster. The answer is nlp.js's JSON of the
 * network; a test loads it into nlp.js's own NeuralNetwork and checks it equals what nlp.js's
 * trainer learns.
 */
export function trainNetwork(corpus: ReadonlyArray<{ input: Record<string, number>; output: string }>, settings = SETTINGS): NetworkJson {
  const featureIndex = new Map<string, number>();
  const features: string[] = [];
  const intentIndex = new Map<string, number>();
  const intents: string[] = [];
  const examples = corpus.map(({ input, output }) => {
    const keys = Object.keys(input);
    const idx = new Int32Array(keys.length);
    const values = new Float64Array(keys.length);
    keys.forEach((key, j) => {
      let at = featureIndex.get(key);
      if (at === undefined) {
        at = features.length;
        features.push(key);
        featureIndex.set(key, at);
      }
      idx[j] = at;
      values[j] = input[key];
    });
    let label = intentIndex.get(output);
    if (label === undefined) {
      label = intents.length;
      intents.push(output);
      intentIndex.set(output, label);
    }
    return { idx, values, label };
  });
  const { alpha, momentum } = settings;
  const perceptrons = intents.map(() => ({ weights: new Float32Array(features.length), changes: new Float32Array(features.length), bias: 0 }));
  let error = Number.POSITIVE_INFINITY;
  let deltaError = Number.POSITIVE_INFINITY;
  for (let iteration = 1; iteration <= settings.iterations && error > settings.errorThresh && deltaError > settings.deltaErrorThresh; iteration++) {
    const rate = settings.learningRate / (1 + 0.001 * iteration);
    const last = error;
    error = 0;
    perceptrons.forEach((p, id) => {
      const { weights, changes } = p;
      for (const { idx, values, label } of examples) {
        let sum = p.bias;
        for (let j = 0; j < idx.length; j++) sum += values[j] * weights[idx[j]];
        const actual = sum <= 0 ? 0 : alpha * sum;
        const e = (label === id ? 1 : 0) - actual;
        if (!e) continue;
        error += e * e;
        const delta = (actual > 0 ? 1 : alpha) * e * rate;
        for (let j = 0; j < idx.length; j++) {
          const k = idx[j];
          const change = delta * values[j] + momentum * changes[k];
          changes[k] = change;
          weights[k] += change;
        }
        p.bias += delta;
      }
    });
    error /= perceptrons.length * examples.length;
    deltaError = Math.abs(error - last);
  }
  return {
    settings: { iterations: settings.iterations, errorThresh: settings.errorThresh },
    features,
    intents,
    perceptrons: perceptrons.map((p) => [...p.weights, p.bias]),
  };
}

/**
 * One trained classifier over a set of labels: nlp.js's network (trainNetwork), run as nlp.js
 * runs it (each label's bias plus the weights of the message's known features, in the features'
 * order; leaky ReLU) without building nlp.js's lookup objects for every message.
 */
export class MessageClassifier<L extends string> {
  readonly network: NetworkJson;
  private readonly index = new Map<string, number>();
  private readonly weights: Float32Array[];
  private readonly biases: number[];
  private readonly alpha = SETTINGS.alpha;
  /** Each label's place among the network's (-1: no phrase had it). */
  private readonly at: number[];
  private readonly scratch: Float64Array;
  /** `phrases`: texts, or their features already computed (featuresOf) when several classifiers learn the same phrases. */
  constructor(
    private readonly labels: readonly L[],
    phrases: ReadonlyArray<readonly [string | Record<string, number>, L]>,
  ) {
    this.network = trainNetwork(phrases.map(([text, label]) => ({ input: typeof text === 'string' ? featuresOf(text) : text, output: label })));
    this.network.features.forEach((f, i) => {
      this.index.set(f, i);
    });
    this.weights = this.network.perceptrons.map((p) => Float32Array.from(p.slice(0, -1)));
    this.biases = this.network.perceptrons.map((p) => p[p.length - 1]);
    this.at = labels.map((l) => this.network.intents.indexOf(l));
    this.scratch = new Float64Array(this.biases.length);
  }

  /** The network's outputs per label (what nlp.js's NeuralNetwork.run answers). */
  raw(features: Record<string, number>): Record<string, number> {
    const sums = this.sums(features);
    return Object.fromEntries(this.network.intents.map((label, l) => [label, sums[l]] as const));
  }

  private sums(features: Record<string, number>): Float64Array {
    // one scratch array per classifier: a message is classified at once, nothing awaits in between
    const sums = this.scratch;
    const n = sums.length;
    for (let l = 0; l < n; l++) sums[l] = this.biases[l];
    for (const key in features) {
      const at = this.index.get(key);
      if (at === undefined) continue;
      const value = features[key];
      for (let l = 0; l < n; l++) sums[l] += value * this.weights[l][at];
    }
    for (let l = 0; l < n; l++) sums[l] = sums[l] <= 0 ? 0 : this.alpha * sums[l];
    return sums;
  }

  /** Classifies features already computed (featuresOf), scores normalised to add up to 1. */
  runFeatures(features: Record<string, number>): Scored<L> {
    const sums = this.sums(features);
    const { labels, at } = this;
    let total = 0;
    for (let i = 0; i < at.length; i++) total += at[i] < 0 ? 0 : sums[at[i]];
    const scores = {} as Record<L, number>;
    let label = labels[0];
    for (let i = 0; i < labels.length; i++) {
      const l = labels[i];
      scores[l] = total > 0 ? (at[i] < 0 ? 0 : sums[at[i]]) / total : 1 / labels.length;
      if (scores[l] > scores[label]) label = l;
    }
    return { label, score: scores[label], scores };
  }

  run(text: string): Scored<L> {
    return this.runFeatures(featuresOf(text));
  }
}
