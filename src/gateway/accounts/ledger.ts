/**
 * Money on the request path, in memory, exact. For each account:
 *   available = spendable − pending (charged, not yet written) − reserved (in flight).
 * A request reserves its worst-case cost before it is forwarded, and settles to its real cost (never
 * more than the reservation) when it ends; so the balance can never go negative, whatever the concurrency.
 *
 * One instance on its store (SQLite, memory): spendable is the balance as last read from the store.
 * Several instances on PostgreSQL (`leased`): spendable is this instance's lease, the slice of the
 * balance the database moved to it (accounts/leases.ts grants and voids it); the balance is then only
 * reported, never spent from directly. docs/multi-instance.md.
 */
import type { AccountRecord, ModelRecord } from '../store/types.ts';
import { affordableCompletionTokens, costOf } from './money.ts';

/** Completion cap when the client asks for none. */
export const DEFAULT_COMPLETION_CAP = 8192;
/** A request that cannot pay for this many completion tokens (or its own cap, if smaller) is refused. */
export const MIN_COMPLETION_TOKENS = 16;

interface AccountMoney {
  /** Settled money as last read from the store (minus what this process wrote since): what is reported. */
  balance: number;
  /** What this process may reserve from: the balance, or (leased) its lease. */
  spendable: number;
  spent: number;
  pending: number;
  reserved: number;
}

/**
 * A key's own spending limit (keyUsage.ts), held and settled with the account's money: a reservation
 * also holds its amount against the key, and settles the same charge to it.
 */
export interface KeyHold {
  /** What the key may still spend, micro-USD (Infinity: no limit). */
  left(): number;
  hold(amount: number): void;
  /** The reservation of `amount` ended with `charge` spent. */
  release(amount: number, charge: number): void;
}

export interface Reservation {
  readonly accountId: number;
  readonly amount: number;
  released: boolean;
  readonly key?: KeyHold | null;
}

export interface ReservationPlan {
  /** Micro-USD to hold. */
  readonly amount: number;
  /** Completion cap to pass to the relay; null when output is free. */
  readonly maxCompletionTokens: number | null;
}

/**
 * The largest completion cap the gateway sets: far above any model's output, and a number every store's
 * column holds (PostgreSQL's completion_cap is an integer). Without it a cheap model and a large balance
 * afforded caps of 10^10 and more: the log row was refused, and with it the batch of everyone's charges.
 */
export const MAX_COMPLETION_CAP = 1_000_000_000;

/**
 * What a provider adds to the prompt, unseen in the body, when a request carries tools (a JSON response format
 * goes to an anthropic channel as a tool too): Anthropic documents 264 to 530 tokens of tool-use system prompt,
 * by model and tool_choice, and counts them as input. Without them a small request with tools whose answer
 * filled its cap cost more than was held, and the operator paid the difference.
 */
export const TOOL_PROMPT_TOKENS = 600;

/**
 * An upper bound on the prompt tokens of a request, for its reservation: a token is at least one byte of the
 * body, plus per-message framing, plus the provider's tool prompt when it has tools.
 */
export function promptTokenBound(bodyBytes: number, messages: number, tools = false): number {
  return bodyBytes + 4 * messages + 16 + (tools ? TOOL_PROMPT_TOKENS : 0);
}

/**
 * What to reserve for a token-priced request, or null when `available` cannot pay for a minimal one. Pure.
 * `choices` answers are generated (`n`, `best_of`), each up to the completion cap. `minimalCap`: the smallest
 * cap the request can be answered with (a Messages request that thinks needs more than its least thinking budget).
 */
