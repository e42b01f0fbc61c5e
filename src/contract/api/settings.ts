/**
 * Gateway settings an admin changes while the gateway runs (issue 10, contract 4.10 "Admins"), kept in
 * the store so every instance on one database reads the same: who may sign up, what a new account gets,
 * how long request logs are kept, and a notice for the sign-in page. Written once here for the gateway
 * and any client; money goes in as decimal USD and comes out both ways, as every amount of the API does.
 */
import { z } from 'zod';
import { Money, named } from './schema.ts';

export const ADMIN_SETTINGS_PATH = '/api/console/admin/settings';

/** Who may make their own account: nobody (admins make them), anyone, or whoever has an invitation code. */
import { printableWithLineBreaks, SIGN_UP_MODES, type SignUpMode } from '../values.ts';

export { printableWithLineBreaks };

export { SIGN_UP_MODES, type SignUpMode };

/** The settings by the names the API, the CLI and the audit log use. */
export const SETTING_NAMES = ['sign_up', 'new_user_balance', 'log_retention_days', 'notice'] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

export const MAX_NOTICE_LENGTH = 500;
/** Request logs are kept at most this long by a setting (100 years); 0 keeps them forever. */
export const MAX_LOG_RETENTION_DAYS = 36_500;

/**
 * A notice is shown as text on the sign-in page: lines of printable characters (a control character
 * other than a line break would be invisible there, or move the text around).
 */
export const NoticeText = z.string().max(MAX_NOTICE_LENGTH).refine((text) => printableWithLineBreaks(text) === text, 'must be printable text (line breaks allowed)');

/** POST /api/console/admin/settings: the settings to change, the others kept; null puts one back to its default. */
export const SettingsBody = named('SettingsBody', z.strictObject({
  sign_up: z.enum(SIGN_UP_MODES).nullable().optional().describe('off (the default): only admins make accounts; open: anyone; invitation: with an invitation code'),
  new_user_balance_usd: z.union([z.string().min(1).max(32), z.number()]).nullable().optional()
    .describe('what an account made by sign-up starts with, decimal USD ("0.5"; $0, the default, allowed)'),
  log_retention_days: z.int().min(0).max(MAX_LOG_RETENTION_DAYS).nullable().optional()
    .describe("request logs older than this are deleted (0 keeps them all; the default 90). serve's --log-retention-days, when given, wins"),
  notice: NoticeText.nullable().optional().describe('shown on the sign-in page; "" or null: none'),
}).refine((body) => Object.values(body).some((v) => v !== undefined), 'give at least one setting to change'));
export type SettingsBody = z.infer<typeof SettingsBody>;

/** GET and POST /api/console/admin/settings: every setting as the gateway applies it (a default where none is set). */
export const SettingsAnswer = named('Settings', z.strictObject({
  object: z.literal('console.settings'),
  sign_up: z.enum(SIGN_UP_MODES),
  new_user_balance: Money,
  log_retention_days: z.int().describe('the setting (or its default, 90)'),
  notice: z.string().nullable(),
  defaults: z.array(z.enum(SETTING_NAMES)).describe('the settings not set, at their default'),
  log_retention_days_in_effect: z.int()
    .describe("what this instance prunes by: serve's --log-retention-days when it was given, else log_retention_days"),
}));
export type SettingsAnswer = z.infer<typeof SettingsAnswer>;
