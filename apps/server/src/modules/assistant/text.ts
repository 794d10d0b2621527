/**
 * How the assistant reads a customer's message and a product's name (decision 0087): lower case
 * without accents (ñ → n, as normalise.ts does for the analysis), digits split from letters
 * («500ml» → 500 ml, «x6» → x 6), decimal commas as points («1,5» → 1.5), a plural's final s cut
 * on both sides («polos» and «Polo» meet), and a typo distance (Damerau-Levenshtein, the
 * optimal-string-alignment form) allowed by a word's length.
 */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

export interface Token {
  /** As written, accents and case kept (a size «M» is told from a word by its case). */
  raw: string;
  /** Folded. */
  norm: string;
  /** Folded, a plural's s cut: what product names are compared on. */
  stem: string;
  numeric: boolean;
}

export const stem = (t: string) => (t.length > 3 && t.endsWith('s') && !/\d/.test(t) ? t.slice(0, -1) : t);

/** The words of a text, in order. */
export function tokenise(text: string): Token[] {
  const spaced = text
    .replace(/(\d),(\d)/g, '$1.$2')
    .replace(/(\d)(?=[^\d\s.,])/gu, '$1 ')
    .replace(/([^\d\s.,])(?=\d)/gu, '$1 ');
  const out: Token[] = [];
  for (const raw of spaced.split(/[^\p{L}\p{N}.]+/u)) {
    const clean = raw.replace(/^\.+|\.+$/g, '');
    if (!clean) continue;
    // a point inside words is a separator («pima.talla»); between digits it is a decimal
    const parts = /^\d+(?:\.\d+)?$/.test(clean) ? [clean] : clean.split('.').filter(Boolean);
    for (const part of parts) {
      const norm = fold(part);
      out.push({ raw: part, norm, stem: stem(norm), numeric: /^\d+(?:\.\d+)?$/.test(norm) });
    }
  }
  return out;
}

/** Edits allowed between a written word and a catalogue word: none up to 4 letters, 1 up to 7, 2 beyond. */
export const allowedEdits = (length: number) => (length <= 4 ? 0 : length <= 7 ? 1 : 2);

/** Damerau-Levenshtein distance (optimal string alignment), giving up above `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

/** Every string one deletion away (and the string itself): the keys of the typo index. */
export function deletions(word: string): string[] {
  const out = [word];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Words of a product's name that say nothing on their own: articles, units, packaging. */
export const NAME_STOPWORDS = new Set([
  'de', 'del', 'la', 'el', 'los', 'las', 'en', 'con', 'y', 'o', 'a', 'x', 'para', 'por', 'un', 'una', 'uno', 'al', 'sin',
  'ml', 'g', 'gr', 'kg', 'l', 'lt', 'lts', 'litro', 'litros', 'kilo', 'kilos', 'gramo', 'gramos', 'cc', 'oz', 'cm',
  'pack', 'bolsa', 'lata', 'caja', 'frasco', 'botella', 'sabor', 'tipo', 'unidad', 'unidade', 'und',
]);

/**
 * Words a customer writes all the time that a typo must not turn into a product («solo» is not
 * «polo», «pago» not «pack»): matched to the catalogue only when written exactly.
 */
export const COMMON_WORDS = new Set([
  'solo', 'como', 'cuanto', 'cuanta', 'cuando', 'tienen', 'tiene', 'tengo', 'quiero', 'queria', 'precio', 'precios', 'hola', 'gracias', 'buenas', 'bueno',
  'buenos', 'tarde', 'tardes', 'noche', 'noches', 'dia', 'dias', 'favor', 'envio', 'envios', 'pago', 'pagos', 'talla', 'tallas', 'color', 'colores', 'stock',
  'hay', 'para', 'esta', 'este', 'esto', 'estos', 'bien', 'pero', 'mas', 'tambien', 'cual', 'cuale', 'donde', 'queda', 'quedan', 'llega', 'mandar', 'modelo',
  'modelos', 'disponible', 'disponibles', 'pedido', 'pedir', 'comprar', 'compra', 'cuesta', 'cuestan', 'sale', 'salen', 'ahora', 'hoy', 'manana', 'semana',
  'delivery', 'tienda', 'local', 'yape', 'plin', 'tarjeta', 'efectivo', 'puedo', 'pueden', 'podria', 'seria', 'necesito', 'busco', 'buscaba', 'venden',
  'vende', 'tendra', 'tendran', 'algun', 'alguna', 'otro', 'otra', 'otros', 'mismo', 'misma', 'grande', 'chico', 'chica', 'nuevo', 'nueva', 'unidades',
  'cuantos', 'cuantas', 'todos', 'todo', 'amigo', 'amiga', 'senor', 'senora', 'joven', 'porfa', 'ayuda', 'consulta', 'pregunta', 'saber', 'llevar',
]);

/** Quantities written as words. */
export const NUMBER_WORDS: Record<string, number> = {
  dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, doce: 12, docena: 12, quince: 15, veinte: 20,
};

/**
 * Measures said in words, as the catalogue writes them: «medio litro» is 500 ml, «litro y medio»
 * 1.5 L, «un kilo» 1 kg, «medio kilo» 500 g (so «incakola de medio litro» is the 500 ml).
 */
export function measuresInDigits(text: string): string {
  return text
    .replace(/\b(?:un\s+)?litro\s+y\s+medio\b/giu, '1.5 L')
    .replace(/\bmedio\s+litro\b/giu, '500 ml')
    .replace(/\bmedio\s+kilo\b/giu, '500 g')
    .replace(/\b(?:un|1)\s+(litro|kilo)\b/giu, (_, unit: string) => (unit.toLowerCase() === 'litro' ? '1 L' : '1 kg'))
    .replace(/\b(dos|tres)\s+litros\b/giu, (_, n: string) => `${n.toLowerCase() === 'dos' ? 2 : 3} L`);
}

/**
 * What a customer says of a product already theirs: thanks for it, it arrived, it came wrong, a
 * change or a return, a claim. A clause that says it asks for nothing to be offered
 * («gracias por el polo, me quedó perfecto», «quiero cambiar la talla de mi polo»).
 */
export const AFTER_SALE =
  /\b(?:gracias\s+por\s+(?:el|la|los|las|mi|mis)|me\s+(?:lleg[oó]|llegaron|vendieron|mandaron|enviaron|entregaron)|lleg[oó]\s+(?:rot|mal|abiert|vencid|caliente|incomplet|tarde|chancad|golpead)|(?:ya\s+)?(?:compr[eé]|recib[ií]|ped[ií])\s+(?:el|la|los|las|un|una|mi|mis|\d)|cambiar|cambio\s+de|devolver|devoluci[oó]n|reembolso|reclamo|queja|vencid[oa]s?|malogrado|roto|rota|defectuos[oa]|no\s+me\s+(?:lleg|sirv|qued))/iu;

/** A possessive right before a product's word: «mi polo», «mis zapatillas» are the customer's already. */
export const POSSESSIVES = new Set(['mi', 'mis']);
