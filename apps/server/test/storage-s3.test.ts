import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DriveUploadOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageConfig } from '../src/config.js';
import { loadConfig } from '../src/config.js';
import { providerLinks } from '../src/modules/drive/provider-links.js';
import { s3Storage } from '../src/modules/drive/s3-storage.js';
import { storageOf } from '../src/modules/drive/storage-of.js';
import { type DriveStorage, fileStorage, StorageUnavailable, storageMessages } from '../src/modules/drive/storage.js';
import { createWebhookProcessor } from '../src/modules/webhooks/process.js';
import { deliver, type FakeGraph, startFakeGraph, whatsappText } from './fakes/meta.js';
import { type FakeS3, startFakeS3 } from './fakes/s3.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Media off the local disk (issue 32, decision 0105): Drive's bytes behind one storage interface,
 * on the disk (the embedded default) or an S3-compatible bucket (S3_BUCKET). The same contract
 * runs against both stores; then the product with S3 configured against a local fake of S3 that
 * checks every signature: uploads and downloads through the HTTP API end up in the bucket and come
 * back byte for byte (ranges too) with nothing on the disk, the provider gets a presigned link that
 * works and expires, and a store that fails or refuses answers a Spanish 503 that never repeats
 * what the store said.
 */
const BUCKET = 'mostrador-media';
const REMOTE_SECRET = 'DETALLE-INTERNO-DEL-PROVEEDOR-arn:aws:s3:::cuenta-123456789012';
const COMPANY = '0b6f2f4e-3f0a-4c55-9a1e-6a8d5f1b2c3d';
const OTHER = '7d1c9e2a-5b4f-4e3d-8c2b-1a0f9e8d7c6b';

let s3: FakeS3;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const s3Config = (overrides: Partial<Extract<StorageConfig, { kind: 's3' }>> = {}): Extract<StorageConfig, { kind: 's3' }> => ({
  kind: 's3',
  bucket: BUCKET,
  region: s3.region,
  endpoint: s3.url,
  forcePathStyle: true,
  credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  prefix: '',
  signedUrlSeconds: 900,
  ...overrides,
});
const drain = async (stream: NodeJS.ReadableStream | undefined) => {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
};
/** Streams `bytes` into a staging place in uneven chunks, as an upload arrives, and keeps it. */
async function streamIn(storage: DriveStorage, companyId: string, bytes: Buffer) {
  const staged = await storage.stage();
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(Math.random() * 200_000);
    await staged.write(bytes.subarray(at, at + size));
    at += size;
  }
  await staged.finish();
  await staged.keepAs(companyId, sha(bytes));
  await staged.discard();
  return sha(bytes);
}

beforeAll(async () => {
  s3 = await startFakeS3({ buckets: [BUCKET] });
});
afterAll(async () => {
  await s3?.close();
});

const stores: Array<[string, () => { storage: DriveStorage; leftovers: () => string[]; stored: (companyId: string) => string[] }]> = [
  [
    'the disk (DATA_DIR/drive)',
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-storage-'));
      const list = (sub: string) => (existsSync(path.join(dir, 'drive', sub)) ? readdirSync(path.join(dir, 'drive', sub)) : []);
      return { storage: fileStorage(dir), leftovers: () => list('.staging'), stored: (companyId) => list(companyId) };
    },
  ],
  [
    'an S3 bucket',
    () => {
      const prefix = `t${randomBytes(4).toString('hex')}/`;
      const keys = () => s3.keys(BUCKET).filter((k) => k.startsWith(prefix));
      return {
        storage: s3Storage(s3Config({ prefix })),
        leftovers: () => [...keys().filter((k) => k.startsWith(`${prefix}.staging/`)), ...[...s3.uploads.values()].filter((u) => u.key.startsWith(prefix)).map((u) => u.key)],
        stored: (companyId) => keys().filter((k) => k.startsWith(`${prefix}${companyId}/`)).map((k) => k.split('/').pop() as string),
      };
    },
  ],
];

