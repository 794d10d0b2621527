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
};

export function buildIndex(version: string, rows: ProductRow[], colors: Array<{ id: string; name: string }>): CatalogueIndex {
  const postings = new Map<string, number[]>();
  const skus = new Map<string, { product: number; variant?: number }>();
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
    return { id: r.id, name: r.name, sku: r.sku, price: Number(r.price), stock: Number(r.stock), variants, words, weight: 0, sizes };
  });
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
  return { version, products, postings, typoKeys, weights, skus, compactSkus, colorNames: new Map(colors.map((c) => [c.id, c.name])), colorKeys };
}

const cache = new Map<string, CatalogueIndex>();

/** The catalogue's version: a product or colour added, changed or removed moves it. */
async function versionOf(db: Db, companyId: string): Promise<string> {
  const [row] = await rowsOf<{ v: string }>(
    db,
    sql`select (select count(*) || ':' || coalesce(max(updated_at)::text, '') from products where company_id = ${companyId})
          || '|' || (select count(*) || ':' || coalesce(max(updated_at)::text, '') from colors where company_id = ${companyId}) as v`,
  );
  return row?.v ?? '';
}

/** The company's index, rebuilt when its catalogue changed since the last one. */
export async function catalogueIndex(db: Db, companyId: string): Promise<CatalogueIndex> {
  const version = await versionOf(db, companyId);
  const known = cache.get(companyId);
  if (known && known.version === version) return known;
  const [rows, colors] = await Promise.all([
    rowsOf<ProductRow>(db, sql`select id, name, sku, price, stock, variants from products where company_id = ${companyId} order by name, id`),
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
