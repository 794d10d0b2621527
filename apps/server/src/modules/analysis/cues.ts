import { StemmerEs } from '@nlpjs/lang-es';

/**
 * Sentiment cues for the embedded classifier (issue 31, decision 0103): a small hand-written
 * lexicon of how customers of the countries served complain and thank in chat — words, stems and
 * short phrases, each a positive or negative cue of strength 1 or 2 — read with negation
 * («no llegó», «nada bueno», «no me gustó»), intensifiers («muy», «súper», «re», «burda de»),
 * the clause a word is in (a negated verb inside a question is only a question: «no llega
 * todavía?») and sarcasm (a positive opener answered by a complaint: «genial, otra vez tarde»).
 *
 * The classifier's words only count when the training saw them; these cues are features the
 * training sees in hundreds of phrases, so a complaint in words the training never had
 * («me tienen chato», «qué garrón») still carries `cue_neg`. They do not decide alone: the
 * network weighs them beside the words.
 *
 * Spelling is compared folded (`fold`): h dropped (not in ch, nor in a word of three letters: «hay»), ll → y, v → b, z and soft c → s,
 * soft qu → k — «grasias», «yego», «bino», «atension», «kiero» read as they sound.
 */
export const fold = (word: string) =>
  (word.length > 3 ? word.replace(/(?<!c)h/g, '') : word)
    .replace(/ll/g, 'y')
    .replace(/v/g, 'b')
    .replace(/z/g, 's')
    .replace(/c([ei])/g, 's$1')
    .replace(/qu([ei])/g, 'k$1');

const stemmer = new StemmerEs();

type Kind = 'pos' | 'neg' | 'func' | 'intens' | 'thanks' | 'negneg' | 'neutral' | 'rep' | 'iro';
interface Cue {
  kind: Kind;
  strength: number;
}

/** Words that negate the next three words (a comma, `?` or `!` ends the reach). */
export const NEGATORS = new Set(['no', 'nunca', 'jamas', 'ni', 'sin', 'tampoco', 'nadie', 'nada', 'ningun', 'ninguna', 'ninguno']);

// — words, matched by their folded stem (every form of the word): strength 2 strong, 1 mild
const NEG2 = `pesimo pesima pesimos horrible horribles terrible terribles fatal malisimo malisima desastre desastroso
  verguenza vergonzoso estafa estafador estafadores ladron ladrones timo fraude mentirosos mentira
  decepcion decepcionado decepcionada decepcionante indignante indignado indignada furioso furiosa
  harto harta   basura  asco asqueroso inaceptable intolerable abuso abusivo
  cochinada chafa garron chapuza cutre ladilla bodrio falsificado chiviado trucho bamba
  grosero grosera groseros maleducado maleducada maleducados prepotente irrespetuoso irrespetuosa
  denunciar denuncia indecopi sernac profeco engano enganaron enganado enganada
  inservible inutil inutiles incompetente incompetentes irresponsable irresponsables sinverguenza sinverguenzas
  ridiculo ridicula absurdo espantoso espantosa deficiente mediocre penoso penosa patetico patetica rateros chantas
  conchudos cabreado cabreada cabreo arrecho arrechera emputado encabronado timaron estafaron funar funa`;
const NEG1 = `malo mala malos malas mal peor peores roto rota rotos rotas rompio rompieron rajado rajada quebrado quebrada
  danado danada malogrado malogrado malogro defectuoso defectuosa fallado fallada falla fallas averiado estropeado
  abollado aplastado aplastada manchado manchada sucio sucia descosido destenido destino vencido vencida
  crudo cruda incompleto incompleta falso falsa pirata ignoran ignorado ignorada agotado agotada agotados
  desbaratado desbaratada desarmado desarmada despegado despegada deshecho deshecha chueco chueca mojado mojada
  trizado trizada rasgado rasgada marchito marchitas derretido derretida
  demora demoran demorado demorada tardan tardanza retraso retrasado atrasado atraso lentos lentitud
  molesto molesta molestos enojado enojada enfadado enfadada cansado cansada canse cansamos aburrido aburrida
  reclamo reclamar reclamacion queja quejas quejarme exijo exigo devuelvanme cancelen cancelenme anulen anulenme anulad cancelad
  penca fome lata roche gacho  jartera chungo peo chato chata nefasto nefasta lamentable deplorable
  triste tristeza preocupada preocupado frustrado frustrada frustrante desesperada desesperado
  caro cara carisimo carisima costoso robo informales informal desorganizados desastrosos arrepiento arrepentida
  arrepentido bajon papelon embarrada embarraron paila perdieron perdido extraviado devolverme reclamando quejarme`;
