/**
 * The PostgreSQL store's one hot write: a batch of request logs, their debits, key last-use times and
 * usage (key_usage), and the hourly tally, in one call of `mg_write_batch` (migration 13), which is its
 * own transaction: one round trip whatever the batch's size (each column goes as one array parameter and
 * `unnest` turns the arrays back into rows). It was twelve, one per statement with BEGIN and COMMIT, and a
 * round trip costs ~80 us of the gateway's CPU here (syscalls): with three instances each writing its own
 * batches every 20 ms, the round trips alone took a third of a core.
 *
 * Debits settle from the writing instance's lease (postgresLeases.ts): the accounts are locked first,
 * then each charge leaves the balance and, as far as the lease holds it, the lease and `leased` too,
 * so available money (balance − leased) does not move at settlement: it moved when the lease was taken.
 * A charge the lease no longer holds (it was reclaimed while this process was frozen) is taken from
 * available money; the CHECK leased <= balance refuses the whole batch rather than overdraw.
 *
 * The log rows go in last, under an advisory lock ("MGlo", 0x4d476c6f) held until the commit: a batch takes its ids only once
 * the batch before it (of any instance) is visible, so ids are handed out in the order rows become
 * visible and a reader that has seen id N will never later find a new row below N (the console's live
 * logs poll with `after`, logQuery.ts). Without it two instances' transactions could commit their ids
 * crosswise, and a poll between the two commits would skip the lower ones for good. The lock is held for
 * the INSERT and the commit only; the identity's sequence must stay at CACHE 1 (its default) for this.
 */
import { debitsOf } from './amounts.ts';
import { usageOf } from './keySettings.ts';
import { LOG_COLUMNS } from './sqlRows.ts';
import { latencyColumns, rollupOf, usageColumns } from './logRollup.ts';
import { OverdrawnBatch, type RequestLog, type WriteBatch } from './types.ts';
import { CHECK_VIOLATION, pgArrayLiteral, prepared, sqlState, type PgArrayType, type Query } from './postgresQuery.ts';

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

/** mg_write_batch's parameters: the batch id and writer, then debits (2), key usage (4), keys used (2), tally (9), latency (4), log columns. */
const WRITE_BATCH = prepared('mg_write_batch', `SELECT mg_write_batch(${Array.from({ length: 2 + 2 + 4 + 2 + 9 + 4 + LOG_COLUMNS.length }, (_, i) => `$${i + 1}`).join(', ')}) AS applied`);

/** `instance`: the writing process's lease owner (LeaseStore.instance). `query` runs outside any transaction: the call is its own. */
export async function writeBatch(query: Query, batch: WriteBatch, instance: string): Promise<void> {
  // Accounts and keys in id order: two writers lock the same rows in the same order (no deadlock).
  const debits = [...debitsOf(batch.logs)].sort(([a], [b]) => a - b);
  const usage = usageOf(batch.logs);
  const used = [...batch.keysUsed].sort(([a], [b]) => a - b);
  const tally = rollupOf(batch.logs);
  await query(WRITE_BATCH, [
    batch.id ?? null, instance,
    debits.map(([id]) => id), debits.map(([, amount]) => amount),
    usage.map((u) => u.keyId), usage.map((u) => u.day), usage.map((u) => u.requests), usage.map((u) => u.spent),
    used.map(([id]) => id), used.map(([, time]) => time),
    ...usageColumns(tally.usage), ...latencyColumns(tally.latency),
    ...LOG_COLUMNS.map((c) => pgArrayLiteral(batch.logs, LOG_COLUMN_FIELDS[c][0], LOG_COLUMN_FIELDS[c][1])),
  ]);
}

/** writeBatch, refused with what each account can pay (OverdrawnBatch) when the database's CHECK finds a debit past its money. */
export async function writeBatchOrOverdrawn(query: Query, batch: WriteBatch, instance: string): Promise<void> {
  try {
    await writeBatch(query, batch, instance);
  } catch (error) {
    if (sqlState(error) !== CHECK_VIOLATION) throw error;
    const accounts = [...new Set(batch.logs.flatMap((l) => (l.accountId !== null && l.cost > 0 ? [l.accountId] : [])))];
    throw new OverdrawnBatch(await payableOf(query, accounts, instance));
  }
}

/**
 * What each account can pay now from this instance (balance, less what other instances' leases hold): asked after
 * a batch was refused for overdrawing (a lease reclaimed while this process was paused, and spent by others).
 */
export async function payableOf(query: Query, accountIds: readonly number[], instance: string): Promise<Map<number, number>> {
  const { rows } = await query(
    `SELECT a.id, GREATEST(0, a.balance - a.leased + COALESCE(l.amount, 0))::text AS payable
       FROM accounts a LEFT JOIN leases l ON l.account_id = a.id AND l.instance = $2 WHERE a.id = ANY ($1)`,
    [accountIds, instance],
  );
  return new Map(rows.map((r) => [Number(r['id']), Number(r['payable'])]));
}
