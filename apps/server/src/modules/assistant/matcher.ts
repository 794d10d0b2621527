import type { SuggestedProduct } from '@mostrador/contract';
import type { Db } from '../../db/database.js';
import { currencyOf } from '../../db/company-currency.js';
import { type CatalogueIndex, catalogueIndex, colorKey, type IndexedProduct } from './catalogue-index.js';
import {
  AFTER_SALE,
  allowedEdits,
  COMMON_WORDS,
  deletions,
  editDistance,
  fold,
  measuresInDigits,
  NAME_STOPWORDS,
  NUMBER_WORDS,
  POSSESSIVES,
  type Token,
  tokenise,
} from './text.js';

/**
 * The products and variants a customer's message mentions (decision 0087). Each word of the
 * message is looked up among the catalogue's words, exactly or within the typos its length allows
 * (common words only exactly); a product is mentioned when one of its real words (not a number,
 * unit or article) is; a product whose matched words are a strict part of another's is dropped
 * («inca kola 500» is the 500 ml, not the 1.5 L too); the five that cover most of their own name
 * stay. Colours are the company's colour names (their hue, any gender: «roja», «morado»), never a
 * product word; sizes are «talla M», «talla 38», a size of the product written as is («M», «XL»,
 * «40»); a quantity is the number before the product («2 polos», «dos gorras») or «x2» after it.
 * A product with variants and a size or colour asked: one entry per variant that fits, in stock
 * or not; none asked: the product with its stock summed and the sizes and colours in stock.
 * Products the same words name are told apart by what else the message says: a price of one of
 * them («el polo de 49.90»), a word of one's description («botella personal», «lata azul»), a
 * pack only when a pack is asked. A clause about a product already the customer's (thanks for it,
 * it arrived broken, a change, «mi polo») offers nothing; a kind of product asked («¿qué gaseosas
 * tienen?», «chocolates») is the products of that kind in stock.
 */
export interface ProductMatch extends SuggestedProduct {
  /** What the customer asked that the catalogue does not have for this product («talla XXL»). */
  missing?: { size?: string; color?: string };
}

export const MAX_PRODUCTS = 5;
const MAX_VARIANTS = 6;

interface Mention {
  product: number;
  /** Indices of the message's tokens that matched the product's words. */
  tokens: Set<number>;
  weight: number;
  first: number;
  last: number;
  variant?: number;
}

/** The catalogue words a message token stands for: exact, or a typo away. */
function wordsFor(index: CatalogueIndex, token: Token): string[] {
  if (index.postings.has(token.stem)) return [token.stem];
  if (token.numeric || COMMON_WORDS.has(token.norm)) return [];
  // a diminutive is its word («gorrita» → gorra, «polito» → polo, «cafecito» → cafe, «sublimesito» → sublime)
  const base = token.norm.length >= 6 ? token.norm.replace(/(?:c|s)?it[oa]s?$/, '') : token.norm;
  if (base !== token.norm && base.length >= 3) {
    for (const end of ['a', 'o', 'e', '']) if (index.postings.has(base + end)) return [base + end];
  }
  const max = allowedEdits(token.stem.length);
  if (max === 0) return [];
  const found = new Set<string>();
  for (const key of deletions(token.stem)) for (const word of index.typoKeys.get(key) ?? []) found.add(word);
  return [...found].filter((w) => editDistance(token.stem, w, max) <= Math.min(max, allowedEdits(w.length)));
}

/** A message's clauses: split at sentence marks, commas that are not decimals, and «pero». */
const CLAUSE_BREAK = /[;!?¡¿\n]+|,(?!\d)|\.(?!\d)|\s+pero\s+/u;

/** The message's tokens, and for each whether its clause speaks of a product already bought. */
function clauses(text: string): { tokens: Token[]; afterSale: boolean[] } {
  const tokens: Token[] = [];
  const afterSale: boolean[] = [];
  for (const clause of measuresInDigits(text).split(CLAUSE_BREAK)) {
    const own = tokenise(clause);
    const bought = AFTER_SALE.test(fold(clause));
    for (const t of own) {
      tokens.push(t);
      afterSale.push(bought);
    }
  }
  return { tokens, afterSale };
}

