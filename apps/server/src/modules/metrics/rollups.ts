import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { countryTimezone, validTimezone } from '../leads/summary.js';

/**
 * The metrics rollups' upkeep (decision 0045). Triggers keep them in step with their sources
 * (migrations 0023–0026); this rebuilds them from scratch — for repair (`npm run
 * metrics:rebuild`), and when a company's time zone changed since its rollups were written (their
 * days are that zone's days): the metric calls check it on every read.
 */
export const METRICS_REBUILD_QUEUE = 'metrics.rebuild';

/** Rebuilds one company's rollups in `timezone`, in one transaction (writers of the company wait for it). */
export async function rebuildCompanyMetrics(db: Db, companyId: string, timezone: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select mostrador_metrics_rebuild(${companyId}::uuid, ${timezone})`);
  });
}

/** The zone a company counts its days in (as timezoneOf), and the one its rollups are in (absent: none yet). */
async function zonesOf(db: Pick<Db, 'execute'>, companyId: string): Promise<{ wanted: string; rollups?: string } | undefined> {
  const [row] = await rowsOf<{ settings: { timezone?: string } | null; country: string; rollups: string | null }>(
    db,
    sql`select co.settings, co.country, mc.timezone as rollups
          from companies co left join metrics_companies mc on mc.company_id = co.id where co.id = ${companyId}`,
  );
  if (!row) return undefined;
  return { wanted: validTimezone(row.settings?.timezone) ?? countryTimezone(row.country), rollups: row.rollups ?? undefined };
}

/**
 * Rebuilds a company's rollups in its current zone unless they already are in it — checked under
 * the zone row's lock, so calls that all found them stale rebuild once, not once each.
 */
export async function rebuildIfStale(db: Db, companyId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from metrics_companies where company_id = ${companyId} for update`);
    const zones = await zonesOf(tx, companyId);
    if (zones && zones.rollups !== zones.wanted) await tx.execute(sql`select mostrador_metrics_rebuild(${companyId}::uuid, ${zones.wanted})`);
  });
}

/**
 * The zone the company's rollups answer in. A company without rollups gets them now (it has no
 * rows anyway); rollups in a zone the company left are rebuilt by a job (at 10M messages a
 * rebuild takes about a minute) and answer in their zone meanwhile — the answer says which.
 */
export async function metricsZone(db: Db, companyId: string, queueRebuild: () => Promise<unknown>): Promise<string> {
  const zones = await zonesOf(db, companyId);
  if (!zones) return 'America/Lima';
  if (zones.rollups === zones.wanted) return zones.wanted;
  if (zones.rollups === undefined) {
    await rebuildIfStale(db, companyId);
    return zones.wanted;
  }
  await queueRebuild();
  return zones.rollups;
}

/** Rebuilds every company's rollups (or one's), each in its current zone; returns how many. */
export async function rebuildMetrics(db: Db, companyId?: string): Promise<number> {
  const ids = await rowsOf<{ id: string }>(db, companyId ? sql`select id from companies where id = ${companyId}` : sql`select id from companies order by id`);
  for (const { id } of ids) {
    const zones = await zonesOf(db, id);
    if (zones) await rebuildCompanyMetrics(db, id, zones.wanted);
  }
  return ids.length;
}
