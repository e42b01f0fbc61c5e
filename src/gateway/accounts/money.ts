/** Exact money: integer micro-USD, parsed from decimal strings without ever passing through a float. */
import { formatMicroUsd, MAX_BALANCE_MICRO, MAX_PRICE_MICRO, MICRO_USD_PER_USD } from '../../contract/index.ts';

const DECIMAL = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/** "10", "0.15", "2.000001" -> micro-USD. Throws on anything else (negative, exponent, more than 6 decimals, above `max`). */
export function parseUsd(text: string, max = MAX_BALANCE_MICRO): number {
  const trimmed = text.trim().replace(/^\$/, '');
  const match = DECIMAL.exec(trimmed);
  // "-5" given where money goes in: said as what it is, not as any unreadable text.
  if (!match) throw new RangeError(`not an amount in USD: "${text}"${trimmed.startsWith('-') ? ' (amounts are positive)' : ''}`);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  if (fraction.length > 6) throw new RangeError(`"${text}" has more than 6 decimals (the smallest unit is 0.000001 USD)`);
  const micro = BigInt(whole) * BigInt(MICRO_USD_PER_USD) + BigInt(fraction.padEnd(6, '0') || '0');
  if (micro > BigInt(max)) throw new RangeError(`"${text}" is more than the most allowed, ${formatMicroUsd(max)}`);
  return Number(micro);
}

/**
 * A top-up's amount (the CLI's argument, the console's `amount_usd`; a redemption code's value, `what` 'a
 * code') as micro-USD: a decimal text, or a JSON number read through its shortest decimal text (0.1 is
 * "0.1", never 0.1000000000000000055...), so exact; more than $0, at most 6 decimals, at most the ceiling.
 * Throws a RangeError saying why not.
 */
export function parseTopUp(amount: string | number, what = 'a top-up'): number {
  if (typeof amount === 'number' && !Number.isFinite(amount)) throw new RangeError('an amount must be a finite number');
  const micro = parseUsd(String(amount));
  if (micro === 0) throw new RangeError(`${what} must be more than $0`);
  return micro;
}

/** A price (per million tokens, or per image) in USD, decimal text or a JSON number read as parseTopUp reads it: $0 to $1,000,000, exact. */
export function parsePrice(amount: string | number): number {
  if (typeof amount === 'number' && !Number.isFinite(amount)) throw new RangeError('a price must be a finite number');
  return parseUsd(String(amount), MAX_PRICE_MICRO);
}

/** Cost in micro-USD of a request: ceil((prompt × inputPrice + completion × outputPrice) / 1e6), exact. Prices are per million tokens. */
export function costOf(promptTokens: number, completionTokens: number, inputPrice: number, outputPrice: number): number {
  return costOfTokens([[promptTokens, inputPrice], [completionTokens, outputPrice]]);
}

/** Cost in micro-USD of several [tokens, price per million] parts, rounded up once over their sum, exact. */
export function costOfTokens(parts: readonly (readonly [tokens: number, pricePerMillion: number])[]): number {
  // Plain numbers are exact while every product and the sum are integers up to 2^53 (a product or sum
  // past it rounds to 2^53 or more, so the check cannot pass wrongly); BigInt (a few allocations per
  // call, on every request) only beyond.
  let sum = 0;
  for (const [tokens, price] of parts) sum += tokens * price;
  const rounded = sum + 999_999;
  if (rounded <= Number.MAX_SAFE_INTEGER && Number.isInteger(rounded)) return (rounded - (rounded % 1_000_000)) / 1_000_000;
  let total = 0n;
  for (const [tokens, price] of parts) total += BigInt(tokens) * BigInt(price);
  return Number((total + 999_999n) / 1_000_000n);
}

/** The most completion tokens `budget` micro-USD can pay for after `promptTokens`, or -1 when not even the prompt fits. */
export function affordableCompletionTokens(budget: number, promptTokens: number, inputPrice: number, outputPrice: number): number {
  // A negative price would never end the search below (the catalogue serves no such model; this is the net).
  if (!(inputPrice >= 0 && outputPrice >= 0)) throw new RangeError(`prices must not be negative (input ${inputPrice}, output ${outputPrice})`);
  // Plain numbers while every product is exact (every request plans once, or twice on leases); BigInt past 2^53.
  const whole = budget * 1_000_000;
  const prompt = promptTokens * inputPrice;
  if (whole <= Number.MAX_SAFE_INTEGER && prompt <= Number.MAX_SAFE_INTEGER) {
    const rest = whole - prompt;
    if (rest < 0) return -1;
    if (outputPrice === 0) return Number.MAX_SAFE_INTEGER;
    // With rest < 2^53 the rounded quotient stays below the next integer, so the floor is exact; the products check it.
    let tokens = Math.floor(rest / outputPrice);
    while (tokens * outputPrice > rest) tokens--;
    while ((tokens + 1) * outputPrice <= rest) tokens++;
    return tokens;
  }
  const left = BigInt(budget) * 1_000_000n - BigInt(promptTokens) * BigInt(inputPrice);
  if (left < 0n) return -1;
  if (outputPrice === 0) return Number.MAX_SAFE_INTEGER;
  const tokens = left / BigInt(outputPrice);
  return tokens > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(tokens);
}
