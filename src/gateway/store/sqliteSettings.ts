/**
 * The gateway settings of the SQLite store (migration 19), apart from sqlite.ts so that file keeps to one
 * idea. A change and its audit row are one IMMEDIATE transaction, and a change of the request path's
 * data: this process sees it at once, another process (a serving gateway beside the CLI) through SQLite's
 * data version, as it sees a CLI top-up (sqliteChanges.ts).
 */
import type { DatabaseSync } from 'node:sqlite';
import { settingRows, toSettings, UPSERT_SETTING_SQL } from './settingsRows.ts';
import type { AuditedTransaction } from './sqliteCodes.ts';
import type { Row } from './sqlRows.ts';
import type { AuditEntry, SettingChanges, SettingsStore, StoredSettings } from './types.ts';

export class SqliteSettings implements SettingsStore {
  readonly #db: DatabaseSync;
  readonly #tx: AuditedTransaction;
  readonly #changed: () => void;

  constructor(db: DatabaseSync, tx: AuditedTransaction, changed: () => void) {
    this.#db = db;
    this.#tx = tx;
    this.#changed = changed;
  }

  async read(): Promise<StoredSettings> {
    return toSettings(this.#db.prepare('SELECT name, value FROM gateway_settings').all() as Row[]);
  }

  async change(changes: SettingChanges, audit?: AuditEntry): Promise<StoredSettings> {
    const rows = settingRows(changes);
    const now = Date.now();
    this.#tx(audit, () => {
      const upsert = this.#db.prepare(UPSERT_SETTING_SQL(() => '?'));
      const remove = this.#db.prepare('DELETE FROM gateway_settings WHERE name = ?');
      for (const [name, json] of rows) {
        if (json === null) remove.run(name);
        else upsert.run(name, json, now);
      }
    });
    this.#changed();
    return this.read();
  }
}
