/**
 * One account's request logs, filtered (a signed-in user's logs page): the filter, the SQL both SQL
 * stores run for it (only the placeholder differs), and the same test in memory. Newest first by id;
 * paging goes on from `beforeId`, so rows written meanwhile never shift a page.
 */
import { newestFirstSql, type SqlParam } from './newestFirst.ts';
import type { StoredLog } from './types.ts';

export interface AccountLogFilter {
  readonly accountId: number;
  readonly keyId?: number;
  readonly model?: string;
  /** true: answered 2xx or 3xx; false: an error status. */
  readonly ok?: boolean;
  /** Epoch ms, inclusive. */
  readonly since?: number;
  /** Epoch ms, exclusive. */
  readonly until?: number;
  /** Rows older than this id (the last row of the page before). */
  readonly beforeId?: number;
  readonly limit: number;
}

/** The query for `filter`, with `placeholder(n)` for the n-th parameter (1-based): "?" for SQLite, "$n" for PostgreSQL. */
export function accountLogsSql(filter: AccountLogFilter, placeholder: (n: number) => string): { sql: string; params: SqlParam[] } {
  return newestFirstSql('SELECT l.*, a.name AS account_name FROM request_logs l LEFT JOIN accounts a ON a.id = l.account_id', 'l.id', (p) => {
    const where = [`l.account_id = ${p(filter.accountId)}`];
    if (filter.keyId !== undefined) where.push(`l.key_id = ${p(filter.keyId)}`);
    if (filter.model !== undefined) where.push(`l.model = ${p(filter.model)}`);
    if (filter.ok !== undefined) where.push(filter.ok ? 'l.status < 400' : 'l.status >= 400');
    if (filter.since !== undefined) where.push(`l.time >= ${p(filter.since)}`);
    if (filter.until !== undefined) where.push(`l.time < ${p(filter.until)}`);
    if (filter.beforeId !== undefined) where.push(`l.id < ${p(filter.beforeId)}`);
    return where;
  }, filter.limit, placeholder);
}

/** The same test as the SQL, for the memory store. */
export function matchesAccountLogs(filter: AccountLogFilter, l: StoredLog): boolean {
  return l.accountId === filter.accountId
    && (filter.keyId === undefined || l.keyId === filter.keyId)
    && (filter.model === undefined || l.model === filter.model)
    && (filter.ok === undefined || (l.status < 400) === filter.ok)
    && (filter.since === undefined || l.time >= filter.since)
    && (filter.until === undefined || l.time < filter.until)
    && (filter.beforeId === undefined || l.id < filter.beforeId);
}
