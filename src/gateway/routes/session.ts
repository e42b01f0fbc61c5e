/**
 * The steps every signed-in console endpoint starts with: the session from its cookie (401
 * not_signed_in otherwise), an admin for the admins' routes (users, the audit log, redemption codes: 403
 * admin_required otherwise), and for requests that change something, the same-origin check and a JSON
 * body of console size. Console requests are not request logs when they succeed (they would bury the
 * client requests the console is opened to find); refusals are, without the cookie or the body.
 */
import type { LiveSession } from '../accounts/sessions.ts';
import { readCookie, SESSION_COOKIE } from '../http/cookies.ts';
import { HttpError } from '../http/errors.ts';
import { parseJsonBody, readBody } from '../http/body.ts';
import { requireJsonBody, requireSameOrigin } from '../http/sameOrigin.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';

/** Console bodies are a few fields: a megabyte of "name" is refused before it is read. */
const MAX_CONSOLE_BODY_BYTES = 64 * 1024;

export interface SignedIn extends LiveSession {
  /** The cookie's session id (for sign-out); never logged, never echoed. */
  readonly id: string;
}

export async function requireSession(gw: Gateway, ctx: RequestContext): Promise<SignedIn> {
  const id = readCookie(ctx.req, SESSION_COOKIE);
  const live = id === undefined ? null : await gw.console.sessions.resolve(id);
  if (!live || id === undefined) throw new HttpError('not_signed_in');
  ctx.log.accountId = live.user.accountId;
  return { ...live, id };
}

/** A signed-in admin: 401 not_signed_in when nobody is, 403 admin_required for a user who is not an admin (read fresh from the store). */
export async function requireAdmin(gw: Gateway, ctx: RequestContext): Promise<SignedIn> {
  const signedIn = await requireSession(gw, ctx);
  if (!signedIn.user.admin) throw new HttpError('admin_required');
  return signedIn;
}

/** The JSON body of a console request that changes something, after the CSRF checks. */
export async function readConsoleJson(gw: Gateway, ctx: RequestContext): Promise<unknown> {
  requireSameOrigin(ctx.req);
  requireJsonBody(ctx.req);
  return parseJsonBody(await readBody(ctx.req, { ...gw.body, maxBytes: MAX_CONSOLE_BODY_BYTES }, ctx.started));
}

/** The source address the throttle counts by. */
export function sourceOf(ctx: RequestContext): string {
  return ctx.req.socket.remoteAddress ?? 'unknown';
}