const UNIT_WORDS = /^(lata|latita|unidad|suelta|suelto|sola|solita|individual|botella|botellita)$/;
const PACK_WORDS = /^(pack|paquete|paquetes|six|sixpack|caja|cajas|docena|docenas|tira|tiras|fardo|fardos|x)$/;

export function matchIndex(index: CatalogueIndex, text: string, currency: string): ProductMatch[] {
  const { tokens, afterSale } = clauses(text);
  const mentions = new Map<number, Mention>();
  const mention = (product: number, at: number, weight: number, variant?: number) => {
    let m = mentions.get(product);
    if (!m) {
      m = { product, tokens: new Set(), weight: 0, first: at, last: at };
      mentions.set(product, m);
    }
    if (!m.tokens.has(at)) m.weight += weight;
    m.tokens.add(at);
    m.first = Math.min(m.first, at);
    m.last = Math.max(m.last, at);
    if (variant !== undefined) m.variant = variant;
  };

  // a SKU written as is («POLO-PIMA-M-1», «ik-500») names its product (and variant) outright
  const skuHits = new Map<number, number>();
  for (const raw of text.match(/[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)+/g) ?? []) {
    const hit = index.skus.get(raw.toUpperCase());
    if (hit) skuHits.set(hit.product, hit.variant ?? -1);
  }
  // …or without its dashes («IK500»): letters and digits together, the way a SKU is read aloud
  for (const raw of text.match(/(?<![\p{L}\p{N}-])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{4,}(?![\p{L}\p{N}-])/gu) ?? []) {
    const hit = index.compactSkus.get(raw.toUpperCase());
    if (hit && !skuHits.has(hit.product)) skuHits.set(hit.product, hit.variant ?? -1);
  }

  // colours: the company's colour names, by their hue word (any gender) or whole
  const colorAt = new Map<number, string[]>();
  const folded = tokens.map((t) => t.norm);
  for (let i = 0; i < tokens.length; i++) {
    for (const span of [3, 2]) {
      const ids = index.colorKeys.get(folded.slice(i, i + span).join(' '));
      if (ids && i + span <= tokens.length) for (let k = i; k < i + span; k++) colorAt.set(k, ids);
    }
    if (!colorAt.has(i) && !tokens[i].numeric && tokens[i].norm.length >= 3) {
      const ids = index.colorKeys.get(colorKey(tokens[i].norm));
      if (ids) colorAt.set(i, ids);
    }
  }

  // sizes written after «talla» / «talle» / «numero» / «n°»
  const askedSizeAt = new Map<number, string>();
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (/^(talla|talle|tall|numero|nro|num|size)$/.test(tokens[i].norm)) {
      askedSizeAt.set(i + 1, tokens[i + 1].norm);
      // «talla M y L», «talla 38 o 39»
      if (i + 3 < tokens.length && /^(y|o|u)$/.test(tokens[i + 2].norm) && tokens[i + 3].raw.length <= 3) askedSizeAt.set(i + 3, tokens[i + 3].norm);
    }
  }

  tokens.forEach((token, at) => {
    if (afterSale[at] || askedSizeAt.has(at) || NAME_STOPWORDS.has(token.stem)) return;
    for (const word of wordsFor(index, token)) {
      const weight = index.weights.get(word) ?? 0;
      for (const product of index.postings.get(word) ?? []) mention(product, at, weight);
    }
    // two written words that are one of the catalogue («alto mayo» → altomayo)
    const next = tokens[at + 1];
    if (next && !token.numeric && !next.numeric) {
      const word = token.norm + next.stem;
      for (const product of index.postings.get(word) ?? []) {
        mention(product, at, index.weights.get(word) ?? 0);
        mention(product, at + 1, 0);
      }
    }
  });

  // a product needs one of its real words matched (a number, a unit or a colour alone names nothing:
  // «polo azul» is not «Leche Gloria azul», «leche gloria azul» is)
  let found = [...mentions.values()].filter((m) => [...m.tokens].some((at) => !tokens[at].numeric && tokens[at].stem.length >= 3 && !colorAt.has(at)));
  // a product whose matched words are a strict part of another's is the less precise reading
  found = found.filter((m) => !found.some((o) => o !== m && o.tokens.size > m.tokens.size && [...m.tokens].every((t) => o.tokens.has(t))));
  // the same words matched: the product they name (its first word, «Avena Quaker») before one they only describe («Jabón Protex avena»)
  const headMatched = (m: Mention) => [...m.tokens].some((at) => wordsFor(index, tokens[at]).includes(index.products[m.product].words[0]));
  const sameSet = (a: Mention, b: Mention) => a.tokens.size === b.tokens.size && [...a.tokens].every((t) => b.tokens.has(t));
  found = found.filter((m) => headMatched(m) || !found.some((o) => o !== m && sameSet(o, m) && headMatched(o)));
  // «mi polo», «mis zapatillas»: the customer's own, not asked for
  const owned = (m: Mention) => {
    const at = Math.min(...[...m.tokens].filter((t) => !tokens[t].numeric));
    return POSSESSIVES.has(tokens[at - 1]?.norm ?? '') || POSSESSIVES.has(tokens[at - 2]?.norm ?? '');
  };
  found = found.filter((m) => !owned(m));
  found = toldApart(index, tokens, found, sameSet);
  // a kind of product asked, by a word that names no product or only as one of its kind («chocolates»: Princesa chocolate and the rest)
  const kindFound = kindsAsked(index, tokens, afterSale, found);
  for (const [product, variant] of skuHits) {
    const m = mentions.get(product) ?? { product, tokens: new Set<number>(), weight: 0, first: tokens.length, last: tokens.length };
    m.weight = Number.POSITIVE_INFINITY;
    if (variant >= 0) m.variant = variant;
    if (!found.includes(m)) found.push(m);
  }
  const coverage = (m: Mention) => (m.weight === Number.POSITIVE_INFINITY ? 2 : m.weight / (index.products[m.product].weight || 1));
  found.sort((a, b) => coverage(b) - coverage(a) || a.first - b.first);
  for (const m of kindFound) if (!found.some((o) => o.product === m.product)) found.push(m);
  found = found.slice(0, MAX_PRODUCTS).sort((a, b) => a.first - b.first);

  const used = new Set<number>();
  for (const m of found) for (const t of m.tokens) used.add(t);
  // a colour or a «talla X» belongs to the product it follows (Spanish puts them after the noun:
  // «polo pima azul talla M y zapatillas andes 40» — azul and M are the polo's), else the first after it;
  // only a product sold in colours or sizes takes them
  const nearest = (at: number, fits: (p: IndexedProduct) => boolean) => {
    const able = found.filter((m) => fits(index.products[m.product]));
    const before = able.filter((m) => m.first <= at).sort((a, b) => b.first - a.first)[0];
    return before ?? able.filter((m) => m.first > at).sort((a, b) => a.first - b.first)[0];
  };
  const colorOwner = new Map<number, Mention | undefined>();
  for (const at of colorAt.keys()) colorOwner.set(at, nearest(at, (p) => p.variants.some((v) => v.colorId)));
  const sizeOwner = new Map<number, Mention | undefined>();
  for (const at of askedSizeAt.keys()) sizeOwner.set(at, nearest(at, (p) => p.sizes.size > 0));
  const out: ProductMatch[] = [];
  for (const m of found) {
    const p = index.products[m.product];
    const quantity = quantityOf(tokens, m, used);
    const sizes = sizesAsked(tokens, p, new Map([...askedSizeAt].filter(([at]) => sizeOwner.get(at) === m)), used);
    const mine = [...colorAt].filter(([at]) => colorOwner.get(at) === m).map(([, ids]) => ids);
    const colors = new Set(mine.flat().filter((id) => p.variants.some((v) => v.colorId === id)));
    const askedColor = mine.length > 0 && colors.size === 0 ? index.colorNames.get(mine[0][0]) : undefined;
    out.push(...entriesOf(index, p, { variant: m.variant, sizes, colors, askedColor, quantity, currency }));
  }
  return out;
}