const POS2 = `excelente excelentes genial geniales perfecto perfecta perfectos buenisimo buenisima buenisimos increible increibles
  maravilla maravilloso maravillosa espectacular hermoso hermosa hermosos precioso preciosa preciosos bellisimo bellisima
  lindisimo lindisima divino divina encanta encanto encantaron encantada encantado encantadora fascina fascino
  feliz felices contento contenta contentisima satisfecho satisfecha agradecido agradecida agradezco agradecemos
  recomiendo recomendable recomendables recomendado crack cracks genio genios idolo idolos impecable impeque
  fantastico fantastica estupendo estupenda fenomenal riquisimo riquisima delicioso deliciosa
  chevere bacan bacanes bakan bkn bacano chido chidos chida padrisimo regio regia filete buenazo buenaza 
  joya groso copado copada mola molan guay chulo chula majo maja majisimo majisima chollo nitido
  rapidisimo rapidisima puntuales amabilisima amabilisimo top chingon chingona chulada golazo recomendadisimo
  recomendadisima guapisimo guapisima preciosidad belleza bellezas encantadores lindura hermosura`;
const POS1 = `bueno buena buenos buenas rico rica amable amables atentos lindo linda lindos bonito bonita bello bella bellos
  encantador gusta gusto gustaron gustan rapido rapida rapidos puntual eficiente eficientes
  barbaro barbara brutal fino exito exitos felicitaciones felicidades bendiciones bendiga
  amor amo aman seriedad profesionales profesional confiable confiables juicioso juiciosos cumplidos
  agradable agradables emocion emocionada emocionado ilusion ilusionada`;
/** Verbs that are no cue alone and a complaint when negated: «no funciona», «nunca llegó», «nadie contesta». */
const FUNC = `funciona funcionan funciono sirve sirven sirvio llega llegan llego llegado llegaron prende prendio enciende carga cargan
  anda responde responden respondieron respondio contesta contestan contestaron atiende atienden atendieron resuelve
  resuelven resolvieron soluciona solucionan solucionaron devuelven devolvieron cumple cumplen cumplieron aparece
  aparecio recibo recibi recibido entregan entregaron confirman confirmaron avisan avisaron dicen dijeron mueve cierra
  calienta conecta pescan pelan hacen arreglan arreglaron cambian cambiaron reembolsan hay vale`;
const INTENS = 'muy super re recontra requete demasiado tan bastante sumamente totalmente mega ultra full burda bien';
const THANKS = 'gracias agradecimiento';

// — words matched exactly (folded): their stem is shared with a word of the other polarity
const EXACT: Record<string, Cue> = {
  chimba: { kind: 'pos', strength: 2 },
  chimbo: { kind: 'neg', strength: 2 },
  chimbos: { kind: 'neg', strength: 2 },
  wtf: { kind: 'neg', strength: 2 },
  ptm: { kind: 'neg', strength: 2 },
  csm: { kind: 'neg', strength: 2 },
  ctm: { kind: 'neg', strength: 2 },
  hdp: { kind: 'neg', strength: 2 },
  alv: { kind: 'neg', strength: 2 },
  mierda: { kind: 'neg', strength: 2 },
  emojipos: { kind: 'pos', strength: 1 },
  emojineg: { kind: 'neg', strength: 1 },
  emojiiro: { kind: 'iro', strength: 1 },
  tarde: { kind: 'neg', strength: 1 },
  // their stems are those of common words: «cero» folds to «es», «podrido» is «poder», «porquería» «porque»…
  cero: { kind: 'neg', strength: 1 },
  podrido: { kind: 'neg', strength: 2 },
  podrida: { kind: 'neg', strength: 2 },
  porqueria: { kind: 'neg', strength: 2 },
  mamera: { kind: 'neg', strength: 1 },
  mostro: { kind: 'pos', strength: 2 },
  pasada: { kind: 'neutral', strength: 0 },
  padre: { kind: 'neutral', strength: 0 },
};

