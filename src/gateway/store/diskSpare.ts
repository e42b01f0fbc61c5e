/**
 * Room kept on the data folder's disk for the charges already answered. Request logs are written in batches
 * a few milliseconds after their answers; when the disk fills in between, those charges live only in memory,
 * and a kill then loses them. A file of SPARE_BYTES beside the store is that room: deleted when a write fails
 * for want of space, so the waiting batch can be written at once; made again once the disk has room.
 * (While it is spent the gateway takes no billable request: logs.ts.)
 */
import { closeSync, existsSync, openSync, rmSync, writeSync } from 'node:fs';

/** The spare's name in the data folder. */
export const SPARE_FILE = 'gateway.spare';

/** Room for a few thousand log rows and their pages in SQLite's write-ahead log. */
export const SPARE_BYTES = 1024 * 1024;

export class DiskSpare {
  readonly #file: string;
  readonly #bytes: number;

  constructor(file: string, bytes = SPARE_BYTES) {
    this.#file = file;
    this.#bytes = bytes;
  }

  get held(): boolean {
    try {
      return existsSync(this.#file);
    } catch {
      return false;
    }
  }

  /** Makes the room if it is not there; false when the disk has not that much room (nothing is left half made). */
  ensure(): boolean {
    if (this.held) return true;
    let fd: number | null = null;
    try {
      fd = openSync(this.#file, 'wx', 0o600);
      const block = Buffer.alloc(64 * 1024);
      for (let written = 0; written < this.#bytes; ) written += writeSync(fd, block, 0, Math.min(block.length, this.#bytes - written));
      closeSync(fd);
      return true;
    } catch {
      if (fd !== null) closeSync(fd);
      rmSync(this.#file, { force: true });
      return false;
    }
  }

  /** Gives the room back to the disk; true when there was some to give (false too when it cannot be deleted). */
  release(): boolean {
    if (!this.held) return false;
    try {
      rmSync(this.#file, { force: true });
      return true;
    } catch {
      // A folder made read-only meanwhile: the room cannot be given, and the failure is the store's to tell.
      return false;
    }
  }
}

/** Whether a store's write failed for want of disk space (SQLite's SQLITE_FULL, a file system's ENOSPC). */
export function isDiskFull(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  return e?.code === 'ENOSPC' || e?.errcode === 13 || (typeof e?.message === 'string' && /disk is full|no space left/i.test(e.message));
}