describe.each(stores)('the storage contract on %s', (_name, make) => {
  let storage: DriveStorage;
  let leftovers: () => string[];
  let stored: (companyId: string) => string[];
  beforeAll(() => {
    ({ storage, leftovers, stored } = make());
  });

  it('keeps a streamed upload under the company and its hash, and reads it back whole and by range', async () => {
    const bytes = randomBytes(300_000);
    const hash = await streamIn(storage, COMPANY, bytes);
    expect(stored(COMPANY)).toContain(hash);
    expect(leftovers()).toEqual([]);
    expect(await storage.exists(COMPANY, hash)).toBe(true);
    expect((await drain(await storage.read(COMPANY, hash)))?.equals(bytes)).toBe(true);
    expect((await drain(await storage.read(COMPANY, hash, { start: 1000, end: 1999 })))?.equals(bytes.subarray(1000, 2000))).toBe(true);
    expect((await drain(await storage.read(COMPANY, hash, { start: bytes.length - 1, end: bytes.length - 1 })))?.equals(bytes.subarray(-1))).toBe(true);
  });

  it('streams a file larger than one S3 part (12 MB) and keeps it byte for byte', async () => {
    const before = s3.requests.length;
    const bytes = randomBytes(12 * 1024 * 1024 + 333);
    const hash = await streamIn(storage, COMPANY, bytes);
    expect((await drain(await storage.read(COMPANY, hash)))?.equals(bytes)).toBe(true);
    expect(leftovers()).toEqual([]);
    if (storage.kind === 's3') {
      // lib-storage's multipart upload: created, three parts, completed
      const calls = s3.requests.slice(before);
      expect(calls.filter((r) => r.method === 'POST' && new URLSearchParams(r.query).has('uploads'))).toHaveLength(1);
      expect(calls.filter((r) => r.method === 'PUT' && new URLSearchParams(r.query).has('partNumber'))).toHaveLength(3);
    }
  });

  it('a discarded upload leaves nothing, finished or not', async () => {
    const open = await storage.stage();
    await open.write(randomBytes(50_000));
    await open.discard();
    const finished = await storage.stage();
    await finished.write(randomBytes(6 * 1024 * 1024));
    await finished.finish();
    await finished.discard();
    expect(leftovers()).toEqual([]);
  });

  it('writes bytes in memory, says what it has and removes one file', async () => {
    const bytes = Buffer.from(`%PDF-1.4 ${randomBytes(16).toString('hex')}`);
    await storage.write(COMPANY, sha(bytes), bytes);
    expect(await storage.exists(COMPANY, sha(bytes))).toBe(true);
    const unknown = sha(randomBytes(8));
    expect(await storage.exists(COMPANY, unknown)).toBe(false);
    expect(await storage.read(COMPANY, unknown)).toBeUndefined();
    await storage.remove(COMPANY, sha(bytes));
    expect(await storage.exists(COMPANY, sha(bytes))).toBe(false);
    await storage.remove(COMPANY, sha(bytes));
  });

  it("removes every byte of a company and none of another's", async () => {
    const mine = await Promise.all([1, 2, 3].map(async () => {
      const b = randomBytes(1000);
      await storage.write(OTHER, sha(b), b);
      return sha(b);
    }));
    const kept = randomBytes(100);
    await storage.write(COMPANY, sha(kept), kept);
    await storage.removeCompany(OTHER);
    for (const hash of mine) expect(await storage.exists(OTHER, hash)).toBe(false);
    expect(stored(OTHER)).toEqual([]);
    expect(await storage.exists(COMPANY, sha(kept))).toBe(true);
  });

  it('answers its check, and refuses a key that is not a company or a hash', async () => {
    expect(await storage.check()).toBe(true);
    await expect(storage.write('../etc', 'passwd', Buffer.from('x'))).rejects.toThrow(/bad path part/);
  });
});

