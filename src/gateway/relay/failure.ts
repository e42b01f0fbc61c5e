/** What an error thrown by an upstream request or its body means, and how to name it in a log. */
import { TIMEOUT_REASON } from './watchdog.ts';

export type FailureKind = 'client' | 'timeout' | 'connection' | 'error';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT', 'RELAY_UPSTREAM_TIMEOUT']);

/** What an error thrown by an upstream request or its body means. */
export function classifyFailure(err: unknown, attempt: AbortSignal | null, client: AbortSignal): FailureKind {
  if (client.aborted) return 'client';
  if (attempt?.aborted && attempt.reason === TIMEOUT_REASON) return 'timeout';
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return 'timeout';
  return 'connection';
}

export function describeFailure(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e && typeof e.code === 'string') return e.code;
  return e && typeof e.message === 'string' ? e.message : String(err);
}

/**
 * The contract's code for an upstream's answer that is not a success and is the upstream's fault (the
 * relay fails over from it): 429 rate limited, 408 a timeout, anything else (5xx, a refused key, an
 * unknown model or path) the upstream's error.
 */
export function upstreamStatusCode(status: number): 'upstream_rate_limited' | 'upstream_timeout' | 'upstream_error' {
  return status === 429 ? 'upstream_rate_limited' : status === 408 ? 'upstream_timeout' : 'upstream_error';
}
