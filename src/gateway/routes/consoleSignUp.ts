/**
 * POST /api/console/signup {name, password, invitation_code?} (issue 10): a visitor makes their own user,
 * on a new account of the same name, and is signed in (the session cookie exactly as at sign-in), 201.
 * Only while the admins' setting sign_up allows it (read fresh: a change on another instance is seen
 * within a second); the CSRF proof is api.ts's, by the route's auth (sign_in). Every try past the cheap
 * refusals (sign-up off, no invitation) is counted per client address, and past its free ones waits
 * (429 sign_up_throttled, Retry-After): each costs a password hash and may make an account with money.
 * The password and the invitation code are never logged or echoed.
 */
import { signUp, SignUpRefused, refusedAtOnce } from '../accounts/signUp.ts';
import { HttpError } from '../http/errors.ts';
import type { ApiHandler } from './api.ts';
import { signIn, throttled } from './consoleSession.ts';
import { sourceOf } from './session.ts';

export const signUpHandler: ApiHandler<'signUp'> = async (gw, ctx, { body }) => {
  await gw.catalog.settled();
  const settings = gw.catalog.settings;
  const request = { name: body.name, password: body.password, invitationCode: body.invitation_code };
  const atOnce = refusedAtOnce(settings, request);
  if (atOnce) throw new HttpError(atOnce);
  const throttle = gw.console.signUpThrottle;
  const source = sourceOf(ctx);
  const wait = throttle.beginFrom(source);
  if (wait > 0) throw throttled('sign_up_throttled', wait);
  // Counted once decided, made or refused; one the gateway could not take (too many passwords at once, the store) is not.
  let decided = false;
  let user;
  try {
    ({ user } = await signUp(gw.store, settings, request, Date.now()));
    decided = true;
  } catch (error) {
    decided = error instanceof SignUpRefused;
    if (error instanceof SignUpRefused) throw new HttpError(error.code);
    throw error;
  } finally {
    throttle.endFrom(source, decided);
  }
  return signIn(gw, ctx, user, 201);
};
