/**
 * Keys' requests per minute and concurrency across the instances on one database, the policy
 * (docs/multi-instance.md, "Limits across instances"); the store's exchange does the locked reads
 * and writes (store/postgresKeyLimits.ts). SQLite and memory keep ratelimit.ts's limiters.
 *
 * Each instance holds, per key, a claim: requests it may admit in the current minute and concurrent
 * requests it may hold. A request inside the claim is admitted in memory. One that is not waits for
 * the next exchange (one at a time per instance, shared by every request waiting, at most one every
 * GAP_MS), which claims a share of what the other live instances have not: at most this instance's
 * demand (twice the rate asked since its last exchange, for a tick; at least a few), and at most an
 * equal part among the instances that want more. Every tick the claims are exchanged again: unused ones go back, the
 * row stays fresh. Requests count in minute windows of the instance's clock (Unix minutes).
 */
import type { KeyClaim, KeyLimitStore, OthersClaims } from '../store/instances.ts';

const TICK_MS = 1000;
/** Our claims are used only this long after the start of the last exchange that committed. */
const TRUST_MS = 2000;
/** Other instances' rows count while refreshed this recently (> TRUST_MS: never ignored while trusted). */
const LIVE_MS = 3000;
/** Exchanges a waiting request waits for at most, while the key has room but others take the shares first. */
const MAX_WAITS = 20;
/** Exchanges on demand at most this often. */
const GAP_MS = 25;
const MIN_REQUEST_SHARE = 4;

export type LimitRefusal = 'unavailable';

interface KeyState {
  rpm: number;
  concurrency: number;
  window: number;
  admitted: number;
  /** Requests this instance may admit in `window` (admitted included). */
  claim: number;
  /** Requests the others may admit in `window` and the key's rpm leaves unclaimed by anyone, at the last exchange. */
  left: number;
  active: number;
  /** Concurrent requests this instance may hold (active included). */
  slots: number;
  /** Concurrent requests the key's limit leaves unclaimed by anyone, at the last exchange. */
  slotsLeft: number;
  askedRequests: number;
  askedSlots: number;
  /** Requests waiting for an exchange now (asked before a decision that came too early for them, maybe). */
  waitingRequests: number;
  waitingSlots: number;
  /** performance.now() of the last exchange that decided this key's claims. */
  decidedAt: number;
}

const minuteOf = (ms: number): number => Math.floor(ms / 60_000);

/** An equal part of `left` among `wanting` instances: at least 1 while anything is left. */
function fairPart(left: number, wanting: number): number {
  if (left <= 0) return 0;
  return Math.max(1, Math.floor(left / wanting));
}

export class SharedLimits {
  readonly #store: KeyLimitStore;
  readonly #log: (line: string) => void;
  readonly #keys = new Map<number, KeyState>();
  #trustedUntil = -Infinity;
  #lastStart = -Infinity;
  #running: Promise<boolean> | null = null;
  #queued: Promise<boolean> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #ticks = 0;
  #failing = false;
  readonly #idle = new Set<number>();

  constructor(store: KeyLimitStore, log: (line: string) => void) {
    this.#store = store;
    this.#log = log;
  }

  start(): void {
    this.#timer = setInterval(() => {
      if (++this.#ticks % 30 === 0) void this.#store.sweep(60_000).catch(() => undefined);
      if (this.#keys.size > 0 && !this.#running) void this.#exchange();
    }, TICK_MS);
    this.#timer.unref();
  }

