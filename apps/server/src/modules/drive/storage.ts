import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { access, constants, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../../lib/errors.js';

/**
 * Where Drive keeps the bytes (decisions 0056, 0105): under the company and the bytes' SHA-256,
 * so the same file uploaded twice is kept once. An upload streams to a staging place first (its
 * hash is known only at the end), then `keepAs` moves it into place. Two stores implement it: the
 * local disk under DATA_DIR/drive (the embedded default, `fileStorage`) and an S3-compatible
 * bucket (S3_BUCKET, `s3Storage` in s3-storage.ts); `storageOf(config)` (storage-of.ts) is the one a
 * process uses.
 */
export interface DriveStorage {
  readonly kind: 'file' | 's3';
  /** A new staging place the upload streams into; `discard` removes it (a refused upload leaves nothing). */
  stage(): Promise<StagedUpload>;
  /** Writes bytes already in memory (the demo's files) as the company's bytes of `sha256`. */
  write(companyId: string, sha256: string, bytes: Buffer): Promise<void>;
  /** The bytes, or part of them (inclusive range); undefined when the storage has none of them. */
  read(companyId: string, sha256: string, range?: { start: number; end: number }): Promise<Readable | undefined>;
  exists(companyId: string, sha256: string): Promise<boolean>;
  remove(companyId: string, sha256: string): Promise<void>;
  /** Every byte of a company (the company is deleted). */
  removeCompany(companyId: string): Promise<void>;
  /**
   * A link a provider (WhatsApp, Messenger, Telegram) downloads the bytes from directly, valid for
   * S3_SIGNED_URL_SECONDS, with the file's type and name; absent on the disk, whose bytes only the
   * product's public address serves.
   */
  signedUrl?(companyId: string, sha256: string, file: { mimeType: string; name: string }): Promise<string>;
  /** Whether the store answers and can be written (the readiness check, the startup check). */
  check(): Promise<boolean>;
}

export interface StagedUpload {
  /** The next bytes; waits while the store is behind (backpressure), throws once it has failed. */
  write(chunk: Buffer): Promise<void>;
  /** All bytes are written: waits until the store holds them. */
  finish(): Promise<void>;
  /** Moves the finished bytes into place as the company's bytes of `sha256`. */
  keepAs(companyId: string, sha256: string): Promise<void>;
  /** Removes what was staged (nothing once kept). */
  discard(): Promise<void>;
}

/**
 * The store did not answer or refused the server (S3 down, a 5xx, credentials or permissions):
 * a 503 with what happened in the user's words. The store's own answer is never repeated (it
 * can name the bucket, the key or the account); the operator reads its status and code in the log.
 */
export class StorageUnavailable extends AppError {
  override readonly statusCode = 503;
}

export type StorageAction = 'save' | 'read' | 'delete';
const actionText: Record<StorageAction, string> = {
  save: 'No se pudo guardar el archivo',
  read: 'No se pudo leer el archivo',
  delete: 'No se pudo borrar el archivo',
};
export const storageMessages = {
  denied: (action: StorageAction) =>
    `${actionText[action]}: el almacenamiento de archivos rechazó el acceso del servidor (credenciales o permisos de S3). Avisa al administrador`,
  noBucket: (action: StorageAction) => `${actionText[action]}: el bucket de S3 configurado no existe. Avisa al administrador`,
  down: (action: StorageAction) => `${actionText[action]}: el almacenamiento de archivos no responde. Inténtalo de nuevo en unos minutos`,
};

/** Where a store says what failed: the app's log. */
export type StorageLog = { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };

/** «foto.png» as a `Content-Disposition` value: inline, an ASCII fallback and the UTF-8 name (RFC 6266). */
export function inlineDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const safe = (part: string) => {
  if (!/^[A-Za-z0-9-]+$/.test(part)) throw new Error(`drive storage: bad path part ${part}`);
  return part;
};
export { safe as safeStoragePart };

/** DATA_DIR/drive/{company}/{sha256}; staging files in DATA_DIR/drive/.staging. */
export function fileStorage(dataDir: string): DriveStorage {
  const root = path.join(dataDir, 'drive');
  const staging = path.join(root, '.staging');
  const fileOf = (companyId: string, sha256: string) => path.join(root, safe(companyId), safe(sha256));
  const keep = async (companyId: string, sha256: string, staged: string) => {
    const target = fileOf(companyId, sha256);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(staged, target);
  };
  return {
    kind: 'file',
    async stage() {
      await mkdir(staging, { recursive: true });
      const file = path.join(staging, randomBytes(12).toString('hex'));
      const stream = createWriteStream(file, { flags: 'wx' });
      let failure: Error | undefined;
      stream.on('error', (error) => {
        failure = error;
      });
      let kept = false;
      return {
        async write(chunk) {
          if (failure) throw failure;
          if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), once(stream, 'close')]);
          if (failure) throw failure;
        },
        async finish() {
          if (failure) throw failure;
          stream.end();
          await once(stream, 'close');
          if (failure) throw failure;
        },
        async keepAs(companyId, sha256) {
          await keep(companyId, sha256, file);
          kept = true;
        },
        async discard() {
          if (!stream.closed) {
            await new Promise<void>((resolve) => {
              stream.once('close', () => resolve());
              stream.destroy();
            });
          }
          if (!kept) await rm(file, { force: true });
        },
      };
    },
    async write(companyId, sha256, bytes) {
      await mkdir(staging, { recursive: true });
      const file = path.join(staging, randomBytes(12).toString('hex'));
      await writeFile(file, bytes, { flag: 'wx' });
      await keep(companyId, sha256, file);
    },
    async read(companyId, sha256, range) {
      const handle = await open(fileOf(companyId, sha256), 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      return handle?.createReadStream(range ? { start: range.start, end: range.end } : {});
    },
    async exists(companyId, sha256) {
      return stat(fileOf(companyId, sha256)).then(
        () => true,
        () => false,
      );
    },
    async remove(companyId, sha256) {
      await rm(fileOf(companyId, sha256), { force: true });
    },
    async removeCompany(companyId) {
      await rm(path.join(root, safe(companyId)), { recursive: true, force: true });
    },
    async check() {
      try {
        await mkdir(staging, { recursive: true });
        await access(staging, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}
