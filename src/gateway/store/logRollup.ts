/**
 * The request logs' hourly tally, which the dashboards read (logStats.ts): per account, UTC hour, model,
 * status and error code, the rows' count, charges and tokens (usage_hourly); and per account and hour, how
 * many successful model requests took how long, in buckets about 19% wide (latency_hourly). Written in the
 * same transaction as the log rows (each store's batch), pruned with them by whole hours.
 *
 * Why a tally and not an index: the dashboard of a busy account aggregates tens of thousands of rows, which
 * SQLite does at about 2 us a row even with an index on (account_id, time) (300 ms for a month of 150,000),
 * and every index on request_logs costs each logged request more than a tally does (a 30-day index on
 * (account_id, time) took the batch write from 21 to 35 us a row here; the tally's few upserts a batch, far less).
 * Rows without an account (refusals before any key was known, sampled) are not tallied. Each row is tallied
 * twice: for its account, and for the whole gateway under account id GATEWAY (no account has it: ids start
 * at 1), so the admins' dashboard reads one set of rows however many accounts there are.
 */
import { pgText } from './postgresQuery.ts';
import type { RequestLog } from './types.ts';

export const HOUR_MS = 3_600_000;
/** The tally's account id of the whole gateway: every account's rows together. */
export const GATEWAY = 0;
export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS);

/**
 * The latency buckets' upper bounds (exclusive, whole ms): 2^(k/4) rounded, k = 0..100 (1 ms to 9.3 hours),
 * without repeats. Bucket 0 is under 1 ms, bucket i is [LATENCY_BOUNDS[i-1], LATENCY_BOUNDS[i]), and the last,
 * LATENCY_BOUNDS.length, everything longer. Fixed: stored rows are counted by them.
 */
export const LATENCY_BOUNDS: readonly number[] = (() => {
  const out: number[] = [];
  for (let k = 0; k <= 100; k++) {
    const bound = Math.round(2 ** (k / 4));
    if (out.at(-1) !== bound) out.push(bound);
  }
  return out;
})();

/** The bucket of a latency (ms, rounded to whole ms as the logs keep it). */
export function latencyBucket(ms: number): number {
  const whole = Math.round(ms);
  let lo = 0;
  let hi = LATENCY_BOUNDS.length;
  // The number of bounds <= whole.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (LATENCY_BOUNDS[mid]! <= whole) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The most a latency of `bucket` can be (whole ms); the last bucket's least. */
export function latencyCeiling(bucket: number): number {
  if (bucket <= 0) return 0;
  return bucket < LATENCY_BOUNDS.length ? LATENCY_BOUNDS[bucket]! - 1 : LATENCY_BOUNDS.at(-1)!;
}

/** A row the latency tally counts: answered without an error, to a model, of an account. */
export const isTimed = (l: RequestLog): boolean => l.accountId !== null && l.status < 400 && l.model !== null;

/** One usage_hourly row's key and sums. `model` and `errorCode` are '' for none (a key column cannot be NULL). */
export interface UsageRow {
  readonly accountId: number;
  readonly hour: number;
  readonly model: string;
  readonly status: number;
  readonly errorCode: string;
  requests: number;
  cost: number;
  promptTokens: number;
  completionTokens: number;
}

export interface LatencyRow {
  readonly accountId: number;
  readonly hour: number;
  readonly bucket: number;
  requests: number;
}

const byKey = <T>(rows: Map<string, T>): T[] => [...rows.keys()].sort().map((k) => rows.get(k)!);

/**
 * A batch's tally, each list in one order (its key's JSON): every writer, on every instance, upserts rows
 * in the same order, so two batches never wait for each other's rows crosswise (no deadlock).
 */
export function rollupOf(logs: readonly RequestLog[]): { usage: UsageRow[]; latency: LatencyRow[] } {
  const usage = new Map<string, UsageRow>();
  const latency = new Map<string, LatencyRow>();
  for (const l of logs) {
    if (l.accountId === null) continue;
    const hour = hourOf(l.time);
    const timed = isTimed(l);
    const bucket = timed ? latencyBucket(l.latencyMs) : 0;
    for (const accountId of [l.accountId, GATEWAY]) {
      const key = JSON.stringify([accountId, hour, l.model ?? '', l.status, l.errorCode ?? '']);
      let u = usage.get(key);
      if (!u) usage.set(key, (u = { accountId, hour, model: l.model ?? '', status: l.status, errorCode: l.errorCode ?? '', requests: 0, cost: 0, promptTokens: 0, completionTokens: 0 }));
      u.requests++;
      u.cost += l.cost;
      u.promptTokens += l.promptTokens;
      u.completionTokens += l.completionTokens;
      if (!timed) continue;
      const lkey = JSON.stringify([accountId, hour, bucket]);
      const t = latency.get(lkey);
      if (t) t.requests++;
      else latency.set(lkey, { accountId, hour, bucket, requests: 1 });
    }
  }
  return { usage: byKey(usage), latency: byKey(latency) };
}

/** The SQLite upserts, one row each (prepared once by the batch writer). */
export const SQLITE_USAGE_UPSERT = `INSERT INTO usage_hourly (account_id, hour, model, status, error_code, requests, cost, prompt_tokens, completion_tokens)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, hour, model, status, error_code) DO UPDATE SET requests = requests + excluded.requests,
  cost = cost + excluded.cost, prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens`;
export const SQLITE_LATENCY_UPSERT = `INSERT INTO latency_hourly (account_id, hour, bucket, requests) VALUES (?, ?, ?, ?)
  ON CONFLICT (account_id, hour, bucket) DO UPDATE SET requests = requests + excluded.requests`;

/** PostgreSQL's tally rows as mg_write_batch's array parameters (postgresBatch.ts), one per column. */
export const usageColumns = (rows: readonly UsageRow[]): unknown[][] => [
  rows.map((r) => r.accountId), rows.map((r) => r.hour), rows.map((r) => pgText(r.model)), rows.map((r) => r.status), rows.map((r) => r.errorCode),
  rows.map((r) => r.requests), rows.map((r) => r.cost), rows.map((r) => r.promptTokens), rows.map((r) => r.completionTokens),
];
export const latencyColumns = (rows: readonly LatencyRow[]): unknown[][] => [rows.map((r) => r.accountId), rows.map((r) => r.hour), rows.map((r) => r.bucket), rows.map((r) => r.requests)];

/**
 * The tally's rows pruned with the logs from before `before`: the whole hours before it (the hour `before`
 * falls in keeps its rows, some of whose logs are gone: the dashboards count by whole hours).
 */
export const PRUNE_ROLLUPS = ['DELETE FROM usage_hourly WHERE hour < {h}', 'DELETE FROM latency_hourly WHERE hour < {h}'] as const;
