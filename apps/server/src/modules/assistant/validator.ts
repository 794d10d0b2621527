import type { CatalogueIndex } from './catalogue-index.js';
import type { ProductMatch } from './matcher.js';

/**
 * What a draft may state (decision 0087): a SKU the catalogue has, a money amount that is a
 * matched product's price (or that price times the quantity asked, or their sum) or one written in
 * the company's own quick replies, a stock count that is a matched product's. Anything else the
 * model wrote is invented: the draft is refused and the embedded one shown.
 */
export interface DraftProblem {
  kind: 'sku' | 'price' | 'stock';
  value: string;
}

/** A token a SKU could be: capitals and digits joined by dashes or points, with a letter and a digit or dash («IK-500», «POLO-PIMA-M-1»). */
const SKU_LIKE = /(?<![\p{L}\p{N}])[A-Z0-9]+(?:[-_.][A-Z0-9]+)+(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{4,}(?![\p{L}\p{N}])/gu;
/** A quantity with its unit («1.5L», «500ML») is not a SKU. */
const MEASURE = /^\d+(?:[.,]\d+)?(?:ML|L|G|GR|KG|CC|OZ|CM|M)$/;

/** Money: after a currency sign (S/, S/., $, US$, €, PEN, USD) or before «soles», «dólares», «pesos», «euros». */
const MONEY = [
  /(?<!\p{L})(?:S\/\.?|US\$|\$|€|PEN|USD|CLP|COP|EUR|MXN)\s*(\d{1,3}(?:[.,\s\u00a0]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)/giu,
  /(\d+(?:[.,]\d{1,2})?)\s*(?:soles|sol|dólares|dolares|pesos|euros|lucas)\b/giu,
  /(\d+(?:[.,]\d{1,2})?)\s*€/gu,
];
const STOCK = [
  /\b(?:quedan|queda|quedaría|quedarían|stock de|contamos con)\s+(?:solo\s+|solamente\s+|apenas\s+|unas?\s+)?(\d+)\b(?!\s*(?:soles|sol|%|[.,]\d))/giu,
  /\b(\d+)\s+(?:unidades|unidad|und\.?|disponibles|en stock)\b/giu,
];

/** «1.234,50», «1,234.50», «49,90», «49.90», «4 990» → a number. */
export function amountOf(text: string): number {
  const s = text.replace(/[\s\u00a0]/g, '');
  const lastSep = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  if (lastSep >= 0 && s.length - lastSep - 1 <= 2) return Number(`${s.slice(0, lastSep).replace(/[.,]/g, '')}.${s.slice(lastSep + 1)}`);
  return Number(s.replace(/[.,]/g, ''));
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

export function validateDraft(draft: string, ctx: { index: CatalogueIndex; products: ProductMatch[]; quickReplyTexts: string[] }): DraftProblem[] {
  const problems: DraftProblem[] = [];
  for (const token of draft.match(SKU_LIKE) ?? []) {
    if (MEASURE.test(token) || /^\d+(?:[.,]\d+)*$/.test(token)) continue;
    if (!ctx.index.skus.has(token.toUpperCase())) problems.push({ kind: 'sku', value: token });
  }
  const prices = new Set<number>();
  let sum = 0;
  for (const p of ctx.products) {
    prices.add(p.price);
    const total = Math.round(p.price * (p.quantity ?? 1) * 100) / 100;
    prices.add(total);
    sum += total;
  }
  prices.add(Math.round(sum * 100) / 100);
  for (const text of ctx.quickReplyTexts) for (const pattern of MONEY) for (const m of text.matchAll(pattern)) prices.add(amountOf(m[1]));
  for (const pattern of MONEY) {
    for (const m of draft.matchAll(pattern)) {
      const value = amountOf(m[1]);
      if (!Number.isFinite(value) || ![...prices].some((p) => near(p, value))) problems.push({ kind: 'price', value: m[0].trim() });
    }
  }
  const stocks = new Set<number>(ctx.products.flatMap((p) => [p.stock, ...(p.quantity ? [p.quantity] : [])]));
  for (const pattern of STOCK) {
    for (const m of draft.matchAll(pattern)) {
      if (!stocks.has(Number(m[1]))) problems.push({ kind: 'stock', value: m[0].trim() });
    }
  }
  return problems;
}

export function problemText(problems: DraftProblem[]): string {
  const label = { sku: 'un SKU que no está en el catálogo', price: 'un precio que no es del catálogo', stock: 'un stock que no es el del catálogo' };
  const first = problems[0];
  return `El modelo escribió ${label[first.kind]} (${first.value}): se muestra el borrador del motor integrado`;
}
