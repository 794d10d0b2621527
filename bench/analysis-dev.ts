/**
 * The embedded classifier's tuning loop (issue 31, decision 0103): sentiment on the sample
 * (analysis-sample/messages.json) and on the dev set (analysis-sample/dev.json, DEV.md) — the
 * two sets one may tune on — with each misread message listed (`MISSES=1`), the check set
 * (analysis-sample/check.json: written after the tuning, its figures only), and the
 * classifier's speed. It never reads the unseen set: that one is read only by analysis-accuracy.ts, for its
 * summary, after a change is finished.
 *
 *   cd bench && node --import tsx analysis-dev.ts            # figures
 *   cd bench && MISSES=1 node --import tsx analysis-dev.ts   # and the misreads
 */
import { readFileSync } from 'node:fs';
import { aiCategories, consultationMotives, sentiments } from '@mostrador/contract';
import { analyzeConversation, classifyMessage, trainedModels } from '../apps/server/src/modules/analysis/embedded.js';

type Row = [country: string, sentiment: 'pos' | 'neu' | 'neg', motive: string, category: string, text: string];
const load = (name: string) => JSON.parse(readFileSync(new URL(`./analysis-sample/${name}`, import.meta.url), 'utf8')) as Row[];
const sets: Array<[string, Row[]]> = [
  ['sample', load('messages.json')],
  ['dev', load('dev.json')],
  // written after the tuning on sample and dev, never tuned on: its misreads are not listed
  ['check', load('check.json')],
];
const sentimentOf = { pos: 'positive', neu: 'neutral', neg: 'negative' } as const;

const started = performance.now();
const models = trainedModels();
console.log(`trained in ${models.trainedInMs.toFixed(0)} ms (with imports ${(performance.now() - started).toFixed(0)} ms)`);

/** Macro-F1 over the labels the expected answers use. */
function macroF1(labels: readonly string[], pairs: Array<[expected: string, got: string]>) {
  let sum = 0;
  let present = 0;
  for (const l of labels) {
    const actual = pairs.filter(([e]) => e === l).length;
    if (!actual) continue;
    present++;
    const tp = pairs.filter(([e, g]) => e === l && g === l).length;
    const predicted = pairs.filter(([, g]) => g === l).length;
    const p = predicted ? tp / predicted : 0;
    const r = tp / actual;
    sum += p + r ? (2 * p * r) / (p + r) : 0;
  }
  return sum / present;
}

for (const [name, rows] of sets) {
  const analyses = rows.map((r) => analyzeConversation({ messages: [{ direction: 'in', text: r[4] }] }));
  const got = analyses.map((a) => a.sentiment);
  const m = new Map(sentiments.map((e) => [e, new Map(sentiments.map((g) => [g, 0]))]));
  rows.forEach((r, i) => {
    const row = m.get(sentimentOf[r[1]]);
    row?.set(got[i], (row.get(got[i]) ?? 0) + 1);
  });
  let f1s = 0;
  const parts: string[] = [];
  for (const l of sentiments) {
    const tp = m.get(l)?.get(l) ?? 0;
    const predicted = sentiments.reduce((s, e) => s + (m.get(e)?.get(l) ?? 0), 0);
    const actual = [...(m.get(l)?.values() ?? [])].reduce((a, b) => a + b, 0);
    const p = predicted ? tp / predicted : 0;
    const r = actual ? tp / actual : 0;
    const f1 = p + r ? (2 * p * r) / (p + r) : 0;
    f1s += f1;
    parts.push(`${l} P ${p.toFixed(2)} R ${r.toFixed(2)} F1 ${f1.toFixed(3)}`);
  }
  const confusion = sentiments.map((e) => sentiments.map((g) => m.get(e)?.get(g) ?? 0).join('/')).join('  ');
  console.log(`${name.padEnd(6)} sentiment macro-F1 ${(f1s / 3).toFixed(3)} · ${parts.join(' · ')} · confusion pos/neu/neg rows ${confusion}`);
  const motive = macroF1(consultationMotives, rows.map((r, i) => [r[2], analyses[i].motive]));
  const category = macroF1(aiCategories, rows.map((r, i) => [r[3], analyses[i].category]));
  console.log(`${''.padEnd(6)} motive macro-F1 ${motive.toFixed(3)} · category macro-F1 ${category.toFixed(3)}`);
  if (process.env.MISSES && name !== 'check') {
    rows.forEach((r, i) => {
      if (got[i] === sentimentOf[r[1]]) return;
      const s = classifyMessage(r[4]).sentiment.scores;
      console.log(`  ${r[1]} → ${got[i].slice(0, 3)} [${s.positive.toFixed(2)} ${s.neutral.toFixed(2)} ${s.negative.toFixed(2)}] ${r[4]}`);
    });
  }
}

const sample = sets[0][1];
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
let n = 0;
const t0 = performance.now();
while (performance.now() - t0 < seconds * 1000) {
  analyzeConversation({ messages: [{ direction: 'in', text: sample[n % sample.length][4] }] });
  n++;
}
const perSecond = n / ((performance.now() - t0) / 1000);
const window = Array.from({ length: 50 }, (_, i) => ({ direction: (i % 2 ? 'out' : 'in') as 'in' | 'out', text: sample[(i * 7) % sample.length][4] }));
let c = 0;
const t1 = performance.now();
while (performance.now() - t1 < seconds * 1000) {
  analyzeConversation({ messages: window });
  c++;
}
const chats = c / ((performance.now() - t1) / 1000);
console.log(`speed: ${Math.round(perSecond)} one-message conversations/s, ${chats.toFixed(1)} conversations/s of 50 messages`);
