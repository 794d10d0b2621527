import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';

/**
 * A demo company's business hours (/configuracion/horario, decision 0078): Monday to Friday
 * 09:00–13:00 and 14:00–19:00, Saturday 09:00–13:00, the country's holidays of the season, and
 * an away message written but switched off: the demo's company is also the one the test suites
 * write to at any hour, and their customers' messages should not get an answer by surprise.
 */
export async function seedDemoBusinessHours(db: Db, companyId: string, zone: string, holidays: Array<{ date: string; name: string }>): Promise<void> {
  const weekday = [
    { start: '09:00', end: '13:00' },
    { start: '14:00', end: '19:00' },
  ];
  const schedule = { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [{ start: '09:00', end: '13:00' }], sun: [] };
  const away = '¡Gracias por escribirnos! Ahora estamos fuera de horario: atendemos de lunes a viernes de 9:00 a 19:00 y los sábados de 9:00 a 13:00. Te respondemos apenas abramos.';
  await db.execute(sql`insert into business_hours (company_id, zone, schedule, holidays, away_enabled, away_text)
      values (${companyId}, ${zone}, ${JSON.stringify(schedule)}::jsonb, ${JSON.stringify(holidays)}::jsonb, false, ${away})
      on conflict (company_id) where team_id is null do nothing`);
}
