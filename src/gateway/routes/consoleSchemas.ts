/**
 * A console body against its schema (the route table's, contract api/): anything else is a 400
 * invalid_request naming the first wrong field; amounts of USD checked exactly; and a store's refusal
 * in the contract's words.
 */
import type { z } from 'zod';
import { isShortPasswordIssue, type ErrorCode } from '../../contract/index.ts';
import { parsePrice, parseTopUp, parseUsd } from '../accounts/money.ts';
import { HttpError } from '../http/errors.ts';
import { StoreError } from '../store/types.ts';
import { describeIssue } from './relayed.ts';

/** `value` as the schema's type, or a 400 naming the first problem. */
export function parseBody<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    // A new password too short has the contract's own code, whose words the console shows in its language.
    if (parsed.error.issues[0] && isShortPasswordIssue(parsed.error.issues[0])) throw new HttpError('password_too_short');
    throw new HttpError('invalid_request', describeIssue(parsed.error, 'console'));
  }
  return parsed.data;
}

/** `parse()`, its RangeError a 400 naming the body's field `field`. */
function moneyField(field: string, parse: () => number): number {
  try {
    return parse();
  } catch (error) {
    throw new HttpError('invalid_request', `${field}: ${(error as Error).message}.`);
  }
}

/** The body's field `field`, an amount of USD to credit (decimal text or a JSON number), as exact micro-USD: a 400 naming the field otherwise. */
export function amountField(amount: string | number, field: string, what?: string): number {
  return moneyField(field, () => parseTopUp(amount, what));
}

/** The body's field `field`, an amount of USD an account may hold (decimal text or a JSON number, $0 allowed), as exact micro-USD: a 400 naming the field otherwise. */
export function balanceField(amount: string | number, field: string): number {
  return moneyField(field, () => {
    if (typeof amount === 'number' && !Number.isFinite(amount)) throw new RangeError('an amount must be a finite number');
    return parseUsd(String(amount));
  });
}

/** The body's field `field`, a price in USD (decimal text or a JSON number, $0 allowed), as exact micro-USD: a 400 naming the field otherwise. */
export function priceField(amount: string | number, field: string): number {
  return moneyField(field, () => parsePrice(amount));
}

/** A store's refusal in the contract's words: which code depends on what was asked (a setting the rules refuse is a 400 saying why). */
export function refusal(error: unknown, notFound: ErrorCode, conflict?: ErrorCode): never {
  if (!(error instanceof StoreError)) throw error;
  const code: ErrorCode = error.code === 'not_found' ? notFound : error.code === 'last_admin' ? 'last_admin' : error.code === 'conflict' && conflict ? conflict : 'invalid_request';
  throw new HttpError(code, code === 'invalid_request' ? `${error.message}.` : undefined);
}
