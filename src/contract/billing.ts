/**
 * The OpenAI-style billing endpoints that gateways of this family expose, so a
 * client holding only an API key can show its balance. Money in these bodies is
 * in US dollars (`hard_limit_usd`) and cents (`total_usage`), as clients expect.
 * Inside the gateway, money is integer micro-dollars and never a float.
 */
import { z } from 'zod';

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

/** Integer money unit used inside the gateway: one millionth of a US dollar. */
export const MICRO_USD_PER_USD = 1_000_000;
