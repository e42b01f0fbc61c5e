/**
 * Signing in to the console (issue 10): POST /api/console/login {name, password}, POST
 * /api/console/logout, GET /api/console/session, and POST /api/console/setup {token, name, password}
 * for the first admin. A wrong name and a wrong password are one answer after one password hash's
 * work; tries are counted per name and per address as they arrive, before any hash is computed. The CSRF proof
 * and the bodies are api.ts's, by the route table.
 */
import { hashPassword, passwordProblem, verifyAgainstNothing, verifyPassword } from '../accounts/passwords.ts';
import { SESSION_LIFETIME_MS } from '../accounts/sessions.ts';
import { CLI_ACTOR, isCliActorName } from '../../contract/index.ts';
import { createUser } from '../accounts/users.ts';
import { cameOverHttps, clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../http/cookies.ts';
import { HttpError } from '../http/errors.ts';
import { StoreError, type UserRecord } from '../store/types.ts';
import type { SignInThrottle, TryOutcome } from '../accounts/signInThrottle.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler, Reply } from './api.ts';
import { optionalSession, sourceOf } from './session.ts';
import { money } from './consoleCatalog.ts';

/** What the console shows of a user. */
function userView(gw: Gateway, user: UserRecord) {
  return { name: user.name, admin: user.admin, account: gw.catalog.account(user.accountId)?.name ?? null };
}

/** A new session for `user`, answered with its cookie. A new id at every sign-in: no fixation. */
export async function signIn(gw: Gateway, ctx: RequestContext, user: UserRecord, status: number): Promise<Reply<{ object: 'console.session'; user: ReturnType<typeof userView> }>> {
  const id = await gw.console.sessions.start(user);
  // The catalog knows accounts made since its last load (a first admin's own account) once refreshed.
  await gw.catalog.refresh();
  return { status, headers: { 'Set-Cookie': sessionCookie(id, Math.floor(SESSION_LIFETIME_MS / 1000), cameOverHttps(ctx.req, ctx.trustProxy)) }, body: { object: 'console.session', user: userView(gw, user) } };
}

/** The wait before the next try when `wait` ms are left: a 429 with Retry-After in whole seconds. */
export function throttled(code: 'sign_in_throttled' | 'redemption_throttled' | 'user_code_throttled' | 'sign_up_throttled', wait: number): HttpError {
  const seconds = Math.ceil(wait / 1000);
  return new HttpError(code, `Try again in ${seconds} s.`, { 'Retry-After': String(seconds) });
}

/**
 * The check of a try begun on `throttle` (SignInThrottle.begin), and how the try ended: failed when the check says
 * wrong (null or false), `whenRight` when it says right, not judged when it threw (too many password checks at once,
 * the store): the gateway's failure, not the guess's.
 */
export async function judged<T>(throttle: SignInThrottle, name: string, source: string, check: () => Promise<T | null | false>, whenRight: TryOutcome = 'right'): Promise<T | null | false> {
  let outcome: TryOutcome = 'not_judged';
  try {
    const result = await check();
    outcome = result === null || result === false ? 'failed' : whenRight;
    return result;
  } finally {
    throttle.end(name, source, outcome);
  }
}

export const login: ApiHandler<'signIn'> = async (gw, ctx, { body: { name, password } }) => {
  const source = sourceOf(ctx);
  const throttle = gw.console.throttle;
  const wait = throttle.begin(name, source);
  if (wait > 0) throw throttled('sign_in_throttled', wait);
  const user = await judged(throttle, name, source, async () => {
    const found = await gw.store.findUser({ name });
    // The same work whether or not the user exists: the refusal's timing tells nothing.
    const right = found ? await verifyPassword(password, found.passwordHash) : await verifyAgainstNothing(password);
    return right && found?.status === 'enabled' ? found : null;
  });
  if (!user) throw new HttpError('invalid_credentials');
  return signIn(gw, ctx, user, 200);
};

export const logout: ApiHandler<'signOut'> = async (gw, ctx) => {
  const id = readCookie(ctx.req, SESSION_COOKIE);
  if (id !== undefined) await gw.console.sessions.end(id);
  return { headers: { 'Set-Cookie': clearedSessionCookie(cameOverHttps(ctx.req, ctx.trustProxy)) }, body: { object: 'console.session', user: null } };
};

/**
 * Who is signed in: the user, or `user: null` (a question with an answer, not a refusal: the page asks
 * it on every load, and a 401 there would be an error in every visitor's browser console). With what the
 * sign-in page shows everyone: whether sign-up is open (and takes an invitation), and the admins' notice.
 */
export const session: ApiHandler<'getSession'> = async (gw, ctx) => {
  const live = await optionalSession(gw, ctx);
  await gw.catalog.settled();
  const { signUp, notice } = gw.catalog.settings;
  return {
    body: live
      ? { object: 'console.session', user: userView(gw, live.user), expires_at: new Date(live.session.expiresAt).toISOString(), sign_up: signUp, notice }
      : { object: 'console.session', user: null, sign_up: signUp, notice },
  };
};

/**
 * The first admin, from the setup link. The link is checked before anything is written and used
 * (synchronously, so two requests cannot both pass) only once the request is otherwise acceptable:
 * a refused password does not burn it.
 */
export const setup: ApiHandler<'setUp'> = async (gw, ctx, { body }) => {
  const link = gw.console.setup;
  const hasAdmin = (await gw.store.listUsers()).some((u) => u.admin);
  if (!link || hasAdmin || !link.accepts(body.token)) throw new HttpError('setup_link_invalid');
  // Validation first (password length, name free), then the link is spent, then the user is made.
  const nameTaken = (await gw.store.findUser({ name: body.name })) !== null;
  const problem = passwordProblem(body.password) ?? (nameTaken ? `a user named "${body.name}" already exists` : null)
    ?? (isCliActorName(body.name) ? `"${CLI_ACTOR}" is the audit log's name for the command line: choose another user name` : null);
  if (problem) throw new HttpError('invalid_request', `${problem}.`);
  // Hashed before the link is spent: a hash refused for the moment (too many at once) leaves the link usable.
  const passwordHash = await hashPassword(body.password);
  if (!link.use(body.token)) throw new HttpError('setup_link_invalid');
  let user: UserRecord;
  try {
    // Audited as the CLI's `user create --admin` is, the new admin its own actor (as a user who signs up is).
    user = await createUser(gw.store, { name: body.name, password: body.password, passwordHash, admin: true, joinOwnNameAccount: true, acting: { actor: body.name } });
  } catch (error) {
    if (error instanceof StoreError) throw new HttpError('invalid_request', `${error.message}.`);
    throw error;
  }
  return signIn(gw, ctx, user, 201);
};

/** GET /api/console/account: the signed-in user's account and its balance, as the request path sees it (a top-up at once). */
export const account: ApiHandler<'getAccount'> = async (gw, _ctx, { caller: { user } }) => {
  await gw.catalog.refresh();
  const { balance, spent } = gw.ledger.balances(user.accountId);
  return { body: { object: 'console.account', account: { name: gw.catalog.account(user.accountId)?.name ?? null, balance: { remaining: money(balance), used: money(spent) } } } };
};
