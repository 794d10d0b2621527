import { type BoardMoveResult, type LeadStatus, resources } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { repositoryOf } from '../../resources/crud.js';
import { hiddenMessage, ownerCondition } from '../../resources/owned-rows.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { cardOf, columnOf, columnsOf } from './board.js';

/**
 * POST /lead-board/move (decision 0099): the lead to another column through the SAME write as
 * PUT /leads/{id} — the resource repository's update, with the status rules of decision 0025,
 * the stage's status, the row scope, the audit entry and the domain events — so the board obeys
 * exactly what the lists obey. What the board adds: the lead is locked while it is moved, and a
 * card moved meanwhile by someone else (it is no longer in `fromStage`) is refused with a 409,
 * nothing written. Its history row is written by the database (migration lead_board), once.
 */
export function createMover(db: Db, secrets: Pick<SecretBox, 'seal'>) {
  const leads = repositoryOf(resources.leads, secrets);

  return async function move(tenant: Tenant, input: { leadId: string; toStage: string; fromStage?: string }): Promise<BoardMoveResult> {
    const { columns } = await columnsOf(db, tenant.companyId);
    const target = columnOf(columns, input.toStage, 'VALIDATION');
    const name = (key: string) => columns.find((c) => c.stage === key)?.name ?? key;

    const outcome = await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const owner = ownerCondition('leads', tenant, (column) => sql.raw(`l.${column}`));
      const { rows } = await t.execute<{ status: LeadStatus; stage_id: string | null; agente_id: string | null }>(
        sql`select l.status, l.stage_id::text, l.agente_id::text from leads l
             where l.company_id = ${tenant.companyId} and l.id = ${input.leadId}::uuid${owner ? sql` and ${owner}` : sql``} for update`,
      );
      const current = rows[0];
      if (!current) throw new AppError('NOT_FOUND', hiddenMessage('leads'));
      const from = current.stage_id ?? current.status;
      if (input.fromStage && input.fromStage !== from) {
        const msg = `Este lead ya no está en «${name(input.fromStage)}»: alguien lo movió a «${name(from)}». Actualiza el tablero`;
        throw new AppError('CONFLICT', msg, [{ path: 'fromStage', msg }]);
      }
      if (from === target.stage) return { from, moved: false, agentLeft: false };
      const patch = target.stageId ? { stageId: target.stageId } : { status: target.status, stageId: null };
      const written = await leads.update(t, tenant, input.leadId, patch);
      return { from, moved: true, agentLeft: Boolean(current.agente_id) && !written.agenteId };
    });

    const lead = await cardOf(db, tenant, input.leadId);
    const to = lead.stageId ?? lead.status;
    const msg = !outcome.moved
      ? `El lead ya está en «${name(to)}»`
      : `Lead movido a «${name(to)}»${outcome.agentLeft ? '; ya no tiene agente' : ''}`;
    return { msg, moved: outcome.moved, from: outcome.from, to, lead };
  };
}
