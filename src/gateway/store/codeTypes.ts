/**
 * The Store's single-use codes, apart from types.ts so that file keeps to one size: one table holds
 * them all (redemption_codes, with a `kind`), so making, listing, disabling and using a code is one
 * machinery (codeQuery.ts, sqliteCodes.ts, postgresCodes.ts, memoryCodes.ts) whatever it is for:
 *   - a redemption code (top-up) is worth `value` micro-USD to the account that redeems it first;
 *   - an invitation code lets one person sign up (signUpTypes.ts) when the setting sign_up asks for one.
 * The store keeps only the SHA-256 of a code (accounts/codes.ts, accounts/invitations.ts); the code itself is shown once.
 */
import type { CodeStatusName } from '../../contract/index.ts';
import type { AccountRecord } from './types.ts';

export type CodeKind = 'redemption' | 'invitation';

/** What every single-use code is, whatever its kind. */
export interface SingleUseCode {
  readonly id: number;
  /** SHA-256 of the code's canonical form, hex. */
  readonly hash: string;
  readonly batch: string | null;
  readonly createdAt: number;
  /** The admin user who made it; null when made with the CLI. */
  readonly createdBy: number | null;
  /** Not usable from this time on; null: never expires. */
  readonly expiresAt: number | null;
  readonly disabled: boolean;
  /** When it was used (redeemed, or signed up with); null: not yet. */
  readonly redeemedAt: number | null;
  /** The account it credited, or (an invitation) the account its sign-up made. */
  readonly redeemedAccountId: number | null;
  /** The console user who redeemed it, or (an invitation) the user its sign-up made. */
  readonly redeemedUserId: number | null;
}

/** A redemption code (top-up): single use, worth `value` micro-USD to the account that redeems it first. */
export interface RedemptionCodeRecord extends SingleUseCode {
  /** Micro-USD credited on redemption. */
  readonly value: number;
}

/** An invitation code: single use, one sign-up; it carries no money (the setting new_user_balance does). */
export type InvitationRecord = SingleUseCode;

export type NewRedemptionCode = Pick<RedemptionCodeRecord, 'hash' | 'value' | 'batch' | 'expiresAt' | 'createdBy'>;
export type NewInvitation = Pick<InvitationRecord, 'hash' | 'batch' | 'expiresAt' | 'createdBy'>;

/** The record and the new code of each kind. */
export interface CodeKinds {
  readonly redemption: { readonly record: RedemptionCodeRecord; readonly made: NewRedemptionCode };
  readonly invitation: { readonly record: InvitationRecord; readonly made: NewInvitation };
}

/** What a code is now: used wins over disabled, disabled over expired. */
export type CodeStatus = CodeStatusName;

/** Codes listed newest first, filtered; `now` decides which unused ones are expired. */
export interface CodeFilter {
  readonly batch?: string;
  readonly status?: CodeStatus;
  readonly now: number;
  /** Codes older than this id (the last of the page before). */
  readonly beforeId?: number;
  readonly limit: number;
}

/** Codes to disable: one by id, or every code of a batch. */
export type CodeTarget = { readonly id: number } | { readonly batch: string };

/** Who redeems a code: the account credited, and the console user who typed it (null: not a console user). */
export interface Redeemer {
  readonly accountId: number;
  readonly userId: number | null;
}

/** A redemption that happened: the code as marked used, and the account as credited, in one transaction. */
export interface Redemption {
  readonly code: RedemptionCodeRecord;
  readonly account: AccountRecord;
}
