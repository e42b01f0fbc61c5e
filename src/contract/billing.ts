/**
 * The OpenAI-style billing endpoints that gateways of this family expose, so a
 * client holding only an API key can show its balance. Money in these bodies is
 * in US dollars (`hard_limit_usd`) and cents (`total_usage`), as clients expect.
 * Inside the gateway, money is integer micro-dollars and never a float.
 */
import { z } from 'zod';
import { decimalUsd } from './values.ts';

export { decimalUsd };

export const BILLING_SUBSCRIPTION_PATH = '/v1/dashboard/billing/subscription';
export const BILLING_USAGE_PATH = '/v1/dashboard/billing/usage';

export const BillingSubscription = z.looseObject({
  object: z.string().optional(),
  has_payment_method: z.boolean().optional(),
  hard_limit_usd: z.number(),
  soft_limit_usd: z.number().optional(),
  system_hard_limit_usd: z.number().optional(),
  access_until: z.number().optional(),
});
export type BillingSubscription = z.infer<typeof BillingSubscription>;

export const BillingUsage = z.looseObject({
  object: z.string().optional(),
  total_usage: z.number(),
});
export type BillingUsage = z.infer<typeof BillingUsage>;

/**
 * This gateway's spending by day (GET /v1/dashboard/billing/daily?days=N&utc_offset_minutes=M): the key's
 * last N calendar days in the client's time zone, oldest first, every day listed. Other gateways of the
 * family lack it (a 404 or their console's page), and clients then show totals only.
 */
export const BILLING_DAILY_PATH = '/v1/dashboard/billing/daily';

export const BillingDaily = z.looseObject({
  object: z.literal('billing_daily'),
  utc_offset_minutes: z.number().int(),
  /** False when the key had more requests in the window than the gateway reads for one answer. */
  complete: z.boolean(),
  data: z.array(z.looseObject({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), cost_usd: z.number().nonnegative(), requests: z.number().int().nonnegative() })),
});
export type BillingDaily = z.infer<typeof BillingDaily>;

/** Integer money unit used inside the gateway: one millionth of a US dollar. */
export const MICRO_USD_PER_USD = 1_000_000;

/**
 * The most an account may hold, and so the most any amount may be: $1,000,000,000. A balance, what
 * is pending and what is reserved (each at most this) add up far below 2^53 micro-USD, so money in
 * micro-USD stays exact in a JavaScript number whatever the path (the gateway's store enforces it too).
 */
export const MAX_BALANCE_MICRO = 1_000_000_000 * MICRO_USD_PER_USD;
/** The most a price may be (per million tokens, or per image): $1,000,000. */
export const MAX_PRICE_MICRO = 1_000_000 * MICRO_USD_PER_USD;

/** A key's money as clients show it (from the billing endpoints), in US dollars; null where the gateway did not say. */
export interface Balance {
  readonly remainingUsd: number | null;
  readonly usedUsd: number | null;
  readonly limitUsd: number | null;
  readonly unlimited: boolean;
}

/** micro-USD -> "$12.345", by the one display rule (formatUsd). */
export function formatMicroUsd(micro: number): string {
  const decimal = decimalUsd(micro);
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  // Thousands by hand, not toLocaleString: that maps ICU's number data into the process for its life.
  return `${negative ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${fraction}`;
}

/**
 * Dollars for people, one rule everywhere (CLI, console, chat, status bar): exact to the micro-dollar,
 * at least two decimals, no trailing zeros beyond, thousands separated: "$10.00", "$1,234.5", "$0.000038".
 */
export function formatUsd(usd: number): string {
  return formatMicroUsd(Math.round(usd * MICRO_USD_PER_USD));
}
