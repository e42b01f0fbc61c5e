/**
 * The console's dashboard (issue 10): a signed-in user's account, or for admins the whole gateway, over
 * a range (the last 24 hours in hours, the last 7 or 30 days in UTC days): money, requests and errors
 * over time, spending by model, the top error reasons in the contract's words, latency. Counted from the
 * request logs kept (an hourly tally written with them), so the numbers add up to the logs page's rows.
 */
import { z } from 'zod';
import { IsoTime, Money, named } from './schema.ts';

import { DASHBOARD_RANGES, type DashboardRange } from '../values.ts';

export { DASHBOARD_RANGES, type DashboardRange };

/** GET /api/console/dashboard?range= (and the admins' /api/console/admin/dashboard). */
export const DashboardQuery = z.strictObject({
  range: z.enum(DASHBOARD_RANGES).optional().describe('24h (the default): 24 hourly buckets, the current hour last; 7d, 30d: UTC days, today last'),
});

const USAGE = {
  requests: z.int().describe('request log rows (every request of the account that was logged, refusals included)'),
  errors: z.int().describe('of them, answered with an error status (400 and above)'),
  cost: Money,
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
};

export const UsageTotals = named('UsageTotals', z.strictObject(USAGE));
export const UsageBucket = named('UsageBucket', z.strictObject({ start: IsoTime.describe('the bucket\'s first instant; it lasts bucket_seconds'), ...USAGE }));
export const ModelUsage = named('ModelUsage', z.strictObject({
  model: z.string().nullable().describe('null: requests without a model (GET /v1/models, the billing endpoints, refusals before a body was read)'),
  ...USAGE,
}));
export const ErrorReason = named('ErrorReason', z.strictObject({
  code: z.string().nullable(),
  status: z.int(),
  count: z.int(),
  message: z.string().nullable().describe("the contract's words for the code: what happened, what to do"),
}));

const DASHBOARD = {
  account: z.string().nullable().describe("the account's name; null on the whole gateway's"),
  range: z.enum(DASHBOARD_RANGES),
  bucket_seconds: z.int().describe('3600 (24h) or 86400 (7d, 30d)'),
  from: IsoTime.describe('the first bucket\'s start'),
  to: IsoTime.describe('the end of the last bucket (exclusive)'),
  balance: z.strictObject({ remaining: Money, used: Money }).describe("the account's balance and all it has spent; on the whole gateway's, the sums over every account"),
  spent: z.strictObject({ today: Money, month: Money }).describe('charged since 00:00 UTC, and since the 1st of the month 00:00 UTC'),
  totals: UsageTotals.describe('the whole range'),
  series: z.array(UsageBucket).describe('every bucket of the range, oldest first (zeros where nothing was logged)'),
  by_model: z.array(ModelUsage).describe('the models that cost most over the range (then the most requests), at most 8'),
  other_models: z.strictObject({ models: z.int(), ...USAGE }).nullable().describe('the rest of the models together; null when none'),
  errors: z.array(ErrorReason).describe('the commonest error reasons of the range, at most 8'),
  latency: z.strictObject({
    requests: z.int().describe('the successful requests to a model the percentiles are of'),
    p50_ms: z.int().nullable(),
    p95_ms: z.int().nullable(),
  }).describe('total time of the successful requests to a model, as an upper bound: counted in buckets about 19% wide, so p50_ms says "half took at most this"; null when there were none'),
};

export const Dashboard = named('Dashboard', z.strictObject({ object: z.literal('console.dashboard'), ...DASHBOARD }));

export const AccountUsage = named('AccountUsage', z.strictObject({ account: z.string(), ...USAGE }));

/** The whole gateway's: every account's rows, the accounts that spent most, and how many of everything there are. */
export const GatewayDashboard = named('GatewayDashboard', z.strictObject({
  object: z.literal('console.gateway_dashboard'),
  ...DASHBOARD,
  top_accounts: z.array(AccountUsage).describe('the accounts that cost most over the range (then the most requests), at most 8'),
  counts: z.strictObject({ users: z.int(), accounts: z.int(), keys: z.int(), channels: z.int() }),
}));
export type GatewayDashboard = z.infer<typeof GatewayDashboard>;

/** How many models, errors and accounts a dashboard names at most. */
export const DASHBOARD_TOP = 8;