export function planReservation(
  available: number,
  promptEstimate: number,
  askedCap: number | null,
  priced: ModelRecord,
  choices = 1,
  minimalCap = MIN_COMPLETION_TOKENS,
): ReservationPlan | null {
  // Every prompt token may turn out to be the dearest kind of input (a cache write can cost more than plain input).
  const model = { ...priced, inputPrice: Math.max(priced.inputPrice, priced.cachedInputPrice ?? 0, priced.cacheWritePrice ?? 0) };
  // The most the model writes: a larger cap would only be refused by its upstream (a 400 the client cannot fix).
  const limit = model.maxOutputTokens ?? null;
  if (model.outputPrice === 0) {
    const amount = costOf(promptEstimate, 0, model.inputPrice, 0);
    // Free output needs no cap for money; only the model's own limit caps it.
    const cap = limit === null ? null : Math.min(askedCap ?? limit, limit);
    return amount <= available ? { amount, maxCompletionTokens: cap } : null;
  }
  const asked = askedCap ?? model.defaultMaxTokens ?? Math.min(DEFAULT_COMPLETION_CAP, model.contextLength ?? DEFAULT_COMPLETION_CAP);
  // The reservation is sized by the cap the upstream will get, so a cap the model never reaches costs nothing to hold.
  const wanted = limit === null ? asked : Math.min(asked, limit);
  const affordableTotal = affordableCompletionTokens(available, promptEstimate, model.inputPrice, model.outputPrice);
  const affordable = affordableTotal < 0 ? -1 : Math.floor(affordableTotal / choices);
  if (affordable < Math.min(wanted, minimalCap)) return null;
  const cap = Math.min(wanted, affordable, MAX_COMPLETION_CAP);
  return { amount: costOf(promptEstimate, cap * choices, model.inputPrice, model.outputPrice), maxCompletionTokens: cap };
}

/** What to reserve for `images` images of an image model priced per image, or null when `available` cannot pay for them. Pure. */
export function planImageReservation(available: number, images: number, model: ModelRecord): ReservationPlan | null {
  const amount = images * (model.imagePrice ?? 0);
  return amount <= available ? { amount, maxCompletionTokens: null } : null;
}

export class Ledger {
  readonly #accounts = new Map<number, AccountMoney>();
  /** Spending from leases (several instances on PostgreSQL) rather than from the balance. */
  readonly leased: boolean;

  constructor(options: { readonly leased?: boolean } = {}) {
    this.leased = options.leased ?? false;
  }

  /** Replaces balances with a fresh read of every account from the store (which already holds every written debit). */
  load(accounts: readonly AccountRecord[]): void {
    this.refresh(accounts);
    const seen = new Set(accounts.map((a) => a.id));
    for (const [id, money] of this.#accounts) {
      if (!seen.has(id) && money.pending === 0 && money.reserved === 0 && money.spendable <= 0) this.#accounts.delete(id);
    }
  }

  /** The same for some accounts (those written since an earlier read): the others are left as they are. */
  refresh(accounts: readonly AccountRecord[]): void {
    for (const a of accounts) {
      const money = this.#accounts.get(a.id);
      if (money) {
        money.balance = a.balance;
        money.spent = a.totalSpent;
        // A lease is granted by the database, never read from the balance.
        if (!this.leased) money.spendable = a.balance;
      } else {
        this.#accounts.set(a.id, { balance: a.balance, spendable: this.leased ? 0 : a.balance, spent: a.totalSpent, pending: 0, reserved: 0 });
      }
    }
  }

  available(accountId: number): number {
    const m = this.#accounts.get(accountId);
    return m ? m.spendable - m.pending - m.reserved : 0;
  }

  /** Charged but not yet written, and held by requests in flight. */
  held(accountId: number): { pending: number; reserved: number } {
    const m = this.#accounts.get(accountId);
    return m ? { pending: m.pending, reserved: m.reserved } : { pending: 0, reserved: 0 };
  }

  /** Leased: the database moved `amount` more into this instance's lease (call after its commit). */
  grant(accountId: number, amount: number): void {
    let m = this.#accounts.get(accountId);
    if (!m) {
      m = { balance: 0, spendable: 0, spent: 0, pending: 0, reserved: 0 };
      this.#accounts.set(accountId, m);
    }
    m.spendable += amount;
  }

