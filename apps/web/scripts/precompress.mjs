// Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, once, at build
// time (decision 0063): the server sends them (@fastify/static `preCompressed`) to a browser that
// accepts them, without spending its CPU on every answer. Run by `npm run build` after both vite
// builds; a file under 1 KiB is left alone (the headers cost more than it saves).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const compressible = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

const files = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (compressible.test(entry.name) && statSync(path).size >= MIN_BYTES) files.push(path);
  }
};
walk(dist);

let raw = 0;
let br = 0;
let gz = 0;
for (const file of files) {
  const bytes = readFileSync(file);
  const brotli = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
  const gzip = gzipSync(bytes, { level: 9 });
  writeFileSync(`${file}.br`, brotli);
  writeFileSync(`${file}.gz`, gzip);
  raw += bytes.length;
  br += brotli.length;
  gz += gzip.length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
console.log(`precompress: ${files.length} files, ${kb(raw)} raw → ${kb(br)} brotli, ${kb(gz)} gzip`);
