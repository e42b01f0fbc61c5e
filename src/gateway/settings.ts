/**
 * Gateway settings (issue 10): what an admin changes while the gateway runs, kept in the store, read by
 * every instance with the rest of its snapshot (catalog.ts) so a change applies everywhere within a
 * second. A setting never set is at its default: sign-up off, a new account's balance $0, request logs
 * kept 90 days, no notice. Changing settings is an admin action, the same from the console and the CLI:
 * written with its audit row (settings.change) in one store step.
 *
 * Log retention: serve's --log-retention-days, when given, wins over the setting (the operator who starts
 * the process decides, as with every serve flag); without it the setting applies, else the default.
 */
import { formatMicroUsd, SETTING_NAMES, type SettingName, type SignUpMode } from '../contract/index.ts';
import { auditEntry, type Acting } from './accounts/userAdmin.ts';
import { DEFAULT_LOG_RETENTION_DAYS } from './logRetention.ts';
import type { SettingChanges, Store, StoredSettings } from './store/types.ts';

/** The settings as the gateway applies them. */
export interface AdminSettings {
  readonly signUp: SignUpMode;
  /** Micro-USD an account made by sign-up starts with. */
  readonly newUserBalance: number;
  /** Days request logs are kept (0: forever), unless serve's flag says otherwise (retentionDays). */
  readonly logRetentionDays: number;
  readonly notice: string | null;
  /** The settings not set, at their default. */
  readonly defaults: readonly SettingName[];
}

export function settingsOf(stored: StoredSettings): AdminSettings {
  return {
    signUp: stored.sign_up ?? 'off',
    newUserBalance: stored.new_user_balance ?? 0,
    logRetentionDays: stored.log_retention_days ?? DEFAULT_LOG_RETENTION_DAYS,
    notice: stored.notice ?? null,
    defaults: SETTING_NAMES.filter((name) => stored[name] === undefined),
  };
}

/** The days request logs are kept: serve's --log-retention-days when it was given (`flag`), else the setting. */
export function retentionDays(settings: AdminSettings, flag: number | null): number {
  return flag ?? settings.logRetentionDays;
}

/** A change as the store takes it: an empty notice is no notice (back to the default). */
function normalized(changes: SettingChanges): SettingChanges {
  return changes.notice === '' ? { ...changes, notice: null } : changes;
}

/** What the audit row says of a change: each setting's new value (null: back to its default), money both ways. */
function auditDetails(changes: SettingChanges): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const value = changes[name];
    if (value === undefined) continue;
    if (name === 'new_user_balance' && typeof value === 'number') {
      details.new_user_balance_micro_usd = value;
      details.new_user_balance = formatMicroUsd(value);
    } else {
      details[name] = value;
    }
  }
  return details;
}

/** Sets or clears the settings given (the store refuses a value the rules refuse, invalid), with its audit row; the settings as they now are. */
export async function changeSettings(store: Store, changes: SettingChanges, acting: Acting): Promise<AdminSettings> {
  const change = normalized(changes);
  const names = SETTING_NAMES.filter((name) => change[name] !== undefined);
  return settingsOf(await store.settings.change(change, auditEntry(acting, 'settings.change', names.join(', '), auditDetails(change))));
}
