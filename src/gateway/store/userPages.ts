/**
 * The admins' users page, one page at a time from either SQL store (memory filters its arrays the same
 * way): users oldest first after an id, whose name or whose account's name contains a text (any case),
 * each with its account. It read every user and every account and key for each view: ~100 ms at 10,000
 * users and 30,000 keys on SQLite, where that stalls the gateway.
 */
import { toAccount, toUser, type Row } from './sqlRows.ts';
import type { AccountRecord, UserRecord } from './types.ts';

export interface UserPage {
  /** Text a user's or its account's name contains, any case; '' for every user. */
  readonly q: string;
  /** Only users with a higher id (the previous page's last). */
  readonly after?: number | undefined;
  readonly limit: number;
}

export interface UserWithAccount {
  readonly user: UserRecord;
  readonly account: AccountRecord | null;
}

/** Whether `name` (a user's or an account's) holds the page's text, as the SQL below decides it. */
export function nameHolds(name: string | undefined, q: string): boolean {
  return name !== undefined && name.toLowerCase().includes(q.toLowerCase());
}

/** The page's statement and parameters; `p(i)` writes the i-th placeholder (`?` or `$i`). */
export function userPageQuery(page: UserPage, p: (i: number) => string): { sql: string; params: unknown[] } {
  // LIKE on lowered names in both databases; %, _ and \ in the text are literal.
  const pattern = `%${page.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return {
    sql: `SELECT u.*, a.id AS a_id, a.name AS a_name, a.balance AS a_balance, a.total_spent AS a_total_spent, a.created_at AS a_created_at
      FROM users u LEFT JOIN accounts a ON a.id = u.account_id
      WHERE u.id > ${p(1)} AND (${p(2)} = '' OR lower(u.name) LIKE ${p(3)} ESCAPE '\\' OR lower(a.name) LIKE ${p(3)} ESCAPE '\\')
      ORDER BY u.id LIMIT ${p(4)}`,
    params: [page.after ?? 0, page.q, pattern, page.limit],
  };
}

export function toUserWithAccount(r: Row): UserWithAccount {
  const account = r.a_id === null || r.a_id === undefined ? null : toAccount({ id: r.a_id, name: r.a_name, balance: r.a_balance, total_spent: r.a_total_spent, created_at: r.a_created_at });
  return { user: toUser(r), account };
}
