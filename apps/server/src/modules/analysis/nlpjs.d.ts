// The few parts of nlp.js (CommonJS, untyped) the embedded engine uses (decision 0044).
declare module '@nlpjs/lang-es' {
  export class StemmerEs {
    stemWord(word: string): string;
  }
  export const SentimentEs: { senticon: Record<string, number>; negations: { words: string[] }; stemmed: boolean };
}
declare module '@nlpjs/neural' {
  export class NeuralNetwork {
    constructor(settings?: { iterations?: number; errorThresh?: number; learningRate?: number; momentum?: number; alpha?: number; log?: boolean });
    train(corpus: Array<{ input: Record<string, number>; output: Record<string, number> }>): { iterations: number; error: number };
    run(input: Record<string, number>): Record<string, number> | undefined;
    fromJSON(json: { settings: Record<string, unknown>; features: string[]; intents: string[]; perceptrons: number[][] }): void;
  }
}