/**
 * Phrases, matched on the folded tokens before the words (their words are then spoken for):
 * `;` separates phrases of the same kind; a token is one word, `a|b` alternatives, `x*` a prefix,
 * `_` any one word.
 */
const PHRASES: Array<[string, Kind, number]> = [
  // neutral uses of words that are cues elsewhere
  ['buenas|buena|buen tardes|tarde|noches|dias|dia', 'neutral', 0],
  ['buenas|buenos', 'neutral', 0],
  ['la|las|esta|por|en|de|mas|a tarde|tardes', 'neutral', 0],
  ['tarde o temprano', 'neutral', 0],
  ['la|el|semana|mes|ano pasada|pasado', 'neutral', 0],
  ['quedo atento|atenta|pendiente', 'neutral', 0],
  ['mi|tu|su padre', 'neutral', 0],
  ['sin azucar|lactosa|gluten|sal|interes|intereses|costo|compromiso|falta', 'neutral', 0],
  ['no se si|que|como|cual|cuanto|cuantos|donde|cuando|quien|bien', 'neutral', 0],
  ['no gracias', 'neutral', 0],
  // a complaint word negated: mild praise
  ['no hay apuro|drama|rollo|problema|problemas|cuidado;no hay de que;no pasa nada', 'negneg', 1],
  ['sin problema|problemas|queja|quejas;ninguna|ningun queja|problema|reclamo;no me quejo', 'negneg', 1],
  ['no esta|estuvo|es mal;nada mal', 'negneg', 1],
  ['no|nunca me han|habian quedado mal;nunca me han|habian fallado', 'negneg', 2],
  ['de nada', 'pos', 1],
  // thanks that are not thanks
  ['gracias por|para nada', 'neg', 2],
  ['mil|muchas|muchisimas|infinitas gracias', 'thanks', 2],
  // praise in a few words
  ['que padre|chido|chimba|nota|buena|bueno|buen|lindo|linda|bonito|bonita|rico|rica|bien|amables|amable|rapido|rapidos|lujo|maravilla|felicidad|alegria|belleza|hermoso|hermosa', 'pos', 2],
  ['bien|muy|super|re padre|padres', 'pos', 2],
  ['la raja', 'pos', 2],
  ['que paja;de la pm;a toda madre;poca madre;de poca;de pelos;de pinga;que nota;una nota;gracias totales;de corazon', 'pos', 2],
  ['terrible|terriblemente bueno|buena|buenos|bacan|lindo|linda|rico|rica|rapido|amable', 'pos', 2],
  ['te|se pasaste|paso|pasaron|luciste|lucio|lucieron', 'pos', 1],
  ['100 recomendado|recomendados|recomendada', 'pos', 2],
  ['de lujo|diez|primera;de otro mundo', 'pos', 2],
  ['un siete|diez|amor|sol|crack|capo|lujo;una joya|maravilla|pasada|chimba', 'pos', 2],
  ['diez puntos;10 de 10;10 10;cinco|5 estrellas;al cien|100', 'pos', 2],
  ['lo|los maximo|maximos|mejor|mejores;las mejores;mis respetos;da gusto;buena onda|atencion;buen servicio|trato', 'pos', 2],
  ['se pasaron|pasaste|lucieron|luciste|botaron|rifaron|rifan|rifaste', 'pos', 1],
  ['todo bien|ok|okay|correcto|perfecto|excelente;todo en orden;en perfecto estado;bien empacado|empacadito', 'pos', 1],
  ['volvere|volveremos|repetire|repetiremos', 'pos', 1],
  ['que dios;dios le|les|te', 'pos', 1],
  // complaints in a few words
  ['se pasaron|pasan|pasaste con', 'neg', 2],
  ['mala onda|nota|atencion|calidad|leche|experiencia;mal servicio|trato', 'neg', 2],
  ['me|nos quedaron|quedaste|quedo mal;la cagaron|embarraron|regaron;se cago;valio madre;de la chingada;de pena;hasta las narices;ni en pedo', 'neg', 2],
  ['no compren|compres;no les|le|os compren;eviten esta|este|comprar;tengan cuidado', 'neg', 2],
  ['voy a publicar|contar|exponer|subir|escrachar;en redes sociales', 'neg', 1],
  ['mejor compro|pido|busco en|a otro|otra|la;me voy a|con otra|otro|la competencia;compro|comprare|pedire en otro|otra lado|tienda|parte;con la competencia', 'neg', 2],
  ['que me|nos devuelvan|devuelvas|devolvais|reembolsen', 'neg', 2],
  ['_ dias|semanas|horas|meses esperando', 'neg', 1],
  ['sigo|seguimos|sigue|siguen|todavia|aun esperando|espero', 'neg', 1],
  ['aun|todavia nada;hasta ahora|ahorita nada', 'neg', 1],
  ['hasta cuando', 'neg', 1],
  ['que mal|malo|mala|feo|fea|lata|penca|roche|boleta|oso|chasco|desastre|verguenza|asco|caro|cara|caros|caras|carisimo|carero|rabia|fastidio|horror|pereza|embarrada|palta|bajon|papelon|raza|cabreo|arrechera|ladilla|mamera|jartera|decepcion|tristeza|frustracion|desorden|porqueria|basura|estafa|abuso', 'neg', 2],
  ['hecho|hecha|hechos polvo|pedazos|trizas|mierda|bolsa', 'neg', 2],
  ['que poca madre;hasta la madre;poca seriedad;falta de respeto|seriedad|profesionalismo', 'neg', 2],
  ['tomadura de pelo;vaya tela|manera|forma|servicio;menudo timo;menuda estafa|chapuza;un robo', 'neg', 2],
  ['me estan viendo la cara;me vieron la cara;viendo la cara', 'neg', 2],
  ['nunca mas', 'neg', 2],
  ['no puede ser;no es posible;no se queda asi;el colmo;no hay derecho', 'neg', 2],
  ['no es|era lo que pedi|esperaba|compre|pague|queria|mostraban', 'neg', 2],
  ['no se parece;no tiene nada que ver', 'neg', 2],
  ['para nada', 'neg', 1],
  ['en visto', 'neg', 2],
  ['me|nos colgaron|colgo|colgais|cortaron|corto|ignoraron|ignoran|bloquearon|ghostearon', 'neg', 2],
  ['me|nos dan|dieron|dais largas|vueltas;me|nos estan dando largas|vueltas', 'neg', 2],
  ['me|nos cobraron|cobran|cobro|cobrasteis|debitaron|descontaron doble|demas|2|dos|mas;me|nos habeis|han cobrado doble|dos|de', 'neg', 2],
  ['soles|pesos|euros|dolares|bolivares de mas', 'neg', 2],
  ['cobro|cargo|cobros|cargos doble|duplicado|duplicados;dos veces el mismo', 'neg', 2],
  ['y nada', 'neg', 1],
  ['hasta hoy nada', 'neg', 1],
  ['sigo|sigue|siguen|seguimos|todavia|aun sin', 'neg', 1],
  ['ni siquiera|un|una|el|la|caso|idea|respuesta', 'neg', 1],
  ['me tienen hart*|cans*|podrid*|chat*|aburrid*|loc*|frit*', 'neg', 2],
  ['estoy|ando|quede hart*|cans*|podrid*|chat*|aburrid*|molest*|enojad*|enfadad*|decepcionad*|indignad*|furios*|emputad*|encabronad*', 'neg', 2],
  ['me cans*|hart*|arte', 'neg', 2],
  ['ya no|nunca compro|vuelvo|regreso;ya no|nunca les|os|te compro;nunca mas les|os|te compro;nunca mas vuelvo|compro', 'neg', 2],
  ['no vuelvo|volvere|volvemos|regreso', 'neg', 2],
  ['llevo|llevamos|van|pasaron|pasan _ dias|semanas|horas|meses|mes|semana|dia|hora', 'neg', 1],
  ['llevo|llevamos|van|pasaron _ _ dias|semanas|horas|meses|mes|semana|dia|hora', 'neg', 1],
  ['hace _ dias|semanas|meses|semana|mes que', 'neg', 1],
  ['vino|llego|llegaron|vinieron|mandaron|enviaron|entregaron equivocad*|mal|otro|otra|distinto|distinta|incompleto|incompleta|roto|rota|abierto|abierta|fria|frio|tarde|danad*|rayad*|usad*', 'neg', 2],
  ['talla|modelo|color|producto|pedido equivocad*|incorrect*', 'neg', 2],
  ['dejo|dejaron|deja|dejan de funcionar|servir|andar|prender|encender|cargar|sonar|enfriar|calentar', 'neg', 2],
  ['quiero|exijo|necesito mi dinero|plata|reembolso|devolucion|reales|platita|plati;quiero|exijo|necesito un|el reembolso;quiero|exijo la devolucion', 'neg', 2],
  ['dinero|plata|pago de vuelta', 'neg', 2],
  ['devuelvan|devolvais|devuelvanme|reembolsen|reintegren mi|el|la|me|lo', 'neg', 2],
  ['libro de reclamaciones;hoja|hojas de reclamacion*', 'neg', 2],
  ['hablar con el|la|un encargad*|responsable|gerente|supervisor*|jefe;hablar con alguien responsable|encargad*', 'neg', 1],
  ['muy|tan|demasiado|super|re caro|cara|caros|tarde|lento|lentos|malo|mala', 'neg', 2],
  ['no lo|la|los|las recomiendo', 'neg', 2],
  // repetition: a complaint again, or the sarcasm of «genial, otra vez»
  ['otra vez;de nuevo;nuevamente;como siempre;siempre lo mismo;ya es la;por enesima vez', 'rep', 1],
  ['segunda|tercera|cuarta|quinta vez que', 'rep', 1],
];

