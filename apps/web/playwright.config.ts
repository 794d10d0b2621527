import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// E2E_PORT lets two runs on one machine keep apart (CI runs one)
const PORT = Number(process.env.E2E_PORT ?? 3100);

// A fresh database for every run. Workers re-read this file: the variable keeps them on
// the directory the first load created.
process.env.MOSTRADOR_E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'mostrador-e2e-'));

export default defineConfig({
  testDir: './e2e',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: path.join(repoRoot, 'test-results'),
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: 'chromium',
    locale: 'es-PE',
    // CI prints only the failures' messages and keeps no files: recording a trace of every step there costs time for nothing
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      // Debian's chromium: never download browsers, never pass --user-data-dir.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'npm start',
    cwd: repoRoot,
    url: `http://localhost:${PORT}/api/health`,
    // BOTS=off: the demo's sandbox Dialogflow bot would answer the flows' WhatsApp customers (and
    // hold their chats from the automatic assignment); dialogflow.spec tests the bots' screen (decision 0053).
    // OUTBOUND_ALLOW_PRIVATE_URLS=1: webhooks.spec's receiver listens on this machine's loopback (decision 0073)
    env: { PORT: String(PORT), DATA_DIR: process.env.MOSTRADOR_E2E_DATA_DIR, BOTS: 'off', OUTBOUND_ALLOW_PRIVATE_URLS: '1' },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
