import { AUTOMATION_MESSAGES_PER_CHAT_HOUR, type AutomationSettingsIn, type AutomationSettingsOut } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, isoOf, rowsOf } from '../../db/database.js';

interface SettingsRow extends Record<string, unknown> {
  messages_per_chat_hour: number;
  updated_at: string | Date | null;
}

const outOf = (row: SettingsRow | undefined): AutomationSettingsOut => ({
  messagesPerChatHour: row ? Number(row.messages_per_chat_hour) : AUTOMATION_MESSAGES_PER_CHAT_HOUR,
  saved: !!row,
  updatedAt: row ? isoOf(row.updated_at) : null,
});

/**
 * GET/PUT /automation-rules/settings (decision 0080): the company's automation settings, one row
 * of `automation_settings`; none saved reads as the defaults. The engine reads the cap itself, in
 * the statement that counts a chat's rule messages of the hour (engine.ts runJudged).
 */
export function createAutomationSettingsService(db: Db) {
  async function get(companyId: string): Promise<AutomationSettingsOut> {
    const [row] = await rowsOf<SettingsRow>(db, sql`select messages_per_chat_hour, updated_at from automation_settings where company_id = ${companyId}`);
    return outOf(row);
  }
  async function put(companyId: string, input: AutomationSettingsIn): Promise<AutomationSettingsOut> {
    await db.transaction(async (tx) => {
      const [before] = await rowsOf<SettingsRow>(tx, sql`select messages_per_chat_hour from automation_settings where company_id = ${companyId} for update`);
      const [after] = await rowsOf<SettingsRow>(
        tx,
        sql`insert into automation_settings (company_id, messages_per_chat_hour) values (${companyId}, ${input.messagesPerChatHour})
            on conflict (company_id) do update set messages_per_chat_hour = excluded.messages_per_chat_hour, updated_at = now()
            returning messages_per_chat_hour`,
      );
      const kept = (r: SettingsRow | undefined) => (r ? { messages_per_chat_hour: Number(r.messages_per_chat_hour) } : null);
      const changes = changesOf(kept(before), kept(after));
      if (before && !Object.keys(changes).length) return;
      await audit(tx, { companyId, action: before ? 'update' : 'create', entity: 'automation_settings', entityId: companyId, changes });
    });
    return get(companyId);
  }
  return { get, put };
}
