/**
 * Signing in to the console (issue 10): POST /api/console/login {name, password}, POST
 * /api/console/logout, GET /api/console/session, and POST /api/console/setup {token, name, password}
 * for the first admin. A wrong name and a wrong password are one answer after one password hash's
 * work; failures are throttled per name and per address before any hash is computed.
 */
import { passwordProblem, verifyAgainstNothing, verifyPassword } from '../accounts/passwords.ts';
import { SESSION_LIFETIME_MS } from '../accounts/sessions.ts';
import { createUser } from '../accounts/users.ts';
import { cameOverHttps, clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../http/cookies.ts';
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import { requireSameOrigin } from '../http/sameOrigin.ts';
import { StoreError, type UserRecord } from '../store/types.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { Handler } from './common.ts';
import { parseBody, SetupBody, SignInBody } from './consoleSchemas.ts';
import { readConsoleJson, requireSession, sourceOf } from './session.ts';
import { money } from './consoleCatalog.ts';

/** What the console shows of a user. */
function userView(gw: Gateway, user: UserRecord) {
  return { name: user.name, admin: user.admin, account: gw.catalog.account(user.accountId)?.name ?? null };
}

/** A new session for `user`, its cookie set, the user answered. A new id at every sign-in: no fixation. */
export async function signIn(gw: Gateway, ctx: RequestContext, user: UserRecord, status: number): Promise<void> {
  const id = await gw.console.sessions.start(user);
  // The catalog knows accounts made since its last load (a first admin's own account) once refreshed.
  await gw.catalog.refresh();
  ctx.res.setHeader('Set-Cookie', sessionCookie(id, Math.floor(SESSION_LIFETIME_MS / 1000), cameOverHttps(ctx.req)));
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, status, { object: 'console.session', user: userView(gw, user) });
}

export const login: Handler = async (gw, ctx) => {
  const { name, password } = parseBody(SignInBody, await readConsoleJson(gw, ctx));
  const source = sourceOf(ctx);
  const wait = gw.console.throttle.wait(name, source);
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw new HttpError('sign_in_throttled', `Try again in ${seconds} s.`, { 'Retry-After': String(seconds) });
  }
  const user = (await gw.store.listUsers()).find((u) => u.name === name);
  // The same work whether or not the user exists: the refusal's timing tells nothing.
  const right = user ? verifyPassword(password, user.passwordHash) : verifyAgainstNothing(password);
  if (!user || !right || user.status !== 'enabled') {
    gw.console.throttle.failed(name, source);
    throw new HttpError('invalid_credentials');
  }
  gw.console.throttle.succeeded(name, source);
  await signIn(gw, ctx, user, 200);
};

export const logout: Handler = async (gw, ctx) => {
  requireSameOrigin(ctx.req);
  const id = readCookie(ctx.req, SESSION_COOKIE);
  if (id !== undefined) await gw.console.sessions.end(id);
  ctx.res.setHeader('Set-Cookie', clearedSessionCookie(cameOverHttps(ctx.req)));
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'console.session', user: null });
};

/**
 * Who is signed in: the user, or `user: null` (a question with an answer, not a refusal: the page asks
 * it on every load, and a 401 there would be an error in every visitor's browser console).
 */
export const session: Handler = async (gw, ctx) => {
  const id = readCookie(ctx.req, SESSION_COOKIE);
  const live = id === undefined ? null : await gw.console.sessions.resolve(id);
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, live
    ? { object: 'console.session', user: userView(gw, live.user), expires_at: new Date(live.session.expiresAt).toISOString() }
    : { object: 'console.session', user: null });
};

/**
 * The first admin, from the setup link. The link is checked before anything is written and used
 * (synchronously, so two requests cannot both pass) only once the request is otherwise acceptable:
 * a refused password does not burn it.
 */
export const setup: Handler = async (gw, ctx) => {
  const body = parseBody(SetupBody, await readConsoleJson(gw, ctx));
  const link = gw.console.setup;
  const hasAdmin = (await gw.store.listUsers()).some((u) => u.admin);
  if (!link || hasAdmin || !link.accepts(body.token)) throw new HttpError('setup_link_invalid');
  // Validation first (password length, name free), then the link is spent, then the user is made.
  const nameTaken = (await gw.store.listUsers()).some((u) => u.name === body.name);
  const problem = passwordProblem(body.password) ?? (nameTaken ? `a user named "${body.name}" already exists` : null);
  if (problem) throw new HttpError('invalid_request', `${problem}.`);
  if (!link.use(body.token)) throw new HttpError('setup_link_invalid');
  let user: UserRecord;
  try {
    user = await createUser(gw.store, { name: body.name, password: body.password, admin: true, joinOwnNameAccount: true });
  } catch (error) {
    if (error instanceof StoreError) throw new HttpError('invalid_request', `${error.message}.`);
    throw error;
  }
  await signIn(gw, ctx, user, 201);
};

/** GET /api/console/account: the signed-in user's account and its balance, as the request path sees it (a top-up at once). */
export const account: Handler = async (gw, ctx) => {
  const { user } = await requireSession(gw, ctx);
  await gw.catalog.refresh();
  const { balance, spent } = gw.ledger.balances(user.accountId);
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'console.account', account: { name: gw.catalog.account(user.accountId)?.name ?? null, balance: { remaining: money(balance), used: money(spent) } } });
};
