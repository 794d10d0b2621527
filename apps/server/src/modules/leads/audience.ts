import type { sendToAudienceInput } from '@mostrador/contract';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/database.js';
import { audienceMembers, audienceSends } from '../../db/join-tables.js';
import { cleanLeadsTable, facebookAudiencesTable, leadsTable, mostradorLabelsTable } from '../../db/resource-tables.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { textArray } from '../../resources/repository.js';

export const AUDIENCE_UPLOAD_QUEUE = 'audience.upload';

/** Leads or clean leads: the two kinds of record a send, a by-labels list and a member row name. */
export type AudienceKind = 'leads' | 'clean-leads';

const kinds = {
  leads: { table: leadsTable, member: sql.raw('lead_id'), label: 'leads' },
  'clean-leads': { table: cleanLeadsTable, member: sql.raw('clean_lead_id'), label: 'leads limpios' },
} as const;

const columnsOf = (kind: AudienceKind) => kinds[kind].table as unknown as Record<string, AnyPgColumn>;

/** `company` in a query or body may only name the caller's own company (never another tenant's). */
export function assertOwnCompany(tenant: Tenant, company: string | undefined) {
  if (company !== undefined && company !== tenant.companyId) {
    throw new AppError('VALIDATION', 'La compañía no corresponde a la seleccionada', [{ path: 'company', msg: 'Debe ser la compañía seleccionada' }]);
  }
}

/**
 * The records of `kind` carrying any of `labels`; with `missingFrom`, only those not yet sent
 * to that audience: no member row for it (and, for a lead, an audienceId other than it).
 * No labels: nothing.
 */
export function byLabelsCondition(kind: AudienceKind, labels: readonly string[], missingFrom?: string): SQL {
  if (labels.length === 0) return sql`false`;
  const t = columnsOf(kind);
  const carries = sql`${t.mostradorLabels} ?| ${textArray(labels)}`;
  if (!missingFrom) return carries;
  const notMember = sql`not exists (select 1 from ${audienceMembers} m
    where m.company_id = ${t.companyId} and m.audience_id = ${missingFrom} and m.${kinds[kind].member} = ${t.id})`;
  return kind === 'leads' ? sql`${carries} and ${t.audienceId} is distinct from ${missingFrom}::uuid and ${notMember}` : sql`${carries} and ${notMember}`;
}

/** The company's audience, or a 400 naming the field (an id of another company does not exist here). */
export async function audienceOf(db: Db, tenant: Tenant, audienceId: string) {
  const [audience] = await db
    .select({ id: facebookAudiencesTable.id, facebookAudienceId: (facebookAudiencesTable as unknown as Record<string, AnyPgColumn>).facebookAudienceId })
    .from(facebookAudiencesTable)
    .where(and(eq(facebookAudiencesTable.companyId, tenant.companyId), eq(facebookAudiencesTable.id, audienceId)));
  if (!audience) {
    throw new AppError('VALIDATION', 'La audiencia no existe en esta compañía', [{ path: 'audienceId', msg: 'No existe en esta compañía' }]);
  }
  return audience as { id: string; facebookAudienceId: string | null };
}

/** Every label id must be a Mostrador label of the company. */
export async function assertCompanyLabels(db: Db, tenant: Tenant, labels: readonly string[], path = 'mostradorLabels') {
  const wanted = [...new Set(labels)];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: mostradorLabelsTable.id })
    .from(mostradorLabelsTable)
    .where(and(eq(mostradorLabelsTable.companyId, tenant.companyId), inArray(mostradorLabelsTable.id, wanted)));
  if (found.length < wanted.length) {
    throw new AppError('VALIDATION', 'Alguna etiqueta no existe en esta compañía', [{ path, msg: 'No existe en esta compañía' }]);
  }
}

type SendInput = z.infer<typeof sendToAudienceInput>;

/**
 * POST /leads/send-to-audience, /clean-leads/send-to-audience: checks the audience and labels
 * are the company's, counts what would be sent, records the send and queues the upload.
 */
