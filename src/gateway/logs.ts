/**
 * Request logs, written in batches: one transaction holds a batch of log rows, the debit of
 * each account (the sum of those rows' costs, applied relatively so it composes with CLI
 * top-ups) and key last-use times. So the logged costs always equal the balance decrease.
 */
import { UnauthenticatedSampler } from './unauthenticated.ts';
import type { Ledger } from './accounts/ledger.ts';
import type { Serial } from './serial.ts';
import { randomUUID } from 'node:crypto';
import type { RequestLog, Store, WriteBatch } from './store/types.ts';
import { countsAsRequest, dayOf } from './store/keySettings.ts';
import { storableLog } from './storableLog.ts';
import { describeWithheld, withholdCharges } from './logChargesWithheld.ts';
import { OverdrawnBatch } from './store/types.ts';
import { isDiskFull, type DiskSpare } from './store/diskSpare.ts';
import { formatMicroUsd } from '../contract/index.ts';
import type { RequestMetrics } from './metrics/requestMetrics.ts';

const FLUSH_DELAY_MS = 20;
const MAX_BATCH = 2000;
const RETRY_DELAY_MS = 500;

export class LogWriter {
  readonly #store: Store;
  readonly #ledger: Ledger;
  readonly #serial: Serial;
  readonly #onError: (error: unknown) => void;
  #queue: RequestLog[] = [];
  #keysUsed = new Map<number, number>();
  /** A batch whose write failed: retried whole, with its id (its commit may have landed, its answer lost). */
  #retry: WriteBatch | null = null;
  /** Per account, what the retried batch withholds of the charges the ledger holds pending (logChargesWithheld.ts). */
  #withheld = new Map<number, number>();
  /** The batch handed to the serial queue and not yet written (nor failed). */
  #writing: WriteBatch | null = null;
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> | null = null;
  /** Told of every finished request as its row is made, before unauthenticated ones are sampled (`serve --metrics-port`). */
  metrics: RequestMetrics | null = null;
  /** Told of every batch written, in the write's serial job (the keys' usage, accounts/keyUsage.ts). */
  onWritten: ((logs: readonly RequestLog[]) => void) | null = null;
  /** Room on the store's disk for the batch waiting when the disk fills (a SQLite store's; store/diskSpare.ts). */
  #spare: DiskSpare | null = null;
  /** The spare room is not there (used, deleted, or no room to make it): no billable request until it is made again. */
  #spareMissing = false;
  #spareTimer: NodeJS.Timeout | null = null;
  /** Refusals for want of a store, not logged while it cannot write (their rows would take the room charges need). */
  #refusedUnlogged = 0;
  #closed = false;

  /** Samples requests without a valid key, so that a flood of them cannot fill the log. */
  readonly unauthenticated: UnauthenticatedSampler;
  readonly #notice: (line: string) => void;
  /** The fields a value was kept in range for (storableLog.ts): each is said once, not at every row. */
  readonly #misfits = new Set<string>();
  readonly #misfit = (log: RequestLog, field: string, came: unknown, kept: unknown): void => {
    if (this.#misfits.has(field)) return;
    this.#misfits.add(field);
    this.#notice(`request ${log.requestId}: its log's ${field} was ${String(came).slice(0, 40)}, which the store cannot keep; kept as ${String(kept)} (said once for ${field})`);
  };
  /** Since when writes fail (epoch ms); null while they work. */
  #failingSince: number | null = null;

  constructor(store: Store, ledger: Ledger, serial: Serial, onError: (error: unknown) => void, notice: (line: string) => void = () => undefined, unkeyedSample?: number) {
    this.#store = store;
    this.#ledger = ledger;
    this.#serial = serial;
    this.#onError = onError;
    this.unauthenticated = new UnauthenticatedSampler(notice, unkeyedSample);
    this.#notice = notice;
  }

  /** Queues a log row. Its `cost` must be a charge just settled by the ledger (now pending). */
  record(log: RequestLog, keyId: number | null): void {
    if (log.errorCode === 'store_unavailable' && !this.durable) {
      this.#refusedUnlogged++;
      return;
    }
    this.#queue.push(storableLog(log, this.#misfit));
    if (keyId !== null) this.#keysUsed.set(keyId, log.time);
    if (this.#queue.length >= MAX_BATCH) void this.flush();
    else this.#schedule(FLUSH_DELAY_MS);
  }

