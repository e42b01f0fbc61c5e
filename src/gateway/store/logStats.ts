/**
 * The dashboards' numbers, read from the hourly tally (logRollup.ts): what is asked (an account or every
 * one, a range of whole UTC hours, buckets of 1 or 24 hours), the few GROUP BY queries both SQL stores run
 * (the memory store answers the same groups, memoryRequestLogs.ts), and the one fold that makes the answer
 * of them, so that every store ranks and cuts exactly alike.
 */
import { GATEWAY, latencyCeiling } from './logRollup.ts';
import type { SqlParam } from './newestFirst.ts';

export interface StatsQuery {
  /** One account's; absent: every account's, with the accounts that spent most. */
  readonly accountId?: number;
  /** Whole hours since the epoch, UTC: [fromHour, toHour). */
  readonly fromHour: number;
  readonly toHour: number;
  /** Hours per bucket (1 or 24); the range holds a whole number of them. */
  readonly bucketHours: number;
  /** How many models, error reasons and accounts are named at most. */
  readonly top: number;
  /** Ranges of whole hours, [from, to), whose charges are summed (spent today, this month). */
  readonly spent: readonly (readonly [number, number])[];
}

export interface UsageSum {
  requests: number;
  errors: number;
  cost: number;
  promptTokens: number;
  completionTokens: number;
}

export interface LogStats {
  /** Every bucket of the range, oldest first. */
  readonly buckets: readonly UsageSum[];
  readonly totals: UsageSum;
  readonly models: readonly (UsageSum & { readonly model: string | null })[];
  readonly otherModels: (UsageSum & { readonly models: number }) | null;
  readonly errors: readonly { readonly code: string | null; readonly status: number; readonly count: number }[];
  /** Every account's stats only: the accounts that cost most. */
  readonly accounts: readonly (UsageSum & { readonly accountId: number; readonly name: string | null })[];
  readonly latency: { readonly requests: number; readonly p50: number | null; readonly p95: number | null };
  /** The charges of each of the query's `spent` ranges. */
  readonly spent: readonly number[];
}

