import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import { moneyText } from '../modules/orders/service.js';

/**
 * The demo's payments (decisions 0083, 0084): Demo Perú's Mercado Pago in sandbox (its checkout
 * served by the product at /pago-sandbox/…, no internet) and the seeded orders' payments in every
 * state — a link waiting, a rejected card, an amount that did not match (flagged), an approved
 * payment, a Yape proved by hand and a refund of a shipped order.
 */
export async function seedDemoPayments(db: Db, companyId: string, userId: string | null, secrets: Pick<SecretBox, 'seal' | 'open'>): Promise<void> {
  await db.execute(sql`insert into payment_settings (company_id, provider, access_token, webhook_secret, public_key, sandbox)
      values (${companyId}, 'mercadopago', ${secrets.seal('sandbox-mp-demo-peru')}, ${secrets.seal('sandbox-clave-demo-peru')}, 'sandbox-public-key-demo', true)
      on conflict do nothing`);
  const orders = await rowsOf<{ id: string; code: string; total: string; currency: string; created_at: Date | string }>(
    db,
    sql`select id, code, total, currency, created_at from orders where company_id = ${companyId} and code in ('P-D00100', 'P-D00101', 'P-D00102', 'P-D00103', 'P-D00104', 'P-D00105')`,
  );
  const by = new Map(orders.map((o) => [o.code, o]));
  const at = (code: string, hours: number) => new Date(new Date(by.get(code)?.created_at ?? Date.now()).getTime() + hours * 3_600_000).toISOString();
  let n = 0;
  const pay = async (code: string, p: { status: string; amount?: number; method?: string; paymentId?: string; preference?: boolean; flagged?: string; note?: string; manual?: boolean; hours?: number }) => {
    const o = by.get(code);
    if (!o) return;
    const when = at(code, p.hours ?? 0.5);
    await db.execute(sql`insert into order_payments (company_id, order_id, provider, status, amount, currency, method, provider_payment_id, preference_id, flagged_reason, note, user_id, created_at, updated_at)
        values (${companyId}, ${o.id}, ${p.manual ? 'manual' : 'mercadopago'}, ${p.status}, ${p.amount ?? Number(o.total)}, ${o.currency}, ${p.method ?? null},
                ${p.paymentId ?? null}, ${p.preference ? `123456789-demo-${code.toLowerCase()}-${++n}` : null}, ${p.flagged ?? null}, ${p.note ?? null},
                ${p.manual ? userId : null}, ${when}, ${when})`);
  };
  await pay('P-D00100', { status: 'link', preference: true, hours: 0.2 });
  await pay('P-D00101', { status: 'link', preference: true, hours: 0.2 });
  await pay('P-D00101', { status: 'rejected', method: 'visa', paymentId: '1320000101' });
  await pay('P-D00102', { status: 'link', preference: true, hours: 0.2 });
  const short = by.get('P-D00102');
  if (short) {
    const paid = Math.round(Number(short.total) * 0.5 * 100) / 100;
    await pay('P-D00102', {
      status: 'approved',
      amount: paid,
      method: 'master',
      paymentId: '1320000102',
      flagged: `El pago de ${moneyText(paid, short.currency)} no coincide con el total de la orden (${moneyText(Number(short.total), short.currency)}): la orden no se marcó pagada; revísalo en Mercado Pago`,
    });
  }
  await pay('P-D00103', { status: 'link', preference: true, hours: 0.2 });
  await pay('P-D00103', { status: 'approved', method: 'visa', paymentId: '1320000103' });
  await pay('P-D00104', { status: 'approved', method: 'yape', manual: true, note: 'Captura del Yape enviada por el chat' });
  await pay('P-D00105', { status: 'refunded', method: 'visa', paymentId: '1320000105', flagged: 'Mercado Pago reembolsó este pago: la orden sigue enviada; cancélala si corresponde' });
}
