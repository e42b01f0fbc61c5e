/**
 * `model-gateway settings ...`: the gateway settings admins change at run time (issue 10), the same ones
 * the console's admin page changes, kept in the store (--data folder or --database): a serving gateway
 * applies a change within a second, every instance on one database too. `show [--json]` prints each
 * setting as it applies (a default where none is set); `set NAME VALUE` changes one, `unset NAME` puts
 * it back to its default, each recorded in the audit log under CLI_ACTOR.
 */
import { CLI_ACTOR, formatMicroUsd, MAX_LOG_RETENTION_DAYS, NoticeText, SETTING_NAMES, SIGN_UP_MODES, type SettingName, type SignUpMode } from '../contract/index.ts';
import { int, usdFlag, UsageError } from './cliArgs.ts';
import { changeSettings, settingsOf, type AdminSettings } from './settings.ts';
import type { SettingChanges, Store } from './store/types.ts';

interface SettingsIo {
  out: (line: string) => void;
}

export const SETTINGS_USAGE = `  settings show [--json]   the gateway settings (sign_up, new_user_balance, log_retention_days, notice), a default where none is set
  settings set NAME VALUE | unset NAME   sign_up off|open|invitation; new_user_balance USD (what a signed-up account starts with);
              log_retention_days N (0 forever; serve --log-retention-days wins when given); notice TEXT ("" for none)
`;

function settingName(value: string | undefined): SettingName {
  if (value === undefined || !(SETTING_NAMES as readonly string[]).includes(value)) {
    throw new UsageError(`settings NAME must be one of ${SETTING_NAMES.join(', ')}${value === undefined ? '' : `, got "${value}"`}`);
  }
  return value as SettingName;
}

/** VALUE as setting `name` takes it, or a UsageError saying what it accepts. */
function settingValue(name: SettingName, value: string): SettingChanges {
  if (name === 'sign_up') {
    if (!(SIGN_UP_MODES as readonly string[]).includes(value)) throw new UsageError(`sign_up must be one of ${SIGN_UP_MODES.join(', ')}, got "${value}"`);
    return { sign_up: value as SignUpMode };
  }
  if (name === 'new_user_balance') return { new_user_balance: usdFlag(value, 'new_user_balance (USD)') };
  if (name === 'log_retention_days') return { log_retention_days: int(value, 'log_retention_days', 0, 0, MAX_LOG_RETENTION_DAYS) };
  const notice = NoticeText.safeParse(value);
  if (!notice.success) throw new UsageError(`notice must be printable text (line breaks allowed) of at most 500 characters`);
  return { notice: value === '' ? null : value };
}

function lines(settings: AdminSettings): string[] {
  const shown: Record<SettingName, string> = {
    sign_up: settings.signUp, new_user_balance: formatMicroUsd(settings.newUserBalance), log_retention_days: String(settings.logRetentionDays),
    notice: settings.notice === null ? '-' : JSON.stringify(settings.notice),
  };
  return SETTING_NAMES.map((name) => `${name}\t${shown[name]}${settings.defaults.includes(name) ? '\t(default)' : ''}`);
}

export async function settings(store: Store, sub: string | undefined, args: string[], flags: { json?: boolean | undefined }, io: SettingsIo): Promise<number> {
  if (sub === 'show') {
    if (args.length > 0) throw new UsageError(`settings show takes no arguments, got "${args[0]}"`);
    const current = settingsOf(await store.settings.read());
    if (flags.json) {
      io.out(JSON.stringify({ sign_up: current.signUp, new_user_balance_micro_usd: current.newUserBalance, log_retention_days: current.logRetentionDays, notice: current.notice, defaults: current.defaults }));
    } else {
      for (const line of lines(current)) io.out(line);
    }
    return 0;
  }
  if (sub === 'set' || sub === 'unset') {
    const expected = sub === 'set' ? 2 : 1;
    if (args.length !== expected) throw new UsageError(sub === 'set' ? 'settings set takes NAME VALUE' : 'settings unset takes NAME');
    const name = settingName(args[0]);
    const changed = await changeSettings(store, sub === 'set' ? settingValue(name, args[1]!) : { [name]: null }, { actor: CLI_ACTOR });
    io.out(lines(changed).find((line) => line.startsWith(`${name}\t`))!);
    return 0;
  }
  throw new UsageError(`unknown command: settings ${sub ?? ''}`);
}
