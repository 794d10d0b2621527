import { usdTo } from '@mostrador/contract';
import type { ResourceRecord } from '../../components/crud/types';
import { useCompanyMoney } from '../../lib/money';
import { formatCost } from './format';

/** A call's cost in the currency its row names, else (older rows) its USD cost at the reference rate of the company's currency. */
export function CostCell({ row }: { row: ResourceRecord }) {
  const company = useCompanyMoney();
  const own = typeof row.currency === 'string' && /^[A-Z]{3}$/.test(row.currency) ? row.currency : undefined;
  const currency = own ?? company.currency;
  const amount = typeof row.costLocal === 'number' ? row.costLocal : Number(row.costUsd ?? 0) * (usdTo[currency] ?? 1);
  return <>{formatCost(amount, { ...company, currency: usdTo[currency] ? currency : 'USD' })}</>;
}

