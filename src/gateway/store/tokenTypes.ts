/** The Store's part for admin access tokens (issue 10), apart from types.ts so that file keeps to one size, and the refusals every store makes alike. */
import { StoreError, type AuditEntry } from './types.ts';

/**
 * An admin access token (issue 10): a script's credential for the admins' management API, acting as the
 * admin who made it. The store keeps the SHA-256 of the token, never the token.
 */
export interface AdminTokenRecord {
  readonly id: number;
  /** Unique among the tokens not revoked. */
  readonly name: string;
  /** SHA-256 of the token, hex. */
  readonly hash: string;
  /** Short non-secret start for display, "mgt-AbCd…". */
  readonly prefix: string;
  /** The admin it acts as. */
  readonly createdBy: number;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  /** Set once; a revoked token never comes back. */
  readonly revokedAt: number | null;
  /** The latest request made with it (written at most once a minute). */
  readonly lastUsedAt: number | null;
}

export type NewAdminToken = Pick<AdminTokenRecord, 'name' | 'hash' | 'prefix' | 'createdBy' | 'expiresAt'>;

/** The admin access tokens of a store; their writes are not changes of the request path's snapshot. */
export interface AdminTokenStore {
  /** A name taken by a token not revoked is a conflict; an unknown creator not found. `audit` is written in the same step. */
  create(token: NewAdminToken, audit?: AuditEntry): Promise<AdminTokenRecord>;
  /** Every token, oldest first. */
  list(): Promise<AdminTokenRecord[]>;
  findByHash(hash: string): Promise<AdminTokenRecord | null>;
  /**
   * Revokes the token `id` at `at`, with `audit`'s row in the same step; a token revoked already is answered
   * as it is, and nothing is written. No such token is not found.
   */
  revoke(id: number, at: number, audit?: AuditEntry): Promise<AdminTokenRecord>;
  /** Records use (for the list's "last used"). */
  touch(id: number, at: number): Promise<void>;
}

/** The refusal of a name a token not revoked has. */
export function nameTaken(name: string): StoreError {
  return new StoreError('conflict', `an admin access token named "${name}" exists already (not revoked)`);
}

export function noSuchToken(id: number): StoreError {
  return new StoreError('not_found', `no admin access token with id ${id}`);
}