interface Phrase {
  tokens: Array<{ words: Set<string>; prefixes: string[]; any: boolean }>;
  kind: Kind;
  strength: number;
}
const phrasesByFirst = new Map<string, Phrase[]>();
for (const [text, kind, strength] of PHRASES.flatMap(([texts, kind, strength]) => texts.split(';').map((t) => [t, kind, strength] as const))) {
  const tokens = text.split(' ').map((t) => {
    const alternatives = t.split('|');
    return {
      words: new Set(alternatives.filter((a) => !a.endsWith('*') && a !== '_').map(fold)),
      prefixes: alternatives.filter((a) => a.endsWith('*')).map((a) => fold(a.slice(0, -1))),
      any: t === '_',
    };
  });
  const phrase = { tokens, kind, strength };
  for (const first of tokens[0].words) {
    const list = phrasesByFirst.get(first) ?? [];
    list.push(phrase);
    phrasesByFirst.set(first, list);
  }
}
// the longest phrase first, so «no me han quedado mal» wins over «no»
for (const list of phrasesByFirst.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);

const stemCues = new Map<string, Cue>();
const addStems = (words: string, kind: Kind, strength: number) => {
  for (const w of words.split(/\s+/).filter(Boolean)) {
    const key = stemmer.stemWord(fold(w));
    if (!stemCues.has(key)) stemCues.set(key, { kind, strength });
  }
};
addStems(NEG2, 'neg', 2);
addStems(POS2, 'pos', 2);
addStems(NEG1, 'neg', 1);
addStems(POS1, 'pos', 1);
addStems(FUNC, 'func', 1);
addStems(INTENS, 'intens', 1);
addStems(THANKS, 'thanks', 1);
const exactCues = new Map(Object.entries(EXACT).map(([w, c]) => [fold(w), c]));