export async function recordAudienceSend(db: Db, jobs: JobQueue, tenant: Tenant, kind: AudienceKind, input: SendInput) {
  assertOwnCompany(tenant, input.company);
  const audience = await audienceOf(db, tenant, input.audienceId);
  if (input.facebookAudienceId && audience.facebookAudienceId && input.facebookAudienceId !== audience.facebookAudienceId) {
    throw new AppError('VALIDATION', 'El identificador de Meta no corresponde a la audiencia elegida', [
      { path: 'facebookAudienceId', msg: 'No corresponde a la audiencia elegida' },
    ]);
  }
  const labels = [...new Set(input.mostradorLabels)];
  await assertCompanyLabels(db, tenant, labels);
  const t = columnsOf(kind);
  const condition = byLabelsCondition(kind, labels, input.showMissingLeads ? audience.id : undefined);
  const { rows } = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from ${kinds[kind].table} where ${t.companyId} = ${tenant.companyId} and ${condition}`,
  );
  const count = rows[0]?.n ?? 0;
  if (count === 0) {
    throw new AppError(
      'VALIDATION',
      input.showMissingLeads ? 'No hay registros con esas etiquetas pendientes de enviar a esta audiencia' : 'Ningún registro tiene esas etiquetas',
      [{ path: 'mostradorLabels', msg: 'Sin registros que enviar' }],
    );
  }
  const [send] = await db
    .insert(audienceSends)
    .values({
      companyId: tenant.companyId,
      kind,
      audienceId: audience.id,
      facebookAudienceId: input.facebookAudienceId ?? audience.facebookAudienceId ?? null,
      labels,
      showMissingLeads: input.showMissingLeads ?? false,
      count,
      createdBy: tenant.userId,
    })
    .returning({ id: audienceSends.id });
  // recorded first: if queueing fails the send stays queued and is queued again on start
  await jobs.send(AUDIENCE_UPLOAD_QUEUE, { sendId: send.id }, { singletonKey: send.id });
  return { msg: `Envío a la audiencia en cola: ${count} ${kinds[kind].label}`, sendId: send.id, count };
}

/**
 * The `audience.upload` job. Until the Meta Custom Audiences integration exists it uploads
 * nothing: it marks the matching records as members of the audience (audience_members; leads
 * also get audienceId), and leaves the send 'pendiente-de-integracion' with how many it marked.
 * Runs once per send (only a queued send is processed, under a row lock).
 */
export async function processAudienceSend(db: Db, sendId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [send] = await tx
      .select()
      .from(audienceSends)
      .where(and(eq(audienceSends.id, sendId), eq(audienceSends.status, 'queued')))
      .for('update');
    if (!send) return;
    if (!send.audienceId) {
      await tx.update(audienceSends).set({ status: 'cancelado', processedAt: new Date() }).where(eq(audienceSends.id, send.id));
      return;
    }
    const kind = send.kind as AudienceKind;
    const { table, member } = kinds[kind];
    const t = columnsOf(kind);
    const condition = byLabelsCondition(kind, send.labels as string[], send.showMissingLeads ? send.audienceId : undefined);
    const markLead =
      kind === 'leads'
        ? sql`, marked as (update ${leadsTable} set audience_id = ${send.audienceId}
              where company_id = ${send.companyId} and id in (select id from picked) returning 1)`
        : sql``;
    const { rows } = await tx.execute<{ n: number }>(sql`
      with picked as (select ${t.id} as id from ${table} where ${t.companyId} = ${send.companyId} and ${condition}),
      added as (insert into ${audienceMembers} (company_id, audience_id, ${member}, send_id)
                select ${send.companyId}, ${send.audienceId}, id, ${send.id} from picked
                on conflict do nothing returning 1)
      ${markLead}
      select count(*)::int as n from picked`);
    await tx
      .update(audienceSends)
      .set({ status: 'pendiente-de-integracion', marked: rows[0]?.n ?? 0, processedAt: new Date() })
      .where(eq(audienceSends.id, send.id));
  });
}

/** Sends a crash left queued (recorded, never enqueued). */
export async function queuedAudienceSends(db: Db): Promise<string[]> {
  const rows = await db.select({ id: audienceSends.id }).from(audienceSends).where(eq(audienceSends.status, 'queued'));
  return rows.map((r) => r.id);
}
