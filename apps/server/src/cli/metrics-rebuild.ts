import pg from 'pg';
import { loadConfig } from '../config.js';
import { migrateDatabase, openDatabase, readEmbeddedInfo } from '../db/database.js';
import { countryTimezone, validTimezone } from '../modules/leads/summary.js';

/**
 * `npm run metrics:rebuild --workspace @mostrador/server [-- --company <id>]`: rebuilds the metrics
 * rollups from scratch (decision 0045) — every company's, or one's — each in its current time
 * zone, one transaction per company. For repair; the triggers keep them right otherwise. With the
 * embedded database it talks to the running server's database if there is one (simple-protocol
 * statements only), else it opens the data directory itself.
 */
const args = process.argv.slice(2);
const at = args.indexOf('--company');
const company = at >= 0 ? args[at + 1] : undefined;
if ((at >= 0 && !company) || (company && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(company)) || args.some((a, i) => a !== '--company' && i !== at + 1)) {
  console.error('Uso: npm run metrics:rebuild --workspace @mostrador/server [-- --company <id de la compañía>]');
  process.exit(2);
}
const config = loadConfig(process.env, { jwtSecret: 'unused-by-metrics-cli-unused-by-metrics-cli' });

type Query = (text: string) => Promise<Array<Record<string, unknown>>>;
async function rebuild(query: Query) {
  const companies = await query(`select id, name, country, settings from companies${company ? ` where id = '${company}'` : ''} order by name`);
  if (company && !companies.length) {
    console.error(`No existe la compañía ${company}`);
    process.exitCode = 1;
  }
  for (const c of companies) {
    const zone = validTimezone((c.settings as { timezone?: string } | null)?.timezone) ?? countryTimezone(c.country as string);
    const started = Date.now();
    await query(`begin; select mostrador_metrics_rebuild('${c.id}'::uuid, '${zone}'); commit;`);
    console.log(`${c.name} (${c.id}): métricas reconstruidas en ${zone}, ${Date.now() - started} ms`);
  }
}

const running = config.databaseUrl ? undefined : readEmbeddedInfo(config.dataDir);
if (running) {
  const client = new pg.Client({ host: running.host, port: running.port, user: 'postgres', password: running.password, database: 'postgres' });
  await client.connect();
  await rebuild(async (text) => {
    const result = await client.query(text);
    return (Array.isArray(result) ? result.flatMap((r) => r.rows) : result.rows) as Array<Record<string, unknown>>;
  });
  await client.end();
} else {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateDatabase(database);
  const client = await database.pool.connect();
  try {
    await rebuild(async (text) => {
      const result = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
      return (Array.isArray(result) ? result.flatMap((r) => r.rows) : result.rows) as Array<Record<string, unknown>>;
    });
  } finally {
    client.release();
  }
  await database.close();
}
