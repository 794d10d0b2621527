// Runs the server suite again on PostgreSQL when TEST_DATABASE_URL is set (CI sets it).
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_DATABASE_URL) {
  console.log('TEST_DATABASE_URL no está definida: la suite del servidor corrió solo sobre PGlite.');
  process.exit(0);
}
console.log(`Suite del servidor sobre PostgreSQL (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//…@')})`);
const r = spawnSync('npx', ['vitest', 'run', '--project', 'server'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
