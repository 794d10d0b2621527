import pg from 'pg';
import { loadConfig } from '../config.js';
import { migrateDatabase, openDatabase, readEmbeddedInfo } from '../db/database.js';
import { inviteStatement } from '../modules/corporations/invites.js';

/**
 * `npm run invite [días]`: prints a one-time corporation registration link.
 * With the embedded database it talks to the running server's database if there is one
 * (simple-protocol statements only), else it opens the data directory itself.
 */
const days = Number(process.argv[2] ?? 7);
if (!Number.isFinite(days) || days <= 0) {
  console.error('Uso: npm run invite [días de validez]');
  process.exit(2);
}
const config = loadConfig(process.env, { jwtSecret: 'unused-by-invite-cli-unused-by-invite-cli' });
const { secret, sql: insert } = inviteStatement(days * 1440);

const running = config.databaseUrl ? undefined : readEmbeddedInfo(config.dataDir);
if (running) {
  const client = new pg.Client({ host: running.host, port: running.port, user: 'postgres', password: running.password, database: 'postgres' });
  await client.connect();
  await client.query(insert);
  await client.end();
} else {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateDatabase(database);
  await database.pool.query(insert);
  await database.close();
}
console.log(`Enlace de registro de corporación (válido ${days} días, un solo uso):\n${config.publicUrl}/corporation/${secret}`);