/** What a normalised word is to the classifier: read once, then cached (chat vocabulary is small). */
export interface WordInfo {
  /** The stem of the word as written, the key of nlp.js's sentiment lexicon. */
  lexicon: string;
  /** The stem of its folded spelling, the classifier's feature. */
  stem: string;
  folded: string;
  cue?: Cue;
  phrases?: Phrase[];
  negator: boolean;
  brk: boolean;
  emoji: boolean;
  contrast: boolean;
}
const infos = new Map<string, WordInfo>();
const SPECIAL = /^(?:[?!,]|emoji\w+|jaja)$/;
export function wordInfo(word: string): WordInfo {
  let info = infos.get(word);
  if (info) return info;
  const folded = fold(word);
  const special = SPECIAL.test(word);
  const number = /^[0-9]+$/.test(word);
  const stem = number ? 'NUM' : special ? word : stemmer.stemWord(folded);
  info = {
    lexicon: number || special || folded === word ? stem : stemmer.stemWord(word),
    stem,
    folded,
    cue: exactCues.get(folded) ?? stemCues.get(stem),
    phrases: phrasesByFirst.get(folded),
    negator: NEGATORS.has(word),
    brk: word === ',' || word === '?' || word === '!',
    emoji: word.startsWith('emoji'),
    contrast: word === 'pero' || word === 'sino',
  };
  if (infos.size < 50_000) infos.set(word, info);
  return info;
}

