/**
 * The Store's part for gateway settings (issue 10), apart from types.ts so that file keeps to one size.
 * A setting is named as the API, the CLI and the audit log name it (contract api/settings.ts), and only
 * the ones an admin set are stored: one absent is at its default (../settings.ts says which).
 */
import type { SettingName, SignUpMode } from '../../contract/index.ts';
import type { AuditEntry } from './types.ts';

export interface SettingValues {
  readonly sign_up: SignUpMode;
  /** Micro-USD a sign-up's new account starts with. */
  readonly new_user_balance: number;
  /** Days request logs are kept; 0: forever. */
  readonly log_retention_days: number;
  /** Text for the sign-in page (never empty: no notice is an absent one). */
  readonly notice: string;
}

/** The settings an admin set. */
export type StoredSettings = Partial<SettingValues>;

/** What a change sets (a value) or puts back to its default (null); a setting absent stays as it is. */
export type SettingChanges = { readonly [Name in SettingName]?: SettingValues[Name] | null };

export interface SettingsStore {
  /** The settings set, checked (a row the rules refuse is named, to be repaired). */
  read(): Promise<StoredSettings>;
  /**
   * Sets or clears the settings given and writes `audit`'s row, in one step; a change of the request
   * path's data (changedSinceLastCheck says so, on every instance). A value the rules refuse is invalid,
   * and nothing is changed. Answers the settings as they now are.
   */
  change(changes: SettingChanges, audit?: AuditEntry): Promise<StoredSettings>;
}
