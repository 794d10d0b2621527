import { CSAT_DEFAULT_QUESTION, type CsatSettingsIn, type CsatSettingsOut, type CsatStyle, csatSettingsIn } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';

interface SettingsRow extends Record<string, unknown> {
  enabled: boolean;
  style: CsatStyle;
  question: string;
  updated_at: Date | string;
}

const toOut = (row: SettingsRow | undefined): CsatSettingsOut =>
  row
    ? { enabled: row.enabled, style: row.style, question: row.question, updatedAt: new Date(row.updated_at).toISOString() }
    : { enabled: false, style: 'buttons', question: CSAT_DEFAULT_QUESTION };

/** The company's CSAT survey settings (decision 0100): off until an admin turns them on. */
export function createCsatSettings(db: Db) {
  const read = async (companyId: string) =>
    (await rowsOf<SettingsRow>(db, sql`select enabled, style, question, updated_at from csat_settings where company_id = ${companyId}`))[0];
  return {
    async get(companyId: string): Promise<CsatSettingsOut> {
      return toOut(await read(companyId));
    },
    /** The whole settings, audited (what changed). */
    async put(companyId: string, input: CsatSettingsIn): Promise<CsatSettingsOut> {
      const s = csatSettingsIn.parse(input);
      return db.transaction(async (tx) => {
        const [before] = await rowsOf<SettingsRow>(tx, sql`select enabled, style, question, updated_at from csat_settings where company_id = ${companyId} for update`);
        const [after] = await rowsOf<SettingsRow>(
          tx,
          sql`insert into csat_settings (company_id, enabled, style, question, enabled_at)
              values (${companyId}, ${s.enabled}, ${s.style}, ${s.question}, ${s.enabled ? sql`now()` : sql`null`})
              on conflict (company_id) do update set enabled = excluded.enabled, style = excluded.style, question = excluded.question, updated_at = now(),
                enabled_at = case when excluded.enabled and not csat_settings.enabled then now() else csat_settings.enabled_at end
              returning enabled, style, question, updated_at`,
        );
        const pick = (r: SettingsRow | undefined) => (r ? { enabled: r.enabled, style: r.style, question: r.question } : null);
        const changes = changesOf(pick(before), pick(after));
        if (Object.keys(changes).length) await audit(tx, { companyId, action: before ? 'update' : 'create', entity: 'csat_settings', entityId: companyId, changes });
        return toOut(after);
      });
    },
  };
}
