/**
 * The console's management API for admins (contract 4.10, "Admins"): the bodies its routes accept, as
 * zod schemas, the audit log's actions, and the rules a user name and a password follow wherever a
 * user is made (the CLI, the first-admin setup, the console). Written once here so the gateway and
 * any client of the API read the same rules.
 */
import { z } from 'zod';
import { named } from './api/schema.ts';

/** Longer ones are refused: hashing megabytes on request is a denial of service. */
export const MAX_PASSWORD_LENGTH = 1024;

/** User, account and key names: what the CLI accepts (1 to 64 letters, digits, ".", "_", "-" or "@"). */
import { MIN_PASSWORD_LENGTH, NAME_PATTERN } from './values.ts';

export { MIN_PASSWORD_LENGTH, NAME_PATTERN };
export const ConsoleName = z.string().regex(NAME_PATTERN, 'must be 1 to 64 letters, digits, ".", "_", "-" or "@"');
/**
 * A password being checked (sign-in, the current one of a change): any length, bounded so no megabyte string
 * reaches the hash. Never refused for being short: a wrong short one is as wrong as any (401 invalid_credentials).
 */
export const ConsolePassword = z.string().min(1).max(MAX_PASSWORD_LENGTH);
/** Why a new password is refused for its length (the gateway's passwordProblem says it too). */
export const PASSWORD_TOO_SHORT = `a password has at least ${MIN_PASSWORD_LENGTH} characters`;
/**
 * A password being set (a new user, the first admin, a sign-up, a change or an admin's reset): at least
 * MIN_PASSWORD_LENGTH, as the OpenAPI document says; a shorter one is 400 password_too_short (isShortPasswordIssue).
 */
export const NewPassword = z.string().min(MIN_PASSWORD_LENGTH, { error: PASSWORD_TOO_SHORT }).max(MAX_PASSWORD_LENGTH);

/** Whether a body's zod issue is a new password's refused length: the contract's password_too_short, not a bare invalid_request. */
export function isShortPasswordIssue(issue: { readonly code: string; readonly message: string }): boolean {
  return issue.code === 'too_small' && issue.message === PASSWORD_TOO_SHORT;
}

/** The audit log's actor for a change made with the command line (a console user cannot take this name). */
export const CLI_ACTOR = 'cli';

/** Whether a user name would read as the command line's in the audit log (user names are told apart without case). */
export function isCliActorName(name: string): boolean {
  return name.toLowerCase() === CLI_ACTOR;
}

/** What the audit log records, as stable strings: clients filter on these, never on words. */
export const AUDIT_ACTIONS = [
  'user.create', 'user.disable', 'user.enable', 'user.password_reset', 'user.admin_grant', 'user.admin_revoke',
  'account.create', 'account.topup',
  'channel.add', 'channel.update', 'channel.disable', 'channel.enable', 'channel.remove',
  'model.price',
  'code.create', 'code.disable',
  'key.limits',
  'token.create', 'token.revoke',
  'settings.change', 'invitation.create', 'invitation.disable',
  // Not an admin's: a person made their own user and account (self sign-up); the actor is that new user.
  'user.sign_up',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** POST /api/console/admin/users: a new user; without `account`, an account of the user's name is made. */
export const NewUserBody = named('NewUserBody', z.strictObject({ name: ConsoleName, password: NewPassword, admin: z.boolean().optional(), account: ConsoleName.optional() }));
/** POST /api/console/admin/users/disable and /enable. */
export const UserNameBody = named('UserNameBody', z.strictObject({ name: ConsoleName }));
/** POST /api/console/admin/users/password: a new password, set by an admin (every session of the user ends). */
export const UserPasswordBody = named('UserPasswordBody', z.strictObject({ name: ConsoleName, password: NewPassword }));
/** POST /api/console/admin/users/admin: grant (true) or revoke (false) admin. */
export const UserAdminBody = named('UserAdminBody', z.strictObject({ name: ConsoleName, admin: z.boolean() }));
/**
 * POST /api/console/admin/accounts/topup. The amount in USD, as a JSON number or a decimal string
 * ("12.5"): positive, at most 6 decimals, exact in micro-USD (the gateway parses its decimal text, never a float sum).
 */
export const TopUpBody = named('TopUpBody', z.strictObject({ account: ConsoleName, amount_usd: z.union([z.number(), z.string().max(32)]) }));

export type NewUserBody = z.infer<typeof NewUserBody>;
export type TopUpBody = z.infer<typeof TopUpBody>;
