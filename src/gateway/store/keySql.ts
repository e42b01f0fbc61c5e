/**
 * Keys' limits and usage (keySettings.ts) in both SQL dialects (`placeholder(i)` is `?` or `$i`): a key
 * inserted with every limit, its limits updated, key_usage read per key asked (its spending since a UTC
 * day, its requests on a UTC day). Each store's log batch adds to key_usage: SQLite's with a statement
 * prepared once (sqliteBatch.ts), PostgreSQL's in mg_write_batch (postgresBatch.ts).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { assertKeyLimits, KEY_LIMIT_COLUMNS, keyLimitValues, newKeyLimits, type KeyLimits, type KeyUsageTotals, type KeyUsageQuery } from './keySettings.ts';
import { disabledCreatorColumn } from './keyUsers.ts';
import type { Row } from './sqlRows.ts';
import type { NewKey } from './types.ts';

/** A new key's INSERT ... RETURNING * (with its creator's state, keyUsers.ts), its limits checked. */
export function keyInsert(key: NewKey, placeholder: (i: number) => string): { sql: string; values: Array<string | number | null> } {
  const values = [key.accountId, key.userId ?? null, key.name, key.hash, key.prefix, key.models ? JSON.stringify(key.models) : null, key.expiresAt, Date.now(), ...keyLimitValues(newKeyLimits(key))];
  const sql = `INSERT INTO api_keys (account_id, user_id, name, key_hash, key_prefix, models, expires_at, created_at, ${KEY_LIMIT_COLUMNS.join(', ')})
    VALUES (${values.map((_, i) => placeholder(i + 1)).join(', ')}) RETURNING *, ${disabledCreatorColumn('api_keys')}`;
  return { sql, values };
}

/** An UPDATE of every limit of the key whose id is the last parameter (after `values`), the limits checked. */
export function keyLimitsUpdate(limits: KeyLimits, placeholder: (i: number) => string): { sql: string; values: Array<string | number | null> } {
  assertKeyLimits(limits);
  return {
    sql: `UPDATE api_keys SET ${KEY_LIMIT_COLUMNS.map((c, i) => `${c} = ${placeholder(i + 1)}`).join(', ')} WHERE id = ${placeholder(KEY_LIMIT_COLUMNS.length + 1)}`,
    values: keyLimitValues(limits),
  };
}

const SQLITE_USAGE = `SELECT COALESCE(SUM(spent), 0) AS spent, COALESCE(SUM(CASE WHEN day = ? THEN requests ELSE 0 END), 0) AS requests
  FROM key_usage WHERE key_id = ? AND day >= ?`;

const statements = new WeakMap<DatabaseSync, StatementSync>();

export function sqliteKeyUsage(db: DatabaseSync, queries: readonly KeyUsageQuery[]): Map<number, KeyUsageTotals> {
  let statement = statements.get(db);
  if (!statement) statements.set(db, (statement = db.prepare(SQLITE_USAGE)));
  const out = new Map<number, KeyUsageTotals>();
  for (const q of queries) {
    const row = statement.get(q.day, q.keyId, Math.min(q.since, q.day)) as Row;
    out.set(q.keyId, { spent: Number(row.spent), requests: Number(row.requests) });
  }
  return out;
}

export async function keyUsageOf(query: (sql: string, params?: unknown[]) => Promise<{ rows: Row[] }>, queries: readonly KeyUsageQuery[]): Promise<Map<number, KeyUsageTotals>> {
  const out = new Map<number, KeyUsageTotals>();
  if (queries.length === 0) return out;
  const { rows } = await query(
    `SELECT q.key_id, COALESCE(SUM(u.spent), 0)::text AS spent, COALESCE(SUM(u.requests) FILTER (WHERE u.day = q.day), 0)::text AS requests
       FROM unnest($1::bigint[], $2::int[], $3::int[]) AS q(key_id, since, day)
       LEFT JOIN key_usage u ON u.key_id = q.key_id AND u.day >= LEAST(q.since, q.day)
      GROUP BY q.key_id`,
    [queries.map((q) => q.keyId), queries.map((q) => q.since), queries.map((q) => q.day)],
  );
  for (const r of rows) out.set(Number(r.key_id), { spent: Number(r.spent), requests: Number(r.requests) });
  return out;
}
