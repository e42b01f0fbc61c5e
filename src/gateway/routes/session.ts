/**
 * The console's session, from its cookie: the signed-in user (a live session of an enabled user, read
 * fresh from the store) or nobody. Which routes want one, and the refusals when there is none, are
 * apiAuth.ts's; the CSRF proof a change made with it must carry is api.ts's.
 */
import type { LiveSession } from '../accounts/sessions.ts';
import { clientAddress } from '../http/clientAddress.ts';
import { readCookie, SESSION_COOKIE } from '../http/cookies.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';

export interface SignedIn extends LiveSession {
  /** The cookie's session id (for sign-out); never logged, never echoed. */
  readonly id: string;
}

/** The signed-in user of the request's cookie, or null (no cookie, or a session that ended). */
export async function optionalSession(gw: Gateway, ctx: RequestContext): Promise<SignedIn | null> {
  const id = readCookie(ctx.req, SESSION_COOKIE);
  const live = id === undefined ? null : await gw.console.sessions.resolve(id);
  if (!live || id === undefined) return null;
  // The log row of a console request (a refusal, a device approval) keeps no account: an account's rows are
  // the requests of its keys (contract 4.10, the Logs view and the dashboard), not what its user did in the
  // console. Such a row stays in the admins' all-logs view.
  return { ...live, id };
}

/** The source address the throttles count by: the client's, not the proxy's when the gateway is behind one (one proxy address for everyone would lock everyone out together). */
export function sourceOf(ctx: RequestContext): string {
  return clientAddress(ctx.req, ctx.trustProxy);
}
