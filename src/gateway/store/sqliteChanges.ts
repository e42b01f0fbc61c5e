/**
 * Whether the SQLite store's data changed since the request path last asked (Store.changedSinceLastCheck),
 * cheaply: this process's own writes are counted, another process's (the CLI's) are seen through a watch
 * on the data folder and SQLite's `PRAGMA data_version`. Apart from sqlite.ts as PostgreSQL's change feed
 * is apart from postgres.ts (postgresChanges.ts): the same question, answered the way each database allows.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Row } from './sqlRows.ts';

/**
 * Longest time the request path trusts "no file event, no change" before asking SQLite anyway:
 * a bound on staleness should a file event ever be missed (a network file system, a full inotify queue).
 */
const RECHECK_MS = 250;

export class SqliteChanges {
  readonly #db: DatabaseSync;
  readonly #file: string;
  /** Watches the data folder once the request path starts asking; null before, or when watching failed. */
  #watcher: FSWatcher | null = null;
  #watching = false;
  /** A file of this database was written since the last check (set by the watcher). */
  #maybeChanged = true;
  #lastCheck = 0;
  #dataVersion = -1;
  #dataVersionStatement: StatementSync | null = null;
  #ownChanges = 1;
  #seenOwnChanges = 0;

  constructor(db: DatabaseSync, file: string) {
    this.#db = db;
    this.#file = file;
  }

  /** This process changed the data (an admin write, a redemption): the next take() says so. */
  markChanged(): void {
    this.#ownChanges++;
  }

  /**
   * `PRAGMA data_version` on every keyed request cost 4-7% of the gateway's CPU at full load.
   * Another process (the CLI) can only change the data by writing the database or its WAL, and
   * the kernel reports those writes to a watch on the folder before that process even exits; so
   * between writes the answer is "no change" without asking SQLite, and at most RECHECK_MS apart
   * SQLite is asked anyway. The watch callback runs before any request that arrives after the
   * write (the file event is queued first), so a CLI change still applies to the next request.
   */
  take(): boolean {
    if (!this.#watching) this.#watch();
    const now = Date.now();
    if (!this.#maybeChanged && this.#ownChanges === this.#seenOwnChanges && now - this.#lastCheck < RECHECK_MS && this.#watcher) return false;
    this.#maybeChanged = false;
    this.#lastCheck = now;
    this.#dataVersionStatement ??= this.#db.prepare('PRAGMA data_version');
    const row = this.#dataVersionStatement.get() as Row;
    const version = Number(row.data_version);
    const changed = version !== this.#dataVersion || this.#ownChanges !== this.#seenOwnChanges;
    this.#dataVersion = version;
    this.#seenOwnChanges = this.#ownChanges;
    return changed;
  }

  #watch(): void {
    this.#watching = true;
    const name = basename(this.#file);
    try {
      this.#watcher = watch(dirname(this.#file), { persistent: false }, (_event, changed) => {
        if (changed === null || changed.startsWith(name)) this.#maybeChanged = true;
      });
      this.#watcher.on('error', () => {
        // Without a working watch, ask SQLite on every call (correct, just slower).
        this.#watcher?.close();
        this.#watcher = null;
      });
    } catch {
      this.#watcher = null;
    }
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = null;
  }
}