export interface CueReading {
  /** The cue features for the classifier. */
  features: Record<string, number>;
  /** Token indexes of a sarcastic opener: their words are not read as praise (empty: none). */
  sarcastic: number[];
  /** Token indexes of neutral phrases that start with a negation («sin azúcar», «no sé si»): no negation there. */
  plain: number[];
  /** The index of the last «pero» (-1: none): what comes before it weighs less. */
  contrast: number;
}

/** A message's cues as they are read, clause by clause. */
class Reading {
  pos = 0;
  neg = 0;
  negneg = 0;
  qneg = 0;
  thanks = 0;
  rep = 0;
  repLater = 0;
  iro = 0;
  /** Words a negation still reaches. */
  negated = 0;
  /** Words an intensifier still reaches. */
  boost = 0;
  clause = 0;
  // the first clause's positive cues (a sarcastic opener) and whether that clause has a complaint of its own
  openerAt: number[] = [];
  openerValue = 0;
  firstClauseNeg = 0;
  negAfterOpener = 0;
  /** The praise and complaint read before a «pero» (the last one): what follows it is what the customer means. */
  before?: { pos: number; neg: number };

  private complaint(v: number) {
    if (this.clause === 0) this.firstClauseNeg += v;
    else this.negAfterOpener += v;
  }

  /** A cue at token `at` (`len` tokens); `phrase`: a phrase or an emoji, never flipped by a negation. */
  add(cue: Cue, at: number, len: number, inQuestion: boolean, phrase: boolean) {
    const { kind, strength } = cue;
    const k = this.boost > 0 && (kind === 'pos' || kind === 'neg') ? 2 : 1;
    if (kind === 'pos') {
      if (this.negated > 0) {
        // «no me gustó», «nada bueno»
        this.neg += strength;
        this.complaint(1);
      } else {
        this.pos += strength * k;
        if (this.clause === 0 && at < 5) {
          for (let j = 0; j < len; j++) this.openerAt.push(at + j);
          this.openerValue += strength * k;
        }
      }
    } else if (kind === 'neg') {
      // «no es caro», «nunca falla»: a mild complaint word negated is a mild praise; a phrase is never flipped
      if (this.negated > 0 && strength < 2 && !phrase) this.negneg++;
      else {
        const v = strength * k;
        if (inQuestion && strength < 2 && !phrase) this.qneg += v;
        else this.neg += v;
        this.complaint(v);
      }
    } else if (kind === 'func') {
      // «no funciona», «nadie contesta» — and in a question only a question: «no llega todavía?»
      if (this.negated > 0) {
        if (inQuestion) this.qneg++;
        else {
          this.neg++;
          this.complaint(1);
        }
      }
    } else if (kind === 'thanks') {
      if (this.negated === 0) this.thanks += strength;
    } else if (kind === 'negneg') this.negneg += strength;
    else if (kind === 'rep') {
      this.rep++;
      if (this.clause > 0) this.repLater++;
    } else if (kind === 'iro') this.iro++;
  }
}

const matchAt = (info: WordInfo[], i: number): Phrase | undefined => {
  const candidates = info[i].phrases;
  if (!candidates) return undefined;
  for (const p of candidates) {
    if (i + p.tokens.length > info.length) continue;
    let ok = true;
    for (let j = 1; j < p.tokens.length && ok; j++) {
      const next = info[i + j];
      const pt = p.tokens[j];
      if (next.brk) ok = false;
      else if (!pt.any && !pt.words.has(next.folded) && !pt.prefixes.some((x) => next.folded.startsWith(x))) ok = false;
    }
    if (ok) return p;
  }
  return undefined;
};

/**
 * A message's cues. `tokens` are the normalised tokens with clause breaks (`,` for a full stop,
 * comma, semicolon, colon or new line; `?`; `!`), as classifier.ts reads them.
 */