/**
 * Products the same words name, told apart by what else the message says: a price that is one's
 * («el polo de 49.90»), words of one's description («personal», «lata azul»); and the single unit,
 * not its pack, when the message asks for one («la lata», «una unidad») and no pack («caja», «x6»).
 */
function toldApart(index: CatalogueIndex, tokens: Token[], found: Mention[], sameSet: (a: Mention, b: Mention) => boolean): Mention[] {
  const used = new Set<number>();
  for (const m of found) for (const t of m.tokens) used.add(t);
  const prices = new Set(tokens.filter((t) => t.numeric && /\./.test(t.norm)).map((t) => Number(t.norm)));
  const priceFits = (m: Mention) => {
    const p = index.products[m.product];
    return prices.has(p.price) || p.variants.some((v) => v.price !== undefined && prices.has(v.price));
  };
  const describedScore = (m: Mention) =>
    tokens.reduce((n, t, at) => (used.has(at) || t.numeric || t.stem.length < 3 ? n : n + (index.products[m.product].described.has(t.stem) ? (index.describedWeights.get(t.stem) ?? 0) : 0)), 0);
  let out = found.filter((m) => {
    const peers = found.filter((o) => sameSet(o, m));
    if (peers.length < 2) return true;
    if (peers.some(priceFits)) return priceFits(m);
    const best = Math.max(...peers.map(describedScore));
    return describedScore(m) >= best;
  });
  if (!tokens.some((t) => PACK_WORDS.test(t.norm)) && tokens.some((t) => UNIT_WORDS.test(t.norm))) {
    out = out.filter((m) => {
      const p = index.products[m.product];
      return !p.multipack || !out.some((o) => o !== m && !index.products[o.product].multipack && index.products[o.product].words[0] === p.words[0]);
    });
  }
  return out;
}