describe('the S3 store alone', () => {
  it('lists and deletes a company of more than 1,000 objects page by page', async () => {
    const prefix = `big${randomBytes(3).toString('hex')}/`;
    const storage = s3Storage(s3Config({ prefix }));
    const bucket = s3.buckets.get(BUCKET) as Map<string, { body: Buffer; etag: string }>;
    for (let i = 0; i < 2100; i++) bucket.set(`${prefix}${COMPANY}/${sha(Buffer.from(String(i)))}`, { body: Buffer.from(String(i)), etag: '"x"' });
    bucket.set(`${prefix}${OTHER}/keep`, { body: Buffer.from('k'), etag: '"k"' });
    const before = s3.requests.length;
    await storage.removeCompany(COMPANY);
    expect(s3.keys(BUCKET).filter((k) => k.startsWith(prefix))).toEqual([`${prefix}${OTHER}/keep`]);
    const calls = s3.requests.slice(before);
    expect(calls.filter((r) => r.method === 'GET' && new URLSearchParams(r.query).get('list-type') === '2')).toHaveLength(3);
    expect(calls.filter((r) => r.method === 'POST' && new URLSearchParams(r.query).has('delete'))).toHaveLength(3);
  });

  it('hands out a presigned link the store answers with the bytes, type and name, until it expires', async () => {
    const storage = s3Storage(s3Config({ signedUrlSeconds: 120 }));
    const bytes = Buffer.from(`%PDF-1.4 lista ${randomBytes(32).toString('hex')}`);
    await storage.write(COMPANY, sha(bytes), bytes);
    const link = await (storage.signedUrl as NonNullable<DriveStorage['signedUrl']>)(COMPANY, sha(bytes), { mimeType: 'application/pdf', name: 'Lista de precios.pdf' });
    const url = new URL(link);
    expect(url.origin).toBe(s3.url);
    expect(url.pathname).toBe(`/${BUCKET}/${COMPANY}/${sha(bytes)}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // a provider fetches it with no credentials of its own
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="Lista de precios.pdf"; filename*=UTF-8''Lista%20de%20precios.pdf`);
    // ranges too (a player seeking in a video)
    const part = await fetch(link, { headers: { range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('%PDF-1.4');
    // a link whose type was changed, or signed by someone else, is refused
    const tampered = new URL(link);
    tampered.searchParams.set('response-content-type', 'text/html');
    expect((await fetch(tampered)).status).toBe(403);
    const forged = new URL(link);
    forged.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    expect((await fetch(forged)).status).toBe(403);
    // 121 seconds later the store refuses it
    s3.clockOffsetSeconds = 121;
    try {
      const late = await fetch(link);
      expect(late.status).toBe(403);
      expect(await late.text()).toContain('Request has expired');
    } finally {
      s3.clockOffsetSeconds = 0;
    }
    expect((await fetch(link)).status).toBe(200);
  });

  it('a store that fails or refuses is a Spanish 503 that never repeats what the store said', async () => {
    const storage = s3Storage(s3Config({ prefix: 'fail/' }));
    const bytes = randomBytes(100);
    await storage.write(COMPANY, sha(bytes), bytes);
    const cases = [
      [500, storageMessages.down('read')],
      [503, storageMessages.down('read')],
      [403, storageMessages.denied('read')],
    ] as const;
    for (const [status, msg] of cases) {
      s3.fail = { status, count: 10, body: `<Error><Code>InternalError</Code><Message>${REMOTE_SECRET}</Message></Error>` };
      const error = (await storage.read(COMPANY, sha(bytes)).catch((e: unknown) => e)) as StorageUnavailable;
      s3.reset();
      expect(error).toBeInstanceOf(StorageUnavailable);
      expect(error.statusCode).toBe(503);
      expect(error.msg).toBe(msg);
      expect(JSON.stringify(error)).not.toContain(REMOTE_SECRET);
      expect(error.message).not.toContain(REMOTE_SECRET);
    }
    // wrong credentials, a bucket that is not there, an endpoint nobody listens on
    const wrongKey = s3Storage(s3Config({ credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: 'otra-clave-secreta' } }));
    await expect(wrongKey.write(COMPANY, sha(bytes), bytes)).rejects.toMatchObject({ statusCode: 503, msg: storageMessages.denied('save') });
    expect(await wrongKey.check()).toBe(false);
    const noBucket = s3Storage(s3Config({ bucket: 'no-existe' }));
    await expect(noBucket.write(COMPANY, sha(bytes), bytes)).rejects.toMatchObject({ statusCode: 503, msg: storageMessages.noBucket('save') });
    expect(await noBucket.check()).toBe(false);
    const nobody = s3Storage(s3Config({ endpoint: 'http://127.0.0.1:9' }));
    await expect(nobody.exists(COMPANY, sha(bytes))).rejects.toMatchObject({ statusCode: 503, msg: storageMessages.down('read') });
    // a staged upload whose store fails midway says so, and leaves no multipart upload behind
    s3.fail = { status: 500, count: 100, body: REMOTE_SECRET, when: (method, p) => method === 'PUT' && p.includes('/fail/.staging/') };
    const staged = await storage.stage();
    let failed: unknown;
    try {
      for (let i = 0; i < 40 && !failed; i++) await staged.write(randomBytes(1024 * 1024)).catch((e: unknown) => (failed = e));
      if (!failed) await staged.finish().catch((e: unknown) => (failed = e));
    } finally {
      await staged.discard();
      s3.reset();
    }
    expect(failed).toMatchObject({ statusCode: 503, msg: storageMessages.down('save') });
    expect([...s3.uploads.values()].filter((u) => u.key.startsWith('fail/'))).toEqual([]);
  }, 60_000);
});

describe('the settings', () => {
  const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATA_DIR: tmpdir() };
  it('keep the disk without S3_BUCKET, and S3 with it (path-style with an endpoint)', () => {
    expect(loadConfig(base).storage).toEqual({ kind: 'file' });
    expect(loadConfig({ ...base, S3_BUCKET: 'media', S3_ENDPOINT: 'http://minio:9000/', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b', S3_PREFIX: 'prod/' }).storage).toEqual({
      kind: 's3',
      bucket: 'media',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      prefix: 'prod/',
      signedUrlSeconds: 3600,
    });
    expect(loadConfig({ ...base, S3_BUCKET: 'media', S3_REGION: 'sa-east-1' }).storage).toMatchObject({ forcePathStyle: false, credentials: undefined, region: 'sa-east-1' });
  });
  it('refuse half an S3 setup in Spanish', () => {
    expect(() => loadConfig({ ...base, S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_ENDPOINT sin S3_BUCKET/);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'a' })).toThrow(/van juntas/);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'Media_Bucket' })).toThrow(/nombre de bucket/);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'media', S3_PREFIX: 'sin-barra' })).toThrow(/terminadas en '\/'/);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'media', S3_SIGNED_URL_SECONDS: '999999' })).toThrow(/S3_SIGNED_URL_SECONDS/);
  });
});

