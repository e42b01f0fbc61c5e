/**
 * Failed console sign-ins, throttled per user name and per source address: a few failures are free,
 * then each further one locks that name (or address) for a doubling wait, capped, and forgotten an hour
 * after the last failure. An attacker cannot lock a real user out for good: the wait is capped, attempts
 * during a lock are refused without counting (so they do not lengthen it), and an address this user has
 * signed in from before is not held by the name's lock (only by its own address's).
 * Sign-ups count every try per address alone (beginFrom, endFrom): each one costs a password hash, and
 * makes an account that may start with money.
 * A name counts without case, as users are found (store/userNames.ts). An address counts as its network (networkOf: an IPv6 address's /64), or one client holding a /64 would have
 * 2^64 addresses' worth of free tries and sign-ups.
 * A try checked asynchronously (a password hash, a store round trip) is begun and ended (begin, end): while it is
 * checked it counts towards the free failures, so tries sent at once are held as tries sent one after another.
 * In memory: a restart forgets it, which costs an attacker a restart of the operator's gateway.
 */
import { networkOf } from '../store/keySettings.ts';

export const FREE_FAILURES_PER_NAME = 5;
export const FREE_FAILURES_PER_ADDRESS = 20;
export const FIRST_WAIT_MS = 15_000;
export const MAX_WAIT_MS = 15 * 60_000;
const FORGET_AFTER_MS = 60 * 60_000;
/** Past the free failures, a try waits this long for the one still being checked (tries are then judged one at a time). */
const PENDING_WAIT_MS = 1_000;
/** Entries kept per map at most; the oldest go first (a flood of names cannot grow memory without bound). */
const MAX_ENTRIES = 10_000;
const MAX_KNOWN_ADDRESSES_PER_NAME = 20;

interface Failures {
  count: number;
  last: number;
  lockedUntil: number;
  /** Tries begun and not yet judged: they count towards the free ones until they end. */
  pending: number;
}

/** The wait once `count` failures are counted, `free` of them without one. */
function waitAfter(count: number, free: number): number {
  return Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** (count - free));
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/** How a try begun with begin() ended. */
export type TryOutcome = 'failed' | 'right' | 'not_judged';

export class SignInThrottle {
  readonly #byName = new Map<string, Failures>();
  readonly #byAddress = new Map<string, Failures>();
  readonly #knownAddresses = new Map<string, Set<string>>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Milliseconds to wait before `name` may try from `address`, or 0 when a try is allowed now. */
  wait(name: string, address: string): number {
    const now = this.#now();
    address = networkOf(address);
    name = name.toLowerCase();
    const byAddress = this.#lockOf(this.#byAddress, address, FREE_FAILURES_PER_ADDRESS, now);
    const known = this.#knownAddresses.get(name)?.has(address) === true;
    const byName = known ? 0 : this.#lockOf(this.#byName, name, FREE_FAILURES_PER_NAME, now);
    return Math.max(byAddress, byName);
  }

  /**
   * A try that begins now: refused (the wait in ms, not counted), or held as pending until end() says how it went.
   * Pending tries count towards the free failures, so that tries sent together cannot all pass before the first of
   * them is judged (the check takes a password hash or a store round trip); a right one takes nothing away after.
   */
  begin(name: string, address: string): number {
    const wait = this.wait(name, address);
    if (wait > 0) return wait;
    this.#pend(this.#byName, name.toLowerCase(), 1);
    this.#pend(this.#byAddress, networkOf(address), 1);
    return 0;
  }

  /**
   * A try begun ends: 'failed' counts it; 'right' (a right password) forgets the name's failures and remembers the
   * address as this user's; 'not_judged' (the gateway could not check it) leaves everything as it was.
   */
  end(name: string, address: string, outcome: TryOutcome): void {
    this.#pend(this.#byName, name.toLowerCase(), -1);
    this.#pend(this.#byAddress, networkOf(address), -1);
    if (outcome === 'failed') this.failed(name, address);
    if (outcome === 'right') this.succeeded(name, address);
  }

