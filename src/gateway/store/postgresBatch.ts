/**
 * The PostgreSQL store's one hot write: a batch of request logs, their debits, key last-use
 * times and usage (key_usage), in a few statements whatever the batch's size (each column goes as one array parameter
 * and `unnest` turns the arrays back into rows). The caller runs it inside its transaction.
 *
 * Debits settle from the writing instance's lease (postgresLeases.ts): the accounts are locked first,
 * then each charge leaves the balance and, as far as the lease holds it, the lease and `leased` too,
 * so available money (balance − leased) does not move at settlement: it moved when the lease was taken.
 * A charge the lease no longer holds (it was reclaimed while this process was frozen) is taken from
 * available money; the CHECK leased <= balance refuses the whole batch rather than overdraw.
 *
 * The log rows go in last, under LOG_ORDER_LOCK held until the commit: a batch takes its ids only once
 * the batch before it (of any instance) is visible, so ids are handed out in the order rows become
 * visible and a reader that has seen id N will never later find a new row below N (the console's live
 * logs poll with `after`, logQuery.ts). Without it two instances' transactions could commit their ids
 * crosswise, and a poll between the two commits would skip the lower ones for good. The lock is held for
 * the INSERT and the COMMIT only; the identity's sequence must stay at CACHE 1 (its default) for this.
 */
import { debitsOf } from './amounts.ts';
import { addPostgresKeyUsage } from './keySql.ts';
import { lockLeasedAccounts } from './postgresLeases.ts';
import { LOG_COLUMNS } from './sqlRows.ts';
import { latencyColumns, POSTGRES_LATENCY_UPSERT, POSTGRES_USAGE_UPSERT, rollupOf, usageColumns } from './logRollup.ts';
import type { RequestLog, WriteBatch } from './types.ts';
import { pgArrayLiteral, prepared, type PgArrayType, type Query } from './postgresQuery.ts';

/**
 * Each column's array type and the RequestLog field it is read from. The latency is sent as float8 and
 * rounded by the insert's cast into its whole column: a fraction in a bigint array would fail the batch.
 */
const LOG_COLUMN_FIELDS: Readonly<Record<(typeof LOG_COLUMNS)[number], readonly [keyof RequestLog, PgArrayType]>> = {
  time: ['time', 'bigint'], request_id: ['requestId', 'text'], method: ['method', 'text'], path: ['path', 'text'], account_id: ['accountId', 'bigint'],
  key_id: ['keyId', 'bigint'], key_name: ['keyName', 'text'], model: ['model', 'text'], channel: ['channel', 'text'], status: ['status', 'int'],
  error_code: ['errorCode', 'text'], prompt_tokens: ['promptTokens', 'bigint'], completion_tokens: ['completionTokens', 'bigint'],
  usage_estimated: ['usageEstimated', 'boolean'], cost: ['cost', 'bigint'], latency_ms: ['latencyMs', 'float8'], first_byte_ms: ['firstByteMs', 'float8'],
  stream: ['stream', 'boolean'], completion_cap: ['completionCap', 'int'], attempts: ['attempts', 'text'], upstream_model: ['upstreamModel', 'text'],
  user_agent: ['userAgent', 'text'], client_ip: ['clientIp', 'text'],
};

/** pg_advisory_xact_lock's key for handing out log ids in commit order: "MGlo" as an integer. */
export const LOG_ORDER_LOCK = 0x4d476c6f;

const INSERT_LOGS = prepared('mg_batch_logs', `INSERT INTO request_logs (${LOG_COLUMNS.join(', ')}) SELECT * FROM unnest(${LOG_COLUMNS.map((c, i) => `$${i + 1}::${LOG_COLUMN_FIELDS[c][1]}[]`).join(', ')})`);
const MARK_APPLIED = prepared('mg_batch_applied', 'INSERT INTO applied_batches (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id');
const DEBIT = prepared('mg_batch_debit', `UPDATE accounts AS a SET balance = a.balance - d.amount, leased = a.leased - d.from_lease, total_spent = a.total_spent + d.amount
  FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS d(id, amount, from_lease) WHERE a.id = d.id`);
const SPEND_LEASES = prepared('mg_batch_leases', `UPDATE leases AS l SET amount = l.amount - d.from_lease
  FROM unnest($2::bigint[], $3::bigint[]) AS d(id, from_lease) WHERE l.instance = $1 AND l.account_id = d.id`);
const KEYS_USED = prepared('mg_batch_keys_used', `UPDATE api_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, 0), u.time)
  FROM unnest($1::bigint[], $2::bigint[]) AS u(id, time) WHERE k.id = u.id`);
const USAGE_UPSERT = prepared('mg_batch_usage', POSTGRES_USAGE_UPSERT);
const LATENCY_UPSERT = prepared('mg_batch_latency', POSTGRES_LATENCY_UPSERT);
const ORDER_LOCK = prepared('mg_batch_order_lock', 'SELECT pg_advisory_xact_lock($1)');

/** `instance`: the writing process's lease owner (LeaseStore.instance). */
export async function writeBatch(query: Query, batch: WriteBatch, instance: string): Promise<void> {
  // A retry of a batch whose COMMIT landed but whose answer was lost: already applied, nothing to do.
  if (batch.id !== undefined) {
    const { rows } = await query(MARK_APPLIED, [batch.id]);
    if (rows.length === 0) return;
  }
  // Accounts in id order: two writers debiting the same accounts lock them in the same order (no deadlock).
  const debits = [...debitsOf(batch.logs)].sort(([a], [b]) => a - b);
  if (debits.length > 0) {
    const views = await lockLeasedAccounts(query, instance, debits.map(([id]) => id));
    const fromLease = debits.map(([id, amount]) => Math.min(amount, views.get(id)?.mine ?? 0));
    await query(DEBIT, [debits.map(([id]) => id), debits.map(([, amount]) => amount), fromLease]);
    if (fromLease.some((n) => n > 0)) {
      await query(SPEND_LEASES, [instance, debits.map(([id]) => id), fromLease]);
    }
  }
  await addPostgresKeyUsage(query, batch.logs);
  if (batch.keysUsed.size > 0) {
    const used = [...batch.keysUsed].sort(([a], [b]) => a - b);
    await query(KEYS_USED, [used.map(([id]) => id), used.map(([, time]) => time)]);
  }
  const tally = rollupOf(batch.logs);
  if (tally.usage.length > 0) await query(USAGE_UPSERT, usageColumns(tally.usage));
  if (tally.latency.length > 0) await query(LATENCY_UPSERT, latencyColumns(tally.latency));
  if (batch.logs.length > 0) {
    const columns = LOG_COLUMNS.map((c) => pgArrayLiteral(batch.logs, LOG_COLUMN_FIELDS[c][0], LOG_COLUMN_FIELDS[c][1]));
    await query(ORDER_LOCK, [LOG_ORDER_LOCK]);
    await query(INSERT_LOGS, columns);
  }
}
