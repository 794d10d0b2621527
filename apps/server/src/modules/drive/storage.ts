import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where Drive keeps the bytes (decision 0056): under the company and the bytes' SHA-256, so the
 * same file uploaded twice is kept once. An upload streams to a staging file first (its hash is
 * known only at the end), then `keep` moves it into place. The filesystem is the one store built;
 * an S3 bucket (DRIVE_S3_URL) would be another implementation of this interface.
 */
export interface DriveStorage {
  /** A new staging file the upload streams into; `discard` removes it (a refused upload leaves nothing). */
  stage(): Promise<{ stream: WriteStream; discard(): Promise<void>; path: string }>;
  /** Moves a finished staging file into place as the company's bytes of `sha256`. */
  keep(companyId: string, sha256: string, staged: string): Promise<void>;
  /** Writes bytes already in memory (the demo's files) as the company's bytes of `sha256`. */
  write(companyId: string, sha256: string, bytes: Buffer): Promise<void>;
  /** The bytes, or part of them (inclusive range). */
  read(companyId: string, sha256: string, range?: { start: number; end: number }): Readable;
  exists(companyId: string, sha256: string): Promise<boolean>;
  remove(companyId: string, sha256: string): Promise<void>;
  /** Every byte of a company (the company is deleted). */
  removeCompany(companyId: string): Promise<void>;
}

const safe = (part: string) => {
  if (!/^[A-Za-z0-9-]+$/.test(part)) throw new Error(`drive storage: bad path part ${part}`);
  return part;
};

/** DATA_DIR/drive/{company}/{sha256}; staging files in DATA_DIR/drive/.staging. */
export function fileStorage(dataDir: string): DriveStorage {
  const root = path.join(dataDir, 'drive');
  const staging = path.join(root, '.staging');
  const fileOf = (companyId: string, sha256: string) => path.join(root, safe(companyId), safe(sha256));
  return {
    async stage() {
      await mkdir(staging, { recursive: true });
      const file = path.join(staging, randomBytes(12).toString('hex'));
      const stream = createWriteStream(file, { flags: 'wx' });
      return {
        stream,
        path: file,
        async discard() {
          if (!stream.closed) {
            await new Promise<void>((resolve) => {
              stream.once('close', () => resolve());
              stream.destroy();
            });
          }
          await rm(file, { force: true });
        },
      };
    },
    async keep(companyId, sha256, staged) {
      const target = fileOf(companyId, sha256);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(staged, target);
    },
    async write(companyId, sha256, bytes) {
      await mkdir(staging, { recursive: true });
      const file = path.join(staging, randomBytes(12).toString('hex'));
      await writeFile(file, bytes, { flag: 'wx' });
      await this.keep(companyId, sha256, file);
    },
    read(companyId, sha256, range) {
      return createReadStream(fileOf(companyId, sha256), range);
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
  };
}
