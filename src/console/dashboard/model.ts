/**
 * What a dashboard shows, whoever it is for (a user's account, or the whole gateway for admins): the
 * pages turn their route's answer into this, and the view draws it. Money stays exact: micro-USD
 * integers, written as text by `moneyOf` without a float.
 */
import type { MoneyLike } from '../i18n/format.ts';

export const DASHBOARD_RANGES = ['24h', '7d', '30d'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];

export interface Bucket {
  /** The bucket's start, ISO-8601. */
  readonly start: string;
  readonly requests: number;
  readonly errors: number;
  readonly cost: MoneyLike;
}

export interface ModelSpend {
  readonly model: string;
  readonly requests: number;
  readonly cost: MoneyLike;
}

export interface ErrorReason {
  readonly code: string | null;
  readonly status: number;
  readonly count: number;
  /** The gateway's own words for it, when it sends them (the console has its own otherwise). */
  readonly message?: string | null;
}

export interface AccountSpend {
  readonly account: string;
  readonly requests: number;
  readonly errors?: number;
  readonly cost: MoneyLike;
}

export interface DashboardModel {
  readonly range: DashboardRange;
  /** The account's balance (a user's dashboard). */
  readonly balance: MoneyLike | null;
  readonly spentToday: MoneyLike;
  readonly spentMonth: MoneyLike;
  readonly requests: number;
  readonly errors: number;
  readonly cost: MoneyLike;
  /** Seconds per bucket: 3600 (hours) or 86400 (days). */
  readonly bucketSeconds: number;
  readonly buckets: readonly Bucket[];
  readonly byModel: readonly ModelSpend[];
  readonly topErrors: readonly ErrorReason[];
  /** The whole gateway's: the accounts that spent most. */
  readonly topAccounts?: readonly AccountSpend[];
  /** The whole gateway's counts (users, accounts, keys, channels), when given. */
  readonly counts?: Readonly<Partial<Record<'users' | 'accounts' | 'keys' | 'channels', number>>>;
}

/** An exact amount of micro-USD as the API writes money. */
export function moneyOf(micro: number): MoneyLike {
  const whole = Math.floor(micro / 1_000_000);
  const fraction = String(micro % 1_000_000).padStart(6, '0');
  return { micro_usd: micro, usd: `${whole}.${fraction}` };
}
