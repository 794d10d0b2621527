/**
 * The JavaScript bytes on the wire for /login and /chat (decision 0063): the product serving the
 * built SPA (apps/web/dist: run `npm run build` first), each page's first JS (its entry chunks and
 * what they import statically, as apps/web/scripts/measure-js.mjs counts them) fetched as a
 * browser would, with `Accept-Encoding: br`, `gzip` and none, counting the bytes of the bodies as
 * sent (not decoded). Then a few API answers (lists of the demo tenant): their JSON size, gzip
 * (level 6) and brotli (quality 4) sizes and the CPU each takes per answer, the figures behind not
 * compressing API answers in the server.
 *
 *   npm run static-wire --workspace @mostrador/bench
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { startBench } from './start.js';

const dist = path.join(import.meta.dirname, '../apps/web/dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; imports?: string[] }>;
const pages = {
  '/login': ['index.html', 'src/features/auth/login-page.tsx'],
  '/chat': ['index.html', 'src/app/screen-routes.tsx', 'src/app/query-layout.tsx', 'src/features/chat/chat-page.tsx'],
};

function filesOf(roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) visit(dep);
  };
  for (const root of roots) visit(root);
  return [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
}

/** The body's bytes as they came over the connection, and the encoding the server chose. */
function wireBytes(url: string, acceptEncoding: string): Promise<{ bytes: number; encoding: string; vary: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity'), vary: String(res.headers.vary ?? '') }));
      })
      .on('error', reject);
  });
}

const { booted, address } = await startBench();
console.log(`\nJS on the wire (node ${process.version})`);
for (const [page, roots] of Object.entries(pages)) {
  const files = filesOf(roots);
  const row: string[] = [];
  for (const accept of ['', 'gzip', 'br']) {
    let total = 0;
    let encodings = new Set<string>();
    for (const file of files) {
      const { bytes, encoding } = await wireBytes(`${address}/${file}`, accept);
      total += bytes;
      encodings.add(encoding);
    }
    row.push(`${accept || 'none'}: ${(total / 1024).toFixed(1)} kB (${[...encodings].join('/')})`);
    encodings = new Set();
  }
  console.log(`${page.padEnd(7)} ${files.length} files   ${row.join('   ')}`);
}

const { token, user } = await import('./start.js').then((m) => m.signIn(address));
console.log('\nAPI answers (compressed here, not by the server): JSON → gzip-6 / brotli-4, CPU per answer');
for (const url of ['/api/chats/get_chats?page=1&limit=50', '/api/leads?limit=100', '/api/users', '/api/permissions']) {
  const res = await fetch(`${address}${url}`, { headers: { authorization: `Bearer ${token}`, 'x-company-id': user.companyId } });
  const body = Buffer.from(await res.arrayBuffer());
  const time = (f: () => Buffer) => {
    const n = 200;
    const t0 = performance.now();
    let out = Buffer.alloc(0);
    for (let i = 0; i < n; i++) out = f();
    return { bytes: out.length, ms: (performance.now() - t0) / n };
  };
  const gz = time(() => gzipSync(body, { level: 6 }));
  const br = time(() => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }));
  console.log(
    `${url.padEnd(40)} ${res.status} ${(body.length / 1024).toFixed(1)} kB → gzip ${(gz.bytes / 1024).toFixed(1)} kB (${gz.ms.toFixed(2)} ms) / br ${(br.bytes / 1024).toFixed(1)} kB (${br.ms.toFixed(2)} ms)`,
  );
}
await booted.close();
