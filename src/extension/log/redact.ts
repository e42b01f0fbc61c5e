/**
 * Scrubbing keys out of anything that may be shown, logged or copied (no vscode import).
 * Covers `sk-...` keys, `Bearer ...` values and any exact secret the caller knows of.
 */

const SK_KEY = /\bsk-[A-Za-z0-9_-]{4,}/g;
/** `Bearer <value>`, except the documentation placeholder `Bearer <API_KEY>`. */
const BEARER = /\b(Bearer)\s+(?!<API_KEY>)[^\s"'`,;]+/gi;
const KEY_FIELD = /\b((?:api[_-]?key|token|authorization)["']?\s*[:=]\s*["']?)([^\s"',;&]{6,})/gi;

export function redact(text: string, knownSecrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('****');
  }
  return out
    .replace(BEARER, '$1 ****')
    .replace(SK_KEY, 'sk-****')
    .replace(KEY_FIELD, (_whole, name: string, value: string) => (/^(\*{4}|sk-\*{4}|bearer)$/i.test(value) ? `${name}${value}` : `${name}****`));
}

/** What the client reports for each request it finished (its `onResponse` hook). */
export interface RequestRecord {
  readonly method: string;
  readonly path: string;
  readonly status: number | null | undefined;
  readonly durationMs: number;
  readonly requestId?: string | null;
  readonly error?: unknown;
}

/** One log line per request: method, path, status, time, request id (and the error, redacted). */
export function formatRequestLine(record: RequestRecord, knownSecrets: readonly (string | undefined)[] = []): string {
  const status = record.status === null || record.status === undefined || record.status === 0 ? '---' : String(record.status);
  const parts = [record.method.toUpperCase(), record.path, status, `${Math.round(record.durationMs)}ms`];
  if (record.requestId) parts.push(`request-id=${record.requestId}`);
  if (record.error !== undefined && record.error !== null) {
    const message = record.error instanceof Error ? `${record.error.name}: ${record.error.message}` : String(record.error);
    parts.push(`error=${JSON.stringify(message)}`);
  }
  return redact(parts.join(' '), knownSecrets);
}
