import { matchProducts } from '../assistant/matcher.js';
import type { Matcher } from './service.js';

/**
 * The products of a follow-up's cart: what the reply assistant's matcher recognised in the
 * person's words (modules/assistant, decision 0087), in stock, each a line the public catalogue can
 * take — a product with variants only when the person named the variant (a size the person did not
 * choose is not guessed); the quantity they said, else one.
 */
export function recoveryMatcher(): Matcher {
  return async (db, companyId, text) =>
    (await matchProducts(db, companyId, text))
      .filter((p) => p.variant || !p.options)
      .map((p) => ({ productId: p.productId, sku: p.sku, name: p.name, quantity: p.quantity ?? 1, available: p.available }));
}
