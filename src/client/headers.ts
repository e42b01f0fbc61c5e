/** Reading response headers the same way whether they come from undici (a plain object) or fetch (`Headers`). */

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

/** Request id sent by the gateway: ours (`X-Request-Id`) or the one-api family's (`X-Oneapi-Request-Id`). */
export function requestIdFromHeaders(headers: HeaderBag): string | null {
  return headerValue(headers, 'x-request-id') ?? headerValue(headers, 'x-oneapi-request-id');
}
