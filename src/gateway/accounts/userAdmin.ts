/**
 * What an admin does to users and balances, the one way the CLI (`user disable|enable|password`,
 * `account topup`) and the admins' console do it: each change and its audit row written together by
 * the store, under the actor's name (a console user's, or CLI_ACTOR). The console asks the store to
 * keep an enabled admin (`keepAnAdmin`); the command line, the operator's way back in, does not.
 */
import { formatMicroUsd, type AuditAction } from '../../contract/index.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { StoreError, type AccountRecord, type AuditEntry, type Store } from '../store/types.ts';

/** Who acts (and through which admin access token, when a script does), and whether the change must leave an enabled admin behind. */
export interface Acting {
  readonly actor: string;
  readonly keepAnAdmin?: boolean;
  /** The name of the admin access token the actor acts through; absent or null: the console or the CLI. */
  readonly viaToken?: string | null;
}

/**
 * A setting an admin gave that the rules refuse (a price that does not apply to the model's kind, a
 * channel without a base URL): the CLI's usage error (exit 2), the console's 400 invalid_request. The
 * message names the field as the caller names it (a flag, a JSON field).
 */
export class InvalidSetting extends StoreError {
  constructor(message: string) {
    super('invalid', message);
    this.name = 'InvalidSetting';
  }
}

/** How a caller names the fields of a setting in messages: the CLI its flags, the console its JSON fields. */
export type FieldName<Field extends string> = (field: Field) => string;

/** An audit row's entry: who did what to which (through which token), with what else says what changed (never a secret). */
export function auditEntry(acting: Acting, action: AuditAction, target: string, details?: Record<string, unknown>): AuditEntry {
  return { actor: acting.actor, action, target, ...(acting.viaToken ? { viaToken: acting.viaToken } : {}), ...(details ? { details } : {}) };
}

/** The user's name as stored, for a name typed in any case (users are told apart without case); as typed when none has it. */
async function storedName(store: Store, typed: string): Promise<string> {
  return (await store.findUser({ name: typed }))?.name ?? typed;
}

/** Disables (every session of the user ends in the same step) or enables a user. */
export async function setUserEnabled(store: Store, typed: string, enabled: boolean, acting: Acting): Promise<void> {
  const name = await storedName(store, typed);
  await store.setUserStatus(name, enabled ? 'enabled' : 'disabled', { audit: auditEntry(acting, enabled ? 'user.enable' : 'user.disable', name), keepAnAdmin: acting.keepAnAdmin === true });
}

/** Grants or revokes admin. */
export async function setUserAdmin(store: Store, typed: string, admin: boolean, acting: Acting): Promise<void> {
  const name = await storedName(store, typed);
  await store.setUserAdmin(name, admin, { audit: auditEntry(acting, admin ? 'user.admin_grant' : 'user.admin_revoke', name), keepAnAdmin: acting.keepAnAdmin === true });
}

/** A new password (checked, hashed; never in the audit row): every session of the user ends in the same step. */
export async function resetPassword(store: Store, typed: string, password: string, acting: Acting): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw new StoreError('invalid', problem);
  const name = await storedName(store, typed);
  await store.setUserPassword(name, await hashPassword(password), auditEntry(acting, 'user.password_reset', name));
}

/** Adds `amount` micro-USD to the account's balance (the store refuses a bad amount or one past the ceiling). */
export async function topUpAccount(store: Store, account: string, amount: number, acting: Acting): Promise<AccountRecord> {
  return store.topUp(account, amount, auditEntry(acting, 'account.topup', account, { amount_micro_usd: amount, amount: formatMicroUsd(amount) }));
}

/** An account made with a starting balance (the CLI's `account create`). */
export async function openAccount(store: Store, account: string, balance: number, acting: Acting): Promise<AccountRecord> {
  return store.createAccount(account, balance, auditEntry(acting, 'account.create', account, { balance_micro_usd: balance, balance: formatMicroUsd(balance) }));
}