/**
 * A kind of product asked («¿qué gaseosas tienen?», «bebidas energizantes», «tienen chocolates?»):
 * when no product is named, or the only words matched are a kind's (a word one product has in
 * its name that is also the kind of others), the products of that kind that are in stock. Two
 * words of a kind before one («bebida energizante» before «bebida»).
 */
function kindsAsked(index: CatalogueIndex, tokens: Token[], afterSale: boolean[], found: Mention[]): Mention[] {
  const asked: Array<{ at: number; products: number[] }> = [];
  const kindAt = new Set<number>();
  for (let at = 0; at < tokens.length; at++) {
    if (afterSale[at] || tokens[at].numeric || POSSESSIVES.has(tokens[at - 1]?.norm ?? '')) continue;
    const two = tokens[at + 1] ? index.kinds.get(`${tokens[at].stem} ${tokens[at + 1].stem}`) : undefined;
    const one = two ?? index.kinds.get(tokens[at].stem);
    if (!one) continue;
    asked.push({ at, products: one });
    kindAt.add(at);
    if (two) kindAt.add(++at);
  }
  if (!asked.length) return [];
  // a product named by its own first word («Cerveza Pilsen», «Galletas Casino») is that product, not a kind
  const named = (m: Mention) => [...m.tokens].some((t) => !kindAt.has(t) || index.products[m.product].words[0] === tokens[t].stem);
  if (found.some(named)) return [];
  const inStock = (i: number) => {
    const p = index.products[i];
    return p.variants.length ? p.variants.some((v) => v.stock > 0) : p.stock > 0;
  };
  const out: Mention[] = [];
  for (const { at, products } of asked) {
    for (const product of products) {
      if (inStock(product) && !out.some((m) => m.product === product)) out.push({ product, tokens: new Set([at]), weight: 0, first: at, last: at });
    }
  }
  return out;
}

/** «2 polos», «dos gorras», «polo x2»: a count up to 99 before the product's first word (one word between at most) or «x N» after it. */
function quantityOf(tokens: Token[], m: Mention, used: Set<number>): number | undefined {
  const countOf = (t: Token | undefined) => {
    if (!t) return undefined;
    if (t.numeric && /^\d{1,2}$/.test(t.norm)) return Number(t.norm);
    return NUMBER_WORDS[t.norm];
  };
  for (const at of [m.first - 1, m.first - 2]) {
    if (at < 0 || used.has(at)) continue;
    if (at === m.first - 2 && !/^(de|del|la|el|los|las|unidades|unidad)$/.test(tokens[m.first - 1]?.norm ?? '')) continue;
    const n = countOf(tokens[at]);
    if (n && n > 1) return n;
  }
  if (tokens[m.last + 1]?.norm === 'x') {
    const n = countOf(tokens[m.last + 2]);
    if (n && n > 1) return n;
  }
  return undefined;
}

