/**
 * A dashboard counted from request log rows, in the browser: buckets of the range (hours for 24 hours,
 * days otherwise, UTC), spending by model, error reasons. For a gateway that has no dashboard route.
 */
import { DASHBOARD_RANGES, moneyOf, type DashboardModel, type DashboardRange } from './model.ts';

export interface CountedRow {
  readonly time: string;
  readonly model: string | null;
  readonly status: number;
  readonly error_code: string | null;
  readonly cost: { readonly micro_usd: number };
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
export const RANGE_SPAN: Readonly<Record<DashboardRange, { readonly buckets: number; readonly size: number }>> = {
  '24h': { buckets: 24, size: HOUR },
  '7d': { buckets: 7, size: DAY },
  '30d': { buckets: 30, size: DAY },
};

/** The first bucket's start: whole hours or UTC days, the last bucket holding `now`. */
export function rangeStart(range: DashboardRange, now: number): number {
  const { buckets, size } = RANGE_SPAN[range];
  return Math.floor(now / size) * size - (buckets - 1) * size;
}

export function countRows(rows: readonly CountedRow[], range: DashboardRange, now: number, balance: DashboardModel['balance']): DashboardModel {
  if (!DASHBOARD_RANGES.includes(range)) throw new Error(`unknown range ${range}`);
  const { buckets: n, size } = RANGE_SPAN[range];
  const start = rangeStart(range, now);
  const day = Math.floor(now / DAY) * DAY;
  const d = new Date(now);
  const month = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const buckets = Array.from({ length: n }, (_, i) => ({ start: start + i * size, requests: 0, errors: 0, cost: 0 }));
  const models = new Map<string, { requests: number; cost: number }>();
  const reasons = new Map<string, { code: string | null; status: number; count: number }>();
  let today = 0;
  let thisMonth = 0;
  for (const row of rows) {
    const time = Date.parse(row.time);
    const cost = row.cost.micro_usd;
    if (time >= day) today += cost;
    if (time >= month) thisMonth += cost;
    if (time < start) continue;
    const bucket = buckets[Math.min(n - 1, Math.floor((time - start) / size))]!;
    const failed = row.status >= 400;
    bucket.requests++;
    bucket.cost += cost;
    if (failed) bucket.errors++;
    if (row.model) {
      const m = models.get(row.model) ?? { requests: 0, cost: 0 };
      m.requests++;
      m.cost += cost;
      models.set(row.model, m);
    }
    if (failed) {
      const key = `${row.status} ${row.error_code ?? ''}`;
      const r = reasons.get(key) ?? { code: row.error_code, status: row.status, count: 0 };
      r.count++;
      reasons.set(key, r);
    }
  }
  const total = buckets.reduce((sum, b) => sum + b.cost, 0);
  return {
    range, balance,
    spentToday: moneyOf(today), spentMonth: moneyOf(thisMonth),
    requests: buckets.reduce((sum, b) => sum + b.requests, 0),
    errors: buckets.reduce((sum, b) => sum + b.errors, 0),
    cost: moneyOf(total),
    bucketSeconds: size / 1000,
    buckets: buckets.map((b) => ({ start: new Date(b.start).toISOString(), requests: b.requests, errors: b.errors, cost: moneyOf(b.cost) })),
    byModel: [...models].map(([model, m]) => ({ model, requests: m.requests, cost: moneyOf(m.cost) })),
    topErrors: [...reasons.values()].sort((a, b) => b.count - a.count).slice(0, 5),
  };
}
