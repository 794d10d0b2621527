import { companyCurrency, usdTo } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from './database.js';

/** The company's currency (`companyCurrency`: the session's rule) when a rate to it is known (`usdTo`), else USD: what USD costs are shown in. */
export async function currencyOf(db: Db, companyId: string): Promise<string> {
  const [c] = await rowsOf<{ country: string; currency: string | null }>(db, sql`select country, settings->>'currency' as currency from companies where id = ${companyId}`);
  const currency = companyCurrency(c?.currency, c?.country ?? '');
  return currency in usdTo ? currency : 'USD';
}
