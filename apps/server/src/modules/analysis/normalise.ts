/**
 * Spanish chat text as the embedded engine reads it (decision 0044): lower case without accents
 * (ñ kept as n, as nlp.js's Spanish stemmer and lexicon do), WhatsApp spelling spelled out ("q",
 * "xq", "pq", "tb", "xfa"…), runs of a repeated letter cut ("buenooo" → "bueno"), laughter as one
 * token, and emojis as sentiment cues (`emojipos`, `emojineg`, and `emojiiro` for the ironic
 * 🙃 and 🥲). Question marks stay as `?` tokens: a question is a feature (motives, unanswered questions).
 */
const POSITIVE_EMOJI = /[😀😃😄😁😊🙂😉😍🥰😘😻🤗🤩😎👍👌🙌👏💪💯🎉🥳✨⭐🌟💖💕💗💓💞💙💚💛🧡💜❤♥🔥✅🙏☺😋😇🫶🤝💐🌹🥹💝💘👑🏆🤙✌😌🎁😗😙😚😛😜🤪😝🤭🤟🤘✔☑💫🎊🎈🥇🌷🌸🌺🌻🍾🥂🤍🩷🩵🤎💟❣💌😸😺🙆]/gu;
const NEGATIVE_EMOJI = /[😡😠🤬😤😞😔😟😕🙁☹😢😭😩😫😣😖👎💔🙄😒😑😐😬🤦😰😨😱🤮🤢❌⚠😪😓😥🤡🖕💩😾🫠🤨🫤⏳⌛⏰\u{1F550}-\u{1F567}😿🙅🚫⛔☠👿📉😵😧😦]/gu;
const IRONIC_EMOJI = /[🙃🥲]/gu;
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
  // misspellings and shorthand of complaints and thanks (issue 31)
  nadien: 'nadie',
  naiden: 'nadie',
  produto: 'producto',
  bno: 'bueno',
  tng: 'tengo',
  dnd: 'donde',
  xa: 'para',
  mxo: 'mucho',
  mxas: 'muchas',
  mxs: 'muchas',
  nunk: 'nunca',
  nuka: 'nunca',
  aora: 'ahora',
  enserio: 'en serio',
  xfis: 'por favor',
  tqm: 'te quiero mucho',
  wn: 'weon',
  hno: 'hermano',
  ntc: 'no te creas',
  nmms: 'no mames',
  sta: 'esta',
};

const LAUGH = /^(?:j+[aeijosu]+)+j*$|^(?:[aeo]?j+[aeo]+)+$|^(?:js)+j?$|^ha(?:ha)+$/;

export function normalise(text: string): string {
  return wordsOf(text, false).join(' ');
}

/** The text's tokens with its clause breaks: a full stop, comma, semicolon, colon or new line is a `,` token. */
export const clauseTokensOf = (text: string) => wordsOf(text, true);

/** Shorthand of two words («xfa» → «por favor») is two tokens. */
const push = (words: string[], word: string) => {
  if (word.includes(' ')) words.push(...word.split(' '));
  else words.push(word);
};

/** A raw word as the engine spells it: a doubled final vowel cut, laughter as `jaja`, shorthand spelled out. */
function wordOf(raw: string): string {
  // two of a vowel that Spanish does not double at a word's end ("holaa", "sii")
  const word = raw.replace(/([aiu])\1$/, '$1');
  if (LAUGH.test(word)) return 'jaja';
  return SHORTHAND[word] ?? word;
}

function wordsOf(text: string, breaks: boolean): string[] {
  let s = text.toLowerCase();
  s = s.replace(POSITIVE_EMOJI, ' emojipos ').replace(NEGATIVE_EMOJI, ' emojineg ').replace(LAUGH_EMOJI, ' jaja ').replace(IRONIC_EMOJI, ' emojiiro ').replace(OTHER_PICTOGRAPHS, ' ');
  s = s.replace(/:\)|:-\)|:d\b|;\)|<3/g, ' emojipos ').replace(/:\(|:-\(|:\//g, ' emojineg ');
  // accents off (ñ → n and ü → u too, as the stemmer and the lexicon write them)
  s = s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  s = s.replace(/¿/g, ' ').replace(/\?+/g, ' ? ').replace(/!+/g, ' ! ');
  if (breaks) s = s.replace(/[.,;:]+(?=\s|$)|\n/g, ' , ');
  // a letter three or more times is one ("siii", "buenooo", "graciaaas")
  s = s.replace(/([a-z])\1{2,}/g, '$1');
  const words: string[] = [];
  for (const raw of s.split(breaks ? /[^a-z0-9?!,]+/ : /[^a-z0-9?!]+/)) {
    if (!raw) continue;
    // one break for a run of them («€.\n»), none at the start
    if (raw === ',') {
      if (words.length && words[words.length - 1] !== ',') words.push(',');
    }
    // a comma inside a number or between two words with no space («89,90», «hola,como») is no break
    else if (breaks && raw.includes(',')) {
      for (const part of raw.split(',')) if (part) push(words, wordOf(part));
    } else push(words, wordOf(raw));
  }
  return words;
}

/** The normalised text's tokens (words and `?`/`!`). */
export const tokensOf = (text: string) => wordsOf(text, false);
