/**
 * Reading error bodies written by others: upstream providers and gateways of the one-api / new-api
 * family. The shapes seen: `{"error": {"message", "type", "code"}}`, `{"error": "text"}`,
 * `{"success": false, "message"}`, and loose `{message}` / `{detail}` (FastAPI) or plain text.
 */

export interface ErrorFields {
  readonly message: string | null;
  readonly type: string | null;
  readonly code: string | null;
}

function stringOrNull(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** The fields of an OpenAI-style error body, if `body` (parsed JSON) is one. */
export function errorFields(body: unknown): ErrorFields | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const error = record['error'];
  if (typeof error === 'string') return { message: stringOrNull(error), type: null, code: null };
  if (typeof error === 'object' && error !== null) {
    const e = error as Record<string, unknown>;
    return { message: stringOrNull(e['message']), type: stringOrNull(e['type']), code: stringOrNull(e['code']) };
  }
  if (record['success'] === false && typeof record['message'] === 'string') {
    return { message: stringOrNull(record['message']), type: null, code: stringOrNull(record['code']) };
  }
  return null;
}

/** The message of a body that is not in the OpenAI error shape: plain text, or `{message}` / `{detail}` JSON. */
export function looseErrorMessage(body: unknown): string | null {
  if (typeof body === 'string') return stringOrNull(body.slice(0, 500));
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  return stringOrNull(record['message']) ?? stringOrNull(record['detail']);
}

/** The best human message of an error body (parsed JSON, or text), whatever its shape; null when it has none. */
export function errorMessageOf(body: unknown): string | null {
  return errorFields(body)?.message ?? looseErrorMessage(body);
}
