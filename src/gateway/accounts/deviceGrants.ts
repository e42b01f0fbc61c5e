/**
 * Device sign-ins waiting for a person's answer (RFC 8628): a device (VS Code) asks, a signed-in user
 * approves or denies its user code in the console, the device polls with its device code and gets
 * its answer once.
 *
 * Kept in memory, not in the store: a request lives ten minutes, holds no money and no secret of
 * ours (the key is made only when the approved device collects it), and a restart costs the user
 * one new Sign In. That keeps the three stores and their migrations out of it; a serving instance is
 * one per store for now (docs/multi-instance.md), so no other instance needs to see these.
 *
 * Only the device code's SHA-256 is kept: a memory dump or a debugger shows no code that collects a
 * key. The number of requests is bounded, overall and per source address, so a flood fills nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { newUserCode } from './userCode.ts';
import { networkOf } from '../store/keySettings.ts';

export const DEVICE_CODE_LIFETIME_MS = 10 * 60_000;
/** RFC 8628's default polling interval, and how much each slow_down adds to it. */
export const POLL_INTERVAL_SECONDS = 5;
export const SLOW_DOWN_STEP_SECONDS = 5;
/** Requests waiting at once, in all (a few hundred bytes each). */
export const MAX_PENDING = 1000;
/** Requests waiting at once from one source address (an IPv6 address's /64): one flooder cannot take every slot. */
export const MAX_PENDING_PER_SOURCE = 10;
/** Longest client name kept (it is shown to the approver). */
export const MAX_CLIENT_NAME_LENGTH = 100;

/** What the approver decided. Models null: every model the account may use. */
export type Decision =
  | { readonly approved: true; readonly userId: number; readonly accountId: number; readonly models: readonly string[] | null }
  | { readonly approved: false };

interface Grant {
  readonly deviceHash: string;
  readonly userCode: string;
  readonly clientName: string;
  readonly source: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  intervalSeconds: number;
  lastPollAt: number | null;
  decision: Decision | null;
}

/** What the approval page shows of a waiting request. */
export interface PendingGrant {
  readonly userCode: string;
  readonly clientName: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export type StartResult =
  | { readonly started: true; readonly deviceCode: string; readonly userCode: string; readonly expiresInSeconds: number; readonly intervalSeconds: number }
  /** Too many waiting (all, or from this source): retry after this many seconds. */
  | { readonly started: false; readonly full: 'all' | 'source'; readonly retryAfterSeconds: number };

export type PollResult =
  | { readonly state: 'unknown' }
  | { readonly state: 'expired' }
  | { readonly state: 'pending' }
  | { readonly state: 'slow_down'; readonly intervalSeconds: number }
  | { readonly state: 'denied' }
  | { readonly state: 'approved'; readonly decision: Extract<Decision, { approved: true }>; readonly clientName: string };

export function hashDeviceCode(deviceCode: string): string {
  return createHash('sha256').update(deviceCode, 'utf8').digest('hex');
}

export class DeviceGrants {
  readonly #byDevice = new Map<string, Grant>();
  readonly #byUserCode = new Map<string, Grant>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Requests held now (waiting, or answered and not yet collected). */
  get size(): number {
    return this.#byDevice.size;
  }

  start(clientName: string, address: string): StartResult {
    const now = this.#now();
    const source = networkOf(address);
    this.#dropExpired(now);
    if (this.#byDevice.size >= MAX_PENDING) return { started: false, full: 'all', retryAfterSeconds: this.#secondsUntilOneEnds(now, () => true) };
    if ([...this.#byDevice.values()].filter((g) => g.source === source).length >= MAX_PENDING_PER_SOURCE) {
      return { started: false, full: 'source', retryAfterSeconds: this.#secondsUntilOneEnds(now, (g) => g.source === source) };
    }
    const deviceCode = randomBytes(32).toString('base64url');
    let userCode = newUserCode();
    // Twenty letters to the eighth power against at most a thousand held: a clash is all but impossible, and harmless to redraw.
    while (this.#byUserCode.has(userCode)) userCode = newUserCode();
    const grant: Grant = {
      deviceHash: hashDeviceCode(deviceCode), userCode, clientName: clientName.slice(0, MAX_CLIENT_NAME_LENGTH), source,
      createdAt: now, expiresAt: now + DEVICE_CODE_LIFETIME_MS, intervalSeconds: POLL_INTERVAL_SECONDS, lastPollAt: null, decision: null,
    };
    this.#byDevice.set(grant.deviceHash, grant);
    this.#byUserCode.set(userCode, grant);
    return { started: true, deviceCode, userCode, expiresInSeconds: DEVICE_CODE_LIFETIME_MS / 1000, intervalSeconds: POLL_INTERVAL_SECONDS };
  }

  /** The request waiting for an answer under this (normalized) user code; null when none is (unknown, expired, answered). */
  pending(userCode: string): PendingGrant | null {
    const grant = this.#byUserCode.get(userCode);
    if (!grant || grant.decision !== null || grant.expiresAt <= this.#now()) return null;
    return { userCode: grant.userCode, clientName: grant.clientName, createdAt: grant.createdAt, expiresAt: grant.expiresAt };
  }

  /** Records the answer; false when the code is not waiting (so a second approver, by anyone, changes nothing). */
  decide(userCode: string, decision: Decision): boolean {
    if (this.pending(userCode) === null) return false;
    this.#byUserCode.get(userCode)!.decision = decision;
    return true;
  }

  /**
   * The device's poll. An answer (approved, denied, expired) is given once: the request is gone in the
   * same synchronous step, so two concurrent polls cannot both collect a key. A poll sooner than the
   * interval after the last one is slow_down, and the interval grows for good (RFC 8628 section 3.5).
   */
  poll(deviceCode: string): PollResult {
    const now = this.#now();
    const grant = this.#byDevice.get(hashDeviceCode(deviceCode));
    if (!grant) return { state: 'unknown' };
    if (grant.expiresAt <= now) {
      this.#forget(grant);
      return { state: 'expired' };
    }
    const decision = grant.decision;
    if (decision !== null) {
      this.#forget(grant);
      return decision.approved ? { state: 'approved', decision, clientName: grant.clientName } : { state: 'denied' };
    }
    const tooSoon = grant.lastPollAt !== null && now - grant.lastPollAt < grant.intervalSeconds * 1000;
    grant.lastPollAt = now;
    if (tooSoon) {
      grant.intervalSeconds += SLOW_DOWN_STEP_SECONDS;
      return { state: 'slow_down', intervalSeconds: grant.intervalSeconds };
    }
    return { state: 'pending' };
  }

  #forget(grant: Grant): void {
    this.#byDevice.delete(grant.deviceHash);
    this.#byUserCode.delete(grant.userCode);
  }

  #dropExpired(now: number): void {
    for (const grant of this.#byDevice.values()) if (grant.expiresAt <= now) this.#forget(grant);
  }

  #secondsUntilOneEnds(now: number, which: (g: Grant) => boolean): number {
    let soonest = Infinity;
    for (const grant of this.#byDevice.values()) if (which(grant)) soonest = Math.min(soonest, grant.expiresAt);
    return Math.max(1, Math.ceil((soonest - now) / 1000));
  }
}
