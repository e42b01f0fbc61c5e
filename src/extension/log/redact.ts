/** The extension's request log lines, scrubbed of keys (contract/redact.ts; no vscode import). */
import { redactSecrets } from '../../contract/index.ts';

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
  return redactSecrets(parts.join(' '), knownSecrets);
}
