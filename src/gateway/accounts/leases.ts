/**
 * Balance leases, the policy (docs/multi-instance.md): how an instance on a shared database gets,
 * keeps and hands back the slices of balances its requests spend. The store does the locked
 * arithmetic (store/postgresLeases.ts); the ledger holds each lease in memory as `spendable`.
 *
 * The request path stays in memory: a request that fits the lease reserves from it at once. Only one
 * that does not fit waits for a take (one short transaction, shared by the requests of the same
 * account that arrive meanwhile). In the background, every tick: accounts in use whose lease runs low
 * are topped up before a request has to wait, leases unused for a while go back, the leases are
 * renewed, expired ones (a dead instance's) are reclaimed, and the reported balances are re-read.
 */
import { MAX_BALANCE_MICRO } from '../../contract/index.ts';
import type { LeaseStore, LeaseView } from '../store/instances.ts';
import type { KeyHold, Ledger, Reservation, ReservationPlan } from './ledger.ts';

export const DEFAULT_LEASE_TTL_MS = 60_000;
/** A lease holds this many seconds of an account's recent demand (at least a few requests' worth). */
const DEMAND_SECONDS = 5;
const MIN_REQUESTS_PER_LEASE = 4;

export type Plan = (available: number) => ReservationPlan | null;
export type Held = { reservation: Reservation; plan: ReservationPlan };
/** Not held: no money (403), money held elsewhere by leases or requests in flight (429, retry), the database unreachable (503). */
export type Refusal = 'insufficient' | 'in_use' | 'unavailable';

export interface LeaseOptions {
  /** A lease's life without renewal: a dead instance's money is back within about this plus a sweep. Default 60 s. */
  readonly ttlMs?: number;
  /** Runs a job in the order of the log writes and snapshot reloads (so a balance read never crosses a write's bookkeeping). */
  readonly serial: <T>(job: () => Promise<T>) => Promise<T>;
  readonly log: (line: string) => void;
}

export class Leases {
  readonly #store: LeaseStore;
  readonly #ledger: Ledger;
  readonly #serial: LeaseOptions['serial'];
  readonly #log: (line: string) => void;
  readonly ttlMs: number;
  readonly #tickMs: number;
  readonly #renewTicks: number;
  readonly #reclaimTicks: number;
  readonly #idleTicks: number;
  /** How long before its expiry this instance stops trusting an unrenewed lease. */
  readonly #marginMs: number;

  #tickNo = 0;
  readonly #lastUse = new Map<number, number>();
  /** Micro-USD of worst cases asked per account in this tick and the one before. */
  #demand = new Map<number, number>();
  #lastDemand = new Map<number, number>();
  readonly #taking = new Map<number, Promise<{ granted: number; view: LeaseView } | null>>();
  /** performance.now() of the last grant per account (a renew that began before it may not see its row). */
  readonly #grantedAt = new Map<number, number>();
  /** Until when (performance.now()) the leases are known to live. */
  #validUntil: number;
  #timer: NodeJS.Timeout | null = null;
  #ticking: Promise<void> | null = null;
  /** Where the next re-read of balances starts (LeaseStore.changedAccounts); null: read every account. */
  #horizon: string | null = null;
  #closed = false;

  constructor(store: LeaseStore, ledger: Ledger, options: LeaseOptions) {
    this.#store = store;
    this.#ledger = ledger;
    this.#serial = options.serial;
    this.#log = options.log;
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    // 60 s: tick 1 s, renew every 20 s, sweep every 10 s, trust 50 s, hand back after 5 s unused.
    this.#tickMs = Math.max(50, Math.min(1000, Math.floor(this.ttlMs / 6)));
    this.#renewTicks = Math.max(1, Math.floor(this.ttlMs / 3 / this.#tickMs));
    this.#reclaimTicks = Math.max(1, Math.floor(Math.min(10_000, this.ttlMs / 6) / this.#tickMs));
    this.#idleTicks = Math.max(2, Math.floor(Math.min(5000, this.ttlMs / 4) / this.#tickMs));
    this.#marginMs = Math.floor(this.ttlMs / 6);
    this.#validUntil = performance.now() + this.ttlMs - this.#marginMs;
  }

