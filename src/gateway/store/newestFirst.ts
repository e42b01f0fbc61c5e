/**
 * The lists the console pages through, newest first by id (the audit log, redemption codes; request logs
 * page both ways, logQuery.ts): the one SQL shape both SQL stores run for them, only the placeholder
 * differing ("?" for SQLite, "$n" for PostgreSQL), and the same walk over rows in memory. Paging goes on
 * from an id, so rows written meanwhile never shift a page.
 */

export type SqlParam = number | string;

/**
 * `select` (a SELECT ... FROM ...) with the conditions `where` gives, each value bound through `bind`, ordered
 * by `id` newest first, at most `limit` rows; `placeholder(n)` writes the n-th parameter (1-based).
 */
export function newestFirstSql(select: string, id: string, where: (bind: (value: SqlParam) => string) => string[], limit: number,
  placeholder: (n: number) => string): { sql: string; params: SqlParam[] } {
  const params: SqlParam[] = [];
  const bind = (value: SqlParam): string => {
    params.push(value);
    return placeholder(params.length);
  };
  const conditions = where(bind);
  const sql = `${select}${conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''} ORDER BY ${id} DESC LIMIT ${bind(limit)}`;
  return { sql, params };
}

/** The memory store's same list: the rows `matches` keeps, from the last (newest) back, at most `limit`. */
export function newestFirst<T>(rows: readonly T[], limit: number, matches: (row: T) => boolean): T[] {
  const out: T[] = [];
  for (let i = rows.length - 1; i >= 0 && out.length < limit; i--) if (matches(rows[i]!)) out.push(rows[i]!);
  return out;
}
