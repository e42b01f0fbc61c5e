/**
 * One gateway per data folder: two processes serving one SQLite file would each hold balances in
 * memory and overspend. `serve` holds an exclusive SQLite lock on DATA/gateway.lock.db (the operating
 * system's file lock, which goes with its process however it ends: no stale lock to take over, and no
 * window in which two starting processes both find the folder free) and writes DATA/gateway.lock (its pid
 * and address) for the message a second one gets. Several instances are the PostgreSQL store's job.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { loadSqlite } from './store/sqliteOpen.ts';
import { refuseUnwritableFolder } from './store/dataFolder.ts';

export const LOCK_FILE = 'gateway.lock';
/** The file whose lock is the folder's: its content is nothing. */
export const LOCK_DATABASE = 'gateway.lock.db';

interface LockContent {
  readonly pid: number;
  readonly url: string | null;
  readonly startedAt: string;
}

/** Another gateway serves this folder. */
export class FolderInUseError extends Error {
  readonly pid: number;
  readonly url: string | null;
  constructor(dataDir: string, holder: LockContent) {
    super(
      `another Model Gateway (${holder.pid ? `pid ${holder.pid}` : 'just starting'}${holder.url ? `, at ${holder.url}` : holder.pid ? ', starting' : ''}) is serving ${dataDir}: ` +
        'stop it first, or give this one another --data folder.',
    );
    this.name = 'FolderInUseError';
    this.pid = holder.pid;
    this.url = holder.url;
  }
}

export interface FolderLock {
  /** Records the address once the server listens, for the message a second gateway gets. */
  listening(url: string): void;
  release(): void;
}

/** This process's own locks: a second gateway in the same process is refused too. */
const held = new Set<string>();

export function lockFolder(dataDir: string): FolderLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Serving writes: a read-only folder is said as such, not as SQLite's "unable to open database file".
  refuseUnwritableFolder(dataDir);
  const file = join(dataDir, LOCK_FILE);
  const holderOf = (): LockContent => readHolder(file) ?? { pid: 0, url: null, startedAt: '' };
  if (held.has(file)) throw new FolderInUseError(dataDir, holderOf());
  // Loaded here, not imported: on a runtime without node:sqlite (an editor's) the gateway keeps its data in
  // memory, where two processes share nothing to overspend, and there is no file lock to take.
  const sqlite = loadSqlite();
  const lockPath = join(dataDir, LOCK_DATABASE);
  const guard: DatabaseSync | null = sqlite ? new sqlite.DatabaseSync(lockPath) : null;
  if (guard) {
    try {
      chmodSync(lockPath, 0o600);
      // No wait: a folder another gateway holds is refused at once. The exclusive transaction stays open for this
      // process's life (locking_mode exclusive: the lock is kept, not given back at each statement).
      guard.exec('PRAGMA busy_timeout = 0; PRAGMA journal_mode = MEMORY; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    } catch (error) {
      guard.close();
      if (/locked|busy/i.test((error as Error).message)) throw new FolderInUseError(dataDir, holderOf());
      throw error;
    }
  }
  const content = (url: string | null): string => `${JSON.stringify({ pid: process.pid, url, startedAt: new Date().toISOString() } satisfies LockContent)}\n`;
  writeFileSync(file, content(null), { mode: 0o600 });
  held.add(file);
  let released = false;
  return {
    listening(url) {
      if (!released) writeFileSync(file, content(url), { mode: 0o600 });
    },
    release() {
      if (released) return;
      released = true;
      held.delete(file);
      rmSync(file, { force: true });
      guard?.close();
    },
  };
}

function readHolder(file: string): LockContent | null {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockContent>;
    return typeof value.pid === 'number' ? { pid: value.pid, url: typeof value.url === 'string' ? value.url : null, startedAt: String(value.startedAt) } : null;
  } catch {
    return null;
  }
}
