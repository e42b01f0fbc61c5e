/**
 * The Store's part for invitation codes and self sign-up (issue 10), apart from types.ts so that file
 * keeps to one size. Invitations are single-use codes of the kind "invitation" (codeTypes.ts): made,
 * listed and disabled by the same machinery as redemption codes.
 */
import type { CodeFilter, CodeTarget, InvitationRecord, NewInvitation } from './codeTypes.ts';
import { StoreError, type AccountRecord, type AuditEntry, type UserRecord } from './types.ts';

/** A person making their own user, on a new account of the same name. */
export interface NewSignUp {
  readonly name: string;
  /** A slow salted hash (accounts/passwords.ts), never the password. */
  readonly passwordHash: string;
  /** Micro-USD the new account starts with (the setting new_user_balance). */
  readonly balance: number;
  /** SHA-256 of the invitation code given, to be used by this sign-up; null: none is needed. */
  readonly invitationHash: string | null;
  readonly audit?: AuditEntry;
}

export interface SignedUp {
  readonly user: UserRecord;
  readonly account: AccountRecord;
  /** The invitation as marked used (by this account and user); null when none was needed. */
  readonly invitation: InvitationRecord | null;
}

export interface SignUpStore {
  /** Invitations made in one step (all or none) with `audit`'s row; a hash taken already is a conflict. */
  createInvitations(codes: readonly NewInvitation[], audit?: AuditEntry): Promise<InvitationRecord[]>;
  listInvitations(filter: CodeFilter): Promise<InvitationRecord[]>;
  /** Disables the invitations not yet used (by id, or a batch) with `audit`'s row; how many changed. No such id or batch is not found. */
  disableInvitations(target: CodeTarget, audit?: AuditEntry): Promise<number>;
  /**
   * ONE atomic step: the invitation (when a hash is given) is marked used only if it is unused, not
   * disabled and not expired at `now`; the account (with its balance) and the user are made, and the
   * audit row written, in the same transaction. Null, and nothing changed, for an invitation that cannot
   * be used; a name taken by a user or an account is a conflict, and the invitation stays unused. So
   * however many sign-ups race for one invitation, one user is made.
   */
  signUp(request: NewSignUp, now: number): Promise<SignedUp | null>;
}

/** A sign-up's name that a user or an account has already: one refusal for both (the caller words it). */
export function signUpNameTaken(name: string): StoreError {
  return new StoreError('conflict', `the name "${name}" is taken (by a user or an account)`);
}
