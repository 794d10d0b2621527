import { existsSync } from 'node:fs';
import path from 'node:path';
import { boot, closeOnSignals } from './boot.js';
import { loadConfig } from './config.js';
import { DEMO_PASSWORD, demoLogins } from './seed/demo.js';

const config = loadConfig();
// production never builds (`npm run build` does, at build time): a missing SPA is a failed deploy, said before migrating
const missing = ['index.html', 'shop.html'].filter((f) => !existsSync(path.join(config.webDist, f)));
if (config.env === 'production' && missing.length) {
  console.error(
    `Falta el build del front end (${missing.join(', ')} en ${config.webDist}): ejecuta "npm run build" antes de arrancar en producción, o indica con WEB_DIST dónde está.`,
  );
  process.exit(1);
}
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

closeOnSignals(booted);
