/**
 * A log batch its accounts can no longer pay in full (store/types.ts OverdrawnBatch: an instance on PostgreSQL
 * paused past its balance lease, whose money other instances then spent). The answers went out; their rows
 * must still be written, or the batch blocks every later one and is lost at the next stop. So each account's
 * charges are cut to what it can pay, newest request first, and the rows cut say `charge_withheld`: the balance
 * never goes below $0, the logged costs still add up to the balance decrease, and the loss is on the record.
 */
import { formatMicroUsd } from '../contract/index.ts';
import type { RequestLog, WriteBatch } from './store/types.ts';

/** The error code of a row whose charge was cut (logged only: its answer had gone out). */
export const CHARGE_WITHHELD = 'charge_withheld';

export interface Withheld {
  /** The batch to write instead, with the same id (the refused one changed nothing). */
  readonly batch: WriteBatch;
  /** Per account: the micro-USD withheld, and from how many requests. */
  readonly accounts: ReadonlyMap<number, { readonly amount: number; readonly requests: number }>;
}

export function withholdCharges(batch: WriteBatch, payable: ReadonlyMap<number, number>): Withheld {
  const owed = new Map<number, number>();
  for (const l of batch.logs) if (l.accountId !== null) owed.set(l.accountId, (owed.get(l.accountId) ?? 0) + l.cost);
  const over = new Map<number, number>();
  for (const [accountId, total] of owed) {
    const excess = total - Math.max(0, payable.get(accountId) ?? 0);
    if (excess > 0) over.set(accountId, excess);
  }
  const accounts = new Map<number, { amount: number; requests: number }>();
  const logs: RequestLog[] = [...batch.logs];
  for (let i = logs.length - 1; i >= 0; i--) {
    const l = logs[i]!;
    const excess = l.accountId === null ? 0 : (over.get(l.accountId) ?? 0);
    if (excess <= 0 || l.cost <= 0) continue;
    const cut = Math.min(l.cost, excess);
    over.set(l.accountId!, excess - cut);
    logs[i] = { ...l, cost: l.cost - cut, errorCode: l.errorCode ?? CHARGE_WITHHELD };
    const sum = accounts.get(l.accountId!) ?? { amount: 0, requests: 0 };
    accounts.set(l.accountId!, { amount: sum.amount + cut, requests: sum.requests + 1 });
  }
  return { batch: { ...batch, logs }, accounts };
}

/** The operator's line for one account's withheld charges. */
export function describeWithheld(accountId: number, withheld: { amount: number; requests: number }): string {
  return `request logs: account ${accountId} could not pay ${formatMicroUsd(withheld.amount)} of ${withheld.requests} answered request(s): ` +
    `this instance's hold on its balance lapsed (it was paused past its lease) and other instances spent the money meanwhile. ` +
    `The rows are written with the charge cut, marked ${CHARGE_WITHHELD}.`;
}
