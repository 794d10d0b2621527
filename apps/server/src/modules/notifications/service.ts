import { type DomainEvent, NOTIFICATIONS_SHOWN, type NotificationList, type NotificationOut } from '@mostrador/contract';
import type { Database } from '../../db/database.js';
import { isoOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Realtime } from '../../lib/realtime.js';
import type { Tenant } from '../../plugins/auth.js';

/** Where a paused subscription is dealt with. */
export const WEBHOOKS_SCREEN = '/configuracion/webhooks';

interface NotificationRow {
  id: string;
  user_id: string;
  company_id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  read_at: string | Date | null;
  created_at: string | Date;
}

const columns = 'id, user_id, company_id, kind, title, body, link, read_at, created_at';

export function notificationOf(r: NotificationRow): NotificationOut {
  return { _id: r.id, kind: r.kind, title: r.title, body: r.body, link: r.link, readAt: isoOf(r.read_at), createdAt: isoOf(r.created_at) as string };
}

/** The notice an event is for its people: what the bell says. */
function noticeOf(e: DomainEvent): { title: string; body: string; link: string } | undefined {
  if (e.type === 'webhook_subscription.paused') {
    const p = e.payload as DomainEvent<'webhook_subscription.paused'>['payload'];
    return { title: 'Se pausó una suscripción de webhooks', body: `La suscripción a ${p.url} dejó de recibir eventos. ${p.reason}`, link: WEBHOOKS_SCREEN };
  }
  return undefined;
}

/**
 * The people of an event's company a notice is for: its owners (role admin) and those whose
 * role may list the module `api` (the keys and webhooks), not disabled. A SQL fragment over
 * `e` (the events' recordset: company_id).
 */
const recipients = `join memberships m on m.company_id = e.company_id
  join users u on u.id = m.user_id and not u.disabled
  join companies c on c.id = m.company_id
 where m.role = 'admin'
    or exists (select 1 from role_permissions rp where rp.corporation_id = c.corporation_id and rp.role = m.role and rp.module = 'api' and rp.action = 'list')`;

/**
 * In-product notices (decision 0075): written by the spine's `notifications` listener, one per
 * person and event in one statement (an event handed again writes nothing: unique person +
 * event), published to that person's open screens once written; read, listed and marked read by
 * their person only, in the company of the request.
 */
export function createNotificationService(database: Pick<Database, 'pool'>, realtime: Pick<Realtime, 'publish'>) {
  const { pool } = database;
  return {
    /** The spine's listener: the notices of these events, written and published. Answers how many it wrote. */
    async fromEvents(events: DomainEvent[]): Promise<number> {
      const rows = events.flatMap((e) => {
        const notice = noticeOf(e);
        return notice ? [{ c: e.companyId, i: e.id, k: e.type, ...notice }] : [];
      });
      if (!rows.length) return 0;
      const { rows: written } = await pool.query<NotificationRow>(
        `insert into notifications (company_id, user_id, kind, title, body, link, event_id)
         select e.company_id, m.user_id, e.kind, e.title, e.body, e.link, e.event_id
           from jsonb_to_recordset($1::jsonb) as e(company_id uuid, event_id uuid, kind text, title text, body text, link text)
           ${recipients}
         on conflict (user_id, event_id) do nothing
         returning ${columns}`,
        [JSON.stringify(rows.map((r) => ({ company_id: r.c, event_id: r.i, kind: r.k, title: r.title, body: r.body, link: r.link })))],
      );
      for (const n of written) await realtime.publish(n.company_id, { type: 'notification.created', userId: n.user_id, notification: notificationOf(n) });
      return written.length;
    },

    /**
     * A notice for the person an agent of the company is (an automation rule's «Avisar al agente»,
     * decision 0077), once per `eventId`, published to their screens. Answers whether it was
     * written (false: the agent has no user, or it was written before).
     */
    async toAgent(companyId: string, agentId: string, notice: { kind: string; title: string; body: string; link: string | null }, eventId: string): Promise<boolean> {
      const { rows } = await pool.query<NotificationRow>(
        `insert into notifications (company_id, user_id, kind, title, body, link, event_id)
         select a.company_id, u.id, $3::text, $4::text, $5::text, $6::text, $7::uuid from agentes a
           join users u on u.id::text = a.user_id::text and not u.disabled
          where a.company_id = $1 and a.id = $2
         on conflict (user_id, event_id) do nothing
         returning ${columns}`,
        [companyId, agentId, notice.kind, notice.title, notice.body, notice.link, eventId],
      );
      for (const n of rows) await realtime.publish(n.company_id, { type: 'notification.created', userId: n.user_id, notification: notificationOf(n) });
      return rows.length > 0;
    },

    /** The caller's newest notices in the company, and how many are unread. */
    async list(tenant: Pick<Tenant, 'companyId' | 'userId'>): Promise<NotificationList> {
      const [{ rows }, { rows: count }] = await Promise.all([
        pool.query<NotificationRow>(`select ${columns} from notifications where user_id = $1 and company_id = $2 order by created_at desc, id desc limit $3`, [
          tenant.userId,
          tenant.companyId,
          NOTIFICATIONS_SHOWN,
        ]),
        pool.query<{ n: string }>(`select count(*) as n from notifications where user_id = $1 and company_id = $2 and read_at is null`, [tenant.userId, tenant.companyId]),
      ]);
      return { payload: rows.map(notificationOf), unread: Number(count[0]?.n ?? 0) };
    },

    /** Marks one of the caller's notices read (kept read if it already was); another's is not found. */
    async read(tenant: Pick<Tenant, 'companyId' | 'userId'>, id: string): Promise<NotificationOut> {
      const { rows } = await pool.query<NotificationRow>(
        `update notifications set read_at = coalesce(read_at, now()) where id = $1 and user_id = $2 and company_id = $3 returning ${columns}`,
        [id, tenant.userId, tenant.companyId],
      );
      if (!rows[0]) throw new AppError('NOT_FOUND', 'El aviso no existe');
      return notificationOf(rows[0]);
    },

    /** Marks all the caller's unread notices in the company read. */
    async readAll(tenant: Pick<Tenant, 'companyId' | 'userId'>): Promise<{ updated: number }> {
      const { rowCount } = await pool.query(`update notifications set read_at = now() where user_id = $1 and company_id = $2 and read_at is null`, [tenant.userId, tenant.companyId]);
      return { updated: rowCount ?? 0 };
    },
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;
