import { type BusinessHours, isOpen } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';

/**
 * The company's teams with hours of their own that are closed at `at` (decision 0081): the
 * assignment turn (auto.ts, and the rules' «por turnos» / «de un equipo») leaves their agents out.
 * Judged here, in each team's zone (isOpen), and handed to the turn's statement as an array.
 */
export async function closedTeamsOf(db: Pick<Db, 'execute'>, companyId: string, at = new Date()): Promise<string[]> {
  const rows = await rowsOf<Pick<BusinessHours, 'zone' | 'schedule' | 'holidays'> & { team_id: string } & Record<string, unknown>>(
    db,
    sql`select team_id::text, zone, schedule, holidays from business_hours where company_id = ${companyId} and team_id is not null`,
  );
  return rows.filter((r) => !isOpen(r, at)).map((r) => r.team_id);
}

/** The SQL array literal of ids (uuid[]). */
export const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;
