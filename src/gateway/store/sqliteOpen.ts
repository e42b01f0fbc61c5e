/**
 * Opening the SQLite store: `node:sqlite` loaded lazily (a runtime without it can fall back to
 * memory), a damaged file told apart from a fresh install, the schema brought to this version, and
 * channel secrets an older version left in plain text sealed.
 */
import { chmodSync, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { diskFull } from './dataFolder.ts';
import type { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS } from './migrations.ts';
import { refusedRows, type RefusedRow } from './migration.ts';
import type { SecretBox } from './secretBox.ts';
import { sealedPlainSecrets, type SecretColumns } from './channelSecretsAtRest.ts';
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
 * The database file opened (created if needed) as the store uses it: readable by its owner only, in WAL mode, with
 * its schema_version table; a damaged or foreign file named with what to do (unusableFile).
 */
export function openDatabaseFile(file: string): DatabaseSync {
  const sqlite = loadSqlite();
  if (!sqlite) throw new Error('node:sqlite is not available in this Node.js runtime (Node 22.13+ or 24 needed)');
  refuseEmptyFile(file);
  let db: DatabaseSync;
  try {
    db = new sqlite.DatabaseSync(file);
  } catch (error) {
    throw unusableFile(error, file);
  }
  try {
    // Before the first write: SQLite gives the WAL and shared-memory files the database file's mode.
    chmodSync(file, 0o600);
    db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    return db;
  } catch (error) {
    db.close();
    throw unusableFile(error, file);
  }
}

/**
 * The database file opened for reading only, on a folder this process cannot write (a read-only mount): nothing
 * is changed, not its mode, not its journal. SQLite reads a WAL database read-only only where it can make the
 * shared-memory file beside it; where it cannot, the file is read as immutable (what is on the disk, as it is).
 */
export function openDatabaseFileReadOnly(file: string): DatabaseSync {
  const sqlite = loadSqlite();
  if (!sqlite) throw new Error('node:sqlite is not available in this Node.js runtime (Node 22.13+ or 24 needed)');
  refuseEmptyFile(file);
  try {
    return openReadable(sqlite, file);
  } catch {
    // Read as immutable, the file alone: rows still in a write-ahead log would be missing, without a word.
    if (existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0) {
      throw new Error(`${file}-wal holds changes not yet in ${file}, and on this read-only folder they cannot be read without its ${file}-shm: copy the folder with both files (or run any command on it where it can be written, which folds them into ${file})`);
    }
    const url = pathToFileURL(file);
    url.searchParams.set('immutable', '1');
    try {
      return openReadable(sqlite, url);
    } catch (error) {
      throw unusableFile(error, file);
    }
  }
}

/** `path` opened read-only and read once (SQLite opens lazily: a file it cannot read fails here, closed). */
function openReadable(sqlite: SqliteModule, path: string | URL): DatabaseSync {
  const db = new sqlite.DatabaseSync(path, { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;');
    db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The file's schema version; a file written by a newer version is refused, never half-read or half-migrated. */
function schemaVersion(db: DatabaseSync, file: string): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number | bigint | null } | undefined;
  const current = row?.v === null || row?.v === undefined ? 0 : Number(row.v);
  const known = MIGRATIONS.at(-1)!.version;
  if (current > known) {
    throw new StoreError('invalid', `${file} was written by a newer Model Gateway (schema ${current}; this version knows up to ${known}). Run that newer version, or restore a backup made by this one.`);
  }
  return current;
}

/**
 * A read-only store's file must be at this version already: bringing it there writes. A newer one is refused as
 * migrateSqlite refuses it.
 */
export function requireCurrentSchema(db: DatabaseSync, file: string): void {
  const current = schemaVersion(db, file);
  const known = MIGRATIONS.at(-1)!.version;
  if (current < known) {
    throw new StoreError('invalid', `${file} was written by an older Model Gateway (schema ${current}; this version upgrades it to ${known}, which writes to it), and its folder is read-only: run this version once where the folder is writable.`);
  }
}

/**
 * A database file that exists but is empty (and has no write-ahead log holding its data) is a
 * damaged or truncated store, never a fresh install: a fresh install has no file at all. Another process
 * creating the folder's store this moment (commands started together on a new folder) has an empty file for
 * a few milliseconds: it is given up to two seconds to write its first page before the file is called damaged.
 */
export function refuseEmptyFile(file: string): void {
  const size = (path: string): number => (existsSync(path) ? statSync(path).size : -1);
  const empty = (): boolean => size(file) === 0 && size(`${file}-wal`) <= 0;
  for (let waited = 0; empty() && waited < 2000; waited += 50) Atomics.wait(PAUSE, 0, 0, 50);
  if (empty()) {
    throw new StoreError('invalid', `${file} is empty (0 bytes) where the gateway's data should be. Restore it from a backup (model-gateway backup), or delete it to start a new, empty gateway.`);
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * What SQLite (or the file system) says of a file it cannot use, as the operator can act on it: the file named,
 * and what to do. Other errors are returned as they are.
 */
export function unusableFile(error: unknown, file: string): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException).code;
  if (/malformed|not a database|file is encrypted/i.test(message)) {
    return new StoreError('invalid', `${file} is damaged (SQLite: ${message}). Restore it from a backup (model-gateway backup makes one), or move it away to start a new, empty gateway.`);
  }
  const full = diskFull(error, dirname(file));
  if (full) return full;
  if (code === 'EPERM' || code === 'EACCES' || /readonly|unable to open/i.test(message)) {
    return new StoreError('invalid', `${file} cannot be used (${code ?? message}): the data folder may belong to another user or be read-only. Run as its owner, or give another --data.`);
  }
  return error;
}

/**
 * Applies the migrations `file` has not had yet, in the caller's transaction (one step: a failure leaves
 * the previous version whole). A file written by a newer version is refused, never half-migrated, and so
 * is one whose rows break a rule a migration adds (migration.ts).
 */
export function migrateSqlite(db: DatabaseSync, file: string): void {
  const current = schemaVersion(db, file);
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    const refused = m.refuses === undefined ? [] : (db.prepare(m.refuses).all() as unknown as RefusedRow[]);
    if (refused.length > 0) throw refusedRows(file, m.version, refused);
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(m.version);
  }
}

/**
 * Channel secrets written by a version that stored them in plain text (keys; URLs holding a secret) are sealed
 * once, in place, in the caller's transaction. Returns whether any was.
 */
export function sealPlainChannelSecrets(db: DatabaseSync, box: SecretBox): boolean {
  const update = db.prepare('UPDATE channels SET api_key = ?, base_url = ?, proxy = ? WHERE id = ?');
  let any = false;
  for (const row of db.prepare('SELECT id, api_key, base_url, proxy FROM channels').all() as unknown as SecretColumns[]) {
    const sealed = sealedPlainSecrets(row, (plain) => box.seal(plain));
    if (!sealed) continue;
    update.run(sealed.api_key, sealed.base_url, sealed.proxy, row.id);
    any = true;
  }
  return any;
}