describe('the product with Drive on S3', () => {
  const TOKEN = 'EAAGm0PX4ZCpsBAJ9storageTokenDePrueba7Q2x';
  const LINE = '109000000000032';
  let t: TestApp;
  let graph: FakeGraph;
  let admin: Signed;
  let peru: string;
  let dataDir: string;
  const png = (extra: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(extra)]);
  const pdf = (extra = 0) => Buffer.concat([Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n`), randomBytes(extra), Buffer.from('\n%%EOF\n')]);
  const upload = (bytes: Buffer, name: string) =>
    t.app.inject({ method: 'POST', url: `/api/drive/files?name=${encodeURIComponent(name)}`, headers: { ...as(admin, peru), 'content-type': 'application/octet-stream' }, payload: bytes });
  const objectOf = (companyId: string, hash: string) => s3.buckets.get(BUCKET)?.get(`media/${companyId}/${hash}`);

  beforeAll(async () => {
    graph = await startFakeGraph(TOKEN);
    t = await startTestApp({
      SEND_PROVIDER: 'graph',
      GRAPH_API_URL: graph.url,
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3.url,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_PREFIX: 'media/',
      S3_SIGNED_URL_SECONDS: '600',
    });
    dataDir = t.app.settings.dataDir;
    admin = await login(t, demo.admin);
    peru = admin.company('Demo Perú');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await graph?.close();
  });

  it('puts the demo’s Drive files in the bucket, not on the disk', async () => {
    const rows = await t.sql<{ company_id: string; sha256: string }>('select company_id, sha256 from drive_files');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(objectOf(r.company_id, r.sha256), r.sha256).toBeDefined();
    expect(existsSync(path.join(dataDir, 'drive'))).toBe(false);
  });

  it('an upload through the API ends up in the bucket and comes back byte for byte, ranges included', async () => {
    const bytes = png(200_000);
    const res = await upload(bytes, 'Zapatilla roja.png');
    expect(res.statusCode, res.body).toBe(201);
    const { file } = res.json() as DriveUploadOut;
    expect(objectOf(peru, file.sha256)?.body.equals(bytes)).toBe(true);
    // no staging object is left
    expect(s3.keys(BUCKET).filter((k) => k.startsWith('media/.staging/'))).toEqual([]);

    const whole = await t.app.inject({ method: 'GET', url: file.path });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    expect(whole.headers).toMatchObject({ 'content-type': 'image/png', 'content-length': String(bytes.length), etag: `"${file.sha256}"` });
    const part = await t.app.inject({ method: 'GET', url: file.path, headers: { range: 'bytes=100-1099' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(100, 1100))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url: file.path, headers: { range: 'bytes=-500' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(-500))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: file.path, headers: { range: `bytes=${bytes.length}-` } })).statusCode).toBe(416);
    // a HEAD asks the bucket whether it is there, and reads no bytes
    const before = s3.requests.length;
    const head = await t.app.inject({ method: 'HEAD', url: file.path });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    expect(s3.requests.slice(before).map((r) => r.method)).toEqual(['HEAD']);
  });

  it('a document larger than one part goes up in parts and comes back whole; deleting it empties its key', async () => {
    const bytes = pdf(11 * 1024 * 1024);
    const before = s3.requests.length;
    const res = await upload(bytes, 'Catálogo 2026.pdf');
    expect(res.statusCode, res.body).toBe(201);
    const { file } = res.json() as DriveUploadOut;
    expect(s3.requests.slice(before).some((r) => new URLSearchParams(r.query).has('uploads'))).toBe(true);
    const back = await t.app.inject({ method: 'GET', url: file.path });
    expect(back.rawPayload.equals(bytes)).toBe(true);
    const middle = await t.app.inject({ method: 'GET', url: file.path, headers: { range: `bytes=${6 * 1024 * 1024}-${6 * 1024 * 1024 + 9999}` } });
    expect(middle.rawPayload.equals(bytes.subarray(6 * 1024 * 1024, 6 * 1024 * 1024 + 10_000))).toBe(true);
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/drive/files/${file._id}`, headers: as(admin, peru) });
    expect(gone.statusCode).toBe(200);
    expect(objectOf(peru, file.sha256)).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: file.path })).statusCode).toBe(404);
  }, 60_000);

  it('a bucket that fails or refuses is a Spanish 503 to the user, and nothing is kept', async () => {
    const bytes = png(1000);
    const rows = async () => Number((await t.sql<{ n: number }>('select count(*) as n from drive_files where company_id = $1', [peru]))[0].n);
    const count = await rows();
    s3.fail = { status: 500, count: 100, body: REMOTE_SECRET };
    const failed = await upload(bytes, 'caida.png');
    s3.reset();
    expect(failed.statusCode).toBe(503);
    expect(failed.json().errors.msg).toBe(storageMessages.down('save'));
    expect(failed.body).not.toContain(REMOTE_SECRET);
    expect(await rows()).toBe(count);

    const { file } = (await upload(bytes, 'ok.png')).json() as DriveUploadOut;
    s3.fail = { status: 403, count: 100, body: REMOTE_SECRET };
    const denied = await t.app.inject({ method: 'GET', url: file.path });
    s3.reset();
    expect(denied.statusCode).toBe(503);
    expect(denied.json().errors.msg).toBe(storageMessages.denied('read'));
    expect(denied.body).not.toContain(REMOTE_SECRET);
    expect(existsSync(path.join(dataDir, 'drive'))).toBe(false);
  }, 60_000);

  it('readiness says whether the bucket answers', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().checks.storage).toBe('ok');
    s3.fail = { status: 403, count: 100, body: REMOTE_SECRET, when: (method, p) => method === 'HEAD' && p.replace(/\/$/, '') === `/${BUCKET}` };
    const down = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    s3.reset();
    expect(down.statusCode).toBe(503);
    expect(down.json().checks).toMatchObject({ database: 'ok', storage: 'error' });
    expect(down.json().errors.msg).toMatch(/el almacenamiento de archivos no responde/);
    expect(down.body).not.toContain(REMOTE_SECRET);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('WhatsApp is handed a presigned link of the bucket with the file’s name; the message keeps the Drive address', async () => {
    expect((await t.app.inject({ method: 'PUT', url: '/api/channels/whatsapp', headers: as(admin, peru), payload: { phoneNumberId: LINE, accessToken: TOKEN } })).statusCode).toBe(200);
    const from = '51977320001';
    expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, text: 'Hola, ¿me pasas la lista de precios?' }))).statusCode).toBe(200);
    const processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
    for (const id of await processor.pendingIds()) await processor.process(id);
    const [{ chat_id: chat }] = await t.sql<{ chat_id: string }>('select chat_id from lead_identities where platform_user_id = $1', [from]);

    const bytes = pdf(5000);
    const { file } = (await upload(bytes, 'Lista de precios.pdf')).json() as DriveUploadOut;
    const sent = await t.app.inject({ method: 'POST', url: `/api/chats/${chat}/messages`, headers: as(admin, peru), payload: { kind: 'document', mediaUrl: file.url, text: 'Aquí tienes' } });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().mediaUrl).toBe(file.url);
    const body = graph.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${LINE}/messages`)).at(-1)?.body as { document: { link: string; filename: string; caption: string } };
    expect(body.document.filename).toBe('Lista de precios.pdf');
    expect(body.document.caption).toBe('Aquí tienes');
    const link = new URL(body.document.link);
    expect(link.origin).toBe(s3.url);
    expect(link.pathname).toBe(`/${BUCKET}/media/${peru}/${file.sha256}`);
    expect(link.searchParams.get('X-Amz-Expires')).toBe('600');
    // Meta downloads it from the bucket, with no credentials: the same bytes, as a PDF
    const fetched = await fetch(link);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    s3.clockOffsetSeconds = 601;
    try {
      expect((await fetch(link)).status).toBe(403);
    } finally {
      s3.clockOffsetSeconds = 0;
    }
    // an outside link, another company's file or a renamed file's old address go as they were
    const links = providerLinks(t.database.db, storageOf(t.app.settings), t.app.settings.publicUrl);
    const outside = 'https://cdn.example.com/lista.pdf';
    expect((await links.content(peru, { kind: 'document', mediaUrl: outside })).mediaUrl).toBe(outside);
    expect((await links.content(admin.company('Demo Chile'), { kind: 'document', mediaUrl: file.url })).mediaUrl).toBe(file.url);
    expect((await links.content(peru, { kind: 'document', mediaUrl: file.url.replace('Lista%20de%20precios.pdf', 'otra.pdf') })).mediaUrl).toContain('/api/drive/files/');
    // a template's media header is signed too, and a document header keeps its name
    const header = await links.template(peru, {
      name: 'lista_precios',
      language: { code: 'es' },
      components: [{ type: 'header', parameters: [{ type: 'document', document: { link: file.url } }] }, { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }],
    });
    const [first, second] = header?.components ?? [];
    const document = (first.parameters[0] as { document: { link: string; filename: string } }).document;
    expect(new URL(document.link).origin).toBe(s3.url);
    expect(document.filename).toBe('Lista de precios.pdf');
    expect(second).toEqual({ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] });
    expect(existsSync(path.join(dataDir, 'drive'))).toBe(false);
  }, 60_000);
});
