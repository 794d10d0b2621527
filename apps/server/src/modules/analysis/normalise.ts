/**
 * Spanish chat text as the embedded engine reads it (decision 0044): lower case without accents
 * (ñ kept as n, as nlp.js's Spanish stemmer and lexicon do), WhatsApp spelling spelled out ("q",
 * "xq", "pq", "tb", "xfa"…), runs of a repeated letter cut ("buenooo" → "bueno"), laughter as one
 * token, and emojis as sentiment cues (`emojipos`, `emojineg`). Question marks stay as `?`
 * tokens: a question is a feature (motives, unanswered questions).
 */
const POSITIVE_EMOJI = /[😀😃😄😁😊🙂😉😍🥰😘😻🤗🤩😎👍👌🙌👏💪💯🎉🥳✨⭐🌟💖💕💗💓💞💙💚💛🧡💜❤♥🔥✅🙏☺]/gu;
const NEGATIVE_EMOJI = /[😡😠🤬😤😞😔😟😕🙁☹😢😭😩😫😣😖👎💔🙄😒😑😐😬🤦😰😨😱🤮🤢❌⚠]/gu;
const LAUGH_EMOJI = /[😂🤣😆😅]/gu;
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point goes on its own, the joiner, variation selector and skin tones included
const OTHER_PICTOGRAPHS = /[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]/gu;

/** Chat shorthand → words (after accents are gone and repeats cut). */
const SHORTHAND: Record<string, string> = {
  q: 'que',
  k: 'que',
  ke: 'que',
  xq: 'porque',
  pq: 'porque',
  pk: 'porque',
  porq: 'porque',
  xk: 'porque',
  x: 'por',
  tb: 'tambien',
  tbn: 'tambien',
  tmb: 'tambien',
  tmbn: 'tambien',
  xfa: 'por favor',
  xfavor: 'por favor',
  porfa: 'por favor',
  porfis: 'por favor',
  plis: 'por favor',
  pls: 'por favor',
  plz: 'por favor',
  d: 'de',
  bn: 'bien',
  msj: 'mensaje',
  msg: 'mensaje',
  cdo: 'cuando',
  cuado: 'cuando',
  toy: 'estoy',
  ta: 'esta',
  tas: 'estas',
  pa: 'para',
  pal: 'para el',
  grax: 'gracias',
  grx: 'gracias',
  grs: 'gracias',
  thx: 'gracias',
  ntp: 'no te preocupes',
  nd: 'nada',
  nc: 'no se',
  aki: 'aqui',
  aca: 'aqui',
  alli: 'ahi',
  ps: 'pues',
  pe: 'pues',
  wtf: 'que demonios',
  ok: 'okay',
  oki: 'okay',
  okis: 'okay',
  dale: 'okay',
  ya: 'ya',
  sip: 'si',
  sep: 'si',
  nop: 'no',
  nel: 'no',
  xd: 'jaja',
};

const LAUGH = /^(?:j+[aeijosu]+)+j*$|^(?:[aeo]?j+[aeo]+)+$|^(?:js)+j?$|^ha(?:ha)+$/;

export function normalise(text: string): string {
  let s = text.toLowerCase();
  s = s.replace(POSITIVE_EMOJI, ' emojipos ').replace(NEGATIVE_EMOJI, ' emojineg ').replace(LAUGH_EMOJI, ' jaja ').replace(OTHER_PICTOGRAPHS, ' ');
  s = s.replace(/:\)|:-\)|:d\b|;\)|<3/g, ' emojipos ').replace(/:\(|:-\(|:\//g, ' emojineg ');
  // accents off (ñ → n and ü → u too, as the stemmer and the lexicon write them)
  s = s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  s = s.replace(/¿/g, ' ').replace(/\?+/g, ' ? ').replace(/!+/g, ' ! ');
  // a letter three or more times is one ("siii", "buenooo", "graciaaas")
  s = s.replace(/([a-z])\1{2,}/g, '$1');
  const words: string[] = [];
  for (const raw of s.split(/[^a-z0-9?!]+/)) {
    if (!raw) continue;
    // two of a vowel that Spanish does not double at a word's end ("holaa", "sii")
    const word = raw.replace(/([aiu])\1$/, '$1');
    if (LAUGH.test(word)) words.push('jaja');
    else words.push(SHORTHAND[word] ?? word);
  }
  return words.join(' ');
}

/** The normalised text's tokens (words and `?`/`!`). */
export const tokensOf = (text: string) => normalise(text).split(' ').filter(Boolean);
