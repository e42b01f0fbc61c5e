/**
 * Who may call a route of the management API, by its row's `auth` (contract api/route.ts), and the
 * refusals in the contract's codes. Three credentials, never mixed up:
 * - an API key (`Authorization: Bearer sk-...`) is for /v1 and the console opened with a key; on the
 *   signed-in and admin routes it is 401 api_key_not_accepted;
 * - the session cookie is a signed-in user; the admin routes also want an admin (403 admin_required);
 * - an admin access token (`Authorization: Bearer mgt-...`) is an admin on the admin routes only, acting
 *   as the admin who made it while they are an enabled admin (401 invalid_admin_token, 403
 *   admin_token_revoked, admin_token_expired, admin_required); anywhere else, /v1 included, it is 401
 *   admin_token_not_accepted, and it cannot make tokens. A request carrying a token is judged by the token
 *   alone, whatever cookie rides along.
 */
import { ADMIN_TOKEN_PREFIX, type ApiAuth } from '../../contract/index.ts';
import { checkAdminToken } from '../adminTokens.ts';
import type { Acting } from '../accounts/userAdmin.ts';
import { parseAuthorization } from '../auth.ts';
import { HttpError } from '../http/errors.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { AdminTokenRecord, KeyRecord, UserRecord } from '../store/types.ts';
import { requireKey } from './common.ts';
import { optionalSession, type SignedIn } from './session.ts';

/** An admin calling the API: by session (token null) or by an admin access token (the admin who made it). */
export interface AdminCaller {
  readonly user: UserRecord;
  /** The audit log's actor, and the token's name when a token acts. */
  readonly acting: Acting;
  readonly token: AdminTokenRecord | null;
}

/**
 * The Bearer credential of the Authorization header: an admin access token, another one (an API key), or
 * none (no header, or not a Bearer one: a proxy's Basic credentials are not ours to judge).
 */
function bearerOf(ctx: RequestContext): { kind: 'token'; secret: string } | { kind: 'other' } | null {
  const header = ctx.req.headers.authorization;
  const parsed = header === undefined ? null : parseAuthorization(header);
  if (!parsed?.ok) return null;
  return parsed.secret.startsWith(ADMIN_TOKEN_PREFIX) ? { kind: 'token', secret: parsed.secret } : { kind: 'other' };
}

async function byToken(gw: Gateway, secret: string): Promise<AdminCaller> {
  const checked = await checkAdminToken(gw.store, secret, Date.now());
  if (!checked.ok) {
    if (checked.why === 'unknown') throw new HttpError('invalid_admin_token');
    if (checked.why === 'revoked') throw new HttpError('admin_token_revoked');
    if (checked.why === 'expired') throw new HttpError('admin_token_expired');
    throw new HttpError('admin_required', `The token acts as ${checked.creator ? `"${checked.creator}", who is` : 'a user who is'} no longer an enabled admin.`);
  }
  // No account on the row, as for a session (session.ts): an account's logs are its keys' requests.
  return { user: checked.user, acting: { actor: checked.user.name, viaToken: checked.token.name }, token: checked.token };
}

/** The signed-in user, or the refusal that says which credential is missing or wrong. */
async function bySession(gw: Gateway, ctx: RequestContext, bearer: ReturnType<typeof bearerOf>): Promise<SignedIn> {
  const signedIn = await optionalSession(gw, ctx);
  if (signedIn) return signedIn;
  throw new HttpError(bearer?.kind === 'other' ? 'api_key_not_accepted' : 'not_signed_in');
}

function asAdmin(signedIn: SignedIn): AdminCaller {
  if (!signedIn.user.admin) throw new HttpError('admin_required');
  return { user: signedIn.user, acting: { actor: signedIn.user.name }, token: null };
}

/** The caller `auth` asks for, or the refusal (thrown). */
export async function authenticateApi(gw: Gateway, ctx: RequestContext, auth: ApiAuth): Promise<KeyRecord | SignedIn | AdminCaller | undefined> {
  if (auth === 'public' || auth === 'sign_in') return undefined;
  if (auth === 'key') return requireKey(gw, ctx);
  const bearer = bearerOf(ctx);
  if (bearer?.kind === 'token') {
    if (auth !== 'admin') throw new HttpError('admin_token_not_accepted', auth === 'admin_session' ? 'Sign in to the console to make admin access tokens.' : 'This route takes a signed-in session.');
    return byToken(gw, bearer.secret);
  }
  const signedIn = await bySession(gw, ctx, bearer);
  return auth === 'session' ? signedIn : asAdmin(signedIn);
}
