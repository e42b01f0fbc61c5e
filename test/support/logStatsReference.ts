/**
 * What a dashboard must say, counted the slow and obvious way from the log rows themselves (no tally, no
 * SQL): the conformance suites compare every store's stats with it. Ranking and cutting follow the
 * contract's words (api/dashboard.ts): by cost, then requests, then name; error reasons by count.
 */
import { HOUR_MS, latencyBucket, latencyCeiling } from '../../src/gateway/store/logRollup.ts';
import type { LogStats, StatsQuery, UsageSum } from '../../src/gateway/store/logStats.ts';
import type { RequestLog } from '../../src/gateway/store/types.ts';

const zero = (): UsageSum => ({ requests: 0, errors: 0, cost: 0, promptTokens: 0, completionTokens: 0 });

function add(u: UsageSum, l: RequestLog): void {
  u.requests++;
  if (l.status >= 400) u.errors++;
  u.cost += l.cost;
  u.promptTokens += l.promptTokens;
  u.completionTokens += l.completionTokens;
}

/** Code point order, null last. */
function byName(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const ca = [...a].map((c) => c.codePointAt(0)!);
  const cb = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) if (ca[i] !== cb[i]) return ca[i]! - cb[i]!;
  return ca.length - cb.length;
}

function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return latencyCeiling(latencyBucket(sorted[Math.ceil(p * sorted.length) - 1]!));
}

/** The stats of `rows` (as written) for `q`; `names` gives account names. */
export function referenceStats(rows: readonly RequestLog[], q: StatsQuery, names: (id: number) => string | null): LogStats {
  const hour = (l: RequestLog): number => Math.floor(l.time / HOUR_MS);
  const mine = rows.filter((l) => l.accountId !== null && (q.accountId === undefined || l.accountId === q.accountId));
  const inRange = mine.filter((l) => hour(l) >= q.fromHour && hour(l) < q.toHour);
  const buckets = Array.from({ length: (q.toHour - q.fromHour) / q.bucketHours }, zero);
  const totals = zero();
  const models = new Map<string | null, UsageSum>();
  const errors = new Map<string, { code: string | null; status: number; count: number }>();
  const accounts = new Map<number, UsageSum>();
  const latencies: number[] = [];
  for (const l of inRange) {
    add(buckets[Math.floor((hour(l) - q.fromHour) / q.bucketHours)]!, l);
    add(totals, l);
    // The tally keeps no model as '' (a key column): a model named '' is no model.
    const model = l.model === '' ? null : l.model;
    if (!models.has(model)) models.set(model, zero());
    add(models.get(model)!, l);
    if (!accounts.has(l.accountId!)) accounts.set(l.accountId!, zero());
    add(accounts.get(l.accountId!)!, l);
    if (l.status >= 400) {
      const code = l.errorCode === '' ? null : l.errorCode;
      const key = JSON.stringify([code, l.status]);
      const reason = errors.get(key) ?? { code, status: l.status, count: 0 };
      reason.count++;
      errors.set(key, reason);
    }
    if (l.status < 400 && l.model !== null) latencies.push(Math.round(l.latencyMs));
  }
  const byCost = (a: UsageSum, b: UsageSum): number => b.cost - a.cost || b.requests - a.requests;
  const ranked = [...models].map(([model, u]) => ({ model, ...u })).sort((a, b) => byCost(a, b) || byName(a.model, b.model));
  const rest = ranked.slice(q.top);
  const otherModels = rest.length === 0 ? null : rest.reduce((o, m) => ({
    models: o.models + 1, requests: o.requests + m.requests, errors: o.errors + m.errors, cost: o.cost + m.cost,
    promptTokens: o.promptTokens + m.promptTokens, completionTokens: o.completionTokens + m.completionTokens,
  }), { models: 0, ...zero() });
  latencies.sort((a, b) => a - b);
  return {
    buckets,
    totals,
    models: ranked.slice(0, q.top),
    otherModels,
    errors: [...errors.values()].sort((a, b) => b.count - a.count || byName(a.code, b.code) || a.status - b.status).slice(0, q.top),
    accounts: q.accountId !== undefined ? [] : [...accounts].map(([accountId, u]) => ({ accountId, name: names(accountId), ...u }))
      .sort((a, b) => byCost(a, b) || a.accountId - b.accountId).slice(0, q.top),
    latency: { requests: latencies.length, p50: nearestRank(latencies, 0.5), p95: nearestRank(latencies, 0.95) },
    spent: q.spent.map(([from, to]) => mine.filter((l) => hour(l) >= from && hour(l) < to).reduce((sum, l) => sum + l.cost, 0)),
  };
}

/** A small seeded generator (mulberry32): the same rows on every store and every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
