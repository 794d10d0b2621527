import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of S3's REST API on a real HTTP server on 127.0.0.1 (a random port), for the
 * storage tests and the bench; nothing reaches the internet. Path-style addressing only
 * (`/{bucket}/{key}`), as an S3-compatible store behind S3_ENDPOINT is reached. What it serves is
 * what the AWS SDK for JavaScript v3 sends for Drive's storage:
 * - HeadBucket; PutObject; CopyObject (`x-amz-copy-source`); GetObject with a single `Range`
 *   (206 with `Content-Range`, 416 outside the object); HeadObject; DeleteObject;
 *   ListObjectsV2 (prefix, max-keys, continuation token) and DeleteObjects (`POST ?delete`);
 *   the multipart upload of @aws-sdk/lib-storage (CreateMultipartUpload, UploadPart,
 *   CompleteMultipartUpload, AbortMultipartUpload);
 * - signatures as S3 checks them, recomputed here with the same credentials: a request signed in
 *   its `Authorization` header (SigV4: credential scope, signed headers, canonical request,
 *   `x-amz-content-sha256` checked against the body when it names a hash), or a presigned URL
 *   (`X-Amz-Algorithm`, `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Expires`, `X-Amz-SignedHeaders`,
 *   `X-Amz-Signature`; expired once `X-Amz-Date + X-Amz-Expires` is past the fake's clock, which
 *   `clockOffsetSeconds` moves). A missing or wrong signature is 403 like S3's
 *   (`AccessDenied`, `SignatureDoesNotMatch`, `InvalidAccessKeyId`).
 * `fail` answers the next requests with a status and a body of its own (a 500 or a 403 whose text
 * must never reach the product's users); `requests` records what arrived.
 */
export interface FakeObject {
  body: Buffer;
  contentType?: string;
  etag: string;
}

export interface FakeS3 {
  /** The endpoint (S3_ENDPOINT). */
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** bucket → key → object. */
  buckets: Map<string, Map<string, FakeObject>>;
  /** Multipart uploads in progress: upload id → its parts. */
  uploads: Map<string, { bucket: string; key: string; parts: Map<number, Buffer> }>;
  requests: Array<{ method: string; path: string; query: string; status: number; presigned: boolean }>;
  /** The next `count` requests (matching `when`, if given) answer `status` with `body`. */
  fail: { status: number; count: number; body: string; when?: (method: string, path: string) => boolean };
  /** Seconds the fake's clock runs ahead of the real one (to expire presigned URLs). */
  clockOffsetSeconds: number;
  /** The keys of a bucket, sorted. */
  keys(bucket: string): string[];
  reset(): void;
  close(): Promise<void>;
}

const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** RFC 3986 encoding, as SigV4 wants it (`encodeURIComponent` leaves !'()* alone). */
const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const parseAmzDate = (s: string) => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : Number.NaN;
};

/** `aws-chunked` bodies (a streamed PutObject with a trailing checksum): the chunks' data joined. */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < raw.length) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0], 16);
    at = lineEnd + 2;
    if (!size) break;
    parts.push(raw.subarray(at, at + size));
    at += size + 2;
  }
  return Buffer.concat(parts);
}

