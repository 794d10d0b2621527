import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boot } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { seedDemo } from '../src/seed/demo.js';
import { JWT_SECRET } from './helpers.js';

describe('embedded product', () => {
  it('keeps its data in DATA_DIR across restarts and seeds only an empty database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'mostrador-boot-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET, LOG_LEVEL: 'silent' });

    const first = await boot({ config, logger: false, work: false });
    expect(first.seeded).toBe(true);
    // a second server on the same directory is refused instead of corrupting it
    await expect(openDatabase({ dataDir })).rejects.toThrow(/ya usa la base de datos embebida/);
    await first.database.pool.query(`update companies set name = 'Demo Perú SAC' where name = 'Demo Perú'`);
    await first.close();

    const second = await boot({ config, logger: false, work: false });
    expect(second.seeded).toBe(false);
    const { rows } = await second.database.pool.query(`select name from companies order by name`);
    expect(rows.map((r) => r.name)).toEqual(['Acme', 'Demo Chile', 'Demo Perú SAC']);
    expect(await seedDemo(second.database.db, second.app.secrets)).toBe(false);
    const res = await second.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'admin@demo.com', password: 'demo1234', corporation: 'demo' },
    });
    expect(res.statusCode).toBe(200);
    await second.close();
    // two boots of a file-backed PGlite with the demo seed: on two busy cores this passes 30 s
  }, 120_000);

  it('never seeds in production', () => {
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET, SEED: 'true', DATA_DIR: tmpdir() });
    expect(config.seed).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmpdir() })).toThrow(/JWT_SECRET/);
  });
});
