/**
 * Gateway settings for admins (issue 10): GET /api/console/admin/settings answers every setting as the
 * gateway applies it (a default where none is set), and POST changes the ones given (null: back to the
 * default), with its audit row (settings.change) under the admin's name. The store's change is a change
 * of every instance's snapshot: this one reloads it before answering, the others within a second.
 */
import type { SettingChanges } from '../store/types.ts';
import { changeSettings, retentionDays, type AdminSettings } from '../settings.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler } from './api.ts';
import { money } from './consoleCatalog.ts';
import { balanceField, refusal } from './consoleSchemas.ts';

function settingsView(gw: Gateway, settings: AdminSettings) {
  return {
    object: 'console.settings' as const, sign_up: settings.signUp, new_user_balance: money(settings.newUserBalance), log_retention_days: settings.logRetentionDays,
    notice: settings.notice, defaults: [...settings.defaults], log_retention_days_in_effect: retentionDays(settings, gw.logRetentionDays),
  };
}

export const adminSettings: ApiHandler<'getSettings'> = async (gw) => {
  await gw.catalog.settled();
  return { body: settingsView(gw, gw.catalog.settings) };
};

export const adminChangeSettings: ApiHandler<'changeSettings'> = async (gw, _ctx, { caller, body }) => {
  const changes: SettingChanges = {
    ...(body.sign_up !== undefined ? { sign_up: body.sign_up } : {}),
    // Decimal USD, exact ($0 allowed: a new account may start empty).
    ...(body.new_user_balance_usd !== undefined ? { new_user_balance: body.new_user_balance_usd === null ? null : balanceField(body.new_user_balance_usd, 'new_user_balance_usd') } : {}),
    ...(body.log_retention_days !== undefined ? { log_retention_days: body.log_retention_days } : {}),
    ...(body.notice !== undefined ? { notice: body.notice } : {}),
  };
  try {
    await changeSettings(gw.store, changes, caller.acting);
  } catch (error) {
    refusal(error, 'invalid_request');
  }
  await gw.catalog.settled();
  return { body: settingsView(gw, gw.catalog.settings) };
};
