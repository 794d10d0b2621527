import type { TelegramExecutionOut, TelegramGroupOutcome, Weekday } from '@mostrador/contract';
import { and, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { telegramGroupsTable, telegramRoutinesTable } from '../../db/resource-tables.js';
import { telegramExecutions, telegramSettings } from '../../db/telegram-tables.js';
import { postTo, type MediaKind } from '../../integrations/telegram/client.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { timezoneOf } from '../leads/summary.js';

/** A scheduled minute is still run this long after it passed (a late job, a worker restarting). */
export const CATCH_UP_MINUTES = 2;

type Routine = Record<string, unknown>;
type ExecutionRow = typeof telegramExecutions.$inferSelect;

export async function settingsOf(db: Db, companyId: string) {
  const [row] = await db.select().from(telegramSettings).where(eq(telegramSettings.companyId, companyId));
  return row;
}

export function executionOut(row: ExecutionRow): TelegramExecutionOut {
  return {
    _id: row.id,
    routineId: row.routineId,
    trigger: row.trigger as TelegramExecutionOut['trigger'],
    ...(row.scheduledFor ? { scheduledFor: row.scheduledFor.toISOString() } : {}),
    status: row.status as TelegramExecutionOut['status'],
    results: row.results as TelegramGroupOutcome[],
    startedAt: row.startedAt.toISOString(),
    ...(row.finishedAt ? { finishedAt: row.finishedAt.toISOString() } : {}),
  };
}

export async function routineOf(db: Db, companyId: string, id: string): Promise<Routine> {
  const [routine] = await db
    .select()
    .from(telegramRoutinesTable)
    .where(and(eq(telegramRoutinesTable.companyId, companyId), eq(telegramRoutinesTable.id, id)));
  if (!routine) throw new AppError('NOT_FOUND', 'La rutina de Telegram no existe');
  return routine as Routine;
}

/** The routine's groups: the first and the others, each once, in that order. */
export const groupIdsOf = (routine: Routine): string[] => [
  ...new Set([routine.telegramGroupId as string, ...((routine.telegramGroupIds as string[] | null) ?? [])].filter(Boolean)),
];

/**
 * Runs a routine: claims its execution row first (for a scheduled minute, the unique (routine,
 * minute) row: a second claim finds it taken and sends nothing), then posts to each group — one
 * failing does not stop the others — and settles the row with the outcome per group. Answers null
 * when the minute was already claimed.
 */
export async function executeRoutine(
  db: Db,
  secrets: Pick<SecretBox, 'open'>,
  companyId: string,
  routine: Routine,
  run: { trigger: 'manual' | 'schedule'; scheduledFor?: Date },
): Promise<TelegramExecutionOut | null> {
  const [claimed] = await db
    .insert(telegramExecutions)
    .values({ companyId, routineId: routine.id as string, trigger: run.trigger, scheduledFor: run.scheduledFor ?? null })
    .onConflictDoNothing()
    .returning();
  if (!claimed) return null;

  const settings = await settingsOf(db, companyId);
  const ids = groupIdsOf(routine);
  const groups = ids.length
    ? await db.select().from(telegramGroupsTable).where(and(eq(telegramGroupsTable.companyId, companyId), inArray(telegramGroupsTable.id, ids)))
    : [];
  const byId = new Map(groups.map((g) => [g.id as string, g]));
  const token = settings ? secrets.open<string>(settings.token) : undefined;
  const message = { text: routine.message as string, mediaUrl: (routine.mediaUrl as string | null) ?? null, mediaKind: ((routine.mediaKind as MediaKind | null) ?? 'photo') as MediaKind };

  const results = await Promise.all(
    ids.map(async (groupId): Promise<TelegramGroupOutcome> => {
      const group = byId.get(groupId);
      if (!group) return { groupId, name: '—', chatId: '—', status: 'failed', error: 'El grupo ya no existe: quítalo de la rutina' };
      const base = { groupId, name: String(group.name), chatId: String(group.chatId) };
      if (!token) return { ...base, status: 'failed', error: 'No hay bot de Telegram configurado: guarda su token en Grupos de Telegram' };
      try {
        return { ...base, status: 'sent', messageId: await postTo(token, String(group.chatId), message) };
      } catch (error) {
        return { ...base, status: 'failed', error: (error as { msg?: string }).msg ?? String(error) };
      }
    }),
  );
  const sent = results.filter((r) => r.status === 'sent').length;
  const status = sent === results.length && sent > 0 ? 'sent' : sent > 0 ? 'partial' : 'failed';
  const [settled] = await db
    .update(telegramExecutions)
    .set({ status, results, finishedAt: new Date() })
    .where(eq(telegramExecutions.id, claimed.id))
    .returning();
  return executionOut(settled as ExecutionRow);
}

export async function executionsOf(db: Db, companyId: string, routineId: string, limit = 20) {
  const rows = await db
    .select()
    .from(telegramExecutions)
    .where(and(eq(telegramExecutions.companyId, companyId), eq(telegramExecutions.routineId, routineId)))
    .orderBy(desc(telegramExecutions.startedAt))
    .limit(limit);
  return rows.map(executionOut);
}

const weekdayOf: Record<string, Weekday> = { Mon: 'lun', Tue: 'mar', Wed: 'mie', Thu: 'jue', Fri: 'vie', Sat: 'sab', Sun: 'dom' };

/** The weekday and HH:MM of an instant in a time zone. */
export function localMinute(at: Date, timeZone: string): { day: Weekday; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { day: weekdayOf[parts.weekday as string] as Weekday, time: `${parts.hour}:${parts.minute}` };
}

/**
 * The per-minute schedule: every active routine due at this minute (or at one of the last
 * CATCH_UP_MINUTES, not yet run) in its company's time zone is executed once for that minute.
 * Answers how many executions it made.
 */
export async function runDueRoutines(db: Db, secrets: Pick<SecretBox, 'open'>, now = new Date(), only?: { companyId: string }): Promise<number> {
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const routines = (await db
    .select()
    .from(telegramRoutinesTable)
    .where(
      and(
        or(isNull(telegramRoutinesTable.active), eq(telegramRoutinesTable.active, true)),
        ...(only ? [eq(telegramRoutinesTable.companyId, only.companyId)] : []),
      ),
    )) as Routine[];
  const zones = new Map<string, string>();
  let made = 0;
  for (const routine of routines) {
    const companyId = routine.companyId as string;
    if (!zones.has(companyId)) zones.set(companyId, await timezoneOf(db, companyId));
    const zone = zones.get(companyId) as string;
    for (let back = CATCH_UP_MINUTES; back >= 0; back--) {
      const at = new Date(minute.getTime() - back * 60_000);
      // a routine written after a minute is not due for it (a time set to a minute ago does not fire at once)
      if ((routine.updatedAt as Date).getTime() > at.getTime() + 59_999) continue;
      const local = localMinute(at, zone);
      if (local.time !== routine.time || !(routine.days as string[]).includes(local.day)) continue;
      if (await executeRoutine(db, secrets, companyId, routine, { trigger: 'schedule', scheduledFor: at })) made++;
    }
  }
  return made;
}
