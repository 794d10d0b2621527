import { type BusinessHours, type BusinessHoursIn, type BusinessHoursOut, businessHoursIn, defaultSchedule, isOpen } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
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
    const [row] = await rowsOf<HoursRow>(db, sql`select zone, schedule, holidays, away_enabled, away_text, updated_at from business_hours where company_id = ${companyId}`);
    if (row) return outOf(row, true);
    // nothing saved: the company's zone (its setting, else its country's) and Monday to Friday 09:00–18:00
    return outOf({ zone: await timezoneOf(db, companyId), schedule: defaultSchedule(), holidays: [], away_enabled: false, away_text: '', updated_at: null }, false);
  }
  async function put(companyId: string, input: BusinessHoursIn): Promise<BusinessHoursOut> {
    const b = businessHoursIn.parse(input);
    await db.transaction(async (tx) => {
      const [before] = await rowsOf<HoursRow>(tx, sql`select zone, schedule, holidays, away_enabled, away_text from business_hours where company_id = ${companyId} for update`);
      const [after] = await rowsOf<HoursRow>(
        tx,
        sql`insert into business_hours (company_id, zone, schedule, holidays, away_enabled, away_text)
            values (${companyId}, ${b.zone}, ${JSON.stringify(b.schedule)}::jsonb, ${JSON.stringify(b.holidays)}::jsonb, ${b.awayEnabled}, ${b.awayText})
            on conflict (company_id) do update set zone = excluded.zone, schedule = excluded.schedule, holidays = excluded.holidays,
              away_enabled = excluded.away_enabled, away_text = excluded.away_text, updated_at = now()
            returning zone, schedule, holidays, away_enabled, away_text`,
      );
      const changes = changesOf(audited(before), audited(after));
      if (before && !Object.keys(changes).length) return;
      await audit(tx, { companyId, action: before ? 'update' : 'create', entity: 'business_hours', entityId: companyId, changes });
    });
    return get(companyId);
  }
  return { get, put };
}
