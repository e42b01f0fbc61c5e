/**
 * Signing in to the console and a signed-in user's own account (contract 4.10): the bodies of
 * login, setup, sign-up and the password change, and what they, the session question and the account answer.
 */
import { z } from 'zod';
import { ConsoleName, ConsolePassword, NewPassword } from '../admin.ts';
import { IsoTime, Money, named } from './schema.ts';
import { SIGN_UP_MODES } from './settings.ts';

export const SIGN_UP_PATH = '/api/console/signup';

/** Any password length: a short wrong one is refused as any wrong one is (401 invalid_credentials), never for its length. */
export const SignInBody = named('SignInBody', z.strictObject({ name: z.string().min(1).max(64), password: ConsolePassword }));
/** The first admin, from the setup link `serve` prints (its token is in the link's fragment). */
export const SetupBody = named('SetupBody', z.strictObject({ token: z.string().min(1).max(128), name: ConsoleName, password: NewPassword }));
/**
 * Self sign-up (when an admin turned it on): a new user on a new account of the same name. The
 * invitation code is needed, and used, only while the setting sign_up is "invitation".
 */
export const SignUpBody = named('SignUpBody', z.strictObject({ name: ConsoleName, password: NewPassword, invitation_code: z.string().min(1).max(128).optional() }));
export type SignUpBody = z.infer<typeof SignUpBody>;
/** A password change: the current password (checked), the new one (at least 10 characters). */
export const PasswordChangeBody = named('PasswordChangeBody', z.strictObject({ current: ConsolePassword, new: NewPassword }));

/** Who is signed in, as the console shows them. */
export const SessionUser = named('SessionUser', z.strictObject({ name: z.string(), admin: z.boolean(), account: z.string().nullable() }));

/** The answer of login, setup, logout, a password change and GET /api/console/session: the user, or null when nobody is signed in. */
export const SessionAnswer = named('Session', z.strictObject({
  object: z.literal('console.session'),
  user: SessionUser.nullable(),
  expires_at: IsoTime.optional().describe('when the session ends at the latest (GET /api/console/session)'),
  sign_up: z.enum(SIGN_UP_MODES).optional()
    .describe('GET /api/console/session: whether a visitor may make an account (POST /api/console/signup), and whether it takes an invitation code'),
  notice: z.string().nullable().optional().describe("GET /api/console/session: the admins' notice for the sign-in page (text), or null"),
}));

/** GET /api/console/account: the signed-in user's account and its balance as the request path sees it. */
export const AccountAnswer = named('Account', z.strictObject({
  object: z.literal('console.account'),
  account: z.strictObject({ name: z.string().nullable(), balance: z.strictObject({ remaining: Money, used: Money }) }),
}));
