/**
 * Keys' own limits on the request path (issue 10): a spending limit over a period (total, UTC day or
 * UTC month), requests per UTC day, and settled tokens per minute. In memory, exact, with no database
 * round trip per request:
 *
 * - A key's state is loaded once per period and day (one store query, key_usage, plus what this process
 *   charged it but has not written yet), then kept as requests are admitted and charges settle.
 * - Spending mirrors the ledger: a request holds its reservation against the key while in flight
 *   (`reserved`), and settles to its real cost (`spent`); what is left is limit − spent − reserved, so
 *   concurrent requests can never take a key past its limit. The reservation's completion cap is lowered
 *   to what is left, as it is to what the balance affords.
 * - On a store several instances share (PostgreSQL), every `refreshMs` the usage of the keys in use is
 *   read again and what the others wrote since is added (docs/multi-instance.md gives the tolerance).
 *
 * Keys with none of these limits have no state and cost nothing.
 */
import { countsAsRequest, DAY_MS, dayOf, periodStartDay, type SpendPeriod } from '../store/keySettings.ts';
import type { KeyRecord, RequestLog, Store } from '../store/types.ts';
import type { KeyHold } from './ledger.ts';

/** Whether the key has a limit that needs a state here (the request path's one check for the others). */
export function hasOwnLimits(key: KeyRecord): boolean {
  return key.spendLimit !== null || key.rpd > 0 || key.tpm > 0;
}

export interface KeyState {
  readonly keyId: number;
  period: SpendPeriod;
  /** First UTC day of the spending period (0: since ever); -1 before the first load. */
  since: number;
  /** The UTC day `requests` counts. */
  day: number;
  /** Micro-USD charged in the period (settled). */
  spent: number;
  /** Micro-USD held by requests in flight. */
  reserved: number;
  /** Requests of `day`. */
  requests: number;
  /** Settled tokens of `minute`. */
  minute: number;
  tokens: number;
  /** The store's numbers at the last read, and this process's writes since (to tell the others' writes apart). */
  dbSpent: number;
  dbRequests: number;
  writtenSpent: number;
  writtenRequests: number;
  lastUse: number;
  loading: { readonly period: SpendPeriod; readonly since: number; readonly day: number; readonly promise: Promise<KeyState> } | null;
}

/** Refused by a rate limit of the key's own: which, the seconds to wait, and words for the message. */
export interface RateRefusal {
  readonly limit: 'rpd' | 'tpm';
  readonly wait: number;
  readonly detail: string;
}

export interface KeyUsageOptions {
  /** Runs a job in the order of the log writes (a read never crosses a write's bookkeeping). */
  readonly serial: <T>(job: () => Promise<T>) => Promise<T>;
  /** This process's charges and requests of the key, logged but not written yet: since a time (epoch ms), and on a UTC day. */
  readonly unwritten: (keyId: number, sinceMs: number, day: number) => { spent: number; requests: number };
  /** The clock periods and days are read from (tests move it). Default Date.now. */
  readonly clock?: () => number;
  /** Several instances on the store: re-read the usage of keys in use this often. 0 (default): never, memory is exact. */
  readonly refreshMs?: number;
  readonly log?: (line: string) => void;
}

/** A key unused this long is no longer re-read (several instances); it is loaded again at its next request. */
const IDLE_MS = 120_000;

export class KeyUsage {
  readonly #store: Store;
  readonly #keys = new Map<number, KeyState>();
  readonly #serial: KeyUsageOptions['serial'];
  readonly #unwritten: KeyUsageOptions['unwritten'];
  readonly #clock: () => number;
  readonly #refreshMs: number;
  readonly #log: (line: string) => void;
  #timer: NodeJS.Timeout | null = null;
  #refreshing: Promise<void> | null = null;
  #failing = false;

  constructor(store: Store, options: KeyUsageOptions) {
    this.#store = store;
    this.#serial = options.serial;
    this.#unwritten = options.unwritten;
    this.#clock = options.clock ?? Date.now;
    this.#refreshMs = options.refreshMs ?? 0;
    this.#log = options.log ?? (() => undefined);
  }

  now(): number {
    return this.#clock();
  }

  start(): void {
    if (this.#refreshMs <= 0) return;
    this.#timer = setInterval(() => {
      this.#refreshing ??= this.#refresh().finally(() => (this.#refreshing = null));
    }, this.#refreshMs);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#refreshing;
  }

  /** The key's state for the current period and day: at hand, or (once per period and day) loaded first. */
  state(key: KeyRecord): KeyState | Promise<KeyState> {
    const now = this.#clock();
    const since = periodStartDay(key.spendPeriod, now);
    const day = dayOf(now);
    const s = this.#keys.get(key.id);
    if (s && s.since === since && s.day === day && s.period === key.spendPeriod) {
      s.lastUse = now;
      return s;
    }
    return this.#load(key.id, key.spendPeriod, since, day);
  }

