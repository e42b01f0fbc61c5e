/**
 * A signed-in user's own API keys over the console's management API (contract 4.10): the bodies the
 * gateway accepts when a key is made or its limits are changed, and the key as the list shows it. Written
 * once for the gateway and any client. Money goes in as decimal USD (at most 6 decimals, parsed exactly by
 * the gateway, never through a float sum) and comes out both ways, integer micro-USD and a USD string.
 */
import { z } from 'zod';
import { ConsoleName } from '../admin.ts';

export const KEYS_PATH = '/api/console/keys';
export const KEY_LIMITS_PATH = '/api/console/keys/limits';

/** A spending limit counts the key's charges since ever, or since the start of the current UTC day or month. */
export const SPEND_PERIODS = ['total', 'day', 'month'] as const;
export type SpendPeriod = (typeof SPEND_PERIODS)[number];

export function isSpendPeriod(value: unknown): value is SpendPeriod {
  return typeof value === 'string' && (SPEND_PERIODS as readonly string[]).includes(value);
}

/** Addresses and CIDR ranges on one key's IP allow-list, at most. */
export const MAX_ALLOWED_IPS = 100;
/** Requests per day and tokens per minute, at most (0: no limit). */
export const MAX_DAILY_REQUESTS = 1_000_000_000;
export const MAX_TOKENS_PER_MINUTE = 1_000_000_000;

/**
 * The limits a key can be made with or changed to; each absent one is left as it is (a new key: the
 * default). 0 for tpm and rpd, and null for the spending limit and the IP list, mean "none".
 */
export const KeyLimitFields = {
  rpm: z.int().min(1).max(1_000_000).optional(),
  concurrency: z.int().min(1).max(10_000).optional(),
  tpm: z.int().min(0).max(MAX_TOKENS_PER_MINUTE).optional(),
  rpd: z.int().min(0).max(MAX_DAILY_REQUESTS).optional(),
  /** Decimal USD as a string ("5", "0.25") or a JSON number; null: no spending limit. */
  spend_limit_usd: z.union([z.string().min(1).max(32), z.number()]).nullable().optional(),
  spend_period: z.enum(SPEND_PERIODS).optional(),
  /** IPv4 and IPv6 addresses and CIDR ranges (checked strictly by the gateway); null: any address. */
  allow_ips: z.array(z.string().min(1).max(64)).min(1).max(MAX_ALLOWED_IPS).nullable().optional(),
};

/** POST /api/console/keys. */
export const NewKeyBody = z.strictObject({
  name: ConsoleName,
  models: z.array(z.string().min(1).max(256)).max(1000).nullable().optional(),
  /** ISO-8601 date-time in the future; null or absent: never expires. */
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  ...KeyLimitFields,
});
export type NewKeyBody = z.infer<typeof NewKeyBody>;

/** POST /api/console/keys/limits: the key `id`'s limits changed (the others kept); every other setting and the secret kept. */
export const KeyLimitsBody = z.strictObject({ id: z.int().positive(), ...KeyLimitFields });
export type KeyLimitsBody = z.infer<typeof KeyLimitsBody>;

/** Exact money both ways. */
export const KeyMoney = z.strictObject({ micro_usd: z.int().nonnegative(), usd: z.string() });
export type KeyMoney = z.infer<typeof KeyMoney>;

/** A key as GET /api/console/keys lists it: never its secret. */
export const KeyView = z.strictObject({
  id: z.int().positive(),
  name: z.string(),
  prefix: z.string(),
  status: z.enum(['enabled', 'disabled']),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  models: z.array(z.string()).nullable(),
  rpm: z.int(),
  concurrency: z.int(),
  tpm: z.int(),
  rpd: z.int(),
  spend_limit: KeyMoney.nullable(),
  spend_period: z.enum(SPEND_PERIODS),
  /** Settled charges of the current period (every key, limited or not). */
  spent: KeyMoney,
  /** When the period's spending starts again from zero (ISO time); null for a total. */
  resets_at: z.string().nullable(),
  allow_ips: z.array(z.string()).nullable(),
});
export type KeyView = z.infer<typeof KeyView>;
