import { type WaTemplateStatus, waTemplateStatuses } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { TemplateStatusUpdate } from '../../integrations/meta/events.js';
import type { Outcome } from '../conversations/inbound.js';

/** Meta's words for a template's status change, as our five; FLAGGED changes nothing yet (a warning before a pause). */
function statusOf(event: string): WaTemplateStatus | undefined {
  const e = event.toUpperCase();
  if ((waTemplateStatuses as readonly string[]).includes(e)) return e as WaTemplateStatus;
  if (e === 'REINSTATED') return 'APPROVED';
  if (e === 'IN_APPEAL') return 'PENDING';
  if (e === 'PENDING_DELETION' || e === 'DELETED' || e === 'ARCHIVED' || e === 'LIMIT_EXCEEDED') return 'DISABLED';
  return undefined;
}

/**
 * A `message_template_status_update` webhook (decision 0038): the template of that WhatsApp
 * Business Account (by Meta's id, else by name and language) takes the new status and, when
 * rejected, Meta's reason — in every company whose line has that account. A sync is not needed.
 */
export async function applyTemplateStatus(db: Db, businessAccountId: string, update: TemplateStatusUpdate): Promise<Outcome> {
  const status = statusOf(update.event);
  if (!status) return { status: 'ignored', reason: `estado de plantilla sin efecto: ${update.event}` };
  const reason = status === 'REJECTED' ? (update.reason && update.reason !== 'NONE' ? update.reason : 'NONE') : null;
  const byName = update.name && update.language ? sql` or (name = ${update.name} and language = ${update.language})` : sql``;
  const rows = (
    await db.execute(
      sql`update whatsapp_templates set status = ${status}, reason = ${reason}, updated_at = now()
          where business_account_id = ${businessAccountId} and (provider_id = ${update.templateId}${byName})
          returning id`,
    )
  ).rows;
  if (rows.length === 0) return { status: 'ignored', reason: 'la plantilla no está en Mostrador: se traerá al sincronizar' };
  return { status: 'processed' };
}