  #load(keyId: number, period: SpendPeriod, since: number, day: number): Promise<KeyState> {
    let s = this.#keys.get(keyId);
    if (!s) {
      s = { keyId, period, since: -1, day: -1, spent: 0, reserved: 0, requests: 0, minute: -1, tokens: 0, dbSpent: 0, dbRequests: 0, writtenSpent: 0, writtenRequests: 0, lastUse: 0, loading: null };
      this.#keys.set(keyId, s);
    }
    const pending = s.loading;
    if (pending && pending.period === period && pending.since === since && pending.day === day) return pending.promise;
    const state = s;
    const promise = this.#serial(async () => {
      const usage = (await this.#store.keyUsage([{ keyId, since, day }])).get(keyId) ?? { spent: 0, requests: 0 };
      // Synchronous from here: every charge of this process is written (in `usage`), queued (in `queued`), or settles after (added then).
      const queued = this.#unwritten(keyId, since * DAY_MS, day);
      Object.assign(state, {
        period, since, day, spent: usage.spent + queued.spent, requests: usage.requests + queued.requests,
        dbSpent: usage.spent, dbRequests: usage.requests, writtenSpent: 0, writtenRequests: 0, lastUse: this.#clock(),
      });
      return state;
    });
    const done = (): void => {
      if (state.loading?.promise === promise) state.loading = null;
    };
    promise.then(done, done);
    s.loading = { period, since, day, promise };
    return promise;
  }

  /**
   * Admits one request against the key's requests per day and tokens per minute (counting it), or says
   * which limit refuses it. Call right after state() answered, in the same synchronous step.
   */
  admit(key: KeyRecord, s: KeyState): RateRefusal | null {
    const now = this.#clock();
    if (key.tpm > 0 && s.minute === Math.floor(now / 60_000) && s.tokens >= key.tpm) {
      return { limit: 'tpm', wait: Math.max(1, Math.ceil(((s.minute + 1) * 60_000 - now) / 1000)), detail: `The limit of this key is ${key.tpm} tokens per minute (prompt and completion, counted as requests end); ${s.tokens} were used in this minute.` };
    }
    if (key.rpd > 0 && s.requests >= key.rpd) {
      const resets = (s.day + 1) * DAY_MS;
      return { limit: 'rpd', wait: Math.max(1, Math.ceil((resets - now) / 1000)), detail: `The limit of this key is ${key.rpd} requests per day (UTC); it resets at ${new Date(resets).toISOString()}.` };
    }
    s.requests++;
    return null;
  }

  /** A request admit() counted was refused after all (by the key's requests per minute): not counted. */
  unadmit(s: KeyState): void {
    if (s.requests > 0) s.requests--;
  }

  /** Settled tokens (prompt + completion) of a request that ended, for the key's tokens per minute. */
  tokensUsed(s: KeyState, tokens: number): void {
    const minute = Math.floor(this.#clock() / 60_000);
    if (s.minute !== minute) {
      s.minute = minute;
      s.tokens = 0;
    }
    s.tokens += tokens;
  }

  /** What the key may still spend in its period (micro-USD): Infinity without a spending limit. */
  left(key: KeyRecord, s: KeyState): number {
    return key.spendLimit === null ? Infinity : key.spendLimit - s.spent - s.reserved;
  }

  /** One request's hold on the key's spending, for the ledger's reservation (it holds and settles it with the account's). */
  hold(key: KeyRecord, s: KeyState): KeyHold {
    const at = this.#clock();
    return {
      left: () => this.left(key, s),
      hold: (amount) => {
        s.reserved += amount;
      },
      release: (amount, charge) => {
        s.reserved -= amount;
        // A charge of an earlier period (a request that began before the period rolled over) is not this period's.
        if (at >= s.since * DAY_MS) s.spent += charge;
      },
    };
  }

  /**
   * The catalog reloaded: the state of a key that no longer has limits of its own is dropped (its requests
   * are no longer counted here), so limits given to it again start from a fresh load. One with requests
   * still in flight is kept for them to settle, marked to be loaded again at its next use.
   */
  keysChanged(keys: readonly KeyRecord[], removed: readonly number[] | null): void {
    if (this.#keys.size === 0) return;
    const limited = new Set(keys.filter(hasOwnLimits).map((k) => k.id));
    // Only some keys were read (removed is not null): the others are as they were.
    const read = removed === null ? null : new Set([...keys.map((k) => k.id), ...removed]);
    for (const [id, s] of this.#keys) {
      if (limited.has(id) || (read !== null && !read.has(id))) continue;
      if (s.reserved === 0 && !s.loading) this.#keys.delete(id);
      else s.since = -1;
    }
  }

  /** A log batch was written (inside the serial job, right after): this process's part of what the next re-read will see. */
  written(logs: readonly RequestLog[]): void {
    if (this.#keys.size === 0) return;
    for (const l of logs) {
      const s = l.keyId === null ? undefined : this.#keys.get(l.keyId);
      if (!s) continue;
      if (l.time >= s.since * DAY_MS) s.writtenSpent += l.cost;
      if (countsAsRequest(l.errorCode) && dayOf(l.time) === s.day) s.writtenRequests++;
    }
  }

  /** Several instances: the store's usage of the keys in use read again, and what the others wrote since added. */
  async #refresh(): Promise<void> {
    try {
      await this.#serial(async () => {
        const now = this.#clock();
        for (const [id, s] of this.#keys) if (now - s.lastUse > IDLE_MS && s.reserved === 0 && !s.loading) this.#keys.delete(id);
        const states = [...this.#keys.values()].filter((s) => s.since >= 0);
        if (states.length === 0) return;
        const asked = states.map((s) => ({ keyId: s.keyId, since: s.since, day: s.day }));
        const usage = await this.#store.keyUsage(asked);
        states.forEach((s, i) => {
          if (s.since !== asked[i]!.since || s.day !== asked[i]!.day) return;
          const u = usage.get(s.keyId) ?? { spent: 0, requests: 0 };
          s.spent += u.spent - s.dbSpent - s.writtenSpent;
          s.requests += u.requests - s.dbRequests - s.writtenRequests;
          Object.assign(s, { dbSpent: u.spent, dbRequests: u.requests, writtenSpent: 0, writtenRequests: 0 });
        });
      });
      if (this.#failing) this.#log('keys\' usage is read from the database again');
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) this.#log(`keys' usage could not be read from the database (${error instanceof Error ? error.message : String(error)}): other instances' spending is seen again when it can`);
      this.#failing = true;
    }
  }
}
