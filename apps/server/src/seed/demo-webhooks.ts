import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import { AUTO_PAUSE_REASON } from '../modules/webhook-subscriptions/deliver.js';

/**
 * The accounting ERP's webhook subscription (decision 0073), with two weeks of deliveries: most
 * answered 200, one that took two tries, and one given up. Paused by a person (the demo reaches
 * no internet), so a fresh start sends nothing; «Reanudar» shows the retries at work.
 */
export async function seedDemoWebhooks(tx: Db, companyId: string, adminId: string | null, secrets: Pick<SecretBox, 'seal'>): Promise<void> {
  const secret = `whsec_demo_${randomUUID().replaceAll('-', '')}`;
  const [sub] = (
    await tx.execute<{ id: string }>(sql`insert into webhook_subscriptions (company_id, url, events, description, secret_sealed, status, paused_reason, paused_at, created_by, created_at)
      values (${companyId}, 'https://erp.ejemplo.pe/webhooks/mostrador', ${JSON.stringify(['order.created', 'order.status_changed', 'order.paid', 'lead.created'])}::jsonb,
              'ERP contable: pedidos y clientes nuevos', ${secrets.seal(secret)}, 'paused', 'La pausó una persona', now() - interval '1 hour', ${adminId}, now() - interval '15 days')
      returning id`)
  ).rows;
  const outcomes: Array<{ type: string; attempts: Array<[number | null, number, string | null, string | null]>; status: string }> = [];
  for (let i = 0; i < 18; i++) outcomes.push({ type: i % 3 === 0 ? 'lead.created' : i % 3 === 1 ? 'order.created' : 'order.paid', attempts: [[200, 80 + ((i * 37) % 160), null, 'ok']], status: 'delivered' });
  outcomes.push({ type: 'order.status_changed', attempts: [[503, 1204, 'La dirección respondió HTTP 503', 'Service Unavailable'], [200, 142, null, 'ok']], status: 'delivered' });
  outcomes.push({
    type: 'order.paid',
    attempts: [
      [null, 10_000, 'Sin respuesta en 10 s', null],
      [500, 320, 'La dirección respondió HTTP 500', '{"error":"duplicate key"}'],
    ],
    status: 'failed',
  });
  for (const [i, o] of outcomes.entries()) {
    const eventId = randomUUID();
    const ageMinutes = (outcomes.length - i) * 1000;
    const body = JSON.stringify({ id: eventId, type: o.type, createdAt: new Date(Date.now() - ageMinutes * 60_000).toISOString(), companyId, data: { demo: true } });
    const [delivery] = (
      await tx.execute<{ id: string }>(sql`insert into webhook_deliveries (subscription_id, company_id, event_id, event_position, event_type, aggregate_key, body, status, attempts, delivered_at, created_at)
        values (${sub.id}, ${companyId}, ${eventId}, ${i}, ${o.type}, ${`demo:${i}`}, ${body}, ${o.status}, ${o.attempts.length},
                ${o.status === 'delivered' ? sql`now() - make_interval(mins => ${ageMinutes - (o.attempts.length - 1) * 3})` : sql`null`}, now() - make_interval(mins => ${ageMinutes}))
        returning id`)
    ).rows;
    for (const [n, [status, latency, error, excerpt]] of o.attempts.entries()) {
      await tx.execute(sql`insert into webhook_attempts (delivery_id, at, status, latency_ms, error, excerpt)
        values (${delivery.id}, now() - make_interval(mins => ${ageMinutes - n * 3}), ${status}, ${latency}, ${error}, ${excerpt})`);
    }
  }
  // a Zapier flow whose address stopped answering: paused by itself after 24 h of failures, and
  // the owner told under the header's bell (decision 0075)
  const zapierUrl = 'https://hooks.zapier.example/hooks/catch/1234/abcd';
  const [zap] = (
    await tx.execute<{ id: string }>(sql`insert into webhook_subscriptions (company_id, url, events, description, secret_sealed, status, paused_reason, paused_at, failing_since, created_by, created_at)
      values (${companyId}, ${zapierUrl}, ${JSON.stringify(['lead.created'])}::jsonb, 'Zapier: leads nuevos a la hoja de cálculo',
              ${secrets.seal(`whsec_demo_${randomUUID().replaceAll('-', '')}`)}, 'paused', ${AUTO_PAUSE_REASON}, now() - interval '3 hours', now() - interval '27 hours', ${adminId}, now() - interval '20 days')
      returning id`)
  ).rows;
  const zapEvent = randomUUID();
  const [zapDelivery] = (
    await tx.execute<{ id: string }>(sql`insert into webhook_deliveries (subscription_id, company_id, event_id, event_position, event_type, aggregate_key, body, status, attempts, created_at)
      values (${zap.id}, ${companyId}, ${zapEvent}, 0, 'lead.created', 'demo:zapier', ${JSON.stringify({ id: zapEvent, type: 'lead.created', createdAt: new Date(Date.now() - 27 * 3_600_000).toISOString(), companyId, data: { demo: true } })},
              'pending', 3, now() - interval '27 hours')
      returning id`)
  ).rows;
  for (const [n, hoursAgo] of [27, 14, 3].entries()) {
    await tx.execute(sql`insert into webhook_attempts (delivery_id, at, status, latency_ms, error, excerpt)
      values (${zapDelivery.id}, now() - make_interval(hours => ${hoursAgo}), 410, ${90 + n * 7}, 'La dirección respondió HTTP 410', 'Gone')`);
  }
  await tx.execute(sql`insert into notifications (company_id, user_id, kind, title, body, link, event_id, created_at)
    select ${companyId}, u.id, 'webhook_subscription.paused', 'Se pausó una suscripción de webhooks',
           ${`La suscripción a ${zapierUrl} dejó de recibir eventos. ${AUTO_PAUSE_REASON}`}, '/configuracion/webhooks', gen_random_uuid(), now() - interval '3 hours'
      from users u where u.email = 'admin@demo.com'`);
}
