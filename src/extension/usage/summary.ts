/**
 * What the Usage view shows, computed from what the gateway answered (no vscode import, unit-tested):
 * the balance (billing endpoints, every gateway of the family), and, where the gateway gives spending by
 * day (ours: /v1/dashboard/billing/daily), today's and this month's spending and the recent days.
 * Where it does not, those stay null and the view says what it cannot show instead of guessing.
 */
import type { Balance, BillingDaily } from '../../contract/index.ts';

/** Days asked for: enough for the whole current month (at most 31 days, today included). */
export const DAYS_ASKED = 31;
/** Days drawn in the chart. */
export const CHART_DAYS = 14;

export interface DaySpend {
  /** "YYYY-MM-DD", the user's calendar day. */
  readonly date: string;
  readonly costUsd: number;
  readonly requests: number;
}

export interface UsageSummary {
  readonly balance: Balance;
  /** Spending by day, oldest first (the last CHART_DAYS), or null when the gateway does not report it. */
  readonly recentDays: readonly DaySpend[] | null;
  readonly todayUsd: number | null;
  readonly monthUsd: number | null;
  /** The gateway read fewer requests than the window held: the sums are lower bounds. */
  readonly partial: boolean;
}

/** The user's calendar day of `now`, as the gateway is asked to count it. */
export function localDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The offset from UTC the gateway takes (minutes east of UTC; Date gives minutes west). */
export function utcOffsetMinutes(now: Date): number {
  return -now.getTimezoneOffset();
}

/** Sums whole micro-dollars, so adding a month of float dollars leaves no 0.30000000000000004 behind. */
function sumUsd(days: readonly DaySpend[]): number {
  return days.reduce((micro, day) => micro + Math.round(day.costUsd * 1e6), 0) / 1e6;
}

export function summarize(balance: Balance, daily: BillingDaily | null, now: Date): UsageSummary {
  if (daily === null) return { balance, recentDays: null, todayUsd: null, monthUsd: null, partial: false };
  const days: DaySpend[] = daily.data.map((d) => ({ date: d.date, costUsd: d.cost_usd, requests: d.requests }));
  const today = localDate(now);
  const month = today.slice(0, 8); // "YYYY-MM-"
  return {
    balance,
    recentDays: days.slice(-CHART_DAYS),
    todayUsd: sumUsd(days.filter((d) => d.date === today)),
    monthUsd: sumUsd(days.filter((d) => d.date.startsWith(month))),
    partial: !daily.complete,
  };
}