/** The sizes asked of a product: after «talla», or one of its sizes written as is (a letter size in capitals, or «xl», «38»). */
function sizesAsked(tokens: Token[], p: IndexedProduct, askedAt: Map<number, string>, used: Set<number>) {
  const found = new Set<string>();
  let missing: string | undefined;
  if (!p.sizes.size) return { found, missing };
  for (const [, size] of askedAt) {
    if (p.sizes.has(size)) found.add(size);
    // a size of the other kind (a number for a polo sold in S/M/L) is another product's
    else if (/^\d+$/.test(size) === [...p.sizes.keys()].some((s) => /^\d+$/.test(s))) missing ??= size;
  }
  tokens.forEach((t, at) => {
    if (used.has(at) || askedAt.has(at) || !p.sizes.has(t.norm)) return;
    const letter = /^[a-z]$/.test(t.norm);
    if (!letter || t.raw === t.raw.toUpperCase()) found.add(t.norm);
  });
  return { found, missing: found.size ? undefined : missing };
}

function entriesOf(
  index: CatalogueIndex,
  p: IndexedProduct,
  asked: { variant?: number; sizes: { found: Set<string>; missing?: string }; colors: Set<string>; askedColor?: string; quantity?: number; currency: string },
): ProductMatch[] {
  const base = { productId: p.id, name: p.name, currency: asked.currency, ...(asked.quantity ? { quantity: asked.quantity } : {}) };
  const variantEntry = (vi: number): ProductMatch => {
    const v = p.variants[vi];
    const color = v.colorId ? index.colorNames.get(v.colorId) : undefined;
    return {
      ...base,
      sku: v.sku,
      variant: { sku: v.sku, ...(v.size ? { size: v.size } : {}), ...(color ? { color } : {}) },
      price: v.price ?? p.price,
      stock: v.stock,
      available: v.stock > 0,
    };
  };
  if (!p.variants.length) return [{ ...base, sku: p.sku, price: p.price, stock: p.stock, available: p.stock > 0 }];
  if (asked.variant !== undefined) return [variantEntry(asked.variant)];
  const fits = p.variants
    .map((v, vi) => ({ v, vi }))
    .filter(({ v }) => (!asked.sizes.found.size || (v.size && asked.sizes.found.has(fold(v.size)))) && (!asked.colors.size || (v.colorId && asked.colors.has(v.colorId))));
  const narrowed = asked.sizes.found.size > 0 || asked.colors.size > 0;
  const missing = {
    ...(asked.sizes.missing ? { size: asked.sizes.missing.toUpperCase() } : {}),
    ...(asked.askedColor ? { color: asked.askedColor } : {}),
  };
  if (narrowed && fits.length && !missing.size && !missing.color) return fits.slice(0, MAX_VARIANTS).map(({ vi }) => variantEntry(vi));
  // nothing asked (or asked what it does not have): the product, its stock summed, what is in stock
  const inStock = p.variants.filter((v) => v.stock > 0);
  const stock = inStock.reduce((n, v) => n + v.stock, 0);
  const sizes = [...new Set(inStock.flatMap((v) => (v.size ? [v.size] : [])))];
  const colors = [...new Set(inStock.flatMap((v) => (v.colorId && index.colorNames.get(v.colorId) ? [index.colorNames.get(v.colorId) as string] : [])))];
  const hasMissing = Boolean(missing.size || missing.color);
  return [
    {
      ...base,
      sku: p.sku,
      price: p.price,
      stock: hasMissing ? 0 : stock,
      available: !hasMissing && stock > 0,
      options: { sizes, colors },
      ...(hasMissing ? { missing } : {}),
    },
  ];
}

/**
 * The products a text mentions in a company's catalogue (its in-memory index, rebuilt when the
 * catalogue changed): for «Sugerir respuesta» and for whatever else must read products in a
 * customer's words (the recovered sales of a later feature).
 */
export async function matchProducts(db: Db, companyId: string, text: string): Promise<ProductMatch[]> {
  const [index, currency] = await Promise.all([catalogueIndex(db, companyId), currencyOf(db, companyId)]);
  return matchIndex(index, text, currency);
}
