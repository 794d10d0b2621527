import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rowsOf } from '../../db/database.js';
import { mercadoPagoSandbox, SANDBOX_CHECKOUT_PATH } from '../../integrations/mercadopago/sandbox.js';
import { signNotification } from '../../integrations/mercadopago/signature.js';
import { moneyText } from '../orders/service.js';
import { settingsOf } from './service.js';

const html = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)}</title><style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f4f6;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;color:#1f2937}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:28px;max-width:420px;width:calc(100% - 32px);box-sizing:border-box}
h1{font-size:1.35rem;margin:0 0 8px}p{margin:8px 0;line-height:1.5}.muted{color:#6b7280;font-size:.9rem}
.actions{display:flex;gap:12px;margin-top:20px;flex-wrap:wrap}form{margin:0;flex:1}
button{width:100%;font:inherit;font-weight:600;padding:12px 16px;border-radius:8px;border:0;cursor:pointer}
.pay{background:#009ee3;color:#fff}.reject{background:#fff;color:#b91c1c;border:1px solid #b91c1c}
.badge{display:inline-block;margin-bottom:10px;background:#fef3c7;color:#92400e;border-radius:999px;padding:2px 10px;font-size:.8rem;font-weight:600}
</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The demo's checkout (decision 0083), served by the product: `/pago-sandbox/{preference}` shows
 * «Pagar S/ 120,00 (sandbox)» with «Pagar» and «Rechazar»; a click makes the payment in the
 * company's sandbox account and delivers Mercado Pago's notification, signed with the company's
 * secret, to the product's own notification route — the same verification, the same fetch of
 * the payment. Only for preferences of a company whose settings are sandbox; no internet.
 * `/pago-resultado` is where Checkout Pro sends the buyer back.
 */
export const paymentPages: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const params = z.object({ preferenceId: z.string().regex(/^[A-Za-z0-9-]{1,120}$/, 'Enlace de pago no válido') });

  async function linkOf(preferenceId: string) {
    const [link] = await rowsOf<{ company_id: string; order_id: string; amount: string; currency: string; code: string; status: string }>(
      db,
      sql`select p.company_id, p.order_id, p.amount, p.currency, o.code, o.status from order_payments p
          join orders o on o.company_id = p.company_id and o.id = p.order_id
          where p.preference_id = ${preferenceId} and p.status = 'link' limit 1`,
    );
    if (!link) return undefined;
    const settings = await settingsOf(db, link.company_id);
    if (!settings?.sandbox) return undefined;
    const account = mercadoPagoSandbox(link.company_id, app.settings.publicUrl);
    // a preference of an earlier process (the sandbox lives in memory): the order's link says what it was
    if (!account.preferences.has(preferenceId)) {
      account.preferences.set(preferenceId, {
        id: preferenceId,
        items: [{ title: `Pedido ${link.code}`, quantity: 1, unit_price: Number(link.amount), currency_id: link.currency }],
        externalReference: link.order_id,
        notificationUrl: `${app.settings.publicUrl}/api/webhooks/mercadopago/${link.company_id}`,
        total: Number(link.amount),
        currency: link.currency,
      });
    }
    return { link, settings, account };
  }

  const notFound = (reply: import('fastify').FastifyReply) =>
    reply.status(404).type('text/html; charset=utf-8').send(page('Enlace de pago', '<h1>Este enlace de pago no existe</h1><p>Pide a la tienda un enlace nuevo.</p>'));

  app.get(`${SANDBOX_CHECKOUT_PATH}/:preferenceId`, { config: { public: true }, schema: { hide: true, params } }, async (request, reply) => {
    const found = await linkOf(request.params.preferenceId);
    if (!found) return notFound(reply);
    const amount = moneyText(Number(found.link.amount), found.link.currency);
    const action = (a: string) => `${SANDBOX_CHECKOUT_PATH}/${encodeURIComponent(request.params.preferenceId)}/${a}`;
    const body =
      found.link.status === 'created'
        ? `<span class="badge">Sandbox · sin cobro real</span><h1>Pagar ${html(amount)} (sandbox)</h1><p>Pedido ${html(found.link.code)}</p>
<p class="muted">Así verá tu cliente el pago de Mercado Pago. «Pagar» aprueba un pago simulado y la orden pasa a pagada; «Rechazar» lo rechaza.</p>
<div class="actions"><form method="post" action="${action('pagar')}" enctype="text/plain"><input type="hidden" name="accion" value="pagar"><button class="pay" type="submit">Pagar</button></form>
<form method="post" action="${action('rechazar')}" enctype="text/plain"><input type="hidden" name="accion" value="rechazar"><button class="reject" type="submit">Rechazar</button></form></div>`
        : `<h1>Pedido ${html(found.link.code)}</h1><p>Este pedido ya no espera pago.</p>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page(`Pagar ${amount}`, body));
  });

  app.post(
    `${SANDBOX_CHECKOUT_PATH}/:preferenceId/:accion`,
    { config: { public: true }, schema: { hide: true, params: params.extend({ accion: z.enum(['pagar', 'rechazar'], { error: 'Elige pagar o rechazar' }) }) } },
    async (request, reply) => {
      const found = await linkOf(request.params.preferenceId);
      if (!found) return notFound(reply);
      const approve = request.params.accion === 'pagar';
      const payment = found.account.pay(request.params.preferenceId, { status: approve ? 'approved' : 'rejected' });
      const requestId = randomUUID();
      const secret = app.secrets.open<string>(found.settings.webhookSecret);
      // Mercado Pago's notification, as it would arrive: the same route, the same signature check
      const res = await app.inject({
        method: 'POST',
        url: `/api/webhooks/mercadopago/${found.link.company_id}?data.id=${payment.id}&type=payment`,
        headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-signature': signNotification(secret, payment.id, requestId) },
        payload: { action: 'payment.created', api_version: 'v1', type: 'payment', live_mode: false, data: { id: payment.id } },
      });
      const ok = res.statusCode === 200;
      const amount = moneyText(payment.transaction_amount, payment.currency_id);
      const body = !ok
        ? `<h1>No se pudo avisar a la tienda</h1><p>El pago simulado se hizo, pero la notificación no se procesó (HTTP ${res.statusCode}).</p>`
        : approve
          ? `<span class="badge">Sandbox</span><h1>¡Pago aprobado!</h1><p>Pagaste ${html(amount)} por el pedido ${html(found.link.code)}.</p><p class="muted">Operación ${html(payment.id)}. Ya puedes volver al chat con la tienda.</p>`
          : `<span class="badge">Sandbox</span><h1>Pago rechazado</h1><p>El pago de ${html(amount)} por el pedido ${html(found.link.code)} fue rechazado.</p><p class="muted">Puedes intentarlo de nuevo con el mismo enlace.</p>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page(approve ? 'Pago aprobado' : 'Pago rechazado', body));
    },
  );

  app.get(
    '/pago-resultado',
    { config: { public: true }, schema: { hide: true, querystring: z.object({ estado: z.enum(['aprobado', 'rechazado', 'pendiente']).catch('pendiente') }).loose() } },
    async (request, reply) => {
      const text = {
        aprobado: ['¡Gracias por tu pago!', 'La tienda ya lo recibió: te escribirá por el chat.'],
        rechazado: ['El pago no se completó', 'Puedes intentarlo de nuevo con el mismo enlace o pedir otro medio de pago en el chat.'],
        pendiente: ['Tu pago está en proceso', 'Te avisaremos por el chat cuando se acredite.'],
      }[request.query.estado];
      return reply.type('text/html; charset=utf-8').send(page(text[0], `<h1>${html(text[0])}</h1><p>${html(text[1])}</p>`));
    },
  );
};
