import {
  drivePath,
  type ManualPaymentMethod,
  manualPaymentMethodLabels,
  type MarkPaidIn,
  type OrderStatus,
  orderStatusLabels,
  type PaymentOut,
  type PaymentStatus,
  type ProofImageOut,
  paymentStatusLabels,
  shippingMethodLabels,
} from '@mostrador/contract';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { paymentSettings } from '../../db/payment-tables.js';
import { createMercadoPagoClient, type MercadoPagoClient, paymentStatusOf, type PreferenceItem } from '../../integrations/mercadopago/client.js';
import { mercadoPagoSandboxFetch, SANDBOX_CHECKOUT_PATH } from '../../integrations/mercadopago/sandbox.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { moneyText, type OrderRow } from '../orders/service.js';
import { createOrders } from '../orders/service.js';

/**
 * Payments of the company's own orders (issue 30; decisions 0083 Mercado Pago, 0084 manual
 * proof). The order moves to «Pagada» through the orders module's own move (its audit, and the
 * spine's `order.paid` from the table's trigger), under the order's row lock, so a payment moves
 * it once whatever the number of notifications that arrive together.
 */
type Row = Record<string, unknown>;
export type Settings = typeof paymentSettings.$inferSelect;

interface PaymentRow {
  id: string;
  order_id: string;
  provider: 'mercadopago' | 'manual';
  status: PaymentStatus;
  amount: string | number | null;
  currency: string | null;
  method: string | null;
  provider_payment_id: string | null;
  preference_id: string | null;
  url: string | null;
  flagged_reason: string | null;
  proof_message_id: string | null;
  proof_url?: string | null;
  proof_file_id?: string | null;
  proof_file_name?: string | null;
  proof_mime_type?: string | null;
  note: string | null;
  by_name?: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A payment with who recorded it and its proof: a picture of the order's chat, or a file uploaded to Drive. */
const paymentsWithProof = sql`select p.*, nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as by_name,
         m.media_url as proof_url, f.name as proof_file_name, f.mime_type as proof_mime_type
    from order_payments p left join users u on u.id = p.user_id
    left join chat_messages m on m.company_id = p.company_id and m.id = p.proof_message_id
    left join drive_files f on f.company_id = p.company_id and f.id = p.proof_file_id`;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const cents = (n: number | string) => Math.round(Number(n) * 100);

export function paymentOutOf(r: PaymentRow): PaymentOut {
  const methodLabel = r.method ? ((manualPaymentMethodLabels as Record<string, string>)[r.method] ?? r.method) : undefined;
  return {
    _id: r.id,
    orderId: r.order_id,
    provider: r.provider,
    status: r.status,
    statusLabel: paymentStatusLabels[r.status] ?? r.status,
    ...(r.amount !== null ? { amount: Number(r.amount) } : {}),
    ...(r.currency ? { currency: r.currency } : {}),
    ...(r.method ? { method: r.method, methodLabel } : {}),
    ...(r.provider_payment_id ? { providerPaymentId: r.provider_payment_id } : {}),
    ...(r.preference_id ? { preferenceId: r.preference_id } : {}),
    ...(r.url ? { url: r.url } : {}),
    ...(r.flagged_reason ? { flaggedReason: r.flagged_reason } : {}),
    ...(r.proof_message_id ? { proofMessageId: r.proof_message_id } : {}),
    ...(r.proof_url ? { proofUrl: r.proof_url } : {}),
    ...(r.proof_file_id && r.proof_file_name ? { proofFileId: r.proof_file_id, proofUrl: drivePath(r.proof_file_id, r.proof_file_name), proofMimeType: r.proof_mime_type ?? undefined } : {}),
    ...(r.note ? { note: r.note } : {}),
    ...(r.by_name ? { byName: r.by_name } : {}),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

export async function settingsOf(db: Db, companyId: string): Promise<Settings | undefined> {
  const [row] = await db
    .select()
    .from(paymentSettings)
    .where(and(eq(paymentSettings.companyId, companyId), eq(paymentSettings.provider, 'mercadopago')));
  return row;
}

export interface PaymentsDeps {
  secrets: Pick<SecretBox, 'seal' | 'open'>;
  apiUrl: string;
  publicUrl: string;
}

export function createPayments(deps: PaymentsDeps) {
  const orders = createOrders(deps.secrets);

  function clientFor(settings: Settings): MercadoPagoClient {
    return createMercadoPagoClient({
      url: settings.sandbox ? 'https://api.mercadopago.sandbox.test' : deps.apiUrl,
      accessToken: deps.secrets.open<string>(settings.accessToken),
      ...(settings.sandbox ? { fetch: mercadoPagoSandboxFetch(settings.companyId, deps.publicUrl) } : {}),
    });
  }

  async function orderOf(db: Db, companyId: string, id: string, lock = false): Promise<OrderRow> {
    const [order] = await rowsOf<OrderRow & Row>(db, sql`select * from orders where company_id = ${companyId} and id = ${id} ${lock ? sql`for update` : sql``}`);
    if (!order) throw new AppError('NOT_FOUND', 'La orden no existe o fue eliminada');
    return order;
  }

  async function list(db: Db, companyId: string, orderId: string): Promise<PaymentOut[]> {
    await orderOf(db, companyId, orderId);
    const rows = await rowsOf<PaymentRow & Row>(
      db,
      sql`${paymentsWithProof} where p.company_id = ${companyId} and p.order_id = ${orderId} order by p.created_at desc, p.id`,
    );
    return rows.map(paymentOutOf);
  }

  /** The order's lines as Checkout Pro items, priced from the server's order; one line of the total when they do not add up to it. */
  function itemsOf(order: OrderRow): PreferenceItem[] {
    const currency = order.currency;
    const items: PreferenceItem[] = order.items.map((i) => ({
      id: i.sku,
      title: [i.name, i.size ? `Talla ${i.size}` : '', i.color ?? ''].filter(Boolean).join(' · ').slice(0, 250),
      quantity: i.quantity,
      unit_price: Number(i.unitPrice),
      currency_id: currency,
    }));
    const shipping = Number(order.shipping_cost ?? 0);
    if (shipping > 0) items.push({ id: 'envio', title: 'Envío', quantity: 1, unit_price: shipping, currency_id: currency });
    const sum = items.reduce((n, i) => n + cents(i.unit_price) * i.quantity, 0);
    if (!items.length || sum !== cents(order.total)) return [{ id: order.code, title: `Pedido ${order.code}`, quantity: 1, unit_price: Number(order.total), currency_id: currency }];
    return items;
  }

  /** POST /orders/{id}/payment-link: a Checkout Pro preference of an order still «Creada» (the same link again while its total stands). */
  async function paymentLink(db: Db, companyId: string, orderId: string): Promise<{ url: string; preferenceId: string; sandbox: boolean }> {
    const order = await orderOf(db, companyId, orderId);
    if (order.status !== 'created') {
      throw new AppError('CONFLICT', `La orden ${order.code} está ${orderStatusLabels[order.status].toLowerCase()}: solo se cobra con enlace una orden creada`);
    }
    const settings = await settingsOf(db, companyId);
    if (!settings) throw new AppError('CONFLICT', 'Configura Mercado Pago (Integraciones → Mercado Pago) antes de crear enlaces de pago');
    const [known] = await rowsOf<{ url: string | null; preference_id: string }>(
      db,
      sql`select url, preference_id from order_payments where company_id = ${companyId} and order_id = ${orderId} and status = 'link'
          and amount = ${order.total} and currency = ${order.currency} order by created_at desc limit 1`,
    );
    if (known?.url) return { url: known.url, preferenceId: known.preference_id, sandbox: settings.sandbox };
    if (known && settings.sandbox) {
      // a seeded link (the seed knows no public URL): the sandbox's checkout of that preference
      const url = `${deps.publicUrl}${SANDBOX_CHECKOUT_PATH}/${known.preference_id}`;
      await db.execute(sql`update order_payments set url = ${url} where company_id = ${companyId} and preference_id = ${known.preference_id}`);
      return { url, preferenceId: known.preference_id, sandbox: true };
    }
    const pref = await clientFor(settings).createPreference(
      {
        items: itemsOf(order),
        external_reference: order.id,
        notification_url: `${deps.publicUrl}/api/webhooks/mercadopago/${companyId}`,
        back_urls: {
          success: `${deps.publicUrl}/pago-resultado?estado=aprobado`,
          failure: `${deps.publicUrl}/pago-resultado?estado=rechazado`,
          pending: `${deps.publicUrl}/pago-resultado?estado=pendiente`,
        },
        auto_return: 'approved',
      },
      `order:${order.id}:${cents(order.total)}`,
    );
    await db.execute(sql`insert into order_payments (company_id, order_id, provider, status, amount, currency, preference_id, url)
        values (${companyId}, ${orderId}, 'mercadopago', 'link', ${order.total}, ${order.currency}, ${pref.id}, ${pref.initPoint})
        on conflict (company_id, preference_id) where preference_id is not null do nothing`);
    return { url: pref.initPoint, preferenceId: pref.id, sandbox: settings.sandbox };
  }

  /**
   * A verified notification of payment `paymentId`: the payment as Mercado Pago answers it,
   * matched to the company's order by external_reference, recorded once per payment id, the
   * order moved to «Pagada» only by an approved payment of its total in its currency while it is
   * «Creada». Answers what happened (for the log and the tests).
   */
  async function notified(db: Db, settings: Settings, paymentId: string, requestId: string | undefined): Promise<'moved' | 'recorded' | 'flagged' | 'unchanged' | 'ignored'> {
    const companyId = settings.companyId;
    const payment = await clientFor(settings).payment(paymentId);
    const orderId = payment.externalReference ?? '';
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orderId)) return 'ignored';
    const status = paymentStatusOf(payment.status);
    return db.transaction(async (tx) => {
      // the order's row lock: every notification of this order waits here for the one before it
      const [order] = await rowsOf<OrderRow & Row>(tx, sql`select * from orders where company_id = ${companyId} and id = ${orderId} for update`);
      // another company's order (or none): nothing is written
      if (!order) return 'ignored' as const;
      const [before] = await rowsOf<PaymentRow & Row>(
        tx,
        sql`select * from order_payments where company_id = ${companyId} and provider = 'mercadopago' and provider_payment_id = ${payment.id}`,
      );
      if (before && before.status === status) {
        if (requestId) await tx.execute(sql`update order_payments set last_request_id = ${requestId} where id = ${before.id}`);
        return 'unchanged' as const;
      }
      const paid = moneyText(payment.amount, payment.currency || order.currency);
      const total = moneyText(Number(order.total), order.currency);
      let flagged: string | null = before?.flagged_reason ?? null;
      let move = false;
      if (status === 'approved') {
        if (payment.currency !== order.currency || cents(payment.amount) !== cents(order.total)) {
          flagged = `El pago de ${paid} no coincide con el total de la orden (${total}): la orden no se marcó pagada; revísalo en Mercado Pago`;
        } else if (order.status === 'created') {
          move = true;
        } else {
          flagged = `La orden ya estaba ${orderStatusLabels[order.status as OrderStatus].toLowerCase()} cuando llegó este pago: no la cambió; revisa si corresponde reembolsarlo`;
        }
      } else if (status === 'refunded' && before?.status === 'approved' && !before.flagged_reason) {
        // decision 0083: a refund is shown, the order keeps its status (it may have been shipped); the person decides
        flagged = `Mercado Pago reembolsó este pago: la orden sigue ${orderStatusLabels[order.status as OrderStatus].toLowerCase()}; cancélala si corresponde`;
      }
      await tx.execute(sql`insert into order_payments (company_id, order_id, provider, status, amount, currency, method, provider_payment_id, flagged_reason, last_request_id)
          values (${companyId}, ${order.id}, 'mercadopago', ${status}, ${payment.amount}, ${payment.currency || order.currency}, ${payment.method ?? null}, ${payment.id}, ${flagged}, ${requestId ?? null})
          on conflict (company_id, provider, provider_payment_id) where provider_payment_id is not null
          do update set status = excluded.status, amount = excluded.amount, currency = excluded.currency, method = excluded.method,
                        flagged_reason = excluded.flagged_reason, last_request_id = excluded.last_request_id, updated_at = now()`);
      if (move) {
        await orders.move(tx, companyId, order.id, 'paid');
        return 'moved' as const;
      }
      if (flagged && flagged !== before?.flagged_reason) {
        await audit(tx, {
          companyId,
          action: 'update',
          entity: 'orders',
          entityId: order.id,
          actor: { type: 'system' },
          changes: { payment: { from: before?.status ?? null, to: status }, flagged: { from: before?.flagged_reason ?? null, to: flagged } },
        });
        return 'flagged' as const;
      }
      return 'recorded' as const;
    });
  }

  /** Whether this notification (payment and request id) was already processed: answered at once. */
  async function known(db: Db, companyId: string, paymentId: string, requestId: string | undefined): Promise<boolean> {
    if (!requestId) return false;
    const [row] = await rowsOf<{ id: string }>(
      db,
      sql`select id from order_payments where company_id = ${companyId} and provider = 'mercadopago' and provider_payment_id = ${paymentId} and last_request_id = ${requestId}`,
    );
    return !!row;
  }

  /**
   * POST /orders/{id}/mark-paid (decision 0084): a payment the customer proved in the chat
   * (a Yape screenshot, a transfer): its amount (the total, or another with a note saying why),
   * how, the proof (an image message of the order's chat) — kept with who recorded it — and the
   * order «Pagada», in one transaction.
   */
  async function markPaid(db: Db, tenant: { companyId: string; userId: string }, orderId: string, input: MarkPaidIn): Promise<PaymentOut> {
    const { companyId } = tenant;
    return db.transaction(async (tx) => {
      const order = await orderOf(tx, companyId, orderId, true);
      if (order.status !== 'created') {
        throw new AppError('CONFLICT', `La orden ${order.code} está ${orderStatusLabels[order.status].toLowerCase()}: solo se marca pagada una orden creada`);
      }
      const note = input.note?.trim() || null;
      if (cents(input.amount) !== cents(order.total) && !note) {
        const msg = `El monto (${moneyText(input.amount, order.currency)}) no es el total de la orden (${moneyText(Number(order.total), order.currency)}): escribe una nota que explique la diferencia`;
        throw new AppError('VALIDATION', msg, [{ path: 'note', msg: 'Explica por qué el monto es otro' }]);
      }
      if (input.proofMessageId) {
        const [proof] = await rowsOf<{ id: string }>(
          tx,
          sql`select id from chat_messages where company_id = ${companyId} and id = ${input.proofMessageId} and kind = 'image'
              and chat_id = ${order.chat_id ?? null}::uuid`,
        );
        if (!proof) {
          const msg = 'El comprobante debe ser una imagen del chat de esta orden';
          throw new AppError('VALIDATION', msg, [{ path: 'proofMessageId', msg }]);
        }
      }
      if (input.proofFileId) {
        const [file] = await rowsOf<{ id: string }>(
          tx,
          sql`select id from drive_files where company_id = ${companyId} and id = ${input.proofFileId} and (kind = 'image' or mime_type = 'application/pdf')`,
        );
        if (!file) {
          const msg = 'El comprobante subido debe ser una imagen o un PDF de la compañía';
          throw new AppError('VALIDATION', msg, [{ path: 'proofFileId', msg }]);
        }
      }
      const [row] = await rowsOf<PaymentRow & Row>(
        tx,
        sql`insert into order_payments (company_id, order_id, provider, status, amount, currency, method, proof_message_id, proof_file_id, note, user_id)
            values (${companyId}, ${orderId}, 'manual', 'approved', ${input.amount}, ${order.currency}, ${input.method satisfies ManualPaymentMethod},
                    ${input.proofMessageId ?? null}, ${input.proofFileId ?? null}, ${note}, ${tenant.userId})
            returning *`,
      );
      await audit(tx, {
        companyId,
        action: 'create',
        entity: 'order_payments',
        entityId: row.id,
        changes: {
          orderId: { from: null, to: orderId },
          amount: { from: null, to: input.amount },
          method: { from: null, to: input.method },
          ...(input.proofMessageId ? { proofMessageId: { from: null, to: input.proofMessageId } } : {}),
          ...(input.proofFileId ? { proofFileId: { from: null, to: input.proofFileId } } : {}),
          ...(note ? { note: { from: null, to: note } } : {}),
        },
      });
      await orders.move(tx, companyId, orderId, 'paid');
      const [withName] = await rowsOf<PaymentRow & Row>(
        tx,
        sql`${paymentsWithProof} where p.id = ${row.id}`,
      );
      return paymentOutOf(withName);
    });
  }

  /** The last pictures of the order's chat (newest first): what «Marcar pagado» offers as the proof. */
  async function proofImages(db: Db, companyId: string, orderId: string): Promise<ProofImageOut[]> {
    const order = await orderOf(db, companyId, orderId);
    if (!order.chat_id) return [];
    const rows = await rowsOf<{ id: string; media_url: string | null; text: string | null; direction: string; sent_at: Date | string }>(
      db,
      sql`select id, media_url, text, direction, sent_at from chat_messages
          where company_id = ${companyId} and chat_id = ${order.chat_id} and kind = 'image' and media_url is not null
          order by sent_at desc limit 20`,
    );
    return rows.map((r) => ({ _id: r.id, mediaUrl: r.media_url as string, ...(r.text ? { text: r.text } : {}), direction: r.direction, sentAt: iso(r.sent_at) }));
  }

  /** The order as its customer reads it in the chat: the lines, the total, the delivery, and where to pay. */
  async function customerSummary(db: Db, companyId: string, orderId: string, chatId: string, url?: string): Promise<string> {
    const order = await orderOf(db, companyId, orderId);
    if (order.chat_id !== chatId) throw new AppError('NOT_FOUND', 'La orden no es de este chat');
    const first = order.customer_name.trim().split(/\s+/)[0] ?? '';
    const lines = order.items.map((i) => {
      const variant = [i.size, i.color].filter(Boolean).join(' · ');
      return `• ${i.quantity} × ${i.name}${variant ? ` (${variant})` : ''} — ${moneyText(Number(i.total), order.currency)}`;
    });
    const ship = order.shippment
      ? order.shippment.method === 'delivery'
        ? `${shippingMethodLabels.delivery}: ${[order.shippment.address, order.shippment.city].filter(Boolean).join(', ')}`
        : shippingMethodLabels.pickup
      : undefined;
    return [
      `¡Hola${first ? ` ${first}` : ''}! Este es tu pedido ${order.code}:`,
      ...lines,
      `*Total: ${moneyText(Number(order.total), order.currency)}*`,
      ...(ship ? [ship] : []),
      ...(url ? ['', `Paga aquí con Mercado Pago: ${url}`] : []),
    ]
      .join('\n')
      .slice(0, 4000);
  }

  return { clientFor, list, paymentLink, notified, known, markPaid, proofImages, customerSummary };
}
export type Payments = ReturnType<typeof createPayments>;
