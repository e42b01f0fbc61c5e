/**
 * Plain values of the contract that both the gateway and the web console read: no zod here, so the
 * console (a browser bundle) and the SQLite log writer's thread can import them without the schemas. The schema modules re-export them.
 */

/** Every kind of model the gateway serves (contract 1.4). */
export const MODEL_KINDS = ['chat', 'completion', 'embedding', 'image'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

export function isModelKind(value: unknown): value is ModelKind {
  return typeof value === 'string' && (MODEL_KINDS as readonly string[]).includes(value);
}

/** User, account, batch and token names: 1 to 64 letters, digits, ".", "_", "-" or "@". */
export const NAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

/** A redemption or invitation code's status. */
export const CODE_STATUSES = ['unused', 'used', 'expired', 'disabled'] as const;
export type CodeStatusName = (typeof CODE_STATUSES)[number];

/** Who may make their own account: nobody, anyone, or whoever has an invitation code. */
export const SIGN_UP_MODES = ['off', 'open', 'invitation'] as const;
export type SignUpMode = (typeof SIGN_UP_MODES)[number];

/** The longest model name taken. */
export const MAX_MODEL_NAME_LENGTH = 256;

/** The bounds of a channel's numbers, as `channel add` and the console take them. */
export const CHANNEL_LIMITS = {
  priority: { min: 0, max: 1_000_000_000 },
  weight: { min: 1, max: 1_000_000_000 },
  timeoutMs: { min: 1, max: 1_000_000_000 },
} as const;

/** How long a channel waits for its upstream when no timeout is given. */
export const DEFAULT_CHANNEL_TIMEOUT_MS = 120_000;

/** The bounds of a model's numbers, as `model price` and the console take them. */
export const MODEL_LIMITS = {
  contextLength: { min: 1, max: 1_000_000_000 },
  defaultMaxTokens: { min: 1, max: 10_000_000 },
} as const;

/** The ranges a dashboard covers. */
export const DASHBOARD_RANGES = ['24h', '7d', '30d'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];

/** Integer money unit used inside the gateway: one millionth of a US dollar. */
export const MICRO_USD_PER_USD = 1_000_000;

/**
 * The most an account may hold, and so the most any amount may be: $1,000,000,000. A balance, what
 * is pending and what is reserved (each at most this) add up far below 2^53 micro-USD, so money in
 * micro-USD stays exact in a JavaScript number whatever the path (the gateway's store enforces it too).
 */
export const MAX_BALANCE_MICRO = 1_000_000_000 * MICRO_USD_PER_USD;
/**
 * Dollars for people, one rule everywhere (CLI, console, chat, status bar): exact to the micro-dollar,
 * at least two decimals, no trailing zeros beyond, thousands separated: "$10.00", "$1,234.5", "$0.000038".
 */
/** micro-USD -> "$12.345", by the one display rule (formatUsd). */
export function formatMicroUsd(micro: number): string {
  return formatUsd(micro / MICRO_USD_PER_USD);
}

export function formatUsd(usd: number): string {
  const micro = Math.round(usd * MICRO_USD_PER_USD);
  const abs = BigInt(Math.abs(micro));
  const whole = (abs / 1_000_000n).toLocaleString('en-US');
  let fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${micro < 0 ? '-' : ''}$${whole}.${fraction}`;
}

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
