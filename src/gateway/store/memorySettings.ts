/** The gateway settings of the memory store: the same behaviour as the SQL stores' (sqliteSettings.ts). */
import type { MemoryHooks } from './memoryAdminTokens.ts';
import { applied, settingRows } from './settingsRows.ts';
import type { AuditEntry, SettingChanges, SettingsStore, StoredSettings } from './types.ts';

export class MemorySettings implements SettingsStore {
  #stored: StoredSettings = {};
  readonly #hooks: Pick<MemoryHooks, 'audited'>;
  readonly #changed: () => void;

  constructor(hooks: Pick<MemoryHooks, 'audited'>, changed: () => void) {
    this.#hooks = hooks;
    this.#changed = changed;
  }

  async read(): Promise<StoredSettings> {
    return { ...this.#stored };
  }

  async change(changes: SettingChanges, audit?: AuditEntry): Promise<StoredSettings> {
    const rows = settingRows(changes);
    this.#hooks.audited(audit, () => {
      this.#stored = applied(this.#stored, rows);
      this.#changed();
    });
    return this.read();
  }
}
