import { NeuralNetwork } from '@nlpjs/neural';
import { describe, expect, it } from 'vitest';
import { featuresOf, MessageClassifier, trainNetwork } from '../src/modules/analysis/classifier.js';
import { cuesOf, wordInfo } from '../src/modules/analysis/cues.js';
import { classifyMessage } from '../src/modules/analysis/embedded.js';
import { clauseTokensOf, normalise } from '../src/modules/analysis/normalise.js';
import { customerPhrases } from '../src/modules/analysis/training/customer.js';

/**
 * The embedded classifier's cues (issue 31, decision 0103): negation, emoji, sarcasm, spelling,
 * clause breaks, and the typed-array trainer that must learn what nlp.js's trainer learns.
 */
const cues = (text: string) => cuesOf(clauseTokensOf(text)).features;

describe('cues: negation', () => {
  it('a negated verb or praise is a complaint', () => {
    for (const text of ['el pedido no llegó', 'nada bueno que contar', 'no me gustó la tela', 'nadie contesta', 'la plancha no calienta']) {
      expect([text, cues(text).cue_neg]).toEqual([text, 1]);
    }
  });
  it('a negated complaint is not one', () => {
    for (const text of ['no tengo ninguna queja', 'no está mal', 'no es caro', 'sin problemas, gracias']) {
      const c = cues(text);
      expect([text, c.cue_neg]).toEqual([text, undefined]);
      expect([text, c.cue_negneg]).toEqual([text, 1]);
    }
  });
  it('a negated verb inside a question is only a question, and a comma ends the negation', () => {
    expect(cues('todavía no llega mi pedido?')).toMatchObject({ cue_qneg: 1 });
    expect(cues('todavía no llega mi pedido?').cue_neg).toBeUndefined();
    // «no, gracias» declines: the thanks are not negated, nor a complaint
    expect(cues('no, gracias').cue_neg).toBeUndefined();
    expect(cues('no gracias').cue_thanks).toBeUndefined();
  });
  it('a «por qué no…?» is a complaint, a neutral phrase with «sin» or «no sé» negates nothing', () => {
    expect(cues('¿por qué no contestan?')).toMatchObject({ cue_neg: 1 });
    expect(cues('¿por qué no contestan?').cue_qneg).toBeUndefined();
    const plain = cuesOf(clauseTokensOf('sin azúcar tienen?'));
    expect(plain.plain).toEqual([0, 1]);
    expect(featuresOf('sin azúcar tienen?')[`neg_${wordInfo('azucar').stem}`]).toBeUndefined();
    expect(featuresOf('sin azúcar tienen?')[wordInfo('azucar').stem]).toBeDefined();
    expect(featuresOf('sin stock otra vez')[`neg_${wordInfo('stock').stem}`]).toBeDefined();
  });
  it('after a «pero» is what the customer means', () => {
    expect(cues('me encantó pero llegó tarde')).toMatchObject({ cue_but_neg: 1 });
    expect(cues('llegó tarde pero me encantó')).toMatchObject({ cue_but_pos: 1 });
    // and the words before it weigh half
    const f = featuresOf('me encantó pero llegó tarde');
    expect(f[wordInfo('encanto').stem]).toBe(f[wordInfo('tarde').stem] / 2);
  });
  it('intensifiers and phrases weigh more', () => {
    expect(cues('es malo')).toMatchObject({ cue_neg: 1 });
    expect(cues('es malo').cue_neg2).toBeUndefined();
    expect(cues('es muy malo')).toMatchObject({ cue_neg2: 1 });
    expect(cues('me dejaron en visto')).toMatchObject({ cue_neg2: 1 });
    expect(cues('mil gracias')).toMatchObject({ cue_thanks2: 1 });
  });
});

describe('cues: emoji', () => {
  it('emojis are read as cues, 🙃 as irony, and an emoji is never negated', () => {
    expect(normalise('ok 🙃')).toBe('okay emojiiro');
    expect(normalise('🫶🤝 gracias')).toBe('emojipos emojipos gracias');
    expect(normalise('🤡 ⏳')).toBe('emojineg emojineg');
    expect(cues('ni llegó 😒')).toMatchObject({ cue_neg2: 1 });
    expect(cues('ni llegó 😒').cue_negneg).toBeUndefined();
    expect(cues('😍😍')).toMatchObject({ cue_pos2: 1 });
  });
});