  #state(keyId: number): KeyState {
    let state = this.#keys.get(keyId);
    if (!state) {
      state = { rpm: 0, concurrency: 0, window: -1, admitted: 0, claim: 0, left: 0, active: 0, slots: 0, slotsLeft: 0, askedRequests: 0, askedSlots: 0, waitingRequests: 0, waitingSlots: 0, decidedAt: performance.now() };
      this.#keys.set(keyId, state);
    }
    return state;
  }

  /** Takes one request of the key's minute. 0 when admitted, else the seconds to wait; 'unavailable' when the database cannot be reached. */
  take(keyId: number, perMinute: number): number | LimitRefusal | Promise<number | LimitRefusal> {
    if (perMinute <= 0) return 0;
    const state = this.#state(keyId);
    state.rpm = perMinute;
    state.askedRequests++;
    const admitted = this.#admitRequest(state);
    if (admitted !== null) return admitted;
    state.waitingRequests++;
    return this.#waitFor(state, 'waitingRequests', () => this.#admitRequest(state) === 0, () => state.window !== minuteOf(Date.now()) || state.left > 0).then((r) =>
      r === 'unavailable' ? r : r ? 0 : this.#requestWait(state),
    );
  }

  /**
   * Waits for exchanges until `admit()` succeeds. The share an exchange claims for the requests waiting on it can be
   * taken first by requests that arrive while it commits (they are admitted in memory); while the key still has room
   * (`room()`), such a waiter waits for the next exchange instead of being refused as if the key were over its limit.
   * So does a request whose exchange decided for a minute that has ended since: the next one claims from the new minute.
   */
  async #waitFor(state: KeyState, counter: 'waitingRequests' | 'waitingSlots', admit: () => boolean, room: () => boolean): Promise<boolean | LimitRefusal> {
    try {
      for (let attempt = 0; attempt < MAX_WAITS; attempt++) {
        if (!(await this.#next())) return 'unavailable';
        if (admit()) return true;
        if (!room()) return false;
      }
      return false;
    } finally {
      state[counter]--;
    }
  }

  #admitRequest(state: KeyState): 0 | null {
    if (performance.now() > this.#trustedUntil || state.window !== minuteOf(Date.now()) || state.admitted >= state.claim) return null;
    state.admitted++;
    return 0;
  }

  /** Until the minute ends when no one has any of it left; else a second (the others' unused shares come back at their next exchange). */
  #requestWait(state: KeyState): number {
    const now = Date.now();
    if (state.window === minuteOf(now) && state.left <= 0) return Math.max(1, Math.ceil(((state.window + 1) * 60_000 - now) / 1000));
    return 1;
  }

  /** Counts a request in flight. True when under the key's limit (pair it with release()). */
  acquire(keyId: number, limit: number): boolean | LimitRefusal | Promise<boolean | LimitRefusal> {
    const state = this.#state(keyId);
    if (limit <= 0) {
      state.active++;
      return true;
    }
    state.concurrency = limit;
    state.askedSlots++;
    if (this.#admitSlot(state)) return true;
    state.waitingSlots++;
    return this.#waitFor(state, 'waitingSlots', () => this.#admitSlot(state), () => state.slotsLeft > 0);
  }

  #admitSlot(state: KeyState): boolean {
    if (performance.now() > this.#trustedUntil || state.active >= state.slots) return false;
    state.active++;
    return true;
  }

  release(keyId: number): void {
    const state = this.#keys.get(keyId);
    if (state && state.active > 0) state.active--;
  }

  /** The next exchange that starts after this call (shared by every caller meanwhile). True when it committed in time for its claims to be used. */
  #next(): Promise<boolean> {
    if (!this.#running) return this.#exchange();
    this.#queued ??= this.#running.then(() => {
      this.#queued = null;
      return this.#exchange();
    });
    return this.#queued;
  }

  #exchange(): Promise<boolean> {
    const run = (async (): Promise<boolean> => {
      const wait = this.#lastStart + GAP_MS - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const started = performance.now();
      this.#lastStart = started;
      const window = minuteOf(Date.now());
      const ids = [...this.#keys.keys()];
      try {
        await this.#store.exchange(window, ids, LIVE_MS, (others) => ids.map((id) => this.#decide(id, window, others.get(id))));
        this.#trustedUntil = started + TRUST_MS;
        if (this.#failing) this.#log('key limits are shared with the other instances again');
        this.#failing = false;
        this.#dropIdle();
        // An exchange slower than the trust window committed claims that are already too old to use: the
        // requests waiting on it are told the limits could not be shared in time (503), not that the key is over them.
        return performance.now() <= this.#trustedUntil;
      } catch (error) {
        // Claims written in memory but maybe not committed: none is used until an exchange commits.
        this.#trustedUntil = -Infinity;
        this.#idle.clear();
        if (!this.#failing) this.#log(`key limits could not be exchanged with the other instances (${error instanceof Error ? error.message : String(error)}): requests of limited keys are refused until they can`);
        this.#failing = true;
        return false;
      }
    })();
    this.#running = run;
    void run.finally(() => {
      if (this.#running === run) this.#running = null;
    });
    return run;
  }

  /** Inside the exchange's lock: this instance's new claims on a key, from what the others hold. */
  #decide(keyId: number, window: number, others: OthersClaims | undefined): KeyClaim {
    const s = this.#keys.get(keyId)!;
    if (s.window !== window) {
      s.window = window;
      s.admitted = 0;
      s.claim = 0;
    }
    const wanting = 1 + (others?.wanting ?? 0);
    // Demand: what was asked since the last exchange, and what waits now (some of it asked before that one decided).
    const wantsRequests = (s.askedRequests > 0 || s.waitingRequests > 0) && s.rpm > 0;
    const wantsSlots = (s.askedSlots > 0 || s.waitingSlots > 0) && s.concurrency > 0;
    const now = performance.now();
    if (s.rpm > 0) {
      const left = s.rpm - (others?.requests ?? 0) - s.admitted;
      // Twice the rate asked since the last exchange, for a tick: sized by what was asked in the last 25 ms alone,
      // a claim lasted about 50 ms and a fifth of a busy key's requests waited for the next exchange.
      const perTick = Math.ceil((s.askedRequests * TICK_MS) / Math.max(GAP_MS, now - s.decidedAt));
      const share = wantsRequests ? Math.min(fairPart(left, wanting), Math.max(MIN_REQUEST_SHARE, 2 * perTick, s.waitingRequests)) : 0;
      s.claim = s.admitted + share;
      s.left = left - share;
    }
    if (s.concurrency > 0) {
      const left = s.concurrency - (others?.slots ?? 0) - s.active;
      const share = wantsSlots ? Math.min(fairPart(left, wanting), Math.max(1, s.askedSlots, s.waitingSlots)) : 0;
      s.slots = s.active + share;
      s.slotsLeft = left - share;
    } else {
      s.slots = 0;
      s.slotsLeft = 0;
    }
    const wanted = wantsRequests || wantsSlots;
    if (!wanted && s.admitted === 0 && s.active === 0) this.#idle.add(keyId);
    s.askedRequests = 0;
    s.askedSlots = 0;
    s.decidedAt = now;
    return { keyId, requests: s.claim, slots: Math.max(s.slots, s.active), wanting: wanted };
  }

  /**
   * Keys that claimed nothing in the exchange just committed (nothing asked, admitted or in flight)
   * are no longer exchanged: their row (all zero) stays until the sweep. A request starts afresh.
   */
  #dropIdle(): void {
    for (const id of this.#idle) {
      const s = this.#keys.get(id);
      if (s && s.askedRequests === 0 && s.askedSlots === 0 && s.active === 0) this.#keys.delete(id);
    }
    this.#idle.clear();
  }

  /** Graceful stop: this instance's claims go back at once. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running?.catch(() => undefined);
    await this.#queued?.catch(() => undefined);
    await this.#store.forget('all');
  }
}
