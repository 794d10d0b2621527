import { loadConfig } from './config.js';
import { boot } from './boot.js';
import { DEMO_PASSWORD, demoLogins } from './seed/demo.js';

const config = loadConfig();
const booted = await boot({ config });
const { app, database } = booted;

await app.listen({ port: config.port, host: config.host });
const url = `http://localhost:${config.port}`;
const dbLine =
  database.kind === 'pglite'
    ? `PGlite embebida en ${config.dataDir} (psql: ${database.connectionString})`
    : 'PostgreSQL (DATABASE_URL)';
const lines = [
  '',
  `  Mostrador está listo en ${url}`,
  `  Base de datos: ${dbLine}`,
  `  API: ${url}/api  ·  OpenAPI: ${url}/api/docs`,
];
if (config.seed) {
  lines.push(`  Acceso demo (contraseña ${DEMO_PASSWORD}):`);
  for (const l of demoLogins) lines.push(`    corporación ${l.corporation.padEnd(5)} ${l.email.padEnd(16)} ${l.role.padEnd(7)} ${l.companies}`);
}
console.log(`${lines.join('\n')}\n`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    await booted.close().catch((e) => console.error(e));
    process.exit(0);
  });
}
