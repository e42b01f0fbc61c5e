/**
 * Invitation codes (issue 10): what a person gives to sign up while the setting sign_up is "invitation".
 * The same form as redemption codes (codes.ts: 100 random bits in Crockford's base32, typed leniently)
 * with their own prefix, MGI-XXXX-XXXX-XXXX-XXXX-XXXX, so neither is ever taken for the other; shown
 * once when made, kept by the store only as the SHA-256 of the canonical form. Making and disabling them
 * are admin actions, each written with its audit row (invitation.create, invitation.disable; never a code).
 */
import type { CodeTarget, InvitationRecord, Store } from '../store/types.ts';
import { hashRedemptionCode, newCode, normalizeCode, NO_BATCH } from './codes.ts';
import { auditEntry, type Acting } from './userAdmin.ts';

export const INVITATION_PREFIX = 'MGI';

export const newInvitationCode = (): string => newCode(INVITATION_PREFIX);

/** The store's hash of what a person typed as an invitation code; null when it cannot be one at all. */
export function invitationHashOf(typed: string): string | null {
  const canonical = normalizeCode(typed, INVITATION_PREFIX);
  return canonical === null ? null : hashRedemptionCode(canonical);
}

export interface InvitationBatchRequest {
  readonly count: number;
  readonly batch: string | null;
  readonly expiresAt: number | null;
  /** The admin who asked; null from the CLI. */
  readonly createdBy: number | null;
  readonly acting: Acting;
}

export interface MadeInvitation {
  readonly code: string;
  readonly record: InvitationRecord;
}

/** Makes `count` invitation codes in one store step and returns them with their records: the only time the codes exist outside the people they are given to. */
export async function createInvitationBatch(store: Store, request: InvitationBatchRequest): Promise<MadeInvitation[]> {
  const codes = Array.from({ length: request.count }, () => newInvitationCode());
  const audit = auditEntry(request.acting, 'invitation.create', request.batch ?? NO_BATCH, {
    batch: request.batch, count: request.count, expires_at: request.expiresAt === null ? null : new Date(request.expiresAt).toISOString(),
  });
  const records = await store.signUps.createInvitations(codes.map((code) => ({
    hash: hashRedemptionCode(code), batch: request.batch, expiresAt: request.expiresAt, createdBy: request.createdBy,
  })), audit);
  return records.map((record, i) => ({ code: codes[i]!, record }));
}

/** Disables the invitations of `target` not yet used (used ones stay used), with its audit row; how many changed. */
export async function disableUnusedInvitations(store: Store, target: CodeTarget, acting: Acting): Promise<number> {
  return store.signUps.disableInvitations(target, auditEntry(acting, 'invitation.disable', 'batch' in target ? target.batch : `invitation ${target.id}`, { ...target }));
}