/** One group of usage_hourly over the range: its bucket's index, model, status and error code ('' for none). */
export interface UsageGroup {
  readonly bucket: number;
  readonly model: string;
  readonly status: number;
  readonly errorCode: string;
  readonly requests: number;
  readonly cost: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** What a store's database answers for a query; statsOf makes the LogStats. */
export interface StatsGroups {
  readonly usage: readonly UsageGroup[];
  readonly accounts: readonly (UsageSum & { readonly accountId: number; readonly name: string | null })[];
  readonly latency: readonly { readonly bucket: number; readonly requests: number }[];
  readonly spent: readonly number[];
}

const zero = (): UsageSum => ({ requests: 0, errors: 0, cost: 0, promptTokens: 0, completionTokens: 0 });

function add(to: UsageSum, g: UsageGroup): void {
  to.requests += g.requests;
  if (g.status >= 400) to.errors += g.requests;
  to.cost += g.cost;
  to.promptTokens += g.promptTokens;
  to.completionTokens += g.completionTokens;
}

/** Text in code point order (as PostgreSQL's "C" collation and SQLite's BINARY), null last. */
function byName(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

const byCost = (a: UsageSum, b: UsageSum): number => b.cost - a.cost || b.requests - a.requests;

/** The percentile `p` (0..1) of a latency histogram: the ceiling of the bucket that holds its rank (nearest rank). */
function percentile(histogram: readonly { bucket: number; requests: number }[], total: number, p: number): number | null {
  if (total === 0) return null;
  const rank = Math.ceil(p * total);
  let seen = 0;
  for (const { bucket, requests } of histogram) {
    seen += requests;
    if (seen >= rank) return latencyCeiling(bucket);
  }
  return latencyCeiling(histogram.at(-1)!.bucket);
}

export function statsOf(q: StatsQuery, g: StatsGroups): LogStats {
  const buckets = Array.from({ length: Math.ceil((q.toHour - q.fromHour) / q.bucketHours) }, zero);
  const totals = zero();
  const models = new Map<string, UsageSum>();
  const errors = new Map<string, { code: string | null; status: number; count: number }>();
  for (const group of g.usage) {
    const bucket = buckets[group.bucket];
    if (!bucket) continue;
    add(bucket, group);
    add(totals, group);
    let model = models.get(group.model);
    if (!model) models.set(group.model, (model = zero()));
    add(model, group);
    if (group.status < 400) continue;
    const key = JSON.stringify([group.errorCode, group.status]);
    const reason = errors.get(key) ?? { code: group.errorCode === '' ? null : group.errorCode, status: group.status, count: 0 };
    reason.count += group.requests;
    errors.set(key, reason);
  }
  const ranked = [...models].map(([model, u]) => ({ model: model === '' ? null : model, ...u })).sort((a, b) => byCost(a, b) || byName(a.model, b.model));
  const top = ranked.slice(0, q.top);
  let otherModels: (UsageSum & { models: number }) | null = null;
  for (const rest of ranked.slice(q.top)) {
    otherModels ??= { models: 0, ...zero() };
    otherModels.models++;
    for (const k of ['requests', 'errors', 'cost', 'promptTokens', 'completionTokens'] as const) otherModels[k] += rest[k];
  }
  const histogram = [...g.latency].filter((h) => h.requests > 0).sort((a, b) => a.bucket - b.bucket);
  const timed = histogram.reduce((n, h) => n + h.requests, 0);
  return {
    buckets,
    totals,
    models: top,
    otherModels,
    errors: [...errors.values()].sort((a, b) => b.count - a.count || byName(a.code, b.code) || a.status - b.status).slice(0, q.top),
    accounts: [...g.accounts].sort((a, b) => byCost(a, b) || a.accountId - b.accountId).slice(0, q.top),
    latency: { requests: timed, p50: percentile(histogram, timed, 0.5), p95: percentile(histogram, timed, 0.95) },
    spent: g.spent,
  };
}

/** The queries of `q` in either SQL dialect (`placeholder(n)` is "?" or "$n"); their answers' columns are statsGroupsOf's. */
export function statsSql(q: StatsQuery, placeholder: (n: number) => string): Record<'usage' | 'accounts' | 'latency' | 'spent', { sql: string; params: SqlParam[] } | null> {
  const build = (text: (p: (value: SqlParam) => string) => string): { sql: string; params: SqlParam[] } => {
    const params: SqlParam[] = [];
    const sql = text((value) => {
      params.push(value);
      return placeholder(params.length);
    });
    return { sql, params };
  };
  // The primary key's range: one account's rows, or the whole gateway's (logRollup.ts GATEWAY).
  const scope = (p: (value: SqlParam) => string, from = q.fromHour, to = q.toHour): string =>
    `account_id = ${p(q.accountId ?? GATEWAY)} AND hour >= ${p(from)} AND hour < ${p(to)}`;
  const sums = 'SUM(requests) AS requests, SUM(cost) AS cost, SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens';
  const spentFrom = Math.min(...q.spent.map(([from]) => from));
  const spentTo = Math.max(...q.spent.map(([, to]) => to));
  return {
    // Whole-number division: node:sqlite binds a JS number as a REAL, which would make it a fraction.
    usage: build((p) => `SELECT (hour - CAST(${p(q.fromHour)} AS INTEGER)) / CAST(${p(q.bucketHours)} AS INTEGER) AS bucket, model, status, error_code, ${sums}
      FROM usage_hourly WHERE ${scope(p)} GROUP BY bucket, model, status, error_code`),
    accounts: q.accountId !== undefined ? null : build((p) => `SELECT u.account_id, a.name, SUM(u.requests) AS requests,
      SUM(CASE WHEN u.status >= 400 THEN u.requests ELSE 0 END) AS errors, SUM(u.cost) AS cost, SUM(u.prompt_tokens) AS prompt_tokens,
      SUM(u.completion_tokens) AS completion_tokens FROM usage_hourly u LEFT JOIN accounts a ON a.id = u.account_id
      WHERE u.hour >= ${p(q.fromHour)} AND u.hour < ${p(q.toHour)} AND u.account_id <> ${p(GATEWAY)} GROUP BY u.account_id, a.name`),
    latency: build((p) => `SELECT bucket, SUM(requests) AS requests FROM latency_hourly WHERE ${scope(p)} GROUP BY bucket`),
    spent: q.spent.length === 0 ? null : build((p) => `SELECT ${q.spent.map(([from, to], i) => `SUM(CASE WHEN hour >= ${p(from)} AND hour < ${p(to)} THEN cost ELSE 0 END) AS s${i}`).join(', ')}
      FROM usage_hourly WHERE ${scope(p, spentFrom, spentTo)}`),
  };
}
