/**
 * GET /api/console/account/logs: a signed-in user's request logs, of every key of their account and
 * never another's (the account comes from the session, not the query). Newest first; filters `key`
 * (a key id of the account), `model`, `status` (ok | error), `since` and `until` (ISO-8601); pages of
 * `limit` (1..200, default 50) continued with `before` (the `next_before` of the page before).
 * `format=csv` answers the same rows as a CSV file (at most MAX_CSV_ROWS). The query is parsed by its
 * schema in the route table (contract api/account.ts). Reading is not logged.
 */
import { DEFAULT_PAGE } from '../../contract/index.ts';
import type { AccountLogFilter } from '../store/logQuery.ts';
import type { StoredLog } from '../store/types.ts';
import { money } from './consoleCatalog.ts';
import type { ApiHandler } from './api.ts';

const MAX_CSV_ROWS = 10_000;

const iso = (ms: number): string => new Date(ms).toISOString();

function rowView(l: StoredLog) {
  return {
    id: l.id, time: iso(l.time), request_id: l.requestId, method: l.method, path: l.path, key_id: l.keyId, key_name: l.keyName, model: l.model,
    status: l.status, error_code: l.errorCode, prompt_tokens: l.promptTokens, completion_tokens: l.completionTokens, usage_estimated: l.usageEstimated,
    cost: money(l.cost), latency_ms: l.latencyMs, first_byte_ms: l.firstByteMs, stream: l.stream,
  };
}

const CSV_COLUMNS = ['time', 'request_id', 'key_name', 'model', 'path', 'status', 'error_code', 'prompt_tokens', 'completion_tokens', 'cost_usd', 'latency_ms', 'first_byte_ms', 'stream'] as const;

/** A CSV field: quoted when it needs to be; a leading = + - @ is made text so that no spreadsheet runs it as a formula. */
function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvOf(rows: readonly StoredLog[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    const v = rowView(r);
    lines.push([v.time, v.request_id, v.key_name, v.model, v.path, v.status, v.error_code, v.prompt_tokens, v.completion_tokens, v.cost.usd, v.latency_ms, v.first_byte_ms, v.stream].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export const accountLogs: ApiHandler<'listAccountLogs'> = async (gw, _ctx, { caller, query }) => {
  const csv = query.format === 'csv';
  // A key of another account filters to nothing, like one that does not exist: nothing is told about it.
  const limit = csv ? MAX_CSV_ROWS : (query.limit ?? DEFAULT_PAGE);
  const filter: AccountLogFilter = {
    accountId: caller.user.accountId, limit,
    ...(query.key !== undefined ? { keyId: query.key } : {}), ...(query.model ? { model: query.model } : {}), ...(query.status ? { ok: query.status === 'ok' } : {}),
    ...(query.since !== undefined ? { since: query.since } : {}), ...(query.until !== undefined ? { until: query.until } : {}), ...(query.before !== undefined ? { beforeId: query.before } : {}),
  };
  await gw.logs.flush(); // a request just made is listed
  const rows = await gw.store.listAccountLogs(filter);
  if (csv) {
    return { file: Buffer.from(csvOf(rows)), contentType: 'text/csv; charset=utf-8', headers: { 'Content-Disposition': 'attachment; filename="request-logs.csv"', 'Cache-Control': 'no-store' } };
  }
  return { body: { object: 'list', limit, data: rows.map(rowView), next_before: rows.length === limit ? rows.at(-1)!.id : null } };
};
