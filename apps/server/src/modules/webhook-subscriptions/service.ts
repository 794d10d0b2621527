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
import { sql } from 'drizzle-orm';
import { audit, changesOf } from '../../db/audit.js';
import { type Database, isoOf, rowsOf } from '../../db/database.js';
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

/** What the audit log keeps of a subscription (its secret only as masked, decision 0072). */
const audited = (r: { url: string; events: string[]; description: string | null; status: string }) => ({ url: r.url, events: r.events, description: r.description, status: r.status });
const ENTITY = 'webhook_subscriptions';

export function createSubscriptionService(database: Pick<Database, 'pool' | 'db'>, secrets: Pick<SecretBox, 'seal'>) {
  const { pool, db } = database;
  type Row = { url: string; events: string[]; description: string | null; status: string };
  /** The subscription as it is, locked for the change that audits it. */
  const before = async (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], tenant: Tenant, id: string) =>
    (await rowsOf<Row>(tx, sql`select url, events, description, status from webhook_subscriptions where id = ${id} and company_id = ${tenant.companyId} for update`))[0];
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
      // the subscription and its audit entry in one transaction (decision 0072)
      const id = await db.transaction(async (tx) => {
        const [row] = await rowsOf<Row & { id: string }>(
          tx,
          sql`insert into webhook_subscriptions (company_id, url, events, description, secret_sealed, created_by)
              values (${tenant.companyId}, ${input.url}, ${JSON.stringify(input.events)}::jsonb, ${input.description || null}, ${secrets.seal(secret)}, ${tenant.userId || null})
              returning id, url, events, description, status`,
        );
        await audit(tx, { companyId: tenant.companyId, action: 'create', entity: ENTITY, entityId: row.id, changes: changesOf(null, { ...audited(row), secret }, ['secret']) });
        return row.id;
      });
      return { ...(await one(tenant, id)), secret };
    },
    async update(tenant: Tenant, id: string, input: z.output<typeof webhookSubscriptionUpdate>): Promise<WebhookSubscriptionOut> {
      if (input.url) assertTargetUrl(input.url, 'url');
      await db.transaction(async (tx) => {
        const was = await before(tx, tenant, id);
        if (!was) throw notFound();
        const [now] = await rowsOf<Row>(
          tx,
          sql`update webhook_subscriptions set
                url = coalesce(${input.url ?? null}, url), events = coalesce(${input.events ? JSON.stringify(input.events) : null}::jsonb, events),
                description = case when ${input.description !== undefined} then ${input.description || null} else description end,
                status = coalesce(${input.status ?? null}, status),
                paused_at = case when ${input.status ?? null} = 'paused' and status <> 'paused' then now() when ${input.status ?? null} = 'active' then null else paused_at end,
                paused_reason = case when ${input.status ?? null} = 'paused' and status <> 'paused' then 'La pausó una persona' when ${input.status ?? null} = 'active' then null else paused_reason end,
                failing_since = case when ${input.status ?? null} = 'active' then null else failing_since end,
                updated_at = now()
              where id = ${id} and company_id = ${tenant.companyId}
              returning url, events, description, status`,
        );
        await audit(tx, { companyId: tenant.companyId, action: 'update', entity: ENTITY, entityId: id, changes: changesOf(audited(was), audited(now)) });
      });
      return one(tenant, id);
    },
    async remove(tenant: Tenant, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const was = await before(tx, tenant, id);
        if (!was) throw notFound();
        await tx.execute(sql`delete from webhook_subscriptions where id = ${id} and company_id = ${tenant.companyId}`);
        await audit(tx, { companyId: tenant.companyId, action: 'delete', entity: ENTITY, entityId: id, changes: changesOf(audited(was), null) });
      });
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
      await db.transaction(async (tx) => {
        const [row] = await rowsOf<{ event_id: string; status: string }>(
          tx,
          sql`update webhook_deliveries d set status = 'pending', next_attempt_at = now(), claimed_at = null, delivered_at = null, created_at = now()
               from webhook_deliveries old
              where d.id = ${deliveryId} and d.subscription_id = ${id} and d.company_id = ${tenant.companyId} and old.id = d.id
              returning d.event_id, old.status`,
        );
        if (!row) throw new AppError('NOT_FOUND', 'La entrega no existe');
        await audit(tx, { companyId: tenant.companyId, action: 'redeliver', entity: 'webhook_deliveries', entityId: deliveryId, changes: { status: { from: row.status, to: 'pending' } } });
      });
    },
  };
}
