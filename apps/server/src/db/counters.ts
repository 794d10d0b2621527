import { resourceList, tableNameOf } from '@mostrador/contract';
import type pg from 'pg';

/**
 * Row counters of the standard resources. Every resource table gets two statement-level
 * triggers (insert, delete) that add each statement's rows per company to
 * `resource_counts`, so the total of an unfiltered list is one primary-key read however
 * many rows the company has (bench/leads-list.ts). A table seen for the first time is
 * counted once while its writers wait (SHARE ROW EXCLUSIVE), then the triggers keep it.
 * Each backend adds to its own row (`shard` = its pid modulo 64): concurrent writers of one company
 * and list (a burst of customer messages creating people, leads and chats on four queue lanes) do
 * not queue on one counter row until each commits; a reader sums the company's rows of the list
 * (at most 64, one index range). A recount writes shard 0.
 */
const countFunction = `
create or replace function mostrador_count_rows() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into resource_counts (company_id, resource, shard, n)
      select company_id, tg_table_name, pg_backend_pid() % 64, count(*) from new_rows group by company_id
      on conflict (company_id, resource, shard) do update set n = resource_counts.n + excluded.n;
  else
    insert into resource_counts (company_id, resource, shard, n)
      select company_id, tg_table_name, pg_backend_pid() % 64, -count(*) from old_rows group by company_id
      on conflict (company_id, resource, shard) do update set n = resource_counts.n + excluded.n;
  end if;
  return null;
end $$`;

export async function ensureRowCounters(client: pg.PoolClient): Promise<void> {
  await client.query(countFunction);
  const { rows } = await client.query<{ tgname: string }>(`select tgname from pg_trigger where tgname like '%\\_count\\_ins'`);
  const installed = new Set(rows.map((r) => r.tgname));
  for (const resource of resourceList) {
    const table = tableNameOf(resource.key);
    if (installed.has(`${table}_count_ins`)) continue;
    await client.query('begin');
    try {
      await client.query(`lock table "${table}" in share row exclusive mode`);
      await client.query(
        `create trigger "${table}_count_ins" after insert on "${table}" referencing new table as new_rows
         for each statement execute function mostrador_count_rows()`,
      );
      await client.query(
        `create trigger "${table}_count_del" after delete on "${table}" referencing old table as old_rows
         for each statement execute function mostrador_count_rows()`,
      );
      await client.query('delete from resource_counts where resource = $1', [table]);
      await client.query(
        `insert into resource_counts (company_id, resource, n) select company_id, $1, count(*) from "${table}" group by company_id`,
        [table],
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
  }
}
