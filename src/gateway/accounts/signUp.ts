/**
 * Self sign-up (issue 10): a person makes their own user, on a new account of the same name, while the
 * admins' setting sign_up allows it ("open", or "invitation" with an invitation code). The account starts
 * with the setting new_user_balance, credited in the store's same step as a top-up is (so the request
 * logs and the balance add up from there), and the sign-up is written to the audit log under the new
 * user's name (user.sign_up: the balance given, whether an invitation was used; never the code).
 *
 * What a refusal tells: a wrong invitation (mistyped, used, expired, disabled) is one answer, and it is
 * decided before any name is compared, so only a person holding a valid invitation (or anyone, when
 * sign-up is open) learns that a name is taken, the one thing a sign-up cannot help telling.
 */
import { isCliActorName, formatMicroUsd, type ErrorCode, type SignUpMode } from '../../contract/index.ts';
import { StoreError, type SignedUp, type Store } from '../store/types.ts';
import { invitationHashOf } from './invitations.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { auditEntry } from './userAdmin.ts';

export type SignUpRefusal = Extract<ErrorCode, 'sign_up_closed' | 'invitation_required' | 'invitation_invalid' | 'password_too_short' | 'sign_up_name_taken'>;

/** A sign-up refused, by its stable code. */
export class SignUpRefused extends Error {
  readonly code: SignUpRefusal;
  constructor(code: SignUpRefusal) {
    super(code);
    this.name = 'SignUpRefused';
    this.code = code;
  }
}

/** The settings a sign-up follows (../settings.ts AdminSettings has them). */
export interface SignUpSettings {
  readonly signUp: SignUpMode;
  /** Micro-USD the new account starts with. */
  readonly newUserBalance: number;
}

export interface SignUpRequest {
  readonly name: string;
  readonly password: string;
  /** As typed; used only while the setting sign_up is "invitation". */
  readonly invitationCode?: string | undefined;
}

/** Refused before any work: sign-up off, or no invitation where one is needed. Cheap (not throttled). */
export function refusedAtOnce(settings: SignUpSettings, request: SignUpRequest): SignUpRefusal | null {
  if (settings.signUp === 'off') return 'sign_up_closed';
  if (settings.signUp === 'invitation' && (request.invitationCode ?? '').trim() === '') return 'invitation_required';
  return null;
}

/** Makes the user and the account (and uses the invitation) in one store step, or throws SignUpRefused. */
export async function signUp(store: Store, settings: SignUpSettings, request: SignUpRequest, now: number): Promise<SignedUp> {
  const atOnce = refusedAtOnce(settings, request);
  if (atOnce) throw new SignUpRefused(atOnce);
  if (passwordProblem(request.password)) throw new SignUpRefused('password_too_short');
  const invited = settings.signUp === 'invitation';
  const invitationHash = invited ? invitationHashOf(request.invitationCode!) : null;
  if (invited && invitationHash === null) throw new SignUpRefused('invitation_invalid');
  // The audit log's name for the command line is no person's (users.ts refuses it alike): taken.
  if (isCliActorName(request.name)) throw new SignUpRefused('sign_up_name_taken');
  const balance = settings.newUserBalance;
  let done: SignedUp | null;
  try {
    done = await store.signUps.signUp({
      name: request.name, passwordHash: await hashPassword(request.password), balance, invitationHash,
      audit: auditEntry({ actor: request.name }, 'user.sign_up', request.name, { account: request.name, balance_micro_usd: balance, balance: formatMicroUsd(balance), invited }),
    }, now);
  } catch (error) {
    if (error instanceof StoreError && error.code === 'conflict') throw new SignUpRefused('sign_up_name_taken');
    throw error;
  }
  if (!done) throw new SignUpRefused('invitation_invalid');
  return done;
}
