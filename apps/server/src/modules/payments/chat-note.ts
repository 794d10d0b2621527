import { type DomainEvent, manualPaymentMethodLabels } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { moneyText } from '../orders/service.js';

/**
 * The `payments.chat-note` listener (spine/listeners.ts, issue 30): an order of a chat was paid
 * (`order.paid` — Mercado Pago's notification or «Marcar pagado»), so the agents of that chat read
 * it in the thread, where they sold: an internal note (never sent to the customer; it opens no
 * window) saying the amount, how, and who recorded it. One per order (its provider id is the
 * order's), so an event heard twice writes one note.
 */
export async function notePaidOrders(db: Db, events: DomainEvent[]): Promise<void> {
  for (const e of events) {
    const { orderId } = e.payload as DomainEvent<'order.paid'>['payload'];
    const [row] = await rowsOf<{
      chat_id: string | null;
      code: string;
      total: string | number;
      currency: string | null;
      provider: string | null;
      method: string | null;
      amount: string | number | null;
      note: string | null;
      by_name: string | null;
    }>(
      db,
      sql`select o.chat_id, o.code, o.total, o.currency, p.provider, p.method, p.amount, p.note,
                 nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as by_name
          from orders o
          left join lateral (select * from order_payments p where p.company_id = o.company_id and p.order_id = o.id and p.status = 'approved'
                             order by p.created_at desc limit 1) p on true
          left join users u on u.id = p.user_id
          where o.company_id = ${e.companyId} and o.id = ${orderId}`,
    );
    if (!row?.chat_id) continue;
    const currency = row.currency ?? 'PEN';
    const amount = moneyText(Number(row.amount ?? row.total), currency);
    const how =
      row.provider === 'mercadopago'
        ? 'por Mercado Pago'
        : row.method
          ? `por ${(manualPaymentMethodLabels as Record<string, string>)[row.method] ?? row.method}`
          : '';
    const who = row.provider === 'manual' && row.by_name ? ` — lo registró ${row.by_name}` : '';
    const note = row.note ? ` («${row.note}»)` : '';
    const text = `💳 Pedido ${row.code} pagado: ${amount}${how ? ` ${how}` : ''}${who}${note}`;
    await db.execute(sql`insert into chat_messages (company_id, chat_id, direction, kind, text, provider_message_id, status, sent_at)
        values (${e.companyId}, ${row.chat_id}, 'out', 'note', ${text}, ${`mostrador-payment:${orderId}`}, 'received', now())
        on conflict (company_id, provider_message_id) do nothing`);
  }
}
