/**
 * The bodies the console's JSON API accepts, as zod schemas: anything else is a 400 invalid_request
 * naming the first wrong field. (When the console becomes its own bundled app, these move to
 * src/contract/api/ so the page and the gateway share them.)
 */
import { z } from 'zod';
import { ConsoleName, ConsolePassword, type ErrorCode } from '../../contract/index.ts';
import { parsePrice, parseTopUp } from '../accounts/money.ts';
import { HttpError } from '../http/errors.ts';
import { StoreError } from '../store/types.ts';
import { describeIssue } from './relayed.ts';

export const SignInBody = z.strictObject({ name: z.string().min(1).max(64), password: ConsolePassword });
export const SetupBody = z.strictObject({ token: z.string().min(1).max(128), name: ConsoleName, password: ConsolePassword });

/** A password change: the current password (checked), the new one (checked for length by passwords.ts). */
export const PasswordChangeBody = z.strictObject({ current: ConsolePassword, new: ConsolePassword });

export const KeyIdBody = z.strictObject({ id: z.int().positive() });

/** `value` as the schema's type, or a 400 naming the first problem. */
export function parseBody<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError('invalid_request', describeIssue(parsed.error, 'console'));
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
