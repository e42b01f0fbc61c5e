/**
 * The key's balance from the OpenAI-style billing endpoints (contract billing.ts):
 * remaining = hard_limit_usd - total_usage / 100 (usage is in cents).
 * Gateways of the one-api / new-api family report an unlimited key as a huge hard
 * limit (100000000); anything at or above UNLIMITED_USD is shown as unlimited.
 */
import { MICRO_USD_PER_USD } from '../contract/index.ts';
import type { Balance } from '../contract/index.ts';

export const UNLIMITED_USD = 1e8;

/**
 * Dollars rounded to the micro-dollar, the gateway's unit: float noise (0.1 + 0.2) goes, and a chat
 * that cost a few micro-dollars still changes the balance shown (rounding to 1/10,000 of a dollar hid it).
 */
function usd(value: number): number {
  return Math.round(value * MICRO_USD_PER_USD) / MICRO_USD_PER_USD;
}

export function computeBalance(hardLimitUsd: number, totalUsageCents: number | null): Balance {
  const usedUsd = totalUsageCents === null ? null : usd(totalUsageCents / 100);
  if (hardLimitUsd >= UNLIMITED_USD) return { remainingUsd: null, usedUsd, limitUsd: null, unlimited: true };
  return {
    remainingUsd: usedUsd === null ? null : usd(hardLimitUsd - usedUsd),
    usedUsd,
    limitUsd: usd(hardLimitUsd),
    unlimited: false,
  };
}

/** `?start_date&end_date` for gateways whose usage endpoint requires them (OpenAI's allowed at most 100 days). */
export function usageDateRange(now: Date = new Date()): string {
  const day = 24 * 60 * 60 * 1000;
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
  return `start_date=${iso(now.getTime() - 99 * day)}&end_date=${iso(now.getTime() + day)}`;
}
