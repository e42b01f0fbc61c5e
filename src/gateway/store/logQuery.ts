/**
 * Request logs, filtered (the logs pages: a signed-in user's account's, an admin's of every account): the
 * filter, the SQL both SQL stores run for it (only the placeholder differs), and the same test in memory.
 * By id: newest first, paged on from `beforeId`; or, with `afterId`, the rows written after it oldest
 * first, which is what a live view polls with. Rows are never updated and ids are handed out in the order
 * rows become visible (one writer on SQLite; postgresBatch.ts's lock on PostgreSQL), so a poll from the
 * last id seen misses nothing and repeats nothing.
 */
import type { SqlParam } from './newestFirst.ts';
import type { StoredLog } from './types.ts';

export interface LogFilter {
  /** The rows of this account only; absent: every account's (admins). */
  readonly accountId?: number;
  readonly keyId?: number;
  readonly model?: string;
  /** true: answered 2xx or 3xx; false: an error status. */
  readonly ok?: boolean;
  /** Epoch ms, inclusive. */
  readonly since?: number;
  /** Epoch ms, exclusive. */
  readonly until?: number;
  readonly requestId?: string;
  /** Rows older than this id (the last row of the page before), newest first. */
  readonly beforeId?: number;
  /** Rows newer than this id, oldest first. */
  readonly afterId?: number;
  readonly limit: number;
}

export const LOG_SELECT = 'SELECT l.*, a.name AS account_name FROM request_logs l LEFT JOIN accounts a ON a.id = l.account_id';

/** Ids from `atLeast` to below `below`: one slice of a scan (requestLogs.ts). */
export interface IdWindow {
  readonly atLeast: number;
  readonly below: number;
}

/**
 * Whether the filter's rows can only be found by reading rows that do not match: a model, a status, a time
 * range or a request id has no index (each would cost every logged request), so a rare one is a scan.
 */
export function scansRows(filter: LogFilter): boolean {
  return filter.model !== undefined || filter.ok !== undefined || filter.since !== undefined || filter.until !== undefined || filter.requestId !== undefined;
}

/**
 * The query for `filter`, with `placeholder(n)` for the n-th parameter (1-based): "?" for SQLite, "$n" for
 * PostgreSQL; within `window` when given (same order as without).
 */
export function logsSql(filter: LogFilter, placeholder: (n: number) => string, window?: IdWindow): { sql: string; params: SqlParam[] } {
  const params: SqlParam[] = [];
  const p = (value: SqlParam): string => {
    params.push(value);
    return placeholder(params.length);
  };
  const where: string[] = [];
  // Indexed: (account_id, id) for one account, the primary key for every account.
  if (filter.accountId !== undefined) where.push(`l.account_id = ${p(filter.accountId)}`);
  if (filter.keyId !== undefined) where.push(`l.key_id = ${p(filter.keyId)}`);
  if (filter.model !== undefined) where.push(`l.model = ${p(filter.model)}`);
  if (filter.ok !== undefined) where.push(filter.ok ? 'l.status < 400' : 'l.status >= 400');
  if (filter.since !== undefined) where.push(`l.time >= ${p(filter.since)}`);
  if (filter.until !== undefined) where.push(`l.time < ${p(filter.until)}`);
  if (filter.requestId !== undefined) where.push(`l.request_id = ${p(filter.requestId)}`);
  if (filter.beforeId !== undefined) where.push(`l.id < ${p(filter.beforeId)}`);
  if (filter.afterId !== undefined) where.push(`l.id > ${p(filter.afterId)}`);
  if (window) where.push(`l.id >= ${p(window.atLeast)}`, `l.id < ${p(window.below)}`);
  const order = filter.afterId !== undefined ? 'ASC' : 'DESC';
  const sql = `${LOG_SELECT}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY l.id ${order} LIMIT ${p(filter.limit)}`;
  return { sql, params };
}

/** The same test as the SQL, for the memory store. */
export function matchesLogs(filter: LogFilter, l: StoredLog): boolean {
  return (filter.accountId === undefined || l.accountId === filter.accountId)
    && (filter.keyId === undefined || l.keyId === filter.keyId)
    && (filter.model === undefined || l.model === filter.model)
    && (filter.ok === undefined || (l.status < 400) === filter.ok)
    && (filter.since === undefined || l.time >= filter.since)
    && (filter.until === undefined || l.time < filter.until)
    && (filter.requestId === undefined || l.requestId === filter.requestId)
    && (filter.beforeId === undefined || l.id < filter.beforeId)
    && (filter.afterId === undefined || l.id > filter.afterId);
}

/** The memory store's same list: `rows` in id order, filtered, newest first (or oldest first after an id), at most `limit`. */
export function listLogsOf(rows: readonly StoredLog[], filter: LogFilter): StoredLog[] {
  const out: StoredLog[] = [];
  if (filter.afterId !== undefined) {
    for (let i = 0; i < rows.length && out.length < filter.limit; i++) if (matchesLogs(filter, rows[i]!)) out.push(rows[i]!);
  } else {
    for (let i = rows.length - 1; i >= 0 && out.length < filter.limit; i--) if (matchesLogs(filter, rows[i]!)) out.push(rows[i]!);
  }
  return out;
}
