import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { countryTimezone, validTimezone } from '../leads/summary.js';

/**
 * The metrics rollups' upkeep (decision 0045). Triggers keep them in step with their sources
 * (migrations 0023–0026, staged since 0042 and folded here); this rebuilds them from scratch — for repair (`npm run
 * metrics:rebuild`), and when a company's time zone changed since its rollups were written (their
 * days are that zone's days): the metric calls check it on every read (the jobs: jobs.ts).
 */

/** Rebuilds one company's rollups in `timezone`, in one transaction (writers of the company wait for it). */
export async function rebuildCompanyMetrics(db: Db, companyId: string, timezone: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select mostrador_metrics_rebuild(${companyId}::uuid, ${timezone})`);
  });
}

/**
 * Writers stage their rollup rows; this moves them into the rollups (migration 0042). The metric
 * calls fold their company before they read; a job folds every company each minute (jobs.ts), so
 * the staging stays small between calls.
 */

const stagingTables = ['metrics_messages_daily_pending', 'metrics_chat_months_pending', 'metrics_entities_daily_pending', 'metrics_analyses_daily_pending', 'metrics_sales_daily_pending'];

/** Folds every company that has staged rows, one at a time, then vacuums the staging; returns how many. */
export async function foldMetrics(db: Pick<Db, 'execute'>, { vacuum = false }: { vacuum?: boolean } = {}): Promise<number> {
  const companies = await rowsOf<{ company_id: string }>(
    db,
    sql`select company_id from metrics_messages_daily_pending union select company_id from metrics_chat_months_pending
        union select company_id from metrics_entities_daily_pending union select company_id from metrics_analyses_daily_pending
        union select company_id from metrics_sales_daily_pending`,
  );
  for (const { company_id } of companies) await db.execute(sql`select mostrador_metrics_fold(${company_id}::uuid)`);
  // what the folds deleted, gone (the calls' "anything staged?" probes walk dead rows: migration 0046)
  // (PostgreSQL: the embedded database has one connection, where a vacuum could land inside a transaction)
  if (vacuum) for (const table of stagingTables) await db.execute(sql.raw(`vacuum ${table}`));
  return companies.length;
}

/**
 * The zone a company counts its days in (as timezoneOf), and the one its rollups are in (absent:
 * none yet). `fold`: the company's staged rollup rows are folded in the same round trip.
 */
async function zonesOf(db: Pick<Db, 'execute'>, companyId: string, fold = false): Promise<{ wanted: string; rollups?: string } | undefined> {
  const [row] = await rowsOf<{ settings: { timezone?: string } | null; country: string; rollups: string | null }>(
    db,
    sql`select co.settings, co.country, mc.timezone as rollups${fold ? sql`, mostrador_metrics_fold(co.id) as folded` : sql``}
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
    // the company's fold lock first, then its zone row: the order every fold and rebuild takes them
    // (migration 0047) — the row first deadlocked with a fold running beside it
    await tx.execute(sql`select mostrador_metrics_lock(${companyId}::uuid)`);
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
  // what the company's writers staged is folded first: the call reads all that has committed
  const zones = await zonesOf(db, companyId, true);
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
