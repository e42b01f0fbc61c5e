/**
 * Opening the SQLite store: `node:sqlite` loaded lazily (a runtime without it can fall back to
 * memory), and a damaged file told apart from a fresh install.
 */
import { existsSync, statSync } from 'node:fs';
import { StoreError } from './types.ts';

type SqliteModule = typeof import('node:sqlite');

/** The node:sqlite module, or null when this runtime has none. */
export function loadSqlite(): SqliteModule | null {
  try {
    const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    const mod = typeof get === 'function' ? (get('node:sqlite') as SqliteModule | undefined) : undefined;
    return mod && typeof mod.DatabaseSync === 'function' ? mod : null;
  } catch {
    return null;
  }
}

/**
 * A database file that exists but is empty (and has no write-ahead log holding its data) is a
 * damaged or truncated store, never a fresh install: a fresh install has no file at all.
 */
export function refuseEmptyFile(file: string): void {
  const size = (path: string): number => (existsSync(path) ? statSync(path).size : -1);
  if (size(file) === 0 && size(`${file}-wal`) <= 0) {
    throw new StoreError('invalid', `${file} is empty (0 bytes) where the gateway's data should be. Restore it from a backup (model-gateway backup), or delete it to start a new, empty gateway.`);
  }
}
