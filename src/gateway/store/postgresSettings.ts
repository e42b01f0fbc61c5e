/**
 * The gateway settings of the PostgreSQL store (migration 11), apart from postgres.ts so that file keeps
 * to one idea. A change, its audit row and the change bump with its NOTIFY commit together: every
 * instance on the database reloads the settings with the rest of its snapshot within a second
 * (postgresChanges.ts), as it does after a top-up.
 */
import { auditRow } from './audit.ts';
import { appendAudit } from './postgresAudit.ts';
import type { CodeChanges } from './postgresCodes.ts';
import type { Query, Transaction } from './postgresQuery.ts';
import { settingRows, toSettings, UPSERT_SETTING_SQL } from './settingsRows.ts';
import type { AuditEntry, SettingChanges, SettingsStore, StoredSettings } from './types.ts';

export class PostgresSettings implements SettingsStore {
  readonly #tx: Transaction;
  readonly #query: Query;
  readonly #changes: CodeChanges;

  constructor(tx: Transaction, query: Query, changes: CodeChanges) {
    this.#tx = tx;
    this.#query = query;
    this.#changes = changes;
  }

  async read(): Promise<StoredSettings> {
    return toSettings((await this.#query('SELECT name, value FROM gateway_settings')).rows);
  }

  async change(changes: SettingChanges, audit?: AuditEntry): Promise<StoredSettings> {
    const rows = settingRows(changes);
    const row = audit ? auditRow(audit) : null; // checked (no secret) before anything is written
    const now = Date.now();
    const settings = await this.#tx(async (query) => {
      for (const [name, json] of rows) {
        if (json === null) await query('DELETE FROM gateway_settings WHERE name = $1', [name]);
        else await query(UPSERT_SETTING_SQL((n) => `$${n}`), [name, json, now]);
      }
      if (row) await appendAudit(query, row);
      await this.#changes.notify(query);
      return toSettings((await query('SELECT name, value FROM gateway_settings')).rows);
    });
    this.#changes.markChanged();
    return settings;
  }
}
