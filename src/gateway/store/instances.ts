/**
 * What a store several gateway processes share (PostgreSQL) offers them besides the Store itself
 * (docs/multi-instance.md): balance leases, and the keys' limits held across instances. Apart from
 * types.ts, the one store's interface, as the parts only a shared store has.
 */
import type { AccountRecord } from './types.ts';

/** An account as a lease take saw it, under its row lock: micro-USD. */
export interface LeaseView {
  /** Settled money (what `account show` reports): includes every instance's leases. */
  readonly balance: number;
  /** In the leases of all instances together. */
  readonly leased: number;
  /** This instance's lease before the take. */
  readonly mine: number;
}

/**
 * Balance leases (docs/multi-instance.md), on a store several gateway processes share: each moves
 * slices of an account's available money (balance − leased) into a lease of its own, spends from it
 * in memory, and its write batches take their charges from it. Every operation locks the account row
 * first, so money is always in exactly one place: available, or one live lease.
 */
export interface LeaseStore {
  /** This process's instance id (random per start: a restart is a new instance). */
  readonly instance: string;
  /**
   * Locks the account, asks `decide` how much of its available money to take (0: none), moves that
   * into this instance's lease (created or topped up, expiring `ttlMs` from now by the database clock).
   * Returns what was granted and the account as seen under the lock; null when there is no such account.
   */
  take(accountId: number, decide: (available: number, view: LeaseView) => number, ttlMs: number): Promise<{ granted: number; view: LeaseView } | null>;
  /** Extends every lease of this instance to `ttlMs` from now; returns the accounts it still has a lease for, with their amounts. */
  renew(ttlMs: number): Promise<Map<number, number>>;
  /** Hands `amount` (at most the lease) back to available; the whole lease and its row when `amount` is 'all'. Returns what went back. */
  giveBack(accountId: number, amount: number | 'all'): Promise<number>;
  /** Hands every lease of this instance back (a graceful stop, after the last log batch). Returns the total. */
  giveBackAll(): Promise<number>;
  /** Any instance: returns every expired lease's money (a dead instance's) to available. Returns the total. */
  reclaimExpired(): Promise<number>;
  /**
   * The settled balances of the accounts written since `since` (a horizon an earlier call returned; null:
   * every account), read fresh, and the horizon for the next call: billing reports what other instances'
   * charges left, and re-reading every account every second cost each instance ~100 ms of CPU at 50,000.
   */
  changedAccounts(since: string | null): Promise<{ accounts: AccountRecord[]; horizon: string }>;
}

/** Another instance's rows for one key, as an exchange saw them (live instances only). */
export interface OthersClaims {
  /** Requests the others may admit in the current minute (admitted plus their unused shares). */
  readonly requests: number;
  /** Concurrent requests the others may hold. */
  readonly slots: number;
  /** How many of the others asked for more since their previous exchange. */
  readonly wanting: number;
}

/** This instance's row for one key after an exchange. */
export interface KeyClaim {
  readonly keyId: number;
  readonly requests: number;
  readonly slots: number;
  readonly wanting: boolean;
}

/**
 * Requests per minute and concurrency of keys, shared by the instances on one database
 * (docs/multi-instance.md, "Limits across instances"): each instance claims shares of a key's
 * limits; an exchange reads the others' claims and writes this instance's, under one lock.
 */
export interface KeyLimitStore {
  readonly instance: string;
  /**
   * Under the lock every instance's exchange takes: reads the claims of the other instances seen within
   * `liveMs` on `keys` (requests only of minute `window`), asks `decide` for this instance's, writes them.
   */
  exchange(window: number, keys: readonly number[], liveMs: number, decide: (others: ReadonlyMap<number, OthersClaims>) => KeyClaim[]): Promise<void>;
  /** Deletes this instance's rows (of `keys`, or all of them on a graceful stop). */
  forget(keys: readonly number[] | 'all'): Promise<void>;
  /** Deletes every instance's rows not refreshed for `olderThanMs` (dead instances'). */
  sweep(olderThanMs: number): Promise<void>;
}
