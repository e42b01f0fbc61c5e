/**
 * What a dashboard shows, whoever it is for (a user's account, or the whole gateway for admins), read
 * from the dashboard routes' answers (GET /api/console/dashboard, /api/console/admin/dashboard). Money
 * stays exact: the API's micro-USD and `usd` string, never a float.
 */
import type { Answer } from '../api.ts';
import { DASHBOARD_RANGES, decimalUsd, type DashboardRange } from '../../contract/values.ts';
import type { MoneyLike } from '../i18n/format.ts';

export { DASHBOARD_RANGES, type DashboardRange };

export type UserDashboard = Answer<'getDashboard'>;
export type { GatewayDashboard } from '../../contract/api/dashboard.ts';
import type { GatewayDashboard } from '../../contract/api/dashboard.ts';

export interface ModelSpend {
  /** null: requests without a model (a refusal before the body was read, GET /v1/models). */
  readonly model: string | null;
  /** The rest of the models together, this many of them. */
  readonly others?: number;
  readonly requests: number;
  readonly cost: MoneyLike;
}

export interface DashboardModel {
  readonly range: DashboardRange;
  /** The account's balance (a user's dashboard); the sum over every account on the gateway's. */
  readonly balance: MoneyLike;
  readonly spentToday: MoneyLike;
  readonly spentMonth: MoneyLike;
  readonly requests: number;
  readonly errors: number;
  readonly cost: MoneyLike;
  readonly tokens: { readonly prompt: number; readonly completion: number };
  readonly latency: { readonly requests: number; readonly p50: number | null; readonly p95: number | null };
  /** Seconds per bucket: 3600 (hours) or 86400 (UTC days). */
  readonly bucketSeconds: number;
  readonly buckets: readonly { readonly start: string; readonly requests: number; readonly errors: number; readonly cost: MoneyLike }[];
  readonly byModel: readonly ModelSpend[];
  readonly topErrors: readonly { readonly code: string | null; readonly status: number; readonly count: number }[];
  /** The whole gateway's: the accounts that spent most, and how many of everything there are. */
  readonly topAccounts?: readonly { readonly account: string; readonly requests: number; readonly errors: number; readonly cost: MoneyLike }[];
  readonly counts?: Readonly<Record<'users' | 'accounts' | 'keys' | 'channels', number>>;
}

export function modelOf(answer: UserDashboard | GatewayDashboard): DashboardModel {
  const others = answer.other_models;
  return {
    range: answer.range,
    balance: answer.balance.remaining,
    spentToday: answer.spent.today,
    spentMonth: answer.spent.month,
    requests: answer.totals.requests,
    errors: answer.totals.errors,
    cost: answer.totals.cost,
    tokens: { prompt: answer.totals.prompt_tokens, completion: answer.totals.completion_tokens },
    latency: { requests: answer.latency.requests, p50: answer.latency.p50_ms, p95: answer.latency.p95_ms },
    bucketSeconds: answer.bucket_seconds,
    buckets: answer.series.map((b) => ({ start: b.start, requests: b.requests, errors: b.errors, cost: b.cost })),
    byModel: [
      ...answer.by_model.map((m) => ({ model: m.model, requests: m.requests, cost: m.cost })),
      ...(others && others.models > 0 ? [{ model: null, others: others.models, requests: others.requests, cost: others.cost }] : []),
    ],
    topErrors: answer.errors.map((e) => ({ code: e.code, status: e.status, count: e.count })),
    ...('top_accounts' in answer ? {
      topAccounts: answer.top_accounts.map((a) => ({ account: a.account, requests: a.requests, errors: a.errors, cost: a.cost })),
      counts: answer.counts,
    } : {}),
  };
}

/** An exact amount of micro-USD as the API writes money (chart values back to text). */
export function moneyOf(micro: number): MoneyLike {
  return { micro_usd: micro, usd: decimalUsd(micro) };
}
