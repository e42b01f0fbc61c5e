/**
 * How much there is of everything, for the admins' dashboard, in one statement on either SQL store
 * (memory counts its arrays): it read every user, account and key for each view before.
 */
import type { Row } from './sqlRows.ts';

export interface GatewayTotals {
  readonly users: number;
  readonly accounts: number;
  readonly keys: number;
  readonly channels: number;
  /** Every account's balance together, micro-USD (a float past 2^53, as the sum was before). */
  readonly balance: number;
  /** Every account's spending together, micro-USD. */
  readonly spent: number;
}

/** `total(column)` is the store's never-overflowing sum of an accounts column. */
export function totalsQuery(total: (column: string) => string): string {
  return `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM api_keys) AS keys,
    (SELECT count(*) FROM channels) AS channels, (SELECT ${total('balance')} FROM accounts) AS balance, (SELECT ${total('total_spent')} FROM accounts) AS spent`;
}

export function toTotals(r: Row): GatewayTotals {
  return { users: Number(r.users), accounts: Number(r.accounts), keys: Number(r.keys), channels: Number(r.channels), balance: Number(r.balance), spent: Number(r.spent) };
}
