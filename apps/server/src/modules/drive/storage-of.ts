import type { Config } from '../../config.js';
import { s3Storage } from './s3-storage.js';
import { type DriveStorage, fileStorage, type StorageLog } from './storage.js';

const byConfig = new WeakMap<object, DriveStorage>();

/**
 * The storage of a process's settings: one per settings object, so the routes, the chats'
 * sender and the companies' delete share one S3 client. `log` (the app's) hears what the store
 * answered when it fails.
 */
export function storageOf(config: Pick<Config, 'dataDir' | 'storage'>, log?: StorageLog): DriveStorage {
  const known = byConfig.get(config);
  if (known) return known;
  const storage = config.storage?.kind === 's3' ? s3Storage(config.storage, log) : fileStorage(config.dataDir);
  byConfig.set(config, storage);
  return storage;
}
