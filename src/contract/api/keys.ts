/**
 * A signed-in user's own API keys over the console's management API (contract 4.10, 5.2): the bodies the
 * gateway accepts when a key is made, changed or its limits are changed, and the key as the API shows it
 * (never its secret, except once in the answer that makes or rotates it). Written once for the gateway and
 * any client. Money goes in as decimal USD (at most 6 decimals, parsed exactly by the gateway, never through
 * a float sum) and comes out both ways, integer micro-USD and a USD string.
 */
import { z } from 'zod';
import { ModelName } from '../kinds.ts';
import { ConsoleName } from '../admin.ts';
import { IsoDateTimeInput, IsoTime, IsoTimeOrNull, Money, named } from './schema.ts';

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
 * default). 0 for every count (rpm, concurrency, tpm, rpd), and null for the spending limit and the IP
 * list, mean "none": the gateway's limiters let a 0 through (ratelimit.ts), as the CLI's `--rpm 0` always did.
 */
export const KeyLimitFields = {
  rpm: z.int().min(0).max(1_000_000).optional().describe('requests per minute; 0: no limit; absent on a new key: 1200'),
  concurrency: z.int().min(0).max(10_000).optional().describe('requests at once; 0: no limit; absent on a new key: 64'),
  tpm: z.int().min(0).max(MAX_TOKENS_PER_MINUTE).optional().describe('tokens per minute; 0: no limit'),
  rpd: z.int().min(0).max(MAX_DAILY_REQUESTS).optional().describe('requests per UTC day; 0: no limit'),
  spend_limit_usd: z.union([z.string().min(1).max(32), z.number()]).nullable().optional().describe('decimal USD as a string ("5", "0.25") or a JSON number; null: no spending limit'),
  spend_period: z.enum(SPEND_PERIODS).optional(),
  allow_ips: z.array(z.string().min(1).max(64)).min(1).max(MAX_ALLOWED_IPS).nullable().optional().describe('IPv4 and IPv6 addresses and CIDR ranges; null: any address'),
};

/** POST /api/console/keys. */
export const NewKeyBody = named('NewKeyBody', z.strictObject({
  name: ConsoleName,
  models: z.array(ModelName).min(1, 'give at least one model, or null for every model').max(1000).nullable().optional().describe('the models the key may use (one at least); absent or null: every model'),
  expires_at: IsoDateTimeInput.nullable().optional().describe('in the future; absent or null: never expires'),
  ...KeyLimitFields,
}));
export type NewKeyBody = z.infer<typeof NewKeyBody>;

/** POST /api/console/keys/limits: the key `id`'s limits changed (the others kept); every other setting and the secret kept. */
export const KeyLimitsBody = named('KeyLimitsBody', z.strictObject({ id: z.int().positive(), ...KeyLimitFields }));
export type KeyLimitsBody = z.infer<typeof KeyLimitsBody>;

/** POST /api/console/keys/{disable,enable,delete,rotate}. */
export const KeyIdBody = named('KeyIdBody', z.strictObject({ id: z.int().positive() }));

/** Exact money both ways. */
export const KeyMoney = Money;
export type KeyMoney = z.infer<typeof KeyMoney>;

/** A key as the API shows it: never its secret. */
export const KeyView = named('Key', z.strictObject({
  id: z.int().positive(),
  name: z.string(),
  prefix: z.string().describe('the start of the secret, for recognising it: "sk-AbCd…"'),
  status: z.enum(['enabled', 'disabled']),
  created_at: IsoTime,
  last_used_at: IsoTimeOrNull,
  expires_at: IsoTimeOrNull,
  models: z.array(z.string()).nullable(),
  rpm: z.int(),
  concurrency: z.int(),
  tpm: z.int(),
  rpd: z.int(),
  spend_limit: KeyMoney.nullable(),
  spend_period: z.enum(SPEND_PERIODS),
  spent: KeyMoney.describe('settled charges of the current period (every key, limited or not)'),
  resets_at: IsoTimeOrNull.describe("when the period's spending starts again from zero; null for a total"),
  allow_ips: z.array(z.string()).nullable(),
  disabled_user: z.string().nullable().describe(
    'the disabled user who stops the key while its own status is enabled (the user who made it, or every user of its account): requests with it are refused, 403 key_disabled, until an admin enables them; null when none',
  ),
}));
export type KeyView = z.infer<typeof KeyView>;

export const KeyList = named('KeyList', z.strictObject({ object: z.literal('list'), data: z.array(KeyView) }));

/** 201 to POST /api/console/keys, 200 to a rotation: the secret, this once, with snippets to paste. */
export const CreatedKey = named('CreatedKey', z.strictObject({
  object: z.literal('console.key'),
  key: KeyView,
  secret: z.string().describe('the API key: shown this once, never stored'),
  // `model`: the chat model the examples use (and the VS Code settings beside them), one the key may use.
  snippets: z.strictObject({ base_url: z.string(), model: z.string(), curl: z.string(), python: z.string(), node: z.string() }),
}));
export type CreatedKey = z.infer<typeof CreatedKey>;

/** A key changed (enabled, disabled, its limits), or deleted (its id). */
export const KeyChanged = named('KeyChanged', z.union([
  z.strictObject({ object: z.literal('console.key'), key: KeyView }),
  z.strictObject({ object: z.literal('console.key'), id: z.int().positive(), deleted: z.literal(true) }),
]));