  start(): void {
    this.#log(`balance leases: instance ${this.#store.instance}, leases live ${this.ttlMs / 1000} s unless renewed`);
    this.#timer = setInterval(() => {
      this.#ticking ??= this.#tick().finally(() => (this.#ticking = null));
    }, this.#tickMs);
    this.#timer.unref();
  }

  /** Reserves from this instance's lease; takes more first when the request's worst case does not fit. */
  reserve(accountId: number, plan: Plan, key?: KeyHold | null): Held | Refusal | Promise<Held | Refusal> {
    const full = plan(MAX_BALANCE_MICRO);
    if (!full) return 'insufficient';
    this.#lastUse.set(accountId, this.#tickNo);
    this.#demand.set(accountId, (this.#demand.get(accountId) ?? 0) + full.amount);
    if (full.amount <= this.#ledger.available(accountId)) {
      const held = this.#ledger.reserve(accountId, plan, key);
      if (held) return held;
    }
    return this.#reserveAfterTake(accountId, plan, full.amount, key);
  }

  async #reserveAfterTake(accountId: number, plan: Plan, need: number, key?: KeyHold | null): Promise<Held | Refusal> {
    try {
      // Joining a take already under way, then (if that one was too small) one of our own.
      for (let round = 0; round < 2; round++) {
        const joined = this.#taking.get(accountId);
        const taken = await (joined ?? this.#take(accountId, need - this.#ledger.available(accountId), plan));
        const held = this.#ledger.reserve(accountId, plan, key);
        if (held) return held;
        if (!joined) return taken && plan(taken.view.balance - this.#ledger.held(accountId).pending) !== null ? 'in_use' : 'insufficient';
      }
      return 'in_use';
    } catch (error) {
      this.#log(`a balance lease could not be taken (${error instanceof Error ? error.message : String(error)}): requests that need one are refused until it can`);
      return 'unavailable';
    }
  }

  /** One take for the account at a time; `need` (micro-USD beyond the lease) may be 0 for a top-up ahead of demand. */
  #take(accountId: number, need: number, plan: Plan | null): Promise<{ granted: number; view: LeaseView } | null> {
    const taking = this.#store.take(accountId, (available) => this.#size(accountId, need, available, plan), this.ttlMs).then((result) => {
      if (result && result.granted > 0) {
        this.#ledger.grant(accountId, result.granted);
        this.#grantedAt.set(accountId, performance.now());
      }
      return result;
    }).finally(() => this.#taking.delete(accountId));
    this.#taking.set(accountId, taking);
    return taking;
  }

  /**
   * How much of `available` to take: what the request needs, plus a few seconds of the account's
   * demand, but beyond the need at most half of what is available, so that other instances find
   * their share. Nothing when even all of it would not pay for a minimal request.
   */
  #size(accountId: number, need: number, available: number, plan: Plan | null): number {
    if (available <= 0) return 0;
    if (plan && plan(this.#ledger.available(accountId) + available) === null) return 0;
    const demand = Math.max(this.#demand.get(accountId) ?? 0, this.#lastDemand.get(accountId) ?? 0);
    const target = Math.max(need * MIN_REQUESTS_PER_LEASE, Math.ceil((demand * DEMAND_SECONDS * 1000) / this.#tickMs));
    return Math.min(available, Math.max(need, Math.min(target, Math.floor(available / 2))));
  }

  async #tick(): Promise<void> {
    const tick = ++this.#tickNo;
    this.#lastDemand = this.#demand;
    this.#demand = new Map();
    await this.#step('renew the balance leases', async () => {
      if (tick % this.#renewTicks === 0) await this.#renew();
      else if (performance.now() > this.#validUntil) this.#voidAll('they could not be renewed in time');
    });
    await this.#step('top up or hand back balance leases', () => this.#topUpOrGiveBack(tick));
    if (tick % this.#reclaimTicks === 0) {
      await this.#step('reclaim expired balance leases', async () => {
        const back = await this.#store.reclaimExpired();
        if (back > 0) this.#log(`reclaimed ${back} micro-USD held by expired balance leases (an instance that stopped without handing them back)`);
      });
    }
    // The reported balance: what other instances' charges left (in the writes' order: never counted twice).
    await this.#step('re-read balances', () =>
      this.#serial(async () => {
        const { accounts, horizon } = await this.#store.changedAccounts(this.#horizon);
        this.#ledger.refresh(accounts);
        this.#horizon = horizon;
      }),
    );
  }

  async #step(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!this.#closed) this.#log(`could not ${what} (${error instanceof Error ? error.message : String(error)}); trying again`);
    }
  }

  async #renew(): Promise<void> {
    const started = performance.now();
    const present = await this.#store.renew(this.ttlMs);
    this.#validUntil = started + this.ttlMs - this.#marginMs;
    for (const accountId of this.#ledger.holding()) {
      if (present.has(accountId) || (this.#grantedAt.get(accountId) ?? -Infinity) >= started || this.#taking.has(accountId)) continue;
      if (this.#ledger.voidLease(accountId)) this.#log(`the balance lease of account ${accountId} was reclaimed (this process was paused past its expiry): a new one is taken on demand`);
    }
    if (performance.now() > this.#validUntil) {
      this.#voidAll('their renewal came back too late');
      return;
    }
    // A lease voided here while it still lived (a slow renewal) holds more than the ledger spends from:
    // the difference goes back rather than staying stuck until this instance stops.
    for (const [accountId, amount] of present) {
      const { pending, reserved } = this.#ledger.held(accountId);
      const extra = amount - this.#ledger.available(accountId);
      if (extra > 0 && pending === 0 && reserved === 0 && !this.#taking.has(accountId) && (this.#grantedAt.get(accountId) ?? -Infinity) < started) {
        await this.#store.giveBack(accountId, extra);
      }
    }
  }

  #voidAll(why: string): void {
    let voided = 0;
    for (const accountId of this.#ledger.holding()) if (this.#ledger.voidLease(accountId)) voided++;
    if (voided > 0) this.#log(`${voided} balance lease(s) no longer trusted (${why}): requests take new ones`);
  }

  async #topUpOrGiveBack(tick: number): Promise<void> {
    for (const accountId of this.#ledger.holding()) {
      if (this.#taking.has(accountId)) continue;
      const available = this.#ledger.available(accountId);
      const { pending, reserved } = this.#ledger.held(accountId);
      const idle = tick - (this.#lastUse.get(accountId) ?? -Infinity) >= this.#idleTicks;
      if (idle && pending === 0 && reserved === 0 && available > 0) {
        // Out of the ledger before the database: nothing can reserve what is on its way back.
        if (!this.#ledger.withdraw(accountId, available)) continue;
        try {
          await this.#store.giveBack(accountId, available);
          this.#lastUse.delete(accountId);
        } catch (error) {
          this.#ledger.grant(accountId, available);
          throw error;
        }
      } else if (!idle && available < this.#lastAsk(accountId)) {
        // Ahead of demand: the next requests find their money in memory.
        await this.#take(accountId, 0, null);
      }
    }
  }

  /** About one request's worth of the account's recent demand. */
  #lastAsk(accountId: number): number {
    return Math.max(this.#demand.get(accountId) ?? 0, this.#lastDemand.get(accountId) ?? 0);
  }

  /** Graceful stop, after the last log batch: every lease goes back to available money. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#ticking;
    await Promise.allSettled([...this.#taking.values()]);
    const back = await this.#store.giveBackAll();
    for (const accountId of this.#ledger.holding()) this.#ledger.cleared(accountId);
    if (back > 0) this.#log(`handed back ${back} micro-USD of balance leases`);
  }
}