export async function startFakeS3(options: { buckets?: string[]; accessKeyId?: string; secretAccessKey?: string; region?: string } = {}): Promise<FakeS3> {
  const accessKeyId = options.accessKeyId ?? 'AKIAFAKEMOSTRADOR';
  const secretAccessKey = options.secretAccessKey ?? 'fake-secret-access-key-for-tests-only';
  const region = options.region ?? 'us-east-1';
  const state: Omit<FakeS3, 'url' | 'close'> = {
    accessKeyId,
    secretAccessKey,
    region,
    buckets: new Map((options.buckets ?? ['mostrador-media']).map((b) => [b, new Map()])),
    uploads: new Map(),
    requests: [],
    fail: { status: 0, count: 0, body: '' },
    clockOffsetSeconds: 0,
    keys(bucket) {
      return [...(state.buckets.get(bucket)?.keys() ?? [])].sort();
    },
    reset() {
      state.requests = [];
      state.fail = { status: 0, count: 0, body: '' };
      state.clockOffsetSeconds = 0;
    },
  };

  const signingKey = (date: string, scopeRegion: string) => hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), scopeRegion), 's3'), 'aws4_request');

  /** The SigV4 signature of a request as S3 recomputes it. */
  function signatureOf(
    req: http.IncomingMessage,
    rawPath: string,
    query: URLSearchParams,
    signedHeaders: string[],
    payloadHash: string,
    amzDate: string,
    scope: string,
  ): string {
    const canonicalQuery = [...query.entries()]
      .filter(([k]) => k !== 'X-Amz-Signature')
      .map(([k, v]) => [uriEncode(k), uriEncode(v)])
      .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const canonicalHeaders = signedHeaders
      .map((h) => {
        const value = req.headers[h];
        const text = Array.isArray(value) ? value.join(',') : (value ?? '');
        return `${h}:${String(text).trim().replace(/\s+/g, ' ')}\n`;
      })
      .join('');
    const canonicalRequest = [req.method, rawPath, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), payloadHash].join('\n');
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
    const [date, scopeRegion] = scope.split('/');
    return createHmac('sha256', signingKey(date, scopeRegion)).update(stringToSign).digest('hex');
  }

  type Denied = { code: string; message: string };
  /** Undefined when the request is signed right; else S3's refusal. */
  function authenticate(req: http.IncomingMessage, rawPath: string, query: URLSearchParams, body: Buffer): { denied?: Denied; presigned: boolean } {
    const now = Date.now() + state.clockOffsetSeconds * 1000;
    if (query.get('X-Amz-Algorithm')) {
      if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return { presigned: true, denied: { code: 'AuthorizationQueryParametersError', message: 'bad algorithm' } };
      const credential = query.get('X-Amz-Credential') ?? '';
      const [key, ...scopeParts] = credential.split('/');
      if (key !== accessKeyId) return { presigned: true, denied: { code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' } };
      const amzDate = query.get('X-Amz-Date') ?? '';
      const expires = Number(query.get('X-Amz-Expires'));
      const signed = parseAmzDate(amzDate);
      if (!Number.isInteger(expires) || expires < 1 || expires > 604800 || Number.isNaN(signed)) {
        return { presigned: true, denied: { code: 'AuthorizationQueryParametersError', message: 'X-Amz-Expires must be between 1 and 604800 seconds' } };
      }
      if (now > signed + expires * 1000) return { presigned: true, denied: { code: 'AccessDenied', message: 'Request has expired' } };
      const headers = (query.get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean);
      const expected = signatureOf(req, rawPath, query, headers, 'UNSIGNED-PAYLOAD', amzDate, scopeParts.join('/'));
      if (expected !== query.get('X-Amz-Signature')) return { presigned: true, denied: { code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' } };
      return { presigned: true };
    }
    const authorization = String(req.headers.authorization ?? '');
    const m = /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/.exec(authorization);
    if (!m) return { presigned: false, denied: { code: 'AccessDenied', message: 'Access Denied' } };
    const [key, ...scopeParts] = m[1].split('/');
    if (key !== accessKeyId) return { presigned: false, denied: { code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' } };
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const signed = parseAmzDate(amzDate);
    if (Number.isNaN(signed) || Math.abs(now - signed) > 15 * 60_000) return { presigned: false, denied: { code: 'RequestTimeTooSkewed', message: 'The difference between the request time and the current time is too large.' } };
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    if (!payloadHash) return { presigned: false, denied: { code: 'InvalidRequest', message: 'Missing required header for this request: x-amz-content-sha256' } };
    if (/^[0-9a-f]{64}$/.test(payloadHash) && payloadHash !== sha256Hex(body)) {
      return { presigned: false, denied: { code: 'XAmzContentSHA256Mismatch', message: "The provided 'x-amz-content-sha256' header does not match what was computed." } };
    }
    const expected = signatureOf(req, rawPath, query, m[2].split(';'), payloadHash, amzDate, scopeParts.join('/'));
    if (expected !== m[3]) return { presigned: false, denied: { code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' } };
    return { presigned: false };
  }

  const xml = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': randomBytes(8).toString('hex'), ...headers });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  };
  const error = (res: http.ServerResponse, method: string, status: number, code: string, message: string) => {
    // a HEAD answer carries no body: the SDK reads the status alone
    if (method === 'HEAD') {
      res.writeHead(status, { 'x-amz-request-id': randomBytes(8).toString('hex') });
      res.end();
      return;
    }
    xml(res, status, `<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><RequestId>${randomBytes(8).toString('hex')}</RequestId></Error>`);
  };
  const etagOf = (body: Buffer) => `"${createHash('md5').update(body).digest('hex')}"`;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<number> {
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
    const segments = rawPath.split('/');
    const bucketName = decodeURIComponent(segments[1] ?? '');
    const key = decodeURIComponent(segments.slice(2).join('/'));

    if (state.fail.count > 0 && (!state.fail.when || state.fail.when(method, rawPath))) {
      state.fail.count--;
      res.writeHead(state.fail.status, { 'content-type': 'text/plain' });
      res.end(method === 'HEAD' ? undefined : state.fail.body);
      return state.fail.status;
    }
    const auth = authenticate(req, rawPath, query, body);
    if (auth.denied) {
      error(res, method, 403, auth.denied.code, auth.denied.message);
      return 403;
    }
    const bucket = state.buckets.get(bucketName);
    if (!bucket) {
      error(res, method, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      return 404;
    }
    const content = req.headers['content-encoding']?.includes('aws-chunked') ? decodeAwsChunked(body) : body;

    // ---- the bucket ----------------------------------------------------------------------------
    if (!key) {
      if (method === 'HEAD') {
        res.writeHead(200, { 'x-amz-bucket-region': region });
        res.end();
        return 200;
      }
      if (method === 'GET' && query.get('list-type') === '2') {
        const prefix = query.get('prefix') ?? '';
        const max = Math.min(1000, Number(query.get('max-keys') ?? 1000));
        const after = query.get('continuation-token') ? Buffer.from(query.get('continuation-token') as string, 'base64url').toString() : (query.get('start-after') ?? '');
        const all = state.keys(bucketName).filter((k) => k.startsWith(prefix) && k > after);
        const page = all.slice(0, max);
        const truncated = all.length > page.length;
        const contents = page
          .map((k) => {
            const o = bucket.get(k) as FakeObject;
            return `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${new Date().toISOString()}</LastModified><ETag>${xmlEscape(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
          })
          .join('');
        const next = truncated ? `<NextContinuationToken>${Buffer.from(page[page.length - 1]).toString('base64url')}</NextContinuationToken>` : '';
        xml(
          res,
          200,
          `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlEscape(bucketName)}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`,
        );
        return 200;
      }
      if (method === 'POST' && query.has('delete')) {
        const keys = [...content.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
        if (keys.length > 1000) {
          error(res, method, 400, 'MalformedXML', 'The XML you provided was not well-formed');
          return 400;
        }
        for (const k of keys) bucket.delete(k);
        const quiet = /<Quiet>true<\/Quiet>/.test(content.toString('utf8'));
        xml(res, 200, `<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${quiet ? '' : keys.map((k) => `<Deleted><Key>${xmlEscape(k)}</Key></Deleted>`).join('')}</DeleteResult>`);
        return 200;
      }
      error(res, method, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
      return 405;
    }

    // ---- multipart upload ----------------------------------------------------------------------
    if (method === 'POST' && query.has('uploads')) {
      const uploadId = randomBytes(16).toString('base64url');
      state.uploads.set(uploadId, { bucket: bucketName, key, parts: new Map() });
      xml(res, 200, `<InitiateMultipartUploadResult><Bucket>${xmlEscape(bucketName)}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`);
      return 200;
    }
    const uploadId = query.get('uploadId');
    if (uploadId) {
      const upload = state.uploads.get(uploadId);
      if (!upload || upload.key !== key || upload.bucket !== bucketName) {
        error(res, method, 404, 'NoSuchUpload', 'The specified upload does not exist.');
        return 404;
      }
      if (method === 'PUT') {
        const part = Number(query.get('partNumber'));
        if (!Number.isInteger(part) || part < 1 || part > 10000) {
          error(res, method, 400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
          return 400;
        }
        upload.parts.set(part, content);
        res.writeHead(200, { etag: etagOf(content) });
        res.end();
        return 200;
      }
      if (method === 'POST') {
        const listed = [...content.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        const parts: Buffer[] = [];
        for (const [i, n] of listed.entries()) {
          const part = upload.parts.get(n);
          // every part but the last is at least 5 MiB, as S3 wants (EntityTooSmall)
          if (!part || (i < listed.length - 1 && part.length < 5 * 1024 * 1024) || (i > 0 && n <= listed[i - 1])) {
            error(res, method, 400, part ? 'EntityTooSmall' : 'InvalidPart', 'One or more of the specified parts could not be found or is too small.');
            return 400;
          }
          parts.push(part);
        }
        const whole = Buffer.concat(parts);
        const etag = `"${createHash('md5').update(Buffer.concat(parts.map((p) => createHash('md5').update(p).digest()))).digest('hex')}-${parts.length}"`;
        bucket.set(key, { body: whole, etag });
        state.uploads.delete(uploadId);
        xml(res, 200, `<CompleteMultipartUploadResult><Bucket>${xmlEscape(bucketName)}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></CompleteMultipartUploadResult>`);
        return 200;
      }
      if (method === 'DELETE') {
        state.uploads.delete(uploadId);
        res.writeHead(204);
        res.end();
        return 204;
      }
    }

    // ---- objects ---------------------------------------------------------------------------------
    if (method === 'PUT') {
      const copySource = req.headers['x-amz-copy-source'];
      if (copySource) {
        const source = decodeURIComponent(String(copySource)).replace(/^\//, '');
        const [sourceBucket, ...rest] = source.split('/');
        const original = state.buckets.get(sourceBucket)?.get(rest.join('/'));
        if (!original) {
          error(res, method, 404, 'NoSuchKey', 'The specified key does not exist.');
          return 404;
        }
        bucket.set(key, { ...original, body: Buffer.from(original.body) });
        xml(res, 200, `<CopyObjectResult><LastModified>${new Date().toISOString()}</LastModified><ETag>${xmlEscape(original.etag)}</ETag></CopyObjectResult>`);
        return 200;
      }
      const etag = etagOf(content);
      bucket.set(key, { body: Buffer.from(content), contentType: req.headers['content-type'], etag });
      res.writeHead(200, { etag });
      res.end();
      return 200;
    }
    if (method === 'DELETE') {
      bucket.delete(key);
      res.writeHead(204);
      res.end();
      return 204;
    }
    if (method === 'GET' || method === 'HEAD') {
      const object = bucket.get(key);
      if (!object) {
        error(res, method, 404, 'NoSuchKey', 'The specified key does not exist.');
        return 404;
      }
      const size = object.body.length;
      const headers: Record<string, string> = {
        etag: object.etag,
        'last-modified': new Date().toUTCString(),
        'accept-ranges': 'bytes',
        'content-type': query.get('response-content-type') ?? object.contentType ?? 'binary/octet-stream',
      };
      if (query.get('response-content-disposition')) headers['content-disposition'] = query.get('response-content-disposition') as string;
      const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
      if (range && (range[1] || range[2])) {
        const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
        const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
        if (start >= size || start > end) {
          error(res, method, 416, 'InvalidRange', 'The requested range is not satisfiable');
          return 416;
        }
        res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end - start + 1) });
        res.end(method === 'HEAD' ? undefined : object.body.subarray(start, end + 1));
        return 206;
      }
      res.writeHead(200, { ...headers, 'content-length': String(size) });
      res.end(method === 'HEAD' ? undefined : object.body);
      return 200;
    }
    error(res, method, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    return 405;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      handle(req, res, Buffer.concat(chunks)).then(
        (status) => {
          const query = q < 0 ? '' : url.slice(q + 1);
          state.requests.push({ method: req.method ?? 'GET', path: q < 0 ? url : url.slice(0, q), query, status, presigned: query.includes('X-Amz-Signature=') });
        },
        (err: unknown) => {
          res.writeHead(500);
          res.end(String(err));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakeS3;
}