  /**
   * A key's charges (logged at or after `sinceMs`) and requests (logged on UTC day `day`) that are not
   * written yet: queued, waiting for a retry, or in the batch on its way. Exact inside a serial job.
   */
  unwritten(keyId: number, sinceMs: number, day: number): { spent: number; requests: number } {
    const out = { spent: 0, requests: 0 };
    const add = (logs: readonly RequestLog[]): void => {
      for (const l of logs) {
        if (l.keyId !== keyId) continue;
        if (l.time >= sinceMs) out.spent += l.cost;
        if (countsAsRequest(l.errorCode) && dayOf(l.time) === day) out.requests++;
      }
    };
    add(this.#queue);
    if (this.#retry) add(this.#retry.logs);
    if (this.#writing && this.#writing !== this.#retry) add(this.#writing.logs);
    return out;
  }

  get queued(): number {
    return this.#queue.length + (this.#retry?.logs.length ?? 0);
  }

  /**
   * False while the store cannot write: charges would only live in memory, so the gateway takes no
   * billable request until a write works again (the retries go on by themselves).
   */
  get durable(): boolean {
    return this.#failingSince === null && !this.#spareMissing;
  }

  /** Keeps `spare` on the store's disk from now on: without it (no room for it), billable requests wait for room. */
  keepSpare(spare: DiskSpare): void {
    this.#spare = spare;
    if (!spare.ensure()) this.#missingSpare('the data folder\'s disk has no room for the spare that keeps answered charges when it fills: billable requests are refused until it has; free some space');
  }

  /** The disk is full: the spare room goes, so the batch waiting is written now; it is made again once there is room. */
  #spendSpare(): boolean {
    if (!this.#spare?.release()) return false;
    this.#missingSpare(null);
    return true;
  }

  /** The refusals not logged while the store could not write, said once it can (and counted from zero again). */
  #refusedMeanwhile(): string {
    const refused = this.#refusedUnlogged;
    this.#refusedUnlogged = 0;
    return refused > 0 ? ` (${refused} refused meanwhile, not logged: their rows would have taken the room charges need)` : '';
  }

  /** The spare is not there: billable requests wait (durable is false) until it is made again, tried every RETRY_DELAY_MS. */
  #missingSpare(said: string | null): void {
    if (said) this.#notice(said);
    this.#spareMissing = true;
    this.#spareTimer ??= setInterval(() => {
      if (!this.#spare?.ensure()) return;
      this.#spareMissing = false;
      clearInterval(this.#spareTimer!);
      this.#spareTimer = null;
      this.#notice(`the data folder's disk has room again: billable requests are accepted again${this.#refusedMeanwhile()}`);
    }, RETRY_DELAY_MS);
    this.#spareTimer.unref();
  }

  #schedule(delay: number): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, delay);
    this.#timer.unref();
  }

  /** Writes everything queued so far. Never rejects: a failed batch is put back and retried. */
  flush(): Promise<void> {
    if (this.#flushing) return this.#flushing.then(() => (this.#retry || this.#queue.length || this.#keysUsed.size ? this.flush() : undefined));
    if (!this.#retry && this.#queue.length === 0 && this.#keysUsed.size === 0) return Promise.resolve();
    const batch: WriteBatch = this.#retry ?? { id: randomUUID(), logs: this.#queue, keysUsed: this.#keysUsed };
    if (!this.#retry) {
      this.#queue = [];
      this.#keysUsed = new Map();
    }
    this.#writing = batch;
    this.#flushing = this.#serial
      .run(async () => {
        await this.#store.write(batch);
        this.#retry = null;
        this.#writing = null;
        this.onWritten?.(batch.logs);
        const debits = new Map<number, number>();
        for (const l of batch.logs) if (l.accountId !== null && l.cost > 0) debits.set(l.accountId, (debits.get(l.accountId) ?? 0) + l.cost);
        for (const [accountId, amount] of debits) this.#ledger.written(accountId, amount, this.#withheld.get(accountId) ?? 0);
        for (const [accountId, amount] of this.#withheld) if (!debits.has(accountId)) this.#ledger.written(accountId, 0, amount);
        this.#withheld.clear();
        // A spare deleted by hand is made again (a stat per batch); without room for it, billable requests wait.
        if (this.#spare && !this.#spareMissing && !this.#spare.held && !this.#spare.ensure()) {
          this.#missingSpare('the disk spare of the data folder is gone and there is no room to make it again: billable requests are refused until there is');
        }
        if (this.#failingSince !== null) {
          this.#notice(this.#spareMissing
            ? 'request logs are written again, in the disk\'s spare room: billable requests stay refused until the disk has room'
            : `request logs are written again after ${Math.round((Date.now() - this.#failingSince) / 1000)} s: billable requests are accepted again${this.#refusedMeanwhile()}`);
          this.#failingSince = null;
        }
        if (this.#queue.length > 0 || this.#keysUsed.size > 0) this.#schedule(FLUSH_DELAY_MS);
      })
      .catch((error: unknown) => {
        this.#writing = null;
        if (error instanceof OverdrawnBatch) {
          // Its accounts cannot pay all of it any more: written at once with the rest of the charges withheld.
          const withheld = withholdCharges(batch, error.payable);
          for (const [accountId, cut] of withheld.accounts) {
            this.#withheld.set(accountId, (this.#withheld.get(accountId) ?? 0) + cut.amount);
            this.#notice(describeWithheld(accountId, cut));
          }
          this.#retry = withheld.batch;
          this.#schedule(0);
          return;
        }
        this.#retry = batch;
        // Said once, not at every retry.
        if (this.#failingSince === null) {
          this.#failingSince = Date.now();
          this.#onError(error);
        }
        this.#schedule(isDiskFull(error) && this.#spendSpare() ? 0 : RETRY_DELAY_MS);
      })
      .finally(() => {
        this.#flushing = null;
      });
    return this.#flushing;
  }

  /** Flushes until empty (a few attempts) and stops the timer; what could not be written is said, not dropped silently. */
  async close(): Promise<void> {
    for (let attempt = 0; attempt < 5 && (this.#retry !== null || this.#queue.length > 0 || this.#keysUsed.size > 0 || this.#flushing); attempt++) {
      await this.flush();
    }
    const lost = [...(this.#retry?.logs ?? []), ...this.#queue];
    if (lost.length > 0) {
      const charges = lost.reduce((sum, l) => sum + l.cost, 0);
      this.#notice(`request logs: ${lost.length} row(s) could not be written before stopping and are lost, with ${formatMicroUsd(charges)} of charges ` +
        `(requests ${lost.slice(0, 5).map((l) => l.requestId).join(', ')}${lost.length > 5 ? ', ...' : ''}): the store kept refusing them`);
    }
    this.#closed = true;
    this.unauthenticated.flush();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#spareTimer) clearInterval(this.#spareTimer);
    this.#spareTimer = null;
  }
}