  /**
   * Leased: `amount` leaves the lease (handed back, call BEFORE the database commit so that nothing
   * reserves it meanwhile; `grant` it again if the commit fails). Only what no request holds.
   */
  withdraw(accountId: number, amount: number): boolean {
    const m = this.#accounts.get(accountId);
    if (!m || amount <= 0 || amount > m.spendable - m.pending - m.reserved) return false;
    m.spendable -= amount;
    return true;
  }

  /**
   * Leased: the lease is gone or may be (reclaimed, or not renewed in time): nothing new is reserved
   * from it; what requests already hold or charged still settles. True when something was voided.
   */
  voidLease(accountId: number): boolean {
    const m = this.#accounts.get(accountId);
    if (!m || m.spendable <= m.pending + m.reserved) return false;
    m.spendable = m.pending + m.reserved;
    return true;
  }

  /** Leased: the database holds no lease of this instance for the account any more (all handed back, nothing held). */
  cleared(accountId: number): void {
    const m = this.#accounts.get(accountId);
    if (m && m.pending === 0 && m.reserved === 0) m.spendable = 0;
  }

  /** Accounts with money in this instance's hands (lease, pending or reserved). */
  holding(): number[] {
    const out: number[] = [];
    for (const [id, m] of this.#accounts) if (m.spendable > 0 || m.pending > 0 || m.reserved > 0) out.push(id);
    return out;
  }

  /** Settled balance (excludes in-flight reservations) and total spent, for the billing endpoints. */
  balances(accountId: number): { balance: number; spent: number } {
    const m = this.#accounts.get(accountId);
    return m ? { balance: m.balance - m.pending, spent: m.spent + m.pending } : { balance: 0, spent: 0 };
  }

  /**
   * Plans and holds in one synchronous step; null when the account (or `key`, whose limit the plan
   * must respect too) cannot pay for a minimal request.
   */
  reserve(accountId: number, plan: (available: number) => ReservationPlan | null, key?: KeyHold | null): { reservation: Reservation; plan: ReservationPlan } | null {
    const m = this.#accounts.get(accountId);
    if (!m) return null;
    const chosen = plan(m.spendable - m.pending - m.reserved);
    if (!chosen || chosen.amount > m.spendable - m.pending - m.reserved || (key && chosen.amount > key.left())) return null;
    m.reserved += chosen.amount;
    key?.hold(chosen.amount);
    return { reservation: { accountId, amount: chosen.amount, released: false, key: key ?? null }, plan: chosen };
  }

  /**
   * After `reserve` refused: whether the settled balance alone would pay, so that only the account's
   * requests in flight hold the money back (worth a retry, not a top-up).
   */
  heldByRequestsInFlight(accountId: number, plan: (available: number) => ReservationPlan | null): boolean {
    const m = this.#accounts.get(accountId);
    return m !== undefined && m.reserved > 0 && plan(m.balance - m.pending) !== null;
  }

  /**
   * Ends a reservation and turns `cost` (clamped to it) into a pending charge, in one step.
   * Returns the charge; the caller must log exactly that amount (the log writer then debits it).
   */
  settle(reservation: Reservation, cost: number): number {
    if (reservation.released) return 0;
    reservation.released = true;
    const m = this.#accounts.get(reservation.accountId);
    const charge = m ? Math.max(0, Math.min(cost, reservation.amount)) : 0;
    reservation.key?.release(reservation.amount, charge);
    if (!m) return 0;
    m.reserved -= reservation.amount;
    m.pending += charge;
    return charge;
  }

  /**
   * A charge that is not tied to a reservation is never made: the writer only confirms pending ones.
   * `withheld`: pending charges the account could not pay when written (logChargesWithheld.ts); they leave
   * pending (and the lease) without a debit.
   */
  written(accountId: number, amount: number, withheld = 0): void {
    const m = this.#accounts.get(accountId);
    if (!m) return;
    m.pending -= amount + withheld;
    m.balance -= amount;
    // Leased: the same batch took the charge from the lease (postgresBatch.ts), so it leaves both.
    m.spendable -= amount + withheld;
    m.spent += amount;
  }
}
