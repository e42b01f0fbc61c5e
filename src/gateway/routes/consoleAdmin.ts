/**
 * The admins' console (issue 10, contract 4.10 "Admins"): GET and POST /api/console/admin/users, POST
 * /api/console/admin/users/{disable,enable,password,admin} and POST /api/console/admin/accounts/topup.
 * Who may call them (an admin's session or admin access token) and the CSRF proof of a session's change
 * are api.ts's, by the route table. The changes are the CLI's own (accounts/users.ts,
 * accounts/userAdmin.ts), each with its audit row under the admin's name (and the token's, when a
 * script acts); the console's changes keep an enabled admin (409 last_admin). No password is ever echoed
 * or recorded.
 */
import { DEFAULT_PAGE } from '../../contract/index.ts';
import { createUser } from '../accounts/users.ts';
import { resetPassword, setUserAdmin, setUserEnabled, topUpAccount, type Acting } from '../accounts/userAdmin.ts';
import { StoreError, type AccountRecord, type UserRecord } from '../store/types.ts';
import type { UserPage, UserWithAccount } from '../store/userPages.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler } from './api.ts';
import { isoTime, money } from './consoleCatalog.ts';
import { amountField, refusal } from './consoleSchemas.ts';

function userView(user: UserRecord, account: AccountRecord | undefined) {
  return {
    id: user.id, name: user.name, account: account?.name ?? null, admin: user.admin, status: user.status,
    balance: account ? money(account.balance) : null, created_at: isoTime(user.createdAt), last_sign_in_at: isoTime(user.lastSignInAt),
  };
}

/** A page of users with their accounts as the store holds them now (logs written first: balances are settled ones). */
async function usersWithAccounts(gw: Gateway, page: UserPage): Promise<UserWithAccount[]> {
  await gw.logs.flush();
  return gw.store.pageUsers(page);
}

async function answerUser(gw: Gateway, name: string) {
  const user = (await gw.store.findUser({ name }))!;
  const [{ account }] = (await usersWithAccounts(gw, { q: '', after: user.id - 1, limit: 1 })) as [UserWithAccount];
  return { body: { object: 'console.user' as const, user: userView(user, account ?? undefined) } };
}

/**
 * GET /api/console/admin/users?q=&limit=&after=: every user, oldest first, with their account and its
 * balance; `q` keeps those whose user or account name contains it (any case); pages of `limit` (1..200,
 * default 50) continued with `after` (the answer's `next_after`).
 */
export const adminUsers: ApiHandler<'listUsers'> = async (gw, _ctx, { query }) => {
  const limit = query.limit ?? DEFAULT_PAGE;
  const matching = await usersWithAccounts(gw, { q: query.q ?? '', after: query.after, limit: limit + 1 });
  const page = matching.slice(0, limit);
  return { body: { object: 'list', limit, data: page.map(({ user, account }) => userView(user, account ?? undefined)), next_after: matching.length > limit ? page.at(-1)!.user.id : null } };
};

/** POST /api/console/admin/users {name, password, admin?, account?}: 201 with the user, as the CLI's `user create` makes them. */
export const adminCreateUser: ApiHandler<'createUser'> = async (gw, _ctx, { caller, body }) => {
  try {
    await createUser(gw.store, { name: body.name, password: body.password, admin: body.admin === true, acting: caller.acting, ...(body.account !== undefined ? { account: body.account } : {}) });
  } catch (error) {
    const taken = error instanceof StoreError && error.code === 'conflict' && (await gw.store.findUser({ name: body.name })) !== null;
    refusal(error, 'account_not_found', taken ? 'user_exists' : 'account_exists');
  }
  return answerUser(gw, body.name);
};

type UserChange = (gw: Gateway, acting: Acting, body: { name: string; password?: string; admin?: boolean }) => Promise<void>;

/** POST /api/console/admin/users/{disable,enable,password,admin}: the user's sessions end when disabled or given a new password. */
function userAction(change: UserChange): ApiHandler<'disableUser' | 'enableUser' | 'resetUserPassword' | 'setUserAdmin'> {
  return async (gw, _ctx, { caller, body }) => {
    try {
      await change(gw, { ...caller.acting, keepAnAdmin: true }, body);
    } catch (error) {
      refusal(error, 'user_not_found');
    }
    return answerUser(gw, body.name);
  };
}

export const adminDisableUser = userAction((gw, acting, { name }) => setUserEnabled(gw.store, name, false, acting));
export const adminEnableUser = userAction((gw, acting, { name }) => setUserEnabled(gw.store, name, true, acting));
export const adminResetPassword = userAction((gw, acting, { name, password }) => resetPassword(gw.store, name, password!, acting));
export const adminSetAdmin = userAction((gw, acting, { name, admin }) => setUserAdmin(gw.store, name, admin!, acting));

/**
 * POST /api/console/admin/accounts/topup {account, amount_usd}: the CLI's `account topup`, exact in
 * micro-USD. On PostgreSQL it is the same store write (the change notified to every instance with it).
 */
export const adminTopUp: ApiHandler<'topUpAccount'> = async (gw, _ctx, { caller, body }) => {
  const amount = amountField(body.amount_usd, 'amount_usd');
  let account: AccountRecord;
  try {
    account = await topUpAccount(gw.store, body.account, amount, caller.acting);
  } catch (error) {
    refusal(error, 'account_not_found');
  }
  // This instance's request path sees the new balance from its next request on; the answer says it now.
  await gw.catalog.refresh();
  return { body: { object: 'console.account', account: { name: account.name, balance: money(account.balance) }, amount: money(amount) } };
};
