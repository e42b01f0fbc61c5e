/**
 * Failed console sign-ins, throttled per user name and per source address: a few failures are free,
 * then each further one locks that name (or address) for a doubling wait, capped, and forgotten an hour
 * after the last failure. An attacker cannot lock a real user out for good: the wait is capped, attempts
 * during a lock are refused without counting (so they do not lengthen it), and an address this user has
 * signed in from before is not held by the name's lock (only by its own address's).
 * Sign-ups count every try per address alone (waitFrom, triedFrom): each one costs a password hash, and
 * makes an account that may start with money.
 * A name counts without case, as users are found (store/userNames.ts). An address counts as its network (networkOf: an IPv6 address's /64), or one client holding a /64 would have
 * 2^64 addresses' worth of free tries and sign-ups.
 * In memory: a restart forgets it, which costs an attacker a restart of the operator's gateway.
 */
import { networkOf } from '../store/keySettings.ts';

export const FREE_FAILURES_PER_NAME = 5;
export const FREE_FAILURES_PER_ADDRESS = 20;
export const FIRST_WAIT_MS = 15_000;
export const MAX_WAIT_MS = 15 * 60_000;
const FORGET_AFTER_MS = 60 * 60_000;
/** Entries kept per map at most; the oldest go first (a flood of names cannot grow memory without bound). */
const MAX_ENTRIES = 10_000;
const MAX_KNOWN_ADDRESSES_PER_NAME = 20;

interface Failures {
  count: number;
  last: number;
  lockedUntil: number;
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
    const byAddress = this.#lockOf(this.#byAddress, address, now);
    const known = this.#knownAddresses.get(name)?.has(address) === true;
    const byName = known ? 0 : this.#lockOf(this.#byName, name, now);
    return Math.max(byAddress, byName);
  }

  /**
   * A try that begins now: refused (the wait in ms, not counted) or counted as a failure at once, before its outcome
   * is known, so that tries sent together cannot all pass before the first failure is counted (the check they wait
   * for takes a password hash or a store round trip). One that turns out right calls notFailed() or succeeded().
   */
  begin(name: string, address: string): number {
    const wait = this.wait(name, address);
    if (wait === 0) this.failed(name, address);
    return wait;
  }

  /** A try begun that did not fail: its count is taken back. */
  notFailed(name: string, address: string): void {
    this.#uncount(this.#byName, name.toLowerCase(), FREE_FAILURES_PER_NAME);
    this.#uncount(this.#byAddress, networkOf(address), FREE_FAILURES_PER_ADDRESS);
  }

  failed(name: string, address: string): void {
    const now = this.#now();
    this.#count(this.#byName, name.toLowerCase(), FREE_FAILURES_PER_NAME, now);
    this.#count(this.#byAddress, networkOf(address), FREE_FAILURES_PER_ADDRESS, now);
  }

  /** Milliseconds before `address` may try again by its own count alone (sign-ups: there is no name yet), or 0. */
  waitFrom(address: string): number {
    return this.#lockOf(this.#byAddress, networkOf(address), this.#now());
  }

  /** One more try counted against `address` alone (its own free tries, then the same growing wait). */
  triedFrom(address: string): void {
    this.#count(this.#byAddress, networkOf(address), FREE_FAILURES_PER_ADDRESS, this.#now());
  }

  /** A right password, for a try begun: the name's failures are forgotten, the address's count of it taken back, and the address remembered as this user's. */
  succeeded(name: string, address: string): void {
    this.#uncount(this.#byAddress, networkOf(address), FREE_FAILURES_PER_ADDRESS);
    name = name.toLowerCase();
    this.#byName.delete(name);
    const known = this.#knownAddresses.get(name) ?? new Set<string>();
    if (known.size >= MAX_KNOWN_ADDRESSES_PER_NAME) known.delete(known.values().next().value as string);
    known.add(networkOf(address));
    remember(this.#knownAddresses, name, known);
  }

  #lockOf(map: Map<string, Failures>, key: string, now: number): number {
    const entry = map.get(key);
    if (!entry) return 0;
    if (entry.lockedUntil <= now && now - entry.last > FORGET_AFTER_MS) {
      map.delete(key);
      return 0;
    }
    return Math.max(0, entry.lockedUntil - now);
  }

  #uncount(map: Map<string, Failures>, key: string, free: number): void {
    const entry = map.get(key);
    if (!entry || entry.count === 0) return;
    entry.count--;
    entry.lockedUntil = entry.count >= free ? entry.last + waitAfter(entry.count, free) : 0;
  }

  #count(map: Map<string, Failures>, key: string, free: number, now: number): void {
    const old = map.get(key);
    const entry = old && now - old.last <= FORGET_AFTER_MS ? old : { count: 0, last: now, lockedUntil: 0 };
    entry.count++;
    entry.last = now;
    if (entry.count >= free) entry.lockedUntil = now + waitAfter(entry.count, free);
    remember(map, key, entry);
  }
}
