/** The audit log's records, as every store keeps them (types.ts re-exports them with the Store interface). */
import type { AuditAction } from '../../contract/index.ts';

/**
 * An admin action for the audit log: who did what to which. Written by the store in the same
 * transaction as the change it records; `details` never holds a secret (store/audit.ts refuses
 * fields named like one).
 */
export interface AuditEntry {
  /** The console user who acted, or CLI_ACTOR for the command line. */
  readonly actor: string;
  readonly action: AuditAction;
  /** What was changed: a user's, account's, channel's or model's name. */
  readonly target: string;
  /** What else tells what the change was (an amount, the account of a new user); null or absent when nothing. */
  readonly details?: Readonly<Record<string, unknown>> | null;
  /** The name of the admin access token the actor acted through; null or absent: the console or the CLI. */
  readonly viaToken?: string | null;
}

export interface AuditRecord extends AuditEntry {
  readonly id: number;
  /** Epoch ms. */
  readonly time: number;
  readonly details: Readonly<Record<string, unknown>> | null;
  readonly viaToken: string | null;
}

/** Audit rows, newest first: by actor or action, older than `beforeId` (paging). */
export interface AuditFilter {
  readonly actor?: string;
  readonly action?: AuditAction;
  readonly beforeId?: number;
  readonly limit: number;
}
