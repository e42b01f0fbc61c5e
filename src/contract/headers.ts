/**
 * Headers both sides read or write: the request id, the wait a response asks for (Retry-After), and
 * a way to read a header whether it comes from undici (a plain object), node:http or fetch (`Headers`).
 */

/** Every answer of the gateway carries its request id here; error messages end with the same id. */
export const REQUEST_ID_HEADER = 'X-Request-Id';
/** Anthropic's name for it, which its SDKs read: answers under /v1/messages carry it too. */
export const ANTHROPIC_REQUEST_ID_HEADER = 'request-id';
/** The completion cap the gateway set, or lowered the client's to (the model's default, or what the account can pay). */
export const MAX_TOKENS_HEADER = 'X-Gateway-Max-Tokens';
/** What the answer cost, in USD (as its `usage.cost`), for clients that cannot read the body's usage. */
export const COST_HEADER = 'X-Gateway-Cost';
/** The console's session cookie, and the header a console page's change carries when it has no Origin (contract 4.10). */
export const SESSION_COOKIE = 'mg_session';
export const CONSOLE_HEADER = 'x-model-gateway-console';
/** The one-api family's name for it. */
export const ONE_API_REQUEST_ID_HEADER = 'X-Oneapi-Request-Id';

export type HeaderBag =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | string[] | undefined>>
  | null
  | undefined;

/** First value of a header, case-insensitively, or null. */
export function headerValue(headers: HeaderBag, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name);
  }
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? (value[0] ?? null) : value;
  }
  return null;
}

/** Request id sent by a gateway: ours (`X-Request-Id`) or the one-api family's (`X-Oneapi-Request-Id`). */
export function requestIdFromHeaders(headers: HeaderBag): string | null {
  return headerValue(headers, REQUEST_ID_HEADER) ?? headerValue(headers, ONE_API_REQUEST_ID_HEADER);
}

/** The wait a response asks for, from `retry-after-ms` or `Retry-After` (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(headers: HeaderBag, now: number = Date.now()): number | null {
  const ms = headerValue(headers, 'retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headerValue(headers, 'retry-after');
  if (after === null || after.trim() === '') return null;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
