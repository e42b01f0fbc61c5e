/**
 * Retry decisions, as small pure functions (openai-node's habit).
 * The client retries only idempotent GETs; a chat request is never sent twice,
 * since the first one may already have reached (and been billed by) a model.
 */
import { STATUS_FAMILIES } from '../contract/index.ts';
import type { StatusFamilyId } from '../contract/index.ts';
import { retryAfterMs } from '../contract/index.ts';
import type { HeaderBag } from '../contract/index.ts';
import { AbortError } from './errors.ts';

export const DEFAULT_MAX_RETRIES = 2;
export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 8_000;
/** A server-suggested wait longer than this is not honoured (we fall back to backoff). */
export const MAX_RETRY_AFTER_MS = 60_000;

const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** Anything with the shape of a GatewayError (kept structural so this file stays pure). */
interface ErrorLike {
  readonly family: StatusFamilyId;
  readonly status: number | null;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && 'family' in value && typeof (value as ErrorLike).family === 'string' && Object.hasOwn(STATUS_FAMILIES, (value as ErrorLike).family);
}

/**
 * Whether an idempotent request may be sent again after this status or error:
 * 408, 409, 429, 5xx, connection failures and timeouts. Never a user abort, and never an
 * error whose body names a condition that waiting cannot fix (a 429 "insufficient quota"
 * is classified as a balance problem, a 503 "no channel for this model" as a model problem).
 */
export function shouldRetry(input: number | unknown): boolean {
  if (typeof input === 'number') return RETRYABLE_STATUSES.has(input) || input >= 500;
  if (!isErrorLike(input)) return false;
  if (input.family === 'bad_request') return input.status !== null && RETRYABLE_STATUSES.has(input.status);
  return STATUS_FAMILIES[input.family].retryable;
}

export interface RetryDelayOptions {
  readonly now?: number;
  /** Source of jitter in [0, 1); injectable for tests. */
  readonly random?: () => number;
}

/**
 * How long to wait before retry number `attempt` (1 for the first retry): the server's
 * `retry-after-ms` / `Retry-After` when given and at most a minute, else exponential
 * backoff from 0.5 s, capped at 8 s, minus up to 25% jitter.
 */
export function retryDelayMs(attempt: number, headers?: HeaderBag, options: RetryDelayOptions = {}): number {
  const suggested = retryAfterMs(headers, options.now);
  if (suggested !== null && suggested <= MAX_RETRY_AFTER_MS) return suggested;
  const random = options.random ?? Math.random;
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** exponent, MAX_RETRY_DELAY_MS);
  return base * (1 - 0.25 * random());
}

/** The wait before a retry; the caller's abort ends it at once with an AbortError. */
export function retryWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError({}));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError({}));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
