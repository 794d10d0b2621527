// PGlite's data directory on disk, durable (decision 0064). PGlite starts PostgreSQL with `-F`
// (fsync=off), and even without it every fsync is lost on the way: the Emscripten NODEFS under
// PGlite's NodeFS has no `fsync` operation (fsync() answers 0 and does nothing) and fdatasync()
// is a stub. So a commit PostgreSQL acknowledged could sit in the OS cache when the power goes.
// Here fsync() reaches the disk (fs.fsyncSync on the real file), PostgreSQL runs with fsync on
// and flushes its WAL with fsync() (wal_sync_method=fsync, the one call that now works).
import { fsyncSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** PGlite's own start parameters, without `-F`, and the WAL flushed by fsync(). */
export const durableStartParams = [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'fsync=on', '-c', 'wal_sync_method=fsync'];

export class DurableNodeFS extends NodeFS {
  /** fsync() calls that reached the disk (the test reads it). */
  syncs = 0;

  async init(pg, emscriptenOptions) {
    const { emscriptenOpts } = await super.init(pg, emscriptenOptions);
    const preRun = [
      ...(emscriptenOpts.preRun ?? []),
      (mod) => {
        // pinned @electric-sql/pglite 0.5.14: NODEFS streams keep the host descriptor in `nfd`
        mod.FS.filesystems.NODEFS.stream_ops.fsync = (stream) => {
          fsyncSync(stream.nfd);
          this.syncs++;
          return 0;
        };
      },
    ];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}
