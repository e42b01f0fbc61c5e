/**
 * The admins' console (issue 10, contract 4.10 "Admins"): GET and POST /api/console/admin/users, POST
 * /api/console/admin/users/{disable,enable,password,admin} and POST /api/console/admin/accounts/topup.
 * Every route asks for a session first (401 not_signed_in) and an admin (403 admin_required), and every
 * POST then passes the console's CSRF checks (same origin, JSON only). The changes are the CLI's own
 * (accounts/users.ts, accounts/userAdmin.ts), each with its audit row under the admin's name; the
 * console's changes keep an enabled admin (409 last_admin). No password is ever echoed or recorded.
 */
import { NewUserBody, TopUpBody, UserAdminBody, UserNameBody, UserPasswordBody } from '../../contract/index.ts';
import { createUser } from '../accounts/users.ts';
import { resetPassword, setUserAdmin, setUserEnabled, topUpAccount, type Acting } from '../accounts/userAdmin.ts';
import { sendJson } from '../http/json.ts';
import { StoreError, type AccountRecord, type UserRecord } from '../store/types.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import { isoTime, money } from './consoleCatalog.ts';
import type { Handler } from './common.ts';
import { amountField, parseBody, refusal } from './consoleSchemas.ts';
import { consoleQuery, pageLimit, positiveInt, textParam } from './consoleQuery.ts';
import { readConsoleJson, requireAdmin } from './session.ts';

function userView(user: UserRecord, account: AccountRecord | undefined) {
  return {
    id: user.id, name: user.name, account: account?.name ?? null, admin: user.admin, status: user.status,
    balance: account ? money(account.balance) : null, created_at: isoTime(user.createdAt), last_sign_in_at: isoTime(user.lastSignInAt),
  };
}

/** The users with their accounts as the store holds them now (logs written first: balances are settled ones). */
async function usersWithAccounts(gw: Gateway): Promise<{ users: UserRecord[]; accounts: Map<number, AccountRecord> }> {
  await gw.logs.flush();
  const [users, snapshot] = await Promise.all([gw.store.listUsers(), gw.store.snapshot()]);
  return { users, accounts: new Map(snapshot.accounts.map((a) => [a.id, a])) };
}

async function answerUser(gw: Gateway, ctx: RequestContext, status: number, name: string): Promise<void> {
  const { users, accounts } = await usersWithAccounts(gw);
  const user = users.find((u) => u.name === name)!;
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, status, { object: 'console.user', user: userView(user, accounts.get(user.accountId)) });
}

/**
 * GET /api/console/admin/users?q=&limit=&after=: every user, oldest first, with their account and its
 * balance; `q` keeps those whose user or account name contains it (any case); pages of `limit` (1..200,
 * default 50) continued with `after` (the answer's `next_after`).
 */
export const adminUsers: Handler = async (gw, ctx) => {
  await requireAdmin(gw, ctx);
  const params = consoleQuery(ctx, ['q', 'limit', 'after']);
  const q = textParam(params, 'q', 64);
  const limit = pageLimit(params);
  const cursor = positiveInt(params, 'after', Number.MAX_SAFE_INTEGER);
  const { users, accounts } = await usersWithAccounts(gw);
  const needle = q.toLowerCase();
  const matching = users
    .filter((u) => cursor === undefined || u.id > cursor)
    .filter((u) => needle === '' || u.name.toLowerCase().includes(needle) || (accounts.get(u.accountId)?.name.toLowerCase().includes(needle) ?? false));
  const page = matching.slice(0, limit);
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'list', limit, data: page.map((u) => userView(u, accounts.get(u.accountId))), next_after: matching.length > limit ? page.at(-1)!.id : null });
};

/** POST /api/console/admin/users {name, password, admin?, account?}: 201 with the user, as the CLI's `user create` makes them. */
export const adminCreateUser: Handler = async (gw, ctx) => {
  const { user: admin } = await requireAdmin(gw, ctx);
  const body = parseBody(NewUserBody, await readConsoleJson(gw, ctx));
  try {
    await createUser(gw.store, { name: body.name, password: body.password, admin: body.admin === true, actor: admin.name, ...(body.account !== undefined ? { account: body.account } : {}) });
  } catch (error) {
    const taken = error instanceof StoreError && error.code === 'conflict' && (await gw.store.listUsers()).some((u) => u.name === body.name);
    refusal(error, 'account_not_found', taken ? 'user_exists' : 'account_exists');
  }
  await answerUser(gw, ctx, 201, body.name);
};

type UserAction = 'disable' | 'enable' | 'password' | 'admin';

/** POST /api/console/admin/users/{disable,enable,password,admin}: the user's sessions end when disabled or given a new password. */
export function adminUserAction(action: UserAction): Handler {
  return async (gw, ctx) => {
    const { user: admin } = await requireAdmin(gw, ctx);
    const json = await readConsoleJson(gw, ctx);
    const acting: Acting = { actor: admin.name, keepAnAdmin: true };
    let name: string;
    try {
      if (action === 'password') {
        const body = parseBody(UserPasswordBody, json);
        name = body.name;
        await resetPassword(gw.store, name, body.password, acting);
      } else if (action === 'admin') {
        const body = parseBody(UserAdminBody, json);
        name = body.name;
        await setUserAdmin(gw.store, name, body.admin, acting);
      } else {
        name = parseBody(UserNameBody, json).name;
        await setUserEnabled(gw.store, name, action === 'enable', acting);
      }
    } catch (error) {
      refusal(error, 'user_not_found');
    }
    await answerUser(gw, ctx, 200, name);
  };
}

/**
 * POST /api/console/admin/accounts/topup {account, amount_usd}: the CLI's `account topup`, exact in
 * micro-USD. On PostgreSQL it is the same store write (the change notified to every instance with it).
 */
export const adminTopUp: Handler = async (gw, ctx) => {
  const { user: admin } = await requireAdmin(gw, ctx);
  const body = parseBody(TopUpBody, await readConsoleJson(gw, ctx));
  const amount = amountField(body.amount_usd, 'amount_usd');
  let account: AccountRecord;
  try {
    account = await topUpAccount(gw.store, body.account, amount, { actor: admin.name });
  } catch (error) {
    refusal(error, 'account_not_found');
  }
  // This instance's request path sees the new balance from its next request on; the answer says it now.
  await gw.catalog.refresh();
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'console.account', account: { name: account.name, balance: money(account.balance) }, amount: money(amount) });
};
