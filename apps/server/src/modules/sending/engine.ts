import { chunkPeople, type PlannedSend, planChunk, valuesFor } from './planning.js';
import { countsOf, publishSends, type SendRow, sendRow, sendsOut, toSendOut } from './read-model.js';
import { createSendingRunner, type RunnerDeps, refreshCampaign } from './runner.js';

/**
 * The sending engine as one object (issue 13, decision 0041), for what drives a whole send
 * itself (the demo seeds, the tests): the read model (read-model.ts), planning (planning.ts) and
 * the runner (runner.ts) over one set of deps. The server does not build it: its routes read
 * through the read model, and the runner is built once for the jobs (jobs.ts).
 */
export function createSendingEngine(deps: RunnerDeps) {
  const { db } = deps;
  const runner = createSendingRunner(deps);
  return {
    ...runner,
    plan: (send: PlannedSend) => planChunk(db, send),
    chunkPeople: (companyId: string, c: Parameters<typeof chunkPeople>[2]) => chunkPeople(db, companyId, c),
    sendRow: (companyId: string, id: string) => sendRow(db, companyId, id),
    sendsOut: (rows: SendRow[]) => sendsOut(db, rows),
    publishSends: (companyId: string, ids: string[]) => publishSends(deps, companyId, ids),
    refreshCampaign: (companyId: string, campaignId: string) => refreshCampaign(db, companyId, campaignId),
    countsOf: (sendIds: string[]) => countsOf(db, sendIds),
    valuesFor,
    toSendOut,
  };
}
export type SendingEngine = ReturnType<typeof createSendingEngine>;
