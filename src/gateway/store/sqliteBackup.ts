/** `model-gateway backup FILE` on SQLite: a consistent copy while serving (VACUUM INTO), the owner's only. */
import { chmodSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { StoreError } from './types.ts';

export function backupSqlite(db: DatabaseSync, target: string): void {
  if (existsSync(target)) throw new StoreError('conflict', `${target} already exists: choose a new file`);
  const folder = dirname(resolve(target));
  if (!existsSync(folder)) throw new StoreError('not_found', `${folder} does not exist: create the folder first`);
  // The copy holds what the store does (password and key hashes, sealed channel keys): the owner's only, from its first byte.
  const umask = process.umask(0o077);
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    process.umask(umask);
  }
  chmodSync(target, 0o600);
}
