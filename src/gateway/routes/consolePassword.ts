/**
 * POST /api/console/password {current, new}: a signed-in user changes their own password (issue 10,
 * contract 4.10). The console's CSRF rules apply; the current password is required and a wrong one is
 * 403 current_password_wrong (not 401: the session is still good), counted by the sign-in throttle so a
 * left-open browser cannot be used to guess it. The store ends every session of the user in the same
 * step as the change; this browser is then signed in again with a new session id, so only the others
 * are signed out. Neither password is ever logged or echoed.
 */
import { hashPassword, passwordProblem, verifyPassword } from '../accounts/passwords.ts';
import { HttpError } from '../http/errors.ts';
import type { ApiHandler } from './api.ts';
import { judged, signIn, throttled } from './consoleSession.ts';
import { sourceOf } from './session.ts';

export const changePassword: ApiHandler<'changePassword'> = async (gw, ctx, { caller: { user }, body }) => {
  const source = sourceOf(ctx);
  const throttle = gw.console.throttle;
  const wait = throttle.begin(user.name, source);
  if (wait > 0) throw throttled('sign_in_throttled', wait);
  if (!(await judged(throttle, user.name, source, () => verifyPassword(body.current, user.passwordHash)))) throw new HttpError('current_password_wrong');
  const problem = passwordProblem(body.new);
  if (problem) throw new HttpError('invalid_request', `new: ${problem}.`);
  await gw.store.setUserPassword(user.name, await hashPassword(body.new));
  return signIn(gw, ctx, user, 200);
};
