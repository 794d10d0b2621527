import { type BusinessHours, type BusinessHoursIn, type BusinessHoursOut, businessHoursIn, defaultSchedule, isOpen, type TeamHoursOut, teamHoursMessages } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { timezoneOf } from '../leads/summary.js';

/** A row of business_hours as the engine and the away message read it. */
export interface HoursRow extends Record<string, unknown> {
  zone: string;
  schedule: BusinessHours['schedule'];
  holidays: Array<{ date: string; name?: string }>;
  away_enabled: boolean;
  away_text: string;
  updated_at?: string | Date | null;
}

const outOf = (row: HoursRow, saved: boolean): BusinessHoursOut => ({
  zone: row.zone,
  schedule: row.schedule as BusinessHoursOut['schedule'],
  holidays: row.holidays.map((h) => ({ date: h.date, name: h.name ?? '' })),
  awayEnabled: row.away_enabled,
  awayText: row.away_text,
  saved,
  openNow: saved ? isOpen(row, new Date()) : true,
  updatedAt: row.updated_at ? new Date(row.updated_at).toISOString() : null,
});

/** What the audit log keeps of the hours. */
const audited = (row: HoursRow | undefined) =>
  row ? { zone: row.zone, schedule: row.schedule, holidays: row.holidays, away_enabled: row.away_enabled, away_text: row.away_text } : null;

/** GET/PUT /business-hours (decision 0078). */
export function createBusinessHoursService(db: Db) {
  async function get(companyId: string): Promise<BusinessHoursOut> {
    const [row] = await rowsOf<HoursRow>(db, sql`select zone, schedule, holidays, away_enabled, away_text, updated_at from business_hours where company_id = ${companyId} and team_id is null`);
    if (row) return outOf(row, true);
    // nothing saved: the company's zone (its setting, else its country's) and Monday to Friday 09:00–18:00
    return outOf({ zone: await timezoneOf(db, companyId), schedule: defaultSchedule(), holidays: [], away_enabled: false, away_text: '', updated_at: null }, false);
  }
  async function put(companyId: string, input: BusinessHoursIn): Promise<BusinessHoursOut> {
    const b = businessHoursIn.parse(input);
    await db.transaction(async (tx) => {
      const [before] = await rowsOf<HoursRow>(tx, sql`select zone, schedule, holidays, away_enabled, away_text from business_hours where company_id = ${companyId} and team_id is null for update`);
      const [after] = await rowsOf<HoursRow>(
        tx,
        sql`insert into business_hours (company_id, zone, schedule, holidays, away_enabled, away_text)
            values (${companyId}, ${b.zone}, ${JSON.stringify(b.schedule)}::jsonb, ${JSON.stringify(b.holidays)}::jsonb, ${b.awayEnabled}, ${b.awayText})
            on conflict (company_id) where team_id is null do update set zone = excluded.zone, schedule = excluded.schedule, holidays = excluded.holidays,
              away_enabled = excluded.away_enabled, away_text = excluded.away_text, updated_at = now()
            returning zone, schedule, holidays, away_enabled, away_text`,
      );
      const changes = changesOf(audited(before), audited(after));
      if (before && !Object.keys(changes).length) return;
      await audit(tx, { companyId, action: before ? 'update' : 'create', entity: 'business_hours', entityId: companyId, changes });
    });
    return get(companyId);
  }

  /** The team, if it is the company's; else a 404 in Spanish (another company's team is none of its business). */
  async function teamOf(tx: Pick<Db, 'execute'>, companyId: string, teamId: string): Promise<void> {
    const [team] = await rowsOf(tx, sql`select 1 from equipos_de_ventas where company_id = ${companyId} and id = ${teamId}::uuid`);
    if (!team) throw new AppError('NOT_FOUND', teamHoursMessages.teamNotFound);
  }
  /** A team's hours (decision 0081): its own, else the company's as they are (`own` false). */
  async function getTeam(companyId: string, teamId: string): Promise<TeamHoursOut> {
    await teamOf(db, companyId, teamId);
    const [row] = await rowsOf<HoursRow>(
      db,
      sql`select zone, schedule, holidays, away_enabled, away_text, updated_at from business_hours where company_id = ${companyId} and team_id = ${teamId}::uuid`,
    );
    if (row) return { ...outOf(row, true), teamId, own: true };
    return { ...(await get(companyId)), teamId, own: false };
  }
  async function putTeam(companyId: string, teamId: string, input: BusinessHoursIn): Promise<TeamHoursOut> {
    const b = businessHoursIn.parse(input);
    await db.transaction(async (tx) => {
      await teamOf(tx, companyId, teamId);
      const [before] = await rowsOf<HoursRow>(
        tx,
        sql`select zone, schedule, holidays, away_enabled, away_text from business_hours where company_id = ${companyId} and team_id = ${teamId}::uuid for update`,
      );
      const [after] = await rowsOf<HoursRow>(
        tx,
        sql`insert into business_hours (company_id, team_id, zone, schedule, holidays, away_enabled, away_text)
            values (${companyId}, ${teamId}::uuid, ${b.zone}, ${JSON.stringify(b.schedule)}::jsonb, ${JSON.stringify(b.holidays)}::jsonb, ${b.awayEnabled}, ${b.awayText})
            on conflict (company_id, team_id) where team_id is not null do update set zone = excluded.zone, schedule = excluded.schedule, holidays = excluded.holidays,
              away_enabled = excluded.away_enabled, away_text = excluded.away_text, updated_at = now()
            returning zone, schedule, holidays, away_enabled, away_text`,
      );
      const changes = changesOf(audited(before), audited(after));
      if (before && !Object.keys(changes).length) return;
      await audit(tx, { companyId, action: before ? 'update' : 'create', entity: 'business_hours', entityId: teamId, changes });
    });
    return getTeam(companyId, teamId);
  }
  /** Back to the company's hours: the team's row goes (audited); a team without its own stays as it is. */
  async function removeTeam(companyId: string, teamId: string): Promise<TeamHoursOut> {
    await db.transaction(async (tx) => {
      await teamOf(tx, companyId, teamId);
      const [before] = await rowsOf<HoursRow>(
        tx,
        sql`delete from business_hours where company_id = ${companyId} and team_id = ${teamId}::uuid returning zone, schedule, holidays, away_enabled, away_text`,
      );
      if (before) await audit(tx, { companyId, action: 'delete', entity: 'business_hours', entityId: teamId, changes: changesOf(audited(before), null) });
    });
    return getTeam(companyId, teamId);
  }
  return { get, put, getTeam, putTeam, removeTeam };
}

// the teams closed now (the assignment turn skips their agents) live in modules/assignment/hours.ts