export function cuesOf(tokens: string[], info: WordInfo[] = tokens.map(wordInfo)): CueReading {
  const n = tokens.length;
  // which tokens are inside a clause that ends with a question mark — unless it asks why
  // («¿por qué no contestan?» is a complaint, «¿no llega hoy?» a question)
  const question = new Array<boolean>(n);
  for (let i = n - 1, q = false; i >= 0; i--) {
    if (tokens[i] === '?') q = true;
    else if (tokens[i] === ',' || tokens[i] === '!') q = false;
    question[i] = q;
  }
  for (let i = 0; i < n; i++) {
    const start = i === 0 || info[i - 1].brk;
    const why = tokens[i] === 'porque' || (tokens[i] === 'por' && tokens[i + 1] === 'que');
    if (start && why && question[i]) for (let j = i; j < n && question[j] && !info[j].brk; j++) question[j] = false;
  }
  const r = new Reading();
  const plain: number[] = [];
  let contrast = -1;
  for (let i = 0; i < n; i++) {
    const w = info[i];
    if (w.brk) {
      r.negated = 0;
      r.boost = 0;
      // a clause ends; an opener is a clause of its own («genial, …») or the first words
      if (i > 0 && !info[i - 1].brk) r.clause++;
      continue;
    }
    // phrases first
    const matched = matchAt(info, i);
    if (matched) {
      const len = matched.tokens.length;
      // a phrase that starts with a negation carries it: it is not negated again
      if (w.negator) {
        r.negated = 0;
        if (matched.kind === 'neutral') for (let j = 0; j < len; j++) plain.push(i + j);
      }
      r.add(matched, i, len, question[i], true);
      i += len - 1;
      if (r.negated > 0) r.negated = Math.max(0, r.negated - len);
      if (r.boost > 0) r.boost--;
      continue;
    }
    if (w.negator) {
      r.negated = 3;
      continue;
    }
    if (w.contrast) {
      // «me encantó pero llegó tarde»: the clause after it says how it ended
      r.pos /= 2;
      r.neg /= 2;
      r.before = { pos: r.pos, neg: r.neg };
      contrast = i;
      r.negated = 0;
      r.boost = 0;
      continue;
    }
    const cue = w.cue;
    if (cue) {
      if (cue.kind === 'intens') {
        r.boost = 2;
        continue;
      }
      if (w.emoji) {
        // an emoji is not negated («ni llegó 😒»)
        const reach = r.negated;
        r.negated = 0;
        r.add(cue, i, 1, question[i], true);
        r.negated = reach;
      } else r.add(cue, i, 1, question[i], false);
    }
    if (r.negated > 0) r.negated--;
    if (r.boost > 0) r.boost--;
  }

  // sarcasm: praise in the first words, then a complaint, an ironic emoji or «otra vez»
  let sarcastic: number[] = [];
  let { pos, neg } = r;
  if (r.openerValue > 0 && r.firstClauseNeg === 0 && (r.negAfterOpener > 0 || r.iro > 0 || r.repLater > 0)) {
    sarcastic = r.openerAt;
    pos -= r.openerValue;
    neg += 2;
  }
  if (r.rep > 0 && neg > 0) neg++;
  if (r.iro > 0 && sarcastic.length === 0 && pos === 0) neg++;
  const { negneg, qneg, thanks, rep } = r;

  const features: Record<string, number> = {};
  if (pos >= 1) features.cue_pos = 1;
  if (pos >= 2) features.cue_pos2 = 1;
  if (pos >= 4) features.cue_pos4 = 1;
  if (neg >= 1) features.cue_neg = 1;
  if (neg >= 2) features.cue_neg2 = 1;
  if (neg >= 4) features.cue_neg4 = 1;
  if (negneg > 0) features.cue_negneg = 1;
  if (qneg > 0) features.cue_qneg = 1;
  if (thanks >= 1) features.cue_thanks = 1;
  if (thanks >= 2) features.cue_thanks2 = 1;
  if (sarcastic.length > 0) features.cue_sarcasm = 1;
  if (r.before) {
    const after = { pos: r.pos - r.before.pos, neg: r.neg - r.before.neg };
    if (after.neg > after.pos) features.cue_but_neg = 1;
    else if (after.pos > after.neg) features.cue_but_pos = 1;
  }
  if (rep > 0) features.cue_rep = 1;
  return { features, sarcastic, plain, contrast };
}
