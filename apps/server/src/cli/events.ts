import { loadConfig } from '../config.js';
import { boot } from '../boot.js';
import { readEmbeddedInfo } from '../db/database.js';

/**
 * `npm run events`: the event spine as an operator sees it (decision 0068) — the events not yet
 * delivered, and each listener's failures (being retried, given up) with the last error.
 * `npm run events -- replay <oyente> <desde>`: hands a listener the events since a time again
 * (ISO date or date-time), in order; its receipts of them are forgotten first.
 * On PostgreSQL it runs beside the servers; the embedded database is one process: stop the
 * server first.
 */
const [command, listener, since] = process.argv.slice(2);
if (command && (command !== 'replay' || !listener || !since || Number.isNaN(Date.parse(since)))) {
  console.error('Uso: npm run events [-- replay <oyente> <desde, p. ej. 2026-12-01T00:00:00Z>]');
  process.exit(2);
}
const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' }, { jwtSecret: 'unused-by-events-cli-unused-by-events-cli' });
if (!config.databaseUrl && readEmbeddedInfo(config.dataDir)) {
  console.error('El servidor está corriendo con la base embebida (un solo proceso): detenlo y vuelve a intentar, o usa DATABASE_URL.');
  process.exit(1);
}
const booted = await boot({ config: { ...config, seed: false }, logger: false, work: false });
const { spine } = booted.app;
try {
  if (command === 'replay') {
    const names = spine.listeners.map((l) => l.name);
    if (!names.includes(listener ?? '')) {
      console.error(`Oyente desconocido: ${listener}. Oyentes: ${names.join(', ')}`);
      process.exitCode = 2;
    } else {
      const n = await spine.replay(listener ?? '', new Date(since ?? ''));
      console.log(`${n} eventos entregados de nuevo a ${listener} desde ${new Date(since ?? '').toISOString()}`);
    }
  } else {
    const backlog = await spine.backlog();
    console.log(`Eventos sin repartir: ${backlog.pending}${backlog.pending ? ` (el más antiguo hace ${backlog.oldestSeconds.toFixed(1)} s)` : ''}`);
    const failures = await spine.failures();
    console.log(`Oyentes: ${spine.listeners.map((l) => `${l.name} (${l.on.join(', ')})`).join('; ')}`);
    if (!failures.length) console.log('Ningún oyente tiene eventos fallidos.');
    for (const f of failures) console.log(`${f.listener}: ${f.retrying} en reintento, ${f.given_up} abandonados${f.last_error ? ` — último error: ${f.last_error}` : ''}`);
  }
} finally {
  await booted.close();
}
