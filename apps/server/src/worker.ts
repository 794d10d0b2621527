import { loadConfig } from './config.js';
import { boot, closeOnSignals } from './boot.js';

/** `npm run worker`: processes jobs only, against the shared PostgreSQL (no HTTP port). */
const config = loadConfig();
if (!config.databaseUrl) {
  console.error('npm run worker necesita DATABASE_URL: la base embebida solo admite un proceso.');
  process.exit(1);
}
const booted = await boot({ config, work: true });
booted.app.log.info('worker de trabajos en marcha');
closeOnSignals(booted);
