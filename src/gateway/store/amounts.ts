/**
 * The money a store accepts: whole micro-USD, never above the ceiling (MAX_BALANCE_MICRO), so that
 * every balance stays exact in a JavaScript number. The CLI checks first with friendlier words;
 * this is the last line for every other path (and the SQL store has triggers for the same rule).
 */
import { formatMicroUsd, MAX_BALANCE_MICRO } from '../../contract/index.ts';
import { StoreError, type AccountRecord, type RequestLog } from './types.ts';

/** Throws unless `amount` is whole micro-USD from `min` (a top-up: 1) to the ceiling. */
export function assertAmount(amount: number, min = 1): void {
  if (!Number.isSafeInteger(amount) || amount < min || amount > MAX_BALANCE_MICRO) {
    throw new StoreError('invalid', `an amount must be whole micro-USD from ${min} to ${MAX_BALANCE_MICRO} (${formatMicroUsd(MAX_BALANCE_MICRO)}), got ${amount}`);
  }
}

/** A top-up that would take `account` above the ceiling: refused, nothing changed. */
export function overCeiling(account: AccountRecord, amount: number): StoreError {
  return new StoreError(
    'invalid',
    `topping up "${account.name}" (${formatMicroUsd(account.balance)}) by ${formatMicroUsd(amount)} would pass the most an account may hold, ${formatMicroUsd(MAX_BALANCE_MICRO)}; nothing was changed`,
  );
}

/** A batch's debits: the sum of its logged costs per account (the SQL stores apply them relatively, in one transaction with the logs). */
export function debitsOf(logs: readonly RequestLog[]): Map<number, number> {
  const debits = new Map<number, number>();
  for (const log of logs) {
    if (log.accountId !== null && log.cost > 0) debits.set(log.accountId, (debits.get(log.accountId) ?? 0) + log.cost);
  }
  return debits;
}
