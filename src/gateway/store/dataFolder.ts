/**
 * The SQLite data folder as the gateway keeps it: its owner's only (0700, its secret.key 0600), since it holds the
 * database, the key that seals channel keys and the lock. A folder made loose by an older version or a `cp` is
 * tightened when opened for writing, and said so; a folder that cannot be written is named in words (a read-only
 * file system, another user's), and what cannot be written on a full disk too.
 */
import { accessSync, chmodSync, constants, existsSync, mkdirSync, statSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { SECRET_KEY_FILE } from './secretBox.ts';
import { StoreError } from './types.ts';

/** Why this process cannot write in `dir` (a read-only file system, no permission), or null when it can. */
export function unwritableReason(dir: string): string | null {
  try {
    accessSync(dir, constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return 'it is on a read-only file system';
    if (code === 'EACCES' || code === 'EPERM') return 'this user may not write in it';
    return null;
  }
}

/** A StoreError when `dir` exists and cannot be written: what writes there fails at once, in words, not with EROFS on a chmod. */
export function refuseUnwritableFolder(dir: string): void {
  const reason = existsSync(dir) ? unwritableReason(dir) : null;
  if (reason === null) return;
  throw new StoreError('invalid', `the data folder ${dir} is read-only (${reason}), and this command writes to it: make it writable or give another --data. Commands that only read (account show, key list, channel list, logs, backup...) work on it as it is.`);
}

/** Each part of the folder that holds secrets, with the loosest mode it may have. */
const OWNER_ONLY: ReadonlyArray<[name: string, mode: number]> = [['', 0o700], [SECRET_KEY_FILE, 0o600]];

const octal = (mode: number): string => `0${(mode & 0o777).toString(8)}`;

/**
 * The folder ready for a gateway that writes: created owner-only when missing; refused in words when it cannot be
 * written; an existing folder or secret.key looser than 0700/0600 tightened when this user owns it, each said once
 * through `log`, and warned of when it cannot be (another user's).
 */
export function prepareDataFolder(dir: string, log: (line: string) => void): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  refuseUnwritableFolder(dir);
  for (const [name, mode] of OWNER_ONLY) {
    const path = name === '' ? dir : join(dir, name);
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    if ((stat.mode & 0o777 & ~mode) === 0) continue;
    const what = name === '' ? 'the data folder' : `${name} (the key that seals channel keys)`;
    const mine = process.getuid === undefined || stat.uid === process.getuid();
    if (mine) {
      try {
        chmodSync(path, mode);
        log(`tightened ${path} from ${octal(stat.mode)} to ${octal(mode)}: ${what} is its owner's only (it was readable by other users)`);
        continue;
      } catch {
        // Said below, as for another user's.
      }
    }
    log(`warning: ${path} is ${octal(stat.mode)}, readable by other users, and could not be made ${octal(mode)}${mine ? '' : ' (it belongs to another user)'}: ${what} should be its owner's only; run "chmod ${octal(mode)} ${path}" as its owner`);
  }
}

/**
 * What SQLite's "disk I/O error" or "database or disk is full" means when the disk holding `dir` has no room: a
 * StoreError naming the folder; null otherwise (the error is told as it is).
 */
export function diskFull(error: unknown, dir: string): StoreError | null {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ENOSPC' && !/disk I\/O error|disk is full/i.test(message)) return null;
  let free: number | null = null;
  try {
    const fs = statfsSync(dir);
    free = fs.bavail * fs.bsize;
  } catch {
    // No answer from the file system: judged by the error alone.
  }
  if (code !== 'ENOSPC' && !/disk is full/i.test(message) && (free === null || free > 1024 * 1024)) return null;
  return new StoreError('invalid', `the disk holding the data folder ${dir} is full${free === null ? '' : ` (${free} bytes free)`}: the store cannot be written (${message}). Free some space there, then run the command again.`);
}
