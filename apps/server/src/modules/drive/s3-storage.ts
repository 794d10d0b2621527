import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '../../config.js';
import { type DriveStorage, inlineDisposition, type StorageAction, type StorageLog, StorageUnavailable, safeStoragePart as safe, storageMessages } from './storage.js';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

/** lib-storage's part: S3's smallest (5 MiB); an upload under it goes as one PutObject. */
export const S3_PART_BYTES = 5 * 1024 * 1024;
/** Parts of one upload in flight at once: memory per upload is about (this + 1) parts. */
const PARTS_IN_FLIGHT = 2;
/** How long the readiness and startup checks wait for the bucket. */
const CHECK_TIMEOUT_MS = 3000;

const errorName = (error: unknown) => (error as { name?: string })?.name ?? '';
const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const isMissing = (error: unknown) => ['NoSuchKey', 'NotFound'].includes(errorName(error)) || (statusOf(error) === 404 && errorName(error) !== 'NoSuchBucket');

/**
 * Drive's bytes in an S3-compatible bucket (decision 0105): `{S3_PREFIX}{company}/{sha256}`,
 * uploads streamed to `{S3_PREFIX}.staging/{random}` (lib-storage: one PutObject, or a multipart
 * upload of 5 MiB parts for a larger file) and copied into place once their hash is known, reads
 * with a single Range, a company's bytes listed and deleted by prefix, and presigned GetObject
 * links for the providers. Nothing touches the local disk. Every failure of the store becomes a
 * StorageUnavailable (503) in Spanish; the log keeps the store's status and code, never its body.
 */
export function s3Storage(config: S3Config, log?: StorageLog): DriveStorage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // S3-compatible stores (MinIO, R2, Spaces) do not all take the newer default checksums
    // (aws-chunked bodies with a trailing CRC32): a checksum only where S3 requires one
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
  });
  const Bucket = config.bucket;
  const keyOf = (companyId: string, sha256: string) => `${config.prefix}${safe(companyId)}/${safe(sha256)}`;
  const failure = (action: StorageAction, error: unknown): StorageUnavailable => {
    if (error instanceof StorageUnavailable) return error;
    const status = statusOf(error);
    const name = errorName(error);
    log?.error({ storage: 's3', action, status, code: name }, `S3: ${action} falló (${status ?? 'sin respuesta'} ${name})`);
    if (name === 'NoSuchBucket') return new StorageUnavailable('PROVIDER_ERROR', storageMessages.noBucket(action));
    if (status === 401 || status === 403 || ['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'CredentialsProviderError'].includes(name)) {
      return new StorageUnavailable('PROVIDER_ERROR', storageMessages.denied(action));
    }
    return new StorageUnavailable('PROVIDER_ERROR', storageMessages.down(action));
  };
  const deleteKey = (Key: string) => client.send(new DeleteObjectCommand({ Bucket, Key }));

  return {
    kind: 's3',
    async stage() {
      const key = `${config.prefix}.staging/${randomBytes(12).toString('hex')}`;
      const body = new PassThrough();
      const upload = new Upload({ client, params: { Bucket, Key: key, Body: body }, partSize: S3_PART_BYTES, queueSize: PARTS_IN_FLIGHT, leavePartsOnError: false });
      let failed: unknown;
      const done = upload.done().then(
        () => undefined,
        (error: unknown) => {
          failed = error;
          throw error;
        },
      );
      // a failure is read where it is awaited (write, finish); never an unhandled rejection
      done.catch(() => {});
      let state: 'open' | 'finished' | 'kept' | 'gone' = 'open';
      return {
        async write(chunk) {
          if (failed) throw failure('save', failed);
          // the store reads as fast as it takes the parts; a failed upload reads no more
          if (!body.write(chunk)) await Promise.race([once(body, 'drain'), done]).catch((error: unknown) => Promise.reject(failure('save', error)));
          if (failed) throw failure('save', failed);
        },
        async finish() {
          body.end();
          await done.catch((error: unknown) => Promise.reject(failure('save', error)));
          state = 'finished';
        },
        async keepAs(companyId, sha256) {
          try {
            await client.send(new CopyObjectCommand({ Bucket, Key: keyOf(companyId, sha256), CopySource: `${Bucket}/${key}` }));
          } catch (error) {
            throw failure('save', error);
          }
          state = 'kept';
          await deleteKey(key).catch((error: unknown) => log?.warn({ storage: 's3', status: statusOf(error), code: errorName(error) }, 'S3: no se borró un archivo en preparación'));
        },
        async discard() {
          const was = state;
          state = 'gone';
          if (was === 'open') {
            await upload.abort().catch(() => {});
            body.destroy();
            await done.catch(() => {});
          } else if (was === 'finished') {
            await deleteKey(key).catch((error: unknown) => log?.warn({ storage: 's3', status: statusOf(error), code: errorName(error) }, 'S3: no se borró un archivo en preparación'));
          }
        },
      };
    },
    async write(companyId, sha256, bytes) {
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: keyOf(companyId, sha256), Body: bytes }));
      } catch (error) {
        throw failure('save', error);
      }
    },
    async read(companyId, sha256, range) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(companyId, sha256), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        const stream = answer.Body as Readable | undefined;
        return stream instanceof Readable ? stream : Readable.from([]);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw failure('read', error);
      }
    },
    async exists(companyId, sha256) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(companyId, sha256) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw failure('read', error);
      }
    },
    async remove(companyId, sha256) {
      try {
        await deleteKey(keyOf(companyId, sha256));
      } catch (error) {
        throw failure('delete', error);
      }
    },
    async removeCompany(companyId) {
      const Prefix = `${config.prefix}${safe(companyId)}/`;
      try {
        let ContinuationToken: string | undefined;
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken, MaxKeys: 1000 }));
          const Objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
          if (Objects.length) {
            const answer = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
            if (answer.Errors?.length) throw Object.assign(new Error('DeleteObjects'), { name: answer.Errors[0].Code ?? 'DeleteObjects' });
          }
          ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (ContinuationToken);
      } catch (error) {
        throw failure('delete', error);
      }
    },
    signedUrl(companyId, sha256, file) {
      const command = new GetObjectCommand({
        Bucket,
        Key: keyOf(companyId, sha256),
        ResponseContentType: file.mimeType,
        ResponseContentDisposition: inlineDisposition(file.name),
      });
      return getSignedUrl(client, command, { expiresIn: config.signedUrlSeconds });
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
        return true;
      } catch (error) {
        log?.warn({ storage: 's3', status: statusOf(error), code: errorName(error) }, `S3: el bucket ${Bucket} no responde`);
        return false;
      }
    },
  };
}