  failed(name: string, address: string): void {
    const now = this.#now();
    this.#count(this.#byName, name.toLowerCase(), FREE_FAILURES_PER_NAME, now);
    this.#count(this.#byAddress, networkOf(address), FREE_FAILURES_PER_ADDRESS, now);
  }

  /** Milliseconds before `address` may try again by its own count alone (sign-ups: there is no name yet), or 0. */
  waitFrom(address: string): number {
    return this.#lockOf(this.#byAddress, networkOf(address), FREE_FAILURES_PER_ADDRESS, this.#now());
  }

  /** A try counted against `address` alone (sign-ups) that begins now: as begin(), refused or pending until endFrom(). */
  beginFrom(address: string): number {
    const wait = this.waitFrom(address);
    if (wait === 0) this.#pend(this.#byAddress, networkOf(address), 1);
    return wait;
  }

  /** The try begun with beginFrom() ends: `counted` when the gateway decided it (made or refused), else left uncounted. */
  endFrom(address: string, counted: boolean): void {
    this.#pend(this.#byAddress, networkOf(address), -1);
    if (counted) this.triedFrom(address);
  }

  /** One more try counted against `address` alone (its own free tries, then the same growing wait). */
  triedFrom(address: string): void {
    this.#count(this.#byAddress, networkOf(address), FREE_FAILURES_PER_ADDRESS, this.#now());
  }

  /** A right password: the name's failures are forgotten and the address remembered as this user's. */
  succeeded(name: string, address: string): void {
    name = name.toLowerCase();
    const entry = this.#byName.get(name);
    if (entry && entry.pending > 0) Object.assign(entry, { count: 0, lockedUntil: 0 });
    else this.#byName.delete(name);
    const known = this.#knownAddresses.get(name) ?? new Set<string>();
    if (known.size >= MAX_KNOWN_ADDRESSES_PER_NAME) known.delete(known.values().next().value as string);
    known.add(networkOf(address));
    remember(this.#knownAddresses, name, known);
  }

  /**
   * The wait `key` is held for: its lock; or, while tries are pending, the lock they would make were they all to fail
   * (past the free failures already, one try at a time: the next waits a second for the pending one's answer).
   */
  #lockOf(map: Map<string, Failures>, key: string, free: number, now: number): number {
    const entry = map.get(key);
    if (!entry) return 0;
    if (entry.pending === 0 && entry.lockedUntil <= now && now - entry.last > FORGET_AFTER_MS) {
      map.delete(key);
      return 0;
    }
    const locked = Math.max(0, entry.lockedUntil - now);
    if (entry.pending === 0) return locked;
    const counted = now - entry.last > FORGET_AFTER_MS ? 0 : entry.count;
    const pendingWait = counted >= free ? PENDING_WAIT_MS : counted + entry.pending >= free ? waitAfter(counted + entry.pending, free) : 0;
    return Math.max(locked, pendingWait);
  }

  #pend(map: Map<string, Failures>, key: string, by: 1 | -1): void {
    const entry = map.get(key);
    if (entry) entry.pending = Math.max(0, entry.pending + by);
    else if (by > 0) remember(map, key, { count: 0, last: 0, lockedUntil: 0, pending: 1 });
  }

  #count(map: Map<string, Failures>, key: string, free: number, now: number): void {
    const old = map.get(key);
    const entry = old ?? { count: 0, last: now, lockedUntil: 0, pending: 0 };
    // Failures an hour old are forgotten; the tries still pending are not.
    if (now - entry.last > FORGET_AFTER_MS) entry.count = 0;
    entry.count++;
    entry.last = now;
    if (entry.count >= free) entry.lockedUntil = now + waitAfter(entry.count, free);
    remember(map, key, entry);
  }
}
