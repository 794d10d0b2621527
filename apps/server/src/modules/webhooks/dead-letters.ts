import { type ChannelKind, type ChatMessageKind, type MessageContent, messagePreview, type WebhookDeadLetter, webhookDeadLetterList, webhookDeadLetterOut, webhookDeadLetterParams } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { WEBHOOK_QUEUE } from './process.js';

type Row = {
  id: string;
  provider: ChannelKind | 'gravity-forms';
  type: string;
  event_id: string;
  status: WebhookDeadLetter['status'];
  last_error: string | null;
  attempts: number;
  payload: Record<string, unknown> | null;
  received_at: Date | string;
};

/** Who wrote and what, from a stored message event (its payload is an InboundMessage). */
function summaryOf(row: Row): string | undefined {
  const p = row.payload ?? {};
  if (typeof p.unstored === 'string') return p.unstored.slice(0, 200);
  // a form entry (decision 0050): its id and the first values the person typed
  if (row.provider === 'gravity-forms') {
    const values = Object.entries(p)
      .filter(([k, v]) => /^\d+(\.\d+)?$/.test(k) && typeof v === 'string' && v.trim())
      .map(([, v]) => String(v).trim())
      .slice(0, 4);
    return [`Entrada ${String(p.id ?? '')}`, values.join(' · ')].filter(Boolean).join(': ').slice(0, 300);
  }
  if (row.type === 'message' && typeof p.kind === 'string') {
    const who = typeof p.name === 'string' ? p.name : typeof p.from === 'string' ? p.from : '';
    const what = messagePreview({ kind: p.kind as ChatMessageKind, text: typeof p.text === 'string' ? p.text : undefined, content: p.content as MessageContent | undefined });
    return [who, what].filter(Boolean).join(': ').slice(0, 300) || undefined;
  }
  // a comment of the page's feed (decision 0049): who commented what
  if (row.type === 'comment' && typeof p.commentId === 'string') {
    const who = typeof p.fromName === 'string' ? p.fromName : 'Usuario de Facebook';
    return `${who} comentó en Facebook: ${typeof p.message === 'string' ? p.message : ''}`.trim().slice(0, 300);
  }
  if (row.type === 'status' && typeof p.status === 'string') return `Estado ${p.status} del mensaje ${String(p.messageId ?? '')}`.slice(0, 300);
  return undefined;
}

const toWire = (r: Row): WebhookDeadLetter => ({
  _id: r.id,
  provider: r.provider,
  type: r.type,
  eventId: r.event_id,
  status: r.status,
  error: r.last_error ?? undefined,
  attempts: r.attempts,
  summary: summaryOf(r),
  receivedAt: new Date(r.received_at).toISOString(),
});

/**
 * The company's event of a dead-letter list: the company the job resolved, else the one the
 * channel it was addressed to belongs to now. An event for no channel of any company is
 * nobody's to see (it could be another company's before it configures its channel): operators
 * read those in the database (docs/OPERATIONS.md).
 */
const ofCompany = (companyId: string) => sql`coalesce(e.company_id, (select ch.company_id from channels ch
  where ch.kind = e.provider and ch.provider_id = e.account_id)) = ${companyId}`;

/**
 * GET /webhooks/dead-letters and POST /webhooks/dead-letters/:id/replay (decision 0020): the
 * failed events of the caller's company, for whoever may update its integrations (admins by
 * default), and their replay: back to pending, attempts reset, queued. Replaying an event
 * that is not failed changes nothing (a processed one is never processed twice).
 */
export const deadLetterRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const tags = ['webhooks'];
  const config = { permission: { module: 'integrations', action: 'update' } } as const;

  app.get('/webhooks/dead-letters', { config, schema: { tags, response: { 200: webhookDeadLetterList } } }, async (request) => {
    const tenant = tenantOf(request);
    const { rows } = await db.execute(sql`select e.id, e.provider, e.type, e.event_id, e.status, e.last_error, e.attempts, e.payload, e.received_at
        from webhook_events e where e.status = 'failed' and ${ofCompany(tenant.companyId)}
        order by e.received_at desc, e.id desc limit 500`);
    return { payload: (rows as Row[]).map(toWire) };
  });

  app.post(
    '/webhooks/dead-letters/:id/replay',
    { config, schema: { tags, params: webhookDeadLetterParams, response: { 200: webhookDeadLetterOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const { id } = request.params;
      const [found] = (await db.execute(sql`select e.id, e.status, e.payload from webhook_events e where e.id = ${id} and ${ofCompany(tenant.companyId)}`)).rows as Row[];
      if (!found) throw new AppError('NOT_FOUND', 'El evento no existe en esta compañía');
      if (found.status === 'failed') {
        if (found.payload && typeof found.payload.unstored === 'string') {
          // kept as text because the database refused it: stored as it came, if it can be now
          const refused = () => new AppError('CONFLICT', 'Este evento no se puede guardar tal como llegó: no se puede reintentar');
          let payload: unknown;
          try {
            payload = JSON.parse(found.payload.unstored);
          } catch {
            throw refused();
          }
          await db.execute(sql`update webhook_events set payload = ${JSON.stringify(payload)}::jsonb where id = ${id} and status = 'failed'`).catch(() => {
            throw refused();
          });
        }
        await db.execute(sql`update webhook_events set status = 'pending', attempts = 0 where id = ${id} and status = 'failed'`);
        await app.jobs.send(WEBHOOK_QUEUE, { id }, { singletonKey: id }).catch((error: unknown) => {
          // still pending: the next start queues it again
          request.log.error({ err: error, id }, 'no se pudo encolar el evento reintentado');
        });
      }
      const [row] = (await db.execute(sql`select e.id, e.provider, e.type, e.event_id, e.status, e.last_error, e.attempts, e.payload, e.received_at
          from webhook_events e where e.id = ${id}`)).rows as Row[];
      return toWire(row);
    },
  );
};
