import { type LeadStatus, type OdooLeadValues, platformLabels } from '@mostrador/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { agentesTable, cleanLeadsTable, leadsTable, mostradorLabelsTable } from '../../db/resource-tables.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { byNewest, type Detail } from './merge.js';
import { timezoneOf } from './summary.js';

/**
 * Where a lead status sits in Odoo CRM's default pipeline (New, Qualified, Proposition, Won).
 * A failed purchase is a lost lead: Odoo archives lost leads (active false, probability 0).
 */
export const odooStages: Record<LeadStatus, { stage_name: string; probability: number; active: boolean }> = {
  'sin-asignar': { stage_name: 'New', probability: 10, active: true },
  're-conectar': { stage_name: 'Qualified', probability: 20, active: true },
  'informado-al-agente': { stage_name: 'Qualified', probability: 30, active: true },
  'compra-realizada': { stage_name: 'Won', probability: 100, active: true },
  'compra-fallida': { stage_name: 'Qualified', probability: 0, active: false },
};

/** The internal notes keep the newest contacts: Odoo's description is a note, not an archive. */
const DESCRIPTION_MAX = 8000;

const t = cleanLeadsTable as unknown as Record<string, AnyPgColumn>;
const agent = agentesTable as unknown as Record<string, AnyPgColumn>;
const label = mostradorLabelsTable as unknown as Record<string, AnyPgColumn>;

/**
 * GET /clean-leads/get_lead_odoo_values?id=: the values of an Odoo `crm.lead` create for one
 * clean lead of the company (decision 0015 has the mapping). Another company's id is a 404.
 */
export async function odooValues(db: Db, tenant: Tenant, id: string): Promise<OdooLeadValues> {
  const [lead] = await db.select().from(cleanLeadsTable).where(and(eq(t.companyId, tenant.companyId), eq(t.id, id)));
  if (!lead) throw new AppError('NOT_FOUND');
  const row = lead as Record<string, unknown>;
  const details = ((row.details as Detail[] | null) ?? []).slice().sort(byNewest);
  const labelIds = (row.mostradorLabels as string[] | null) ?? [];

  const [labels, agents, platforms, tz] = await Promise.all([
    labelIds.length
      ? db.select({ id: label.id, name: label.name }).from(mostradorLabelsTable).where(and(eq(label.companyId, tenant.companyId), inArray(label.id, labelIds)))
      : Promise.resolve([]),
    row.agenteId
      ? db.select({ email: agent.email }).from(agentesTable).where(and(eq(agent.companyId, tenant.companyId), eq(agent.id, row.agenteId as string)))
      : Promise.resolve([]),
    db.execute<{ platform: keyof typeof platformLabels }>(
      sql`select distinct platform from ${leadsTable} where company_id = ${tenant.companyId} and clean_lead_id = ${id} order by platform`,
    ),
    timezoneOf(db, tenant.companyId),
  ]);
  const nameOf = new Map(labels.map((l) => [l.id as string, l.name as string]));
  const channels = platforms.rows.map((r) => platformLabels[r.platform] ?? r.platform);
  const when = new Intl.DateTimeFormat('sv-SE', { timeZone: tz, dateStyle: 'short', timeStyle: 'short' });

  const lines: string[] = [];
  let length = 0;
  for (const d of details) {
    const line = [when.format(new Date(d.updatedAt)), d.source, d.email, d.message].filter(Boolean).join(' · ');
    if (length + line.length + 1 > DESCRIPTION_MAX) break;
    lines.push(line);
    length += line.length + 1;
  }
  const name = row.name as string;
  const email = (row.email as string | null) ?? details.find((d) => d.email)?.email;
  const agentEmail = agents[0]?.email as string | null | undefined;
  return {
    name: channels.length ? `${name} (${channels.join(', ')})` : name,
    contact_name: name,
    ...(email ? { email_from: email } : {}),
    ...(row.telefono ? { phone: `+${row.telefono as string}` } : {}),
    type: 'lead',
    description: lines.join('\n'),
    tag_names: labelIds.map((l) => nameOf.get(l)).filter((n): n is string => Boolean(n)),
    ...(agentEmail ? { user_email: agentEmail } : {}),
    ...odooStages[row.status as LeadStatus],
  };
}
