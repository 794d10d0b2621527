import { AUDIENCE_BATCH_MAX, type AudienceSendOut, audienceMessages, type CountryCode, type sendToAudienceInput } from '@mostrador/contract';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/database.js';
import { audienceMembers, audienceSends } from '../../db/join-tables.js';
import { metaAdAccounts } from '../../db/meta-ads-tables.js';
import { cleanLeadsTable, facebookAudiencesTable, leadsTable, mostradorLabelsTable } from '../../db/resource-tables.js';
import { companies } from '../../db/schema.js';
import { type AudienceBatchResult, type AudienceClient, audienceRow, newSessionId } from '../../integrations/meta/audiences.js';
import { ProviderError } from '../../integrations/meta/send.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Tenant } from '../../plugins/auth.js';
import { textArray } from '../../resources/repository.js';
import { AUDIENCE_UPLOAD_QUEUE } from './jobs.js';

/** Leads or clean leads: the two kinds of record a send, a by-labels list and a member row name. */
export type AudienceKind = 'leads' | 'clean-leads';

const kinds = {
  leads: { table: leadsTable, member: sql.raw('lead_id'), label: 'leads' },
  'clean-leads': {
    table: cleanLeadsTable,
    member: sql.raw('clean_lead_id'),
    label: 'leads limpios',
  },
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
    .select({
      id: facebookAudiencesTable.id,
      facebookAudienceId: (facebookAudiencesTable as unknown as Record<string, AnyPgColumn>).facebookAudienceId,
    })
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

/** The people of a send: id, e-mail and phone (a lead without its own takes its clean lead's). */
function peopleOf(kind: AudienceKind, companyId: string, condition: SQL): SQL {
  const t = columnsOf(kind);
  if (kind === 'clean-leads') {
    return sql`select ${t.id} as id, ${t.email} as email, ${t.telefono} as phone from ${cleanLeadsTable} where ${t.companyId} = ${companyId} and ${condition}`;
  }
  return sql`select ${t.id} as id, coalesce(nullif(${t.email}, ''), cl.email) as email, coalesce(nullif(${t.telefono}, ''), cl.telefono) as phone
    from ${leadsTable} left join clean_leads cl on cl.id = ${t.cleanLeadId} and cl.company_id = ${t.companyId}
    where ${t.companyId} = ${companyId} and ${condition}`;
}
/** Has something Meta can match: an address-shaped e-mail or a phone of 6 digits or more (the rest is normalised row by row). */
const withIdentifier = sql`(btrim(coalesce(p.email, '')) ~ '^[^@[:space:]]+@[^@[:space:]]+[.][^@[:space:]]+$' or length(regexp_replace(coalesce(p.phone, ''), '[^0-9]', '', 'g')) >= 6)`;

/** The company's Meta ad account (Métricas › Ventas), or a 400 saying to connect it. */
async function adAccountOf(db: Db, companyId: string) {
  const [account] = await db.select().from(metaAdAccounts).where(eq(metaAdAccounts.companyId, companyId));
  return account;
}

/**
 * POST /leads/send-to-audience, /clean-leads/send-to-audience: checks the audience and labels
 * are the company's and its Meta ad account is connected, counts what would be sent, records
 * the send and queues the upload.
 */
export async function recordAudienceSend(db: Db, jobs: JobQueue, tenant: Tenant, kind: AudienceKind, input: SendInput) {
  assertOwnCompany(tenant, input.company);
  const audience = await audienceOf(db, tenant, input.audienceId);
  if (input.facebookAudienceId && audience.facebookAudienceId && input.facebookAudienceId !== audience.facebookAudienceId) {
    throw new AppError('VALIDATION', 'El identificador de Meta no corresponde a la audiencia elegida', [
      {
        path: 'facebookAudienceId',
        msg: 'No corresponde a la audiencia elegida',
      },
    ]);
  }
  const labels = [...new Set(input.mostradorLabels)];
  await assertCompanyLabels(db, tenant, labels);
  if (!(await adAccountOf(db, tenant.companyId))) {
    throw new AppError('VALIDATION', audienceMessages.noAccount, [{ path: 'audienceId', msg: audienceMessages.noAccount }]);
  }
  const condition = byLabelsCondition(kind, labels, input.showMissingLeads ? audience.id : undefined);
  const { rows } = await db.execute<{ n: number; reachable: number }>(
    sql`select count(*)::int as n, (count(*) filter (where ${withIdentifier}))::int as reachable from (${peopleOf(kind, tenant.companyId, condition)}) p`,
  );
  const count = rows[0]?.n ?? 0;
  if (count === 0) {
    throw new AppError(
      'VALIDATION',
      input.showMissingLeads ? 'No hay registros con esas etiquetas pendientes de enviar a esta audiencia' : 'Ningún registro tiene esas etiquetas',
      [{ path: 'mostradorLabels', msg: 'Sin registros que enviar' }],
    );
  }
  if ((rows[0]?.reachable ?? 0) === 0) {
    throw new AppError('VALIDATION', audienceMessages.noIdentifiers, [{ path: 'mostradorLabels', msg: audienceMessages.noIdentifiers }]);
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
  return {
    msg: `Envío a la audiencia en cola: ${count} ${kinds[kind].label}`,
    sendId: send.id,
    count,
  };
}

type SendRow = typeof audienceSends.$inferSelect;

/** A send as the screen shows it (GET …/sends, the `audience.progress` event). */
export function audienceSendOutOf(s: SendRow): AudienceSendOut {
  return {
    _id: s.id,
    kind: s.kind as AudienceKind,
    audienceId: s.audienceId,
    facebookAudienceId: s.facebookAudienceId,
    labels: (s.labels as string[]) ?? [],
    showMissingLeads: s.showMissingLeads,
    status: s.status,
    count: s.count,
    total: s.total,
    sent: s.sent,
    received: s.received,
    invalid: s.invalid,
    skipped: s.skipped,
    batchesDone: s.batchesDone,
    batchesTotal: s.batchesTotal,
    reason: s.reason,
    createdAt: s.createdAt.toISOString(),
    finishedAt: s.finishedAt ? s.finishedAt.toISOString() : null,
  };
}

export interface AudienceUploadDeps {
  db: Db;
  secrets: Pick<SecretBox, 'open'>;
  client: AudienceClient;
  realtime?: Pick<Realtime, 'publish'>;
  log?: { warn: (obj: unknown, msg?: string) => void };
  /** Rows per call (Meta's limit at most). */
  batchSize?: number;
  /** How long a worker holds a send between two batches before another may take it over. */
  leaseMs?: number;
}

/** A send someone else is uploading right now: the job is tried again later (pg-boss retries). */
export class AudienceSendBusy extends Error {
  constructor() {
    super('El envío a la audiencia lo está subiendo otro proceso');
  }
}

/** Creates the audience in the company's ad account and keeps its id; answers it. */
export async function createAudienceAtFacebook(deps: Pick<AudienceUploadDeps, 'db' | 'secrets' | 'client'>, companyId: string, audienceId: string): Promise<string> {
  const { db } = deps;
  const account = await adAccountOf(db, companyId);
  if (!account) throw new ProviderError(audienceMessages.noAccount);
  const { rows } = await db.execute<{
    name: string;
    description: string | null;
    facebook_audience_id: string | null;
  }>(sql`select name, description, facebook_audience_id from facebook_audiences where company_id = ${companyId} and id = ${audienceId}`);
  const audience = rows[0];
  if (!audience) throw new AppError('NOT_FOUND', 'La audiencia no existe en esta compañía');
  if (audience.facebook_audience_id) return audience.facebook_audience_id;
  const token = openToken(deps.secrets, account.accessToken);
  const { id } = await deps.client.create(token, account.adAccountId, {
    name: audience.name,
    description: audience.description,
  });
  await db.execute(sql`update facebook_audiences set facebook_audience_id = ${id}, updated_at = now() where company_id = ${companyId} and id = ${audienceId}`);
  return id;
}

function openToken(secrets: Pick<SecretBox, 'open'>, sealed: string): string {
  try {
    return secrets.open<string>(sealed);
  } catch {
    throw new ProviderError(audienceMessages.tokenInvalid);
  }
}

/**
 * The `audience.upload` job (decision 0048): uploads the send's people to its Facebook custom
 * audience in batches of at most 10,000 rows of one upload session, in id order. After Meta
 * accepts a batch, in one transaction: its people become members (audience_members; a lead also
 * gets audienceId), the cursor moves past them and the counts grow; then the progress is
 * published. A crash resumes after the last accepted batch (a batch whose answer never came is
 * sent again in a new session). Meta's refusals end the send as failed with the Spanish reason;
 * other errors (the database, a crash) are thrown for the queue to try again.
 */
export async function processAudienceSend(deps: AudienceUploadDeps, sendId: string): Promise<void> {
  const { db } = deps;
  const batchSize = Math.min(deps.batchSize ?? AUDIENCE_BATCH_MAX, AUDIENCE_BATCH_MAX);
  const leaseMs = deps.leaseMs ?? 5 * 60_000;
  const lease = () => sql`now() + ${`${leaseMs} milliseconds`}::interval`;

  const [claimed] = await db
    .update(audienceSends)
    .set({
      status: 'uploading',
      leaseUntil: lease() as unknown as Date,
      processedAt: sql`coalesce(${audienceSends.processedAt}, now())` as unknown as Date,
    })
    .where(
      and(eq(audienceSends.id, sendId), inArray(audienceSends.status, ['queued', 'uploading']), sql`(${audienceSends.leaseUntil} is null or ${audienceSends.leaseUntil} < now())`),
    )
    .returning();
  if (!claimed) {
    const [row] = await db.select({ status: audienceSends.status }).from(audienceSends).where(eq(audienceSends.id, sendId));
    if (row && (row.status === 'queued' || row.status === 'uploading')) throw new AudienceSendBusy();
    return;
  }
  let send: SendRow = claimed;
  const publish = async () => {
    await deps.realtime
      ?.publish(send.companyId, {
        type: 'audience.progress',
        send: audienceSendOutOf(send),
      })
      .catch((error: unknown) => deps.log?.warn({ err: error }, 'no se pudo publicar el avance de la audiencia'));
  };
  const update = async (values: Partial<SendRow>) => {
    const [row] = await db.update(audienceSends).set(values).where(eq(audienceSends.id, sendId)).returning();
    send = row;
  };

  if (!send.audienceId) {
    await update({
      status: 'cancelado',
      leaseUntil: null,
      finishedAt: new Date(),
    });
    await publish();
    return;
  }
  const audienceId = send.audienceId;
  const kind = send.kind as AudienceKind;
  try {
    const account = await adAccountOf(db, send.companyId);
    if (!account) throw new ProviderError(audienceMessages.noAccount);
    const token = openToken(deps.secrets, account.accessToken);
    const [company] = await db.select({ country: companies.country }).from(companies).where(eq(companies.id, send.companyId));
    const country = (company?.country ?? 'PE') as CountryCode;

    // the audience at Facebook: created first when it has no id there yet
    let facebookAudienceId = send.facebookAudienceId;
    if (!facebookAudienceId) {
      facebookAudienceId = await createAudienceAtFacebook(deps, send.companyId, audienceId);
      await update({ facebookAudienceId });
    }

    const condition = byLabelsCondition(kind, send.labels as string[], send.showMissingLeads ? audienceId : undefined);
    const people = peopleOf(kind, send.companyId, condition);
    if (send.batchesDone === 0 && !send.cursorId && !send.sessionId) {
      // the first start: how many there are (Meta's estimated_num_total) and who cannot be sent
      const { rows } = await db.execute<{ n: number; reachable: number }>(
        sql`select count(*)::int as n, (count(*) filter (where ${withIdentifier}))::int as reachable from (${people}) p`,
      );
      const reachable = rows[0]?.reachable ?? 0;
      await update({
        total: reachable,
        skipped: (rows[0]?.n ?? 0) - reachable,
        batchesTotal: Math.ceil(reachable / batchSize),
      });
    }
    if (!send.sessionId || send.inFlight) {
      // a new session: the first batch, or after a batch whose answer never came (it may have been taken)
      if (send.inFlight) deps.log?.warn({ sendId }, audienceMessages.crashed);
      await update({
        sessionId: newSessionId(),
        sessionSeq: 0,
        inFlight: false,
      });
    }
    await publish();

    for (;;) {
      const after = send.cursorId ? sql`and p.id > ${send.cursorId}::uuid` : sql``;
      const { rows } = await db.execute<{
        id: string;
        email: string | null;
        phone: string | null;
      }>(sql`select p.id, p.email, p.phone from (${people}) p where ${withIdentifier} ${after} order by p.id limit ${batchSize + 1}`);
      if (rows.length === 0) break;
      const more = rows.length > batchSize;
      const batch = rows.slice(0, batchSize);
      const data: string[][] = [];
      const ids: string[] = [];
      for (const person of batch) {
        const row = audienceRow(person, country);
        if (!row) continue;
        data.push(row);
        ids.push(person.id);
      }
      const lastId = batch[batch.length - 1].id;
      const skippedHere = batch.length - data.length;
      if (data.length === 0) {
        // none of these has a usable e-mail or phone: nothing to send
        await update({
          cursorId: lastId,
          skipped: send.skipped + skippedHere,
          leaseUntil: lease() as unknown as Date,
        });
        if (!more) break;
        continue;
      }
      const seq = send.sessionSeq + 1;
      await update({ inFlight: true, leaseUntil: lease() as unknown as Date });
      let result: AudienceBatchResult;
      try {
        result = await deps.client.addUsers(token, facebookAudienceId, {
          sessionId: send.sessionId as string,
          batchSeq: seq,
          last: !more,
          estimatedTotal: Math.max(send.total - send.sent, data.length),
          rows: data,
        });
      } catch (error) {
        // Meta answered with a refusal: the batch was not taken (a lost answer keeps inFlight: a new session)
        if (error instanceof ProviderError && error.details.httpStatus !== undefined) await update({ inFlight: false });
        throw error;
      }
      await db.transaction(async (tx) => {
        const { member } = kinds[kind];
        const idList = sql`${`{${ids.join(',')}}`}::uuid[]`;
        await tx.execute(sql`insert into ${audienceMembers} (company_id, audience_id, ${member}, send_id)
          select ${send.companyId}, ${audienceId}, x, ${send.id} from unnest(${idList}) as x on conflict do nothing`);
        if (kind === 'leads') await tx.execute(sql`update leads set audience_id = ${audienceId} where company_id = ${send.companyId} and id = any(${idList})`);
        const [row] = await tx
          .update(audienceSends)
          .set({
            cursorId: lastId,
            sessionSeq: seq,
            inFlight: false,
            batchesDone: send.batchesDone + 1,
            batchesTotal: Math.max(send.batchesTotal, send.batchesDone + 1 + (more ? 1 : 0)),
            sent: send.sent + data.length,
            received: send.received + result.received,
            invalid: send.invalid + result.invalid,
            skipped: send.skipped + skippedHere,
            marked: (send.marked ?? 0) + ids.length,
            leaseUntil: lease() as unknown as Date,
          })
          .where(eq(audienceSends.id, sendId))
          .returning();
        send = row;
      });
      await publish();
      if (!more) break;
    }
    await update({
      status: 'finished',
      leaseUntil: null,
      reason: null,
      finishedAt: new Date(),
    });
    await publish();
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    await update({
      status: 'failed',
      reason: error.reason,
      leaseUntil: null,
      finishedAt: new Date(),
    });
    await publish();
  }
}

/** POST /audience-sends/{id}/retry: a failed send goes on from its last accepted batch. */
export async function retryAudienceSend(db: Db, jobs: JobQueue, tenant: Tenant, sendId: string): Promise<SendRow> {
  const [row] = await db
    .update(audienceSends)
    .set({ status: 'queued', reason: null, finishedAt: null, leaseUntil: null })
    .where(and(eq(audienceSends.id, sendId), eq(audienceSends.companyId, tenant.companyId), eq(audienceSends.status, 'failed')))
    .returning();
  if (!row) {
    const [exists] = await db
      .select({ id: audienceSends.id })
      .from(audienceSends)
      .where(and(eq(audienceSends.id, sendId), eq(audienceSends.companyId, tenant.companyId)));
    if (!exists) throw new AppError('NOT_FOUND', 'El envío no existe en esta compañía');
    throw new AppError('VALIDATION', audienceMessages.notFailed, [{ path: 'id', msg: audienceMessages.notFailed }]);
  }
  await jobs.send(AUDIENCE_UPLOAD_QUEUE, { sendId: row.id }, { singletonKey: row.id });
  return row;
}

/** Sends a crash left queued (recorded, never enqueued) or uploading (the worker died): queued again on start. */
export async function queuedAudienceSends(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: audienceSends.id })
    .from(audienceSends)
    .where(inArray(audienceSends.status, ['queued', 'uploading']));
  return rows.map((r) => r.id);
}
