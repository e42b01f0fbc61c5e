/**
 * The bodies the console's JSON API accepts, as zod schemas: anything else is a 400 invalid_request
 * naming the first wrong field. (When the console becomes its own bundled app, these move to
 * src/contract/api/ so the page and the gateway share them.)
 */
import { z } from 'zod';
import { ConsoleName, ConsolePassword } from '../../contract/index.ts';
import { parseTopUp } from '../accounts/money.ts';
import { HttpError } from '../http/errors.ts';
import { describeIssue } from './relayed.ts';

export const SignInBody = z.strictObject({ name: z.string().min(1).max(64), password: ConsolePassword });
export const SetupBody = z.strictObject({ token: z.string().min(1).max(128), name: ConsoleName, password: ConsolePassword });

export const NewKeyBody = z.strictObject({
  name: ConsoleName,
  models: z.array(z.string().min(1).max(256)).max(1000).nullable().optional(),
  /** ISO-8601 date-time in the future; null or absent: never expires. */
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  rpm: z.int().min(1).max(1_000_000).optional(),
  concurrency: z.int().min(1).max(10_000).optional(),
});

/** A password change: the current password (checked), the new one (checked for length by passwords.ts). */
export const PasswordChangeBody = z.strictObject({ current: ConsolePassword, new: ConsolePassword });

export const KeyIdBody = z.strictObject({ id: z.int().positive() });

/** `value` as the schema's type, or a 400 naming the first problem. */
export function parseBody<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError('invalid_request', describeIssue(parsed.error, 'console'));
  return parsed.data;
}

/** The body's field `field`, an amount of USD to credit (decimal text or a JSON number), as exact micro-USD: a 400 naming the field otherwise. */
export function amountField(amount: string | number, field: string, what?: string): number {
  try {
    return parseTopUp(amount, what);
  } catch (error) {
    throw new HttpError('invalid_request', `${field}: ${(error as Error).message}.`);
  }
}
