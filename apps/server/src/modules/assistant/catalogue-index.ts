import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { deletions, fold, NAME_STOPWORDS, tokenise } from './text.js';

/**
 * A company's catalogue as the assistant searches it (decision 0087), built in memory from its
 * products and colours and kept per company until they change: each suggestion asks the database
 * only for the catalogue's version (how many products and colours, and their latest updated_at —
 * an edit, an insert and a delete each change it), and rebuilds the index when it moved.
 */
export interface IndexedVariant {
  sku: string;
  size?: string;
  colorId?: string;
  stock: number;
  price?: number;
}

export interface IndexedProduct {
  id: string;
  name: string;
  sku: string;
  price: number;
  stock: number;
  variants: IndexedVariant[];
  /** The name's words (stems), each once. */
  words: string[];
  /** The sum of the words' weights. */
  weight: number;
  /** Sizes of its variants, folded → as written. */
  sizes: Map<string, string>;
  /** Its description's words (stems, each once): what tells apart two products the same words name («botella personal»). */
  described: Set<string>;
  /** Whether its name says it is several units sold together («pack x6», «(x4)»). */
  multipack: boolean;
}

export interface CatalogueIndex {
  version: string;
  products: IndexedProduct[];
  /** Word → the products whose name has it. */
  postings: Map<string, number[]>;
  /** A word and each of its one-letter deletions → the catalogue words: typo candidates. */
  typoKeys: Map<string, string[]>;
  /** A word's weight: rarer words weigh more (inverse document frequency; a number half). */
  weights: Map<string, number>;
  /** A SKU (upper case) → its product and variant. */
  skus: Map<string, { product: number; variant?: number }>;
  /** The same without dashes, points or underscores («IK500»). */
  compactSkus: Map<string, { product: number; variant?: number }>;
  colorNames: Map<string, string>;
  /** A colour's hue word, gender cut («roja», «rojo» → «roj»), or its full folded name → the colour ids. */
  colorKeys: Map<string, string[]>;
  /**
   * What kind of thing a product is → the products of that kind: its category's name and the
   * noun its description opens with, one word or two («gaseosa», «bebida energizante»), stems
   * joined by a space. A question about a kind («¿qué gaseosas tienen?») names these.
   */
  kinds: Map<string, number[]>;
  /** A description word's weight (inverse document frequency among the descriptions). */
  describedWeights: Map<string, number>;
}

/** A colour word without its gender and plural («rojas» → «roj»). */
export const colorKey = (word: string) => word.replace(/s$/, '').replace(/[ao]$/, '');

type ProductRow = {
  id: string;
  name: string;
  sku: string;
  price: number | string;
  stock: number;
  variants: Array<{ sku: string; size?: string | null; colorId?: string | null; stock?: number; price?: number | null }> | null;
  description?: string | null;
  category?: string | null;
};

/** Articles and prepositions: what a description's opening noun is read past. */
const LEAD_WORDS = new Set(['el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas', 'lo', 'nuestro', 'nuestra', 'tu', 'su']);
const JOINERS = new Set(['de', 'del', 'con', 'en', 'y', 'o', 'a', 'al', 'para', 'por', 'sin', 'que', 'ahora', 'siempre']);

/** The kinds a product is of: its category's name, and its description's opening noun alone and with the word after it. */
function kindsOf(row: ProductRow): string[] {
  const out: string[] = [];
  const category = tokenise(row.category ?? '').map((t) => t.stem);
  if (category.length) out.push(category.join(' '));
  const words = tokenise(row.description ?? '')
    .filter((t) => !t.numeric)
    .map((t) => t.stem);
  let at = 0;
  while (at < words.length && LEAD_WORDS.has(words[at])) at++;
  const head = words[at];
  if (head && head.length >= 3 && !JOINERS.has(head) && !NAME_STOPWORDS.has(head)) {
    out.push(head);
    const next = words[at + 1];
    if (next && next.length >= 3 && !JOINERS.has(next) && !NAME_STOPWORDS.has(next)) out.push(`${head} ${next}`);
  }
  return out;
}

