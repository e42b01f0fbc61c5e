/**
 * GET /api/console/dashboard?range=24h|7d|30d: a signed-in user's account, and GET
 * /api/console/admin/dashboard: the whole gateway (admins), in the same shape plus the accounts that
 * spent most and how many users, accounts, keys and channels there are. The range ends with the current
 * hour (24h, hourly buckets) or the current UTC day (7d, 30d, daily buckets); spent today and this month
 * are UTC too. The numbers are the store's hourly tally of the request logs (store/logStats.ts), counted
 * in the database; the balance is the store's, every charge written. Reading is not logged.
 */
import { DASHBOARD_TOP, logErrorMessage, type DashboardRange } from '../../contract/index.ts';
import type { Gateway } from '../gateway.ts';
import { HOUR_MS } from '../store/logRollup.ts';
import type { LogStats, UsageSum } from '../store/logStats.ts';
import { money } from './consoleCatalog.ts';
import type { ApiHandler } from './api.ts';

const RANGES: Readonly<Record<DashboardRange, { hours: number; bucketHours: number }>> = {
  '24h': { hours: 24, bucketHours: 1 },
  '7d': { hours: 7 * 24, bucketHours: 24 },
  '30d': { hours: 30 * 24, bucketHours: 24 },
};

const hourAt = (ms: number): number => Math.floor(ms / HOUR_MS);

/** The whole hours of `range` ending with the bucket that holds `now`, and the hours of today and this month (UTC). */
export function dashboardWindow(range: DashboardRange, now: number) {
  const { hours, bucketHours } = RANGES[range];
  const toHour = (Math.floor(hourAt(now) / bucketHours) + 1) * bucketHours;
  const today = Math.floor(hourAt(now) / 24) * 24;
  const d = new Date(now);
  const month: [number, number] = [hourAt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)), hourAt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))];
  return { fromHour: toHour - hours, toHour, bucketHours, spent: [[today, today + 24], month] as const };
}

function usageView(u: UsageSum) {
  return { requests: u.requests, errors: u.errors, cost: money(u.cost), prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens };
}

/** What both dashboards say, from the tally's stats. */
async function dashboardOf(gw: Gateway, range: DashboardRange, accountId: number | undefined) {
  const window = dashboardWindow(range, Date.now());
  await gw.logs.flush(); // a request just made is counted
  const stats: LogStats = await gw.store.requestLogs.stats({ ...window, top: DASHBOARD_TOP, ...(accountId !== undefined ? { accountId } : {}) });
  const iso = (hour: number): string => new Date(hour * HOUR_MS).toISOString();
  return {
    stats,
    body: {
      range,
      bucket_seconds: window.bucketHours * 3600,
      from: iso(window.fromHour),
      to: iso(window.toHour),
      spent: { today: money(stats.spent[0] ?? 0), month: money(stats.spent[1] ?? 0) },
      totals: usageView(stats.totals),
      series: stats.buckets.map((u, i) => ({ start: iso(window.fromHour + i * window.bucketHours), ...usageView(u) })),
      by_model: stats.models.map((m) => ({ model: m.model, ...usageView(m) })),
      other_models: stats.otherModels ? { models: stats.otherModels.models, ...usageView(stats.otherModels) } : null,
      errors: stats.errors.map((e) => ({ ...e, message: logErrorMessage(e.code) })),
      latency: { requests: stats.latency.requests, p50_ms: stats.latency.p50, p95_ms: stats.latency.p95 },
    },
  };
}

export const dashboard: ApiHandler<'getDashboard'> = async (gw, _ctx, { caller: { user }, query }) => {
  const { body } = await dashboardOf(gw, query.range ?? '24h', user.accountId);
  // The balance as the store holds it, this instance's charges written (dashboardOf flushed them): on
  // PostgreSQL other instances' too, which this instance's own view of the money does not follow.
  await gw.catalog.refresh();
  const name = gw.catalog.account(user.accountId)?.name ?? null;
  const account = name === null ? null : await gw.store.getAccount(name);
  return {
    body: {
      object: 'console.dashboard', account: name, ...body, balance: { remaining: money(account?.balance ?? 0), used: money(account?.totalSpent ?? 0) },
    },
  };
};

export const gatewayDashboard: ApiHandler<'getGatewayDashboard'> = async (gw, _ctx, { query }) => {
  const { body, stats } = await dashboardOf(gw, query.range ?? '24h', undefined);
  const totals = await gw.store.totals();
  return {
    body: {
      object: 'console.gateway_dashboard', account: null, ...body,
      balance: { remaining: money(totals.balance), used: money(totals.spent) },
      top_accounts: stats.accounts.map((a) => ({ account: a.name ?? `#${a.accountId}`, ...usageView(a) })),
      counts: { users: totals.users, accounts: totals.accounts, keys: totals.keys, channels: totals.channels },
    },
  };
};
