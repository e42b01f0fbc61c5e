/**
 * Amounts an admin types (a top-up, a code's value, a price), checked in the browser as the gateway
 * will check them, so the form can say what is wrong before sending: decimal USD text, at most 6
 * decimals, within the ceiling. Only text and BigInt: never a float. The gateway checks again.
 */

/** What is wrong with an amount, as a key of ADMIN_WORDS (usd*). */
export type UsdProblem = 'usdFormat' | 'usdDecimals' | 'usdZero' | 'usdTooBig';

const DECIMAL = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/** An account's balance at most, in whole USD (contract billing.ts, MAX_BALANCE_MICRO). */
export const MAX_TOP_UP_USD = 1_000_000_000;
/** A price at most, in whole USD (contract billing.ts, MAX_PRICE_MICRO). */
export const MAX_PRICE_USD = 1_000_000;

/** The amount as the API takes it: spaces and a leading "$" dropped. */
export function cleanUsd(text: string): string {
  return text.trim().replace(/^\$\s*/, '');
}

/** The amount in micro-USD, exactly, or null when `text` is not a decimal amount of at most 6 decimals. */
export function microOf(text: string): bigint | null {
  const match = DECIMAL.exec(cleanUsd(text));
  if (!match) return null;
  const fraction = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  if (fraction.length > 6) return null;
  return BigInt(match[1] ?? '0') * 1_000_000n + BigInt(fraction.padEnd(6, '0') || '0');
}

/** Null when `text` is an amount the gateway takes: more than $0 unless `zero`, at most `maxUsd`. */
export function usdProblem(text: string, { zero = false, maxUsd = MAX_TOP_UP_USD }: { zero?: boolean; maxUsd?: number } = {}): UsdProblem | null {
  const match = DECIMAL.exec(cleanUsd(text));
  if (!match) return 'usdFormat';
  const fraction = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  if (fraction.length > 6) return 'usdDecimals';
  const micro = BigInt(match[1] ?? '0') * 1_000_000n + BigInt(fraction.padEnd(6, '0') || '0');
  if (micro === 0n && !zero) return 'usdZero';
  if (micro > BigInt(maxUsd) * 1_000_000n) return 'usdTooBig';
  return null;
}
