/**
 * The admins' routes of the management API (contract 4.10, "Admins"): users and balances, the audit
 * log, redemption codes and admin access tokens. Each accepts an admin's session or an admin access
 * token, except making a token, which takes a session: a token cannot make another.
 */
import { NewUserBody, TopUpBody, UserAdminBody, UserNameBody, UserPasswordBody } from '../admin.ts';
import { UserAnswer, UserList, UsersQuery, TopUpAnswer } from './users.ts';
import { AuditList, AuditQuery } from './audit.ts';
import { ADMIN_CODES_DISABLE_PATH, ADMIN_CODES_PATH, CodeList, CodesDisabled, CodesQuery, CreateCodesBody, CreatedCodes, DisableCodesBody } from './codes.ts';
import { AdminTokenAnswer, AdminTokenIdBody, AdminTokenList, ADMIN_TOKENS_PATH, ADMIN_TOKENS_REVOKE_PATH, CreatedAdminToken, NewAdminTokenBody } from './tokens.ts';
import type { ApiRoute } from './route.ts';

const USERS = '/api/console/admin/users';

export const ADMIN_ROUTES = {
  listUsers: {
    method: 'GET', path: USERS, tag: 'users', summary: 'Every user, oldest first, with their account and its balance', auth: 'admin', query: UsersQuery,
    response: { status: 200, schema: UserList }, errors: [],
  },
  createUser: {
    method: 'POST', path: USERS, tag: 'users', summary: 'A new user, on a new account of their name or on an existing one', auth: 'admin', body: NewUserBody,
    response: { status: 201, schema: UserAnswer }, errors: ['user_exists', 'account_exists', 'account_not_found', 'password_too_short', 'password_checks_busy'],
  },
  disableUser: {
    method: 'POST', path: `${USERS}/disable`, tag: 'users', summary: 'Disable a user: their sessions end', auth: 'admin', body: UserNameBody,
    response: { status: 200, schema: UserAnswer }, errors: ['user_not_found', 'last_admin'],
  },
  enableUser: {
    method: 'POST', path: `${USERS}/enable`, tag: 'users', summary: 'Enable a user', auth: 'admin', body: UserNameBody,
    response: { status: 200, schema: UserAnswer }, errors: ['user_not_found'],
  },
  resetUserPassword: {
    method: 'POST', path: `${USERS}/password`, tag: 'users', summary: "Set a user's password: their sessions end", auth: 'admin', body: UserPasswordBody,
    response: { status: 200, schema: UserAnswer }, errors: ['user_not_found', 'password_too_short', 'password_checks_busy'],
  },
  setUserAdmin: {
    method: 'POST', path: `${USERS}/admin`, tag: 'users', summary: 'Grant or revoke admin', auth: 'admin', body: UserAdminBody,
    response: { status: 200, schema: UserAnswer }, errors: ['user_not_found', 'last_admin'],
  },
  topUpAccount: {
    method: 'POST', path: '/api/console/admin/accounts/topup', tag: 'users', summary: "Add USD to an account's balance", auth: 'admin', body: TopUpBody,
    response: { status: 200, schema: TopUpAnswer }, errors: ['account_not_found'],
  },
  listAudit: {
    method: 'GET', path: '/api/console/admin/audit', tag: 'audit', summary: 'Admin actions, newest first: who did what to which, and through which token', auth: 'admin', query: AuditQuery,
    response: { status: 200, schema: AuditList }, errors: [],
  },
  listCodes: {
    method: 'GET', path: ADMIN_CODES_PATH, tag: 'codes', summary: 'Redemption codes, newest first, never a code itself', auth: 'admin', query: CodesQuery,
    response: { status: 200, schema: CodeList }, errors: [],
  },
  createCodes: {
    method: 'POST', path: ADMIN_CODES_PATH, tag: 'codes', summary: 'A batch of redemption codes, answered this once', auth: 'admin', body: CreateCodesBody,
    response: { status: 201, schema: CreatedCodes }, errors: [],
  },
  disableCodes: {
    method: 'POST', path: ADMIN_CODES_DISABLE_PATH, tag: 'codes', summary: 'Stop the unused codes of an id or a batch', auth: 'admin', body: DisableCodesBody,
    response: { status: 200, schema: CodesDisabled }, errors: ['code_not_found'],
  },
  listAdminTokens: {
    method: 'GET', path: ADMIN_TOKENS_PATH, tag: 'tokens', summary: 'Every admin access token, oldest first, never a token itself', auth: 'admin',
    response: { status: 200, schema: AdminTokenList }, errors: [],
  },
  createAdminToken: {
    method: 'POST', path: ADMIN_TOKENS_PATH, tag: 'tokens', summary: 'A new admin access token acting as you: answered this once', auth: 'admin_session', body: NewAdminTokenBody,
    description: 'Only from a signed-in session: a token cannot make another token.',
    response: { status: 201, schema: CreatedAdminToken }, errors: ['admin_token_name_taken'],
  },
  revokeAdminToken: {
    method: 'POST', path: ADMIN_TOKENS_REVOKE_PATH, tag: 'tokens', summary: 'Revoke an admin access token: refused from its next request on', auth: 'admin', body: AdminTokenIdBody,
    response: { status: 200, schema: AdminTokenAnswer }, errors: ['admin_token_not_found'],
  },
} as const satisfies Record<string, ApiRoute>;
