/**
 * The SQLite store's one hot write: a batch of request logs, their debits, key last-use times and usage,
 * and the logs' hourly tally (logRollup.ts), with statements prepared once per connection. The caller runs
 * apply() inside its transaction.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { OverdrawnBatch, type RequestLog, type WriteBatch } from './types.ts';
import { SQLITE_BELOW_ZERO } from './moneyRules.ts';
import { debitsOf } from './amounts.ts';
import { usageOf } from './keySettings.ts';
import { LOG_COLUMNS } from './sqlRows.ts';
import { rollupOf, SQLITE_LATENCY_UPSERT, SQLITE_USAGE_UPSERT } from './logRollup.ts';

/** 32 rows x 23 columns = 736 parameters, well under SQLite's limit (32,766). */
const LOG_ROWS_PER_INSERT = 32;

/** One log row's values, in LOG_COLUMNS order. */
function pushLogParams(out: SQLInputValue[], l: RequestLog): void {
  out.push(l.time, l.requestId, l.method, l.path, l.accountId, l.keyId, l.keyName, l.model, l.channel, l.status, l.errorCode,
    l.promptTokens, l.completionTokens, l.usageEstimated ? 1 : 0, l.cost, l.latencyMs, l.firstByteMs, l.stream ? 1 : 0, l.completionCap ?? null, l.attempts ?? null,
    l.upstreamModel ?? null, l.userAgent ?? null, l.clientIp ?? null);
}

export class BatchWriter {
  readonly #insertOne: StatementSync;
  readonly #insertMany: StatementSync;
  readonly #debit: StatementSync;
  readonly #used: StatementSync;
  readonly #usage: StatementSync;
  readonly #tallyUsage: StatementSync;
  readonly #tallyLatency: StatementSync;

  constructor(db: DatabaseSync) {
    const row = `(${new Array(LOG_COLUMNS.length).fill('?').join(', ')})`;
    const insert = (rows: number) => db.prepare(`INSERT INTO request_logs (${LOG_COLUMNS.join(', ')}) VALUES ${new Array(rows).fill(row).join(', ')}`);
    this.#insertOne = insert(1);
    this.#insertMany = insert(LOG_ROWS_PER_INSERT);
    this.#debit = db.prepare('UPDATE accounts SET balance = balance - ?, total_spent = total_spent + ? WHERE id = ?');
    this.#used = db.prepare('UPDATE api_keys SET last_used_at = MAX(COALESCE(last_used_at, 0), ?) WHERE id = ?');
    this.#usage = db.prepare(`INSERT INTO key_usage (key_id, day, requests, spent) VALUES (?, ?, ?, ?)
      ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + excluded.requests, spent = spent + excluded.spent`);
    this.#tallyUsage = db.prepare(SQLITE_USAGE_UPSERT);
    this.#tallyLatency = db.prepare(SQLITE_LATENCY_UPSERT);
  }

  /** Writes the batch; the debits are the sum of its logged costs per account. */
  apply(batch: WriteBatch): void {
    const debits = debitsOf(batch.logs);
    // Rows go in LOG_ROWS_PER_INSERT at a time, one statement each: per row, a multi-row INSERT
    // costs about half of a one-row INSERT run once per row (statement step and reset, the call itself).
    const logs = batch.logs;
    let at = 0;
    const params: SQLInputValue[] = [];
    for (; at + LOG_ROWS_PER_INSERT <= logs.length; at += LOG_ROWS_PER_INSERT) {
      params.length = 0;
      for (let i = at; i < at + LOG_ROWS_PER_INSERT; i++) pushLogParams(params, logs[i]!);
      this.#insertMany.run(...params);
    }
    for (; at < logs.length; at++) {
      params.length = 0;
      pushLogParams(params, logs[at]!);
      this.#insertOne.run(...params);
    }
    for (const [accountId, amount] of debits) this.#debit.run(amount, amount, accountId);
    for (const [keyId, time] of batch.keysUsed) this.#used.run(time, keyId);
    for (const u of usageOf(logs)) this.#usage.run(u.keyId, u.day, u.requests, u.spent);
    const tally = rollupOf(logs);
    for (const u of tally.usage) this.#tallyUsage.run(u.accountId, u.hour, u.model, u.status, u.errorCode, u.requests, u.cost, u.promptTokens, u.completionTokens);
    for (const t of tally.latency) this.#tallyLatency.run(t.accountId, t.hour, t.bucket, t.requests);
  }
}

/**
 * A batch whose debits the database refused for taking a balance below $0 (moneyRules.ts; the whole transaction
 * rolled back) as OverdrawnBatch, with what each of its accounts can pay: its balance (one process, no leases).
 * The log writer then writes the rows with the rest of the charges withheld, as on PostgreSQL. Any other error as it is.
 */
export function overdrawnOr(db: DatabaseSync, batch: WriteBatch, error: unknown): unknown {
  if (!(error instanceof Error) || !error.message.includes(SQLITE_BELOW_ZERO)) return error;
  const balance = db.prepare('SELECT balance FROM accounts WHERE id = ?');
  const payable = new Map<number, number>();
  for (const accountId of debitsOf(batch.logs).keys()) {
    const row = balance.get(accountId) as { balance: number } | undefined;
    payable.set(accountId, Math.max(0, row?.balance ?? 0));
  }
  return new OverdrawnBatch(payable);
}
