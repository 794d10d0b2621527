import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DriveUploadOut } from '@mostrador/contract';
import { describe, expect, inject, it } from 'vitest';
import { type Booted, boot } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import { createSecretBox } from '../src/lib/secret-box.js';
import { createDatabase } from '../../../scripts/product-process.js';
import { demo, JWT_SECRET, login, type TestApp } from './helpers.js';

/**
 * Backups as docs/OPERATIONS.md («Respaldos y restauración», decision 0066) writes them, tried:
 * a product with data and a Drive file is backed up, restored into a fresh database and a fresh
 * DATA_DIR, and the product starts on the copy with everything there — the sealed integration
 * secrets readable with the same key, and with no other.
 */
const fresh = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));
/** `login` only calls the app. */
const asTestApp = (b: Booted) => b as unknown as TestApp;

describe('backup and restore', () => {
  it('restores the data, the Drive files and the sealed secrets into a fresh database, and the product starts on it', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    const template = inject('dbTemplate');
    const dataDir = fresh('mostrador-backup-');
    const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const cleanup: (() => Promise<void>)[] = [];
    let restored: Booted | undefined;
    try {
      // the product as it runs: PostgreSQL, or the embedded database in a DATA_DIR on disk
      const source = adminUrl ? await createDatabase(adminUrl, 'mostrador_backup', template?.kind === 'postgres' ? template.name : undefined) : undefined;
      if (source) cleanup.push(source.drop);
      const original = await boot({
        config,
        logger: false,
        work: false,
        databaseUrl: source?.url,
        dataDir,
        loadFrom: !source && template?.kind === 'pglite' ? template.file : undefined,
      });
      await original.database.pool.query(`update companies set name = 'Demo Perú (respaldada)' where name = 'Demo Perú'`);
      const admin = await login(asTestApp(original), demo.admin);
      const company = admin.company('Demo Perú (respaldada)');
      const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
      const upload = await original.app.inject({
        method: 'POST',
        url: '/api/drive/files?name=respaldo.png',
        headers: { authorization: `Bearer ${admin.token}`, 'x-company-id': company, 'content-type': 'image/png' },
        payload: bytes,
      });
      expect(upload.statusCode, upload.body).toBe(201);
      const { file } = upload.json() as DriveUploadOut;

      const backupDir = fresh('mostrador-backup-out-');
      const restoredDir = fresh('mostrador-restored-');
      let restoredUrl: string | undefined;
      if (source && adminUrl) {
        // PostgreSQL, online: pg_dump -Fc of the whole database (pgboss and drizzle schemas too; not the
        // old processes' heartbeats, which would make the copy look worked for 45 s)…
        const dump = path.join(backupDir, 'mostrador.dump');
        execFileSync('pg_dump', ['-Fc', '--no-owner', '--exclude-table-data=worker_heartbeats', '-d', source.url, '-f', dump]);
        await original.close();
        // …restored into an empty database, and the Drive files copied beside it
        const target = await createDatabase(adminUrl, 'mostrador_restored');
        cleanup.push(target.drop);
        execFileSync('pg_restore', ['--no-owner', '--exit-on-error', '-d', target.url, dump]);
        cpSync(path.join(dataDir, 'drive'), path.join(restoredDir, 'drive'), { recursive: true });
        restoredUrl = target.url;
      } else {
        // embedded: the server stopped, DATA_DIR copied whole (the database, the local key, Drive)
        await original.close();
        expect(existsSync(path.join(dataDir, 'embedded.json'))).toBe(false);
        cpSync(dataDir, restoredDir, { recursive: true });
      }

      restored = await boot({ config: { ...config, dataDir: restoredDir }, logger: false, work: true, databaseUrl: restoredUrl, dataDir: restoredDir });
      expect(restored.seeded).toBe(false);
      const ready = await restored.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode, ready.body).toBe(200);
      const { rows } = await restored.database.pool.query<{ name: string }>('select name from companies where id = $1', [company]);
      expect(rows).toEqual([{ name: 'Demo Perú (respaldada)' }]);
      const again = await login(asTestApp(restored), demo.admin);
      expect(again.company('Demo Perú (respaldada)')).toBe(company);
      const served = await restored.app.inject({ method: 'GET', url: `/api/drive/files/${file._id}/${encodeURIComponent(file.name)}` });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);

      // the integration secrets come back sealed: the same key opens them, any other does not
      const [{ token }] = (await restored.database.pool.query<{ token: string }>('select token from telegram_settings limit 1')).rows;
      expect(restored.app.secrets.open(token)).toBe('sandbox-demo-bot');
      expect(() => createSecretBox(`derived:${'another-jwt-secret-'.repeat(3)}`).open(token)).toThrow();
    } finally {
      await restored?.close();
      for (const drop of cleanup.reverse()) await drop().catch(() => {});
    }
    // a file-backed PGlite started twice on two busy cores
  }, 180_000);
});
