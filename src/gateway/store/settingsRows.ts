/**
 * Gateway settings as every store keeps them: one row per setting set (gateway_settings: name, value as
 * JSON), each value checked by the same rules on the way in and on the way out (a row hand-edited into
 * something the gateway cannot apply is named, to be repaired), and the SQL both SQL stores run.
 */
import { MAX_BALANCE_MICRO, MAX_LOG_RETENTION_DAYS, NoticeText, printableWithLineBreaks, SETTING_NAMES, SIGN_UP_MODES, type SettingName } from '../../contract/index.ts';
import type { Row } from './sqlRows.ts';
import { StoreError } from './types.ts';
import type { SettingChanges, SettingValues, StoredSettings } from './settingsTypes.ts';

const wholeFrom0 = (max: number) => (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max;

/** Each setting's rule, and how a refusal says it. */
const RULES: { readonly [Name in SettingName]: { readonly ok: (value: unknown) => boolean; readonly rule: string } } = {
  sign_up: { ok: (v) => (SIGN_UP_MODES as readonly unknown[]).includes(v), rule: `one of ${SIGN_UP_MODES.join(', ')}` },
  new_user_balance: { ok: wholeFrom0(MAX_BALANCE_MICRO), rule: `whole micro-USD from 0 to ${MAX_BALANCE_MICRO}` },
  log_retention_days: { ok: wholeFrom0(MAX_LOG_RETENTION_DAYS), rule: `a whole number of days from 0 to ${MAX_LOG_RETENTION_DAYS}` },
  notice: { ok: (v) => typeof v === 'string' && v !== '' && NoticeText.safeParse(v).success, rule: 'printable text of 1 to 500 characters' },
};

export function isSettingName(name: unknown): name is SettingName {
  return (SETTING_NAMES as readonly unknown[]).includes(name);
}

/** The rows a change writes: a value as JSON, or null to delete the row (back to the default). Refused whole when one value is wrong. */
export function settingRows(changes: SettingChanges): [SettingName, string | null][] {
  const rows: [SettingName, string | null][] = [];
  for (const [name, value] of Object.entries(changes)) {
    if (!isSettingName(name)) throw new StoreError('invalid', `"${name}" is not a setting (the settings: ${SETTING_NAMES.join(', ')}); nothing was changed`);
    if (value === undefined) continue;
    if (value !== null && !RULES[name].ok(value)) throw new StoreError('invalid', `the setting ${name} must be ${RULES[name].rule}; nothing was changed`);
    rows.push([name, value === null ? null : JSON.stringify(value)]);
  }
  if (rows.length === 0) throw new StoreError('invalid', 'no setting to change');
  return rows;
}

/** Settings from their rows (name, value), checked; a row of a name this version does not know is left alone. */
export function toSettings(rows: readonly Row[]): StoredSettings {
  const settings: Record<string, unknown> = {};
  for (const row of rows) {
    const name = String(row.name);
    if (!isSettingName(name)) continue;
    let value: unknown;
    try {
      value = JSON.parse(String(row.value));
    } catch {
      value = undefined;
    }
    // A notice saved before its rule refused bidirectional overrides, C1 and lone surrogates is shown without them:
    // the gateway must start on what an earlier version stored.
    if (name === 'notice' && typeof value === 'string' && !RULES.notice.ok(value)) value = printableWithLineBreaks(value);
    if (!RULES[name].ok(value)) {
      throw new StoreError('invalid', `the gateway_settings row ${name} holds ${String(row.value).slice(0, 60)}, which is not ${RULES[name].rule}: set it again (model-gateway settings set ${name} VALUE) or delete that row`);
    }
    settings[name] = value;
  }
  return settings as StoredSettings;
}

/** The same settings as a memory store keeps them: `stored` changed by `rows`. */
export function applied(stored: StoredSettings, rows: readonly [SettingName, string | null][]): StoredSettings {
  const next: Record<string, unknown> = { ...stored };
  for (const [name, json] of rows) {
    if (json === null) delete next[name];
    else next[name] = JSON.parse(json) as SettingValues[typeof name];
  }
  return next as StoredSettings;
}

/** Sets one setting (name, value, time: the placeholders), both SQL stores. */
export const UPSERT_SETTING_SQL = (p: (n: number) => string): string =>
  `INSERT INTO gateway_settings (name, value, updated_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;
