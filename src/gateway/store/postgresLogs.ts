/**
 * The request logs of the PostgreSQL store, read and pruned, and the keys' per-day usage (key_usage) they
 * add up to, apart from postgres.ts so that file keeps to one idea (their writes are the log batches,
 * postgresBatch.ts). Newest first by id, as on SQLite.
 */
import { keyUsageOf } from './keySql.ts';
import type { KeyUsageTotals, KeyUsageQuery } from './keySettings.ts';
import { LOG_SELECT } from './logQuery.ts';
import { hourOf, PRUNE_ROLLUPS } from './logRollup.ts';
import { toLog, type Row } from './sqlRows.ts';
import type { StoredLog } from './types.ts';

type RowsQuery = (sql: string, params?: unknown[]) => Promise<{ rows: Row[]; rowCount: number | null }>;

const WITH_ACCOUNT = LOG_SELECT;

export class PostgresLogs {
  readonly #query: RowsQuery;

  constructor(query: RowsQuery) {
    this.#query = query;
  }

  async prune(before: number): Promise<number> {
    // Ids of applied log batches are needed only while a batch may still be retried (seconds).
    await this.#query(`DELETE FROM applied_batches WHERE applied_at < now() - interval '1 day'`);
    // In slices, as SQLite does: one huge DELETE would hold its locks (and the log batches) for long.
    let pruned = 0;
    for (;;) {
      const result = await this.#query('DELETE FROM request_logs WHERE id IN (SELECT id FROM request_logs WHERE time < $1 LIMIT 5000)', [before]);
      pruned += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < 5000) {
        for (const sql of PRUNE_ROLLUPS) await this.#query(sql.replace('{h}', '$1'), [hourOf(before)]);
        return pruned;
      }
    }
  }

  async list(limit: number): Promise<StoredLog[]> {
    return (await this.#query(`${WITH_ACCOUNT} ORDER BY l.id DESC LIMIT $1`, [limit])).rows.map(toLog);
  }

  async ofKey(keyId: number, limit: number): Promise<StoredLog[]> {
    return (await this.#query(`${WITH_ACCOUNT} WHERE l.key_id = $1 ORDER BY l.id DESC LIMIT $2`, [keyId, limit])).rows.map(toLog);
  }

  async keyUsage(queries: readonly KeyUsageQuery[]): Promise<Map<number, KeyUsageTotals>> {
    return keyUsageOf(this.#query, queries);
  }
}