export function buildIndex(version: string, rows: ProductRow[], colors: Array<{ id: string; name: string }>): CatalogueIndex {
  const postings = new Map<string, number[]>();
  const skus = new Map<string, { product: number; variant?: number }>();
  const kinds = new Map<string, number[]>();
  const products: IndexedProduct[] = rows.map((r, i) => {
    const stems = tokenise(r.name).map((t) => t.stem);
    // two words written as one as well («Red Bull» → redbull, «dry-fit» → dryfit)
    const joined = stems.slice(1).flatMap((w, i) => (/\d/.test(w + stems[i]) ? [] : [stems[i] + w]));
    const words = [...new Set([...stems, ...joined])].filter((w) => !NAME_STOPWORDS.has(w));
    for (const w of words) {
      const list = postings.get(w);
      if (list) list.push(i);
      else postings.set(w, [i]);
    }
    const variants: IndexedVariant[] = (r.variants ?? []).map((v) => ({
      sku: v.sku,
      ...(v.size ? { size: v.size } : {}),
      ...(v.colorId ? { colorId: v.colorId } : {}),
      stock: Number(v.stock ?? 0),
      ...(v.price !== null && v.price !== undefined ? { price: Number(v.price) } : {}),
    }));
    skus.set(r.sku.toUpperCase(), { product: i });
    for (const [vi, v] of variants.entries()) skus.set(v.sku.toUpperCase(), { product: i, variant: vi });
    const sizes = new Map<string, string>();
    for (const v of variants) if (v.size) sizes.set(fold(v.size), v.size);
    const described = new Set(tokenise(r.description ?? '').flatMap((t) => (t.numeric || LEAD_WORDS.has(t.stem) || JOINERS.has(t.stem) ? [] : [t.stem])));
    const multipack = /\bpack\b|\(\s*x\s*\d+\s*\)|\bx\s*\d+\s*(?:\)|$)/i.test(r.name);
    for (const kind of kindsOf(r)) {
      const list = kinds.get(kind);
      if (!list) kinds.set(kind, [i]);
      else if (!list.includes(i)) list.push(i);
    }
    return { id: r.id, name: r.name, sku: r.sku, price: Number(r.price), stock: Number(r.stock), variants, words, weight: 0, sizes, described, multipack };
  });
  const describedCount = new Map<string, number>();
  for (const p of products) for (const w of p.described) describedCount.set(w, (describedCount.get(w) ?? 0) + 1);
  const describedWeights = new Map([...describedCount].map(([w, n]) => [w, Math.log(1 + products.length / n)]));
  const weights = new Map<string, number>();
  const typoKeys = new Map<string, string[]>();
  for (const [word, list] of postings) {
    const idf = Math.log(1 + products.length / list.length);
    weights.set(word, /^\d/.test(word) ? idf / 2 : idf);
    if (word.length < 5 || /\d/.test(word)) continue;
    for (const key of deletions(word)) {
      const found = typoKeys.get(key);
      if (found) found.push(word);
      else typoKeys.set(key, [word]);
    }
  }
  for (const p of products) p.weight = p.words.reduce((n, w) => n + (weights.get(w) ?? 0), 0);
  const colorKeys = new Map<string, string[]>();
  const addColor = (key: string, id: string) => {
    const list = colorKeys.get(key);
    if (!list) colorKeys.set(key, [id]);
    else if (!list.includes(id)) list.push(id);
  };
  for (const c of colors) {
    const words = tokenise(c.name).map((t) => t.norm);
    if (words[0]) addColor(colorKey(words[0]), c.id);
    addColor(words.join(' '), c.id);
  }
  const compactSkus = new Map([...skus].map(([sku, at]) => [sku.replace(/[-_.]/g, ''), at]));
  return { version, products, postings, typoKeys, weights, skus, compactSkus, colorNames: new Map(colors.map((c) => [c.id, c.name])), colorKeys, kinds, describedWeights };
}

const cache = new Map<string, CatalogueIndex>();

/** The catalogue's version: a product, colour or category added, changed or removed moves it. */
async function versionOf(db: Db, companyId: string): Promise<string> {
  const [row] = await rowsOf<{ v: string }>(
    db,
    sql`select (select count(*) || ':' || coalesce(max(updated_at)::text, '') from products where company_id = ${companyId})
          || '|' || (select count(*) || ':' || coalesce(max(updated_at)::text, '') from colors where company_id = ${companyId})
          || '|' || (select count(*) || ':' || coalesce(max(updated_at)::text, '') from categories where company_id = ${companyId}) as v`,
  );
  return row?.v ?? '';
}

/** The company's index, rebuilt when its catalogue changed since the last one. */
export async function catalogueIndex(db: Db, companyId: string): Promise<CatalogueIndex> {
  const version = await versionOf(db, companyId);
  const known = cache.get(companyId);
  if (known && known.version === version) return known;
  const [rows, colors] = await Promise.all([
    rowsOf<ProductRow>(db, sql`select p.id, p.name, p.sku, p.price, p.stock, p.variants, p.description, c.name as category
          from products p left join categories c on c.id = p.category_id
          where p.company_id = ${companyId} order by p.name, p.id`),
    rowsOf<{ id: string; name: string }>(db, sql`select id, name from colors where company_id = ${companyId}`),
  ]);
  const index = buildIndex(version, rows, colors);
  cache.set(companyId, index);
  return index;
}

/** Forgets every index (tests and benchmarks that time a cold build). */
export function clearCatalogueIndexes() {
  cache.clear();
}