describe('cues: sarcasm', () => {
  it('praise that opens a complaint is sarcasm, and its words are not read as praise', () => {
    for (const text of ['genial, otra vez tarde', 'excelente servicio, ni llegó', 'de lujo, llegó roto', 'buenísimo 🙃 tres días sin respuesta']) {
      const r = cuesOf(clauseTokensOf(text));
      expect([text, r.features.cue_sarcasm]).toEqual([text, 1]);
      expect([text, r.features.cue_pos]).toEqual([text, undefined]);
      expect(r.sarcastic.length).toBeGreaterThan(0);
      // the opener's stems are left out of the classifier's features
      expect(featuresOf(text)[wordInfo(clauseTokensOf(text)[r.sarcastic[0]]).stem]).toBeUndefined();
    }
  });
  it('sincere praise is not sarcasm', () => {
    for (const text of ['genial, muchas gracias', 'genial como siempre, gracias!', 'excelente, llegó rapidísimo', 'perfecto, te confirmo mañana']) {
      expect([text, cues(text).cue_sarcasm]).toEqual([text, undefined]);
    }
  });
});

describe('spelling', () => {
  it('misspellings that sound alike share a stem', () => {
    expect(wordInfo('grasias').stem).toBe(wordInfo('gracias').stem);
    expect(wordInfo('yego').stem).toBe(wordInfo('llegó'.normalize('NFD').replace(/[\u0300-\u036f]/g, '')).stem);
    expect(wordInfo('bino').stem).toBe(wordInfo('vino').stem);
    expect(wordInfo('atension').stem).toBe(wordInfo('atencion').stem);
    // and the lexicon still reads the word as written
    expect(wordInfo('gracias').lexicon).toBe('grac');
  });
  it('clause breaks: a full stop, comma or new line is a break, a decimal comma is not', () => {
    expect(clauseTokensOf('hola, pagué 89,90 €.\nGracias')).toEqual(['hola', ',', 'pague', '89', '90', ',', 'gracias']);
    expect(normalise('hola, pagué 89,90 €.\nGracias')).toBe('hola pague 89 90 gracias');
  });
});

describe('the typed-array trainer', () => {
  it('learns the same network as nlp.js NeuralNetwork and answers as it does', () => {
    const corpus = customerPhrases.slice(0, 300).map(([text, , motive]) => ({ input: featuresOf(text), output: motive as string }));
    const theirs = new NeuralNetwork({ iterations: 400, errorThresh: 0.0005, log: false });
    theirs.train(corpus.map(({ input, output }) => ({ input, output: { [output]: 1 } })));
    const ours = trainNetwork(corpus);
    const loaded = new NeuralNetwork();
    loaded.fromJSON(ours);
    const classifier = new MessageClassifier(['precio', 'stock', 'compra', 'envio', 'pago', 'reclamo', 'horario', 'otro'], corpus.map((c) => [c.input, c.output] as const));
    for (const text of ['cuánto cuesta el envío a Cusco?', 'el pedido llegó roto', 'a qué hora abren', ...corpus.slice(0, 50).map((c) => Object.keys(c.input).join(' '))]) {
      const input = featuresOf(text);
      const expected = theirs.run(input) ?? {};
      const got = loaded.run(input) ?? {};
      const direct = classifier.raw(input);
      for (const label of Object.keys(expected)) {
        expect(got[label]).toBe(expected[label]);
        expect(direct[label]).toBe(expected[label]);
      }
    }
  });
});

describe('embedded classifier: issue 31 messages', () => {
  it('reads complaints, thanks, sarcasm, emoji, capitals, misspellings and voice notes it was not trained on', () => {
    const cases: Array<[string, string]> = [
      ['buenazo, cuarta vez que me cambian la fecha de entrega 🙃', 'negative'],
      ['NADIE ME DA RAZÓN DE MI PAQUETE', 'negative'],
      ['la batidora dejó de prender al segundo día', 'negative'],
      ['pésimo, me tienen harta con tanta espera', 'negative'],
      ['grasias x todo, yego bien 👌', 'positive'],
      ['ya me llegó la mochila, está hermosa, mil gracias', 'positive'],
      ['hola este quería saber pues si tienen la mesa en color blanco', 'neutral'],
      ['no sé qué color elegir, me mandas fotos?', 'neutral'],
      ['🤬🤬', 'negative'],
      ['🥰🥰', 'positive'],
    ];
    const training = new Set(customerPhrases.map(([t]) => normalise(t)));
    for (const [text, sentiment] of cases) {
      if (/\p{L}/u.test(text)) expect(training.has(normalise(text))).toBe(false);
      expect([text, classifyMessage(text).sentiment.label]).toEqual([text, sentiment]);
    }
  });
});
