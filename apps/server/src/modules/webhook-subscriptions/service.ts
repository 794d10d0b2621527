import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_SECRET_PREFIX,
  type WebhookDeliveryOut,
  type webhookDeliveryQuery,
  type WebhookSubscriptionCreated,
  type WebhookSubscriptionOut,
  type webhookSubscriptionIn,
  type webhookSubscriptionUpdate,
} from '@mostrador/contract';
import type { z } from 'zod';
import { type Database, isoOf } from '../../db/database.js';
import { assertTargetUrl } from '../../integrations/outbound.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Tenant } from '../../plugins/auth.js';

const notFound = () => new AppError('NOT_FOUND', 'La suscripción de webhook no existe');

interface SubscriptionRow {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'active' | 'paused';
  paused_reason: string | null;
  paused_at: string | null;
  failing_since: string | null;
  created_at: string;
  pending: string;
  delivered: string;
  failed: string;
  last_delivery_at: string | null;
}

const columns = `s.id, s.url, s.events, s.description, s.status, s.paused_reason, s.paused_at, s.failing_since, s.created_at,
  (select count(*) from webhook_deliveries d where d.subscription_id = s.id and d.status = 'pending') as pending,
  (select count(*) from webhook_deliveries d where d.subscription_id = s.id and d.status = 'delivered') as delivered,
  (select count(*) from webhook_deliveries d where d.subscription_id = s.id and d.status = 'failed') as failed,
  (select max(d.delivered_at) from webhook_deliveries d where d.subscription_id = s.id) as last_delivery_at`;

function subscriptionOf(r: SubscriptionRow): WebhookSubscriptionOut {
  return {
    _id: r.id,
    url: r.url,
    events: r.events,
    description: r.description,
    status: r.status,
    pausedReason: r.paused_reason,
    pausedAt: isoOf(r.paused_at),
    failingSince: isoOf(r.failing_since),
    createdAt: isoOf(r.created_at) as string,
    counts: { pending: Number(r.pending), delivered: Number(r.delivered), failed: Number(r.failed) },
    lastDeliveryAt: isoOf(r.last_delivery_at),
  };
}

export function createSubscriptionService(database: Pick<Database, 'pool'>, secrets: Pick<SecretBox, 'seal'>) {
  const { pool } = database;
  async function one(tenant: Tenant, id: string): Promise<WebhookSubscriptionOut> {
    const { rows } = await pool.query<SubscriptionRow>(`select ${columns} from webhook_subscriptions s where s.id = $1 and s.company_id = $2`, [id, tenant.companyId]);
    if (!rows[0]) throw notFound();
    return subscriptionOf(rows[0]);
  }
  return {
    one,
    async list(tenant: Tenant): Promise<WebhookSubscriptionOut[]> {
      const { rows } = await pool.query<SubscriptionRow>(`select ${columns} from webhook_subscriptions s where s.company_id = $1 order by s.created_at desc, s.id`, [tenant.companyId]);
      return rows.map(subscriptionOf);
    },
    /** A new subscription; its secret is answered this once (kept sealed: every delivery is signed with it). */
    async create(tenant: Tenant, input: z.output<typeof webhookSubscriptionIn>): Promise<WebhookSubscriptionCreated> {
      assertTargetUrl(input.url, 'url');
      const secret = `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
      const { rows } = await pool.query<{ id: string }>(
        `insert into webhook_subscriptions (company_id, url, events, description, secret_sealed, created_by)
         values ($1, $2, $3::jsonb, $4, $5, $6) returning id`,
        [tenant.companyId, input.url, JSON.stringify(input.events), input.description || null, secrets.seal(secret), tenant.userId || null],
      );
      return { ...(await one(tenant, rows[0].id)), secret };
    },
    async update(tenant: Tenant, id: string, input: z.output<typeof webhookSubscriptionUpdate>): Promise<WebhookSubscriptionOut> {
      if (input.url) assertTargetUrl(input.url, 'url');
      const { rowCount } = await pool.query(
        `update webhook_subscriptions set
           url = coalesce($3, url), events = coalesce($4::jsonb, events), description = case when $5::boolean then $6 else description end,
           status = coalesce($7, status),
           paused_at = case when $7 = 'paused' and status <> 'paused' then now() when $7 = 'active' then null else paused_at end,
           paused_reason = case when $7 = 'paused' and status <> 'paused' then 'La pausó una persona' when $7 = 'active' then null else paused_reason end,
           failing_since = case when $7 = 'active' then null else failing_since end,
           updated_at = now()
         where id = $1 and company_id = $2`,
        [
          id,
          tenant.companyId,
          input.url ?? null,
          input.events ? JSON.stringify(input.events) : null,
          input.description !== undefined,
          input.description || null,
          input.status ?? null,
        ],
      );
      if (!rowCount) throw notFound();
      return one(tenant, id);
    },
    async remove(tenant: Tenant, id: string): Promise<void> {
      const { rowCount } = await pool.query('delete from webhook_subscriptions where id = $1 and company_id = $2', [id, tenant.companyId]);
      if (!rowCount) throw notFound();
    },
    /** A subscription's deliveries, newest first, each with its attempts. */
    async deliveries(tenant: Tenant, id: string, query: z.output<typeof webhookDeliveryQuery>): Promise<WebhookDeliveryOut[]> {
      await one(tenant, id);
      const { rows } = await pool.query<{
        id: string;
        event_id: string;
        event_type: string;
        status: WebhookDeliveryOut['status'];
        next_attempt_at: string;
        delivered_at: string | null;
        created_at: string;
        attempts: Array<{ at: string; status: number | null; latency_ms: number; error: string | null; excerpt: string | null }> | null;
      }>(
        `select d.id, d.event_id, d.event_type, d.status, d.next_attempt_at, d.delivered_at, d.created_at,
                (select json_agg(json_build_object('at', a.at, 'status', a.status, 'latency_ms', a.latency_ms, 'error', a.error, 'excerpt', a.excerpt) order by a.at, a.id)
                   from webhook_attempts a where a.delivery_id = d.id) as attempts
           from webhook_deliveries d
          where d.subscription_id = $1 and d.company_id = $2 and ($3::text is null or d.status = $3)
          order by d.created_at desc, d.event_position desc
          limit $4`,
        [id, tenant.companyId, query.status ?? null, query.limit],
      );
      return rows.map((r) => ({
        _id: r.id,
        eventId: r.event_id,
        eventType: r.event_type,
        status: r.status,
        attempts: (r.attempts ?? []).map((a) => ({ at: isoOf(a.at) as string, status: a.status, latencyMs: a.latency_ms, error: a.error, excerpt: a.excerpt })),
        nextAttemptAt: r.status === 'pending' ? isoOf(r.next_attempt_at) : null,
        deliveredAt: isoOf(r.delivered_at),
        createdAt: isoOf(r.created_at) as string,
      }));
    },
    /** «Reenviar»: the delivery is due again now, with the same body (its attempts stay in its log). */
    async redeliver(tenant: Tenant, id: string, deliveryId: string): Promise<void> {
      const { rowCount } = await pool.query(
        `update webhook_deliveries set status = 'pending', next_attempt_at = now(), claimed_at = null, delivered_at = null, created_at = now()
          where id = $1 and subscription_id = $2 and company_id = $3`,
        [deliveryId, id, tenant.companyId],
      );
      if (!rowCount) throw new AppError('NOT_FOUND', 'La entrega no existe');
    },
  };
}
