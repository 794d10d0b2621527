import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { telegramGroupsTable, telegramRoutinesTable } from '../db/resource-tables.js';
import { telegramExecutions, telegramSettings } from '../db/telegram-tables.js';
import type { SecretBox } from '../lib/secret-box.js';

/**
 * The demo's Telegram (decision 0040): a sandbox bot (its token starts with «sandbox»: nothing
 * leaves the process), the example groups as Telegram named them, the routines with more groups
 * and an image, and a week of executions — sent, one with a group that had removed the bot.
 */
export async function seedTelegram(db: Db, companyId: string, secrets: Pick<SecretBox, 'seal'>): Promise<void> {
  await db.insert(telegramSettings).values({ companyId, token: secrets.seal('sandbox-demo-bot'), tokenHint: 'sandbox…-bot', botUsername: 'mostrador_sandbox_bot', botName: 'Mostrador' });
  const groups = await db.select().from(telegramGroupsTable).where(eq(telegramGroupsTable.companyId, companyId)).orderBy(asc(telegramGroupsTable.chatId));
  for (const g of groups) {
    await db.update(telegramGroupsTable).set({ title: String(g.name), type: 'supergroup' }).where(eq(telegramGroupsTable.id, g.id as string));
  }
  const routines = await db.select().from(telegramRoutinesTable).where(eq(telegramRoutinesTable.companyId, companyId)).orderBy(asc(telegramRoutinesTable.name));
  if (!groups.length || !routines.length) return;
  const [first, second, third] = groups;
  let messageId = 310;
  for (const [i, routine] of routines.entries()) {
    const more = i === 0 && second && third ? [second.id as string, third.id as string] : [];
    const media = i === 1 ? { mediaUrl: 'https://placehold.co/800x450.png?text=Inventario', mediaKind: 'photo' } : {};
    await db
      .update(telegramRoutinesTable)
      .set({ telegramGroupId: (routine.telegramGroupId as string | null) ?? (first?.id as string), telegramGroupIds: more, ...media })
      .where(eq(telegramRoutinesTable.id, routine.id as string));
    if (routine.active === false) continue;
    const ids = [...new Set([(routine.telegramGroupId as string | null) ?? (first?.id as string), ...more])];
    const byId = new Map(groups.map((g) => [g.id as string, g]));
    for (let day = 1; day <= 3; day++) {
      const at = new Date(Date.now() - day * 86_400_000);
      at.setUTCSeconds(0, 0);
      const results = ids.map((groupId, k) => {
        const g = byId.get(groupId);
        const base = { groupId, name: String(g?.name ?? '—'), chatId: String(g?.chatId ?? '—') };
        // two days ago the third group had removed the bot
        if (day === 2 && k === 2) return { ...base, status: 'failed', error: 'El bot fue expulsado del grupo: agrégalo de nuevo al grupo' };
        return { ...base, status: 'sent', messageId: messageId++ };
      });
      const sent = results.filter((r) => r.status === 'sent').length;
      await db.insert(telegramExecutions).values({
        companyId,
        routineId: routine.id as string,
        trigger: 'schedule',
        scheduledFor: at,
        status: sent === results.length ? 'sent' : sent ? 'partial' : 'failed',
        results,
        startedAt: at,
        finishedAt: new Date(at.getTime() + 1200),
      });
    }
  }
}
