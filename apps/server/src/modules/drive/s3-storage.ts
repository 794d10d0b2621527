import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '../../config.js';
import { type DriveStorage, inlineDisposition, type StorageAction, type StorageLog, StorageUnavailable, safeStoragePart as safe, storageMessages } from './storage.js';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

/** A multipart upload's part: S3's smallest (5 MiB); an upload under it goes as one PutObject. */
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
 * uploads streamed to `{S3_PREFIX}.staging/{random}` (one PutObject, or a multipart upload of
 * 5 MiB parts, two in flight, for a larger file) and copied into place once their hash is known, reads
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
      // the bytes wait here until a part is full; an upload under one part goes as one PutObject
      let buffered: Buffer[] = [];
      let bufferedBytes = 0;
      let created: Promise<string> | undefined;
      let nextPart = 1;
      const parts: Array<{ PartNumber: number; ETag: string }> = [];
      const inFlight = new Set<Promise<void>>();
      let failed: unknown;
      let state: 'open' | 'finished' | 'kept' | 'gone' = 'open';
      const take = () => {
        const data = buffered.length === 1 ? buffered[0] : Buffer.concat(buffered);
        buffered = [];
        bufferedBytes = 0;
        return data;
      };
      const uploadPart = (Body: Buffer) => {
        const PartNumber = nextPart++;
        created ??= client.send(new CreateMultipartUploadCommand({ Bucket, Key: key })).then((r) => {
          if (!r.UploadId) throw new Error('CreateMultipartUpload sin UploadId');
          return r.UploadId;
        });
        const part = created
          .then((UploadId) => client.send(new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber, Body })))
          .then((r) => {
            parts.push({ PartNumber, ETag: r.ETag ?? '' });
          })
          .catch((error: unknown) => {
            failed ??= error;
          })
          .finally(() => inFlight.delete(part));
        inFlight.add(part);
      };
      const aborted = async () => {
        await Promise.all(inFlight);
        const UploadId = await created?.catch(() => undefined);
        if (UploadId) {
          await client
            .send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId }))
            .catch((error: unknown) => log?.warn({ storage: 's3', status: statusOf(error), code: errorName(error) }, 'S3: no se canceló una subida por partes'));
        }
      };
      return {
        async write(chunk) {
          if (failed) throw failure('save', failed);
          buffered.push(chunk);
          bufferedBytes += chunk.length;
          while (bufferedBytes >= S3_PART_BYTES) {
            const all = take();
            uploadPart(all.subarray(0, S3_PART_BYTES));
            if (all.length > S3_PART_BYTES) {
              buffered = [all.subarray(S3_PART_BYTES)];
              bufferedBytes = all.length - S3_PART_BYTES;
            }
          }
          // backpressure: the upload reads no further while its parts in flight are not taken
          while (inFlight.size >= PARTS_IN_FLIGHT) await Promise.race(inFlight);
          if (failed) throw failure('save', failed);
        },
        async finish() {
          if (failed) throw failure('save', failed);
          try {
            if (!created) await client.send(new PutObjectCommand({ Bucket, Key: key, Body: take() }));
            else {
              if (bufferedBytes) uploadPart(take());
              await Promise.all(inFlight);
              if (failed) throw failed;
              parts.sort((a, b) => a.PartNumber - b.PartNumber);
              await client.send(new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: await created, MultipartUpload: { Parts: parts } }));
            }
          } catch (error) {
            failed ??= error;
            throw failure('save', error);
          }
          state = 'finished';
        },
        async keepAs(companyId, sha256) {
          const Key = keyOf(companyId, sha256);
          try {
            await client.send(new CopyObjectCommand({ Bucket, Key, CopySource: `${Bucket}/${key}` }));
          } catch (error) {
            throw failure('save', error);
          }
          state = 'kept';
          await deleteKey(key).catch((error: unknown) => log?.warn({ storage: 's3', status: statusOf(error), code: errorName(error) }, 'S3: no se borró un archivo en preparación'));
        },
        async discard() {
          const was = state;
          state = 'gone';
          buffered = [];
          if (was === 'open') await aborted();
          else if (was === 'finished') {
            await deleteKey(key).catch((error: unknown) => log?.warn({ storage: 's3', status: statusOf(error), code: errorName(error) }, 'S3: no se borró un archivo en preparación'));
          }
        },
      };
    },
    async write(companyId, sha256, bytes) {
      const Key = keyOf(companyId, sha256);
      try {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: bytes }));
      } catch (error) {
        throw failure('save', error);
      }
    },
    async read(companyId, sha256, range) {
      const Key = keyOf(companyId, sha256);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        const stream = answer.Body as Readable | undefined;
        return stream instanceof Readable ? stream : Readable.from([]);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw failure('read', error);
      }
    },
    async exists(companyId, sha256) {
      const Key = keyOf(companyId, sha256);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw failure('read', error);
      }
    },
    async remove(companyId, sha256) {
      const Key = keyOf(companyId, sha256);
      try {
        await deleteKey(Key);
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
