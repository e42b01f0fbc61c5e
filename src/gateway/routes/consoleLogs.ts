/**
 * GET /api/console/account/logs: a signed-in user's request logs, of every key of their account and
 * never another's (the account comes from the session, not the query). Newest first; filters `key`
 * (a key id of the account), `model`, `status` (ok | error), `since` and `until` (ISO-8601); pages of
 * `limit` (1..200, default 50) continued with `before` (the `next_before` of the page before).
 * `format=csv` answers the same rows as a CSV file (at most MAX_CSV_ROWS). Reading is not logged.
 */
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import { setBaseHeaders } from '../http/headers.ts';
import type { AccountLogFilter } from '../store/logQuery.ts';
import type { StoredLog } from '../store/types.ts';
import { money } from './consoleCatalog.ts';
import type { Handler } from './common.ts';
import { requireSession } from './session.ts';
import { consoleQuery, pageLimit, positiveInt, textParam } from './consoleQuery.ts';

const MAX_CSV_ROWS = 10_000;
const KNOWN = ['key', 'model', 'status', 'since', 'until', 'before', 'limit', 'format'];

function time(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) throw new HttpError('invalid_request', `${name} must be an ISO-8601 date or date-time.`);
  return ms;
}

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

export const accountLogs: Handler = async (gw, ctx) => {
  const signedIn = await requireSession(gw, ctx);
  const params = consoleQuery(ctx, KNOWN);
  const status = params.get('status');
  if (status !== null && status !== '' && status !== 'ok' && status !== 'error') throw new HttpError('invalid_request', 'status must be ok or error.');
  const format = params.get('format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new HttpError('invalid_request', 'format must be json or csv.');
  const model = textParam(params, 'model', 256);
  const keyId = positiveInt(params, 'key', Number.MAX_SAFE_INTEGER);
  const accountId = signedIn.user.accountId;
  // A key of another account filters to nothing, like one that does not exist: nothing is told about it.
  const limit = format === 'csv' ? MAX_CSV_ROWS : pageLimit(params);
  const since = time(params, 'since');
  const until = time(params, 'until');
  const before = positiveInt(params, 'before', Number.MAX_SAFE_INTEGER);
  const filter: AccountLogFilter = {
    accountId, limit,
    ...(keyId !== undefined ? { keyId } : {}), ...(model !== '' ? { model } : {}), ...(status === 'ok' || status === 'error' ? { ok: status === 'ok' } : {}),
    ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}), ...(before !== undefined ? { beforeId: before } : {}),
  };
  await gw.logs.flush(); // a request just made is listed
  const rows = await gw.store.listAccountLogs(filter);
  ctx.noLog = true;
  if (format === 'csv') {
    const body = Buffer.from(csvOf(rows));
    setBaseHeaders(ctx.res, ctx.id);
    ctx.res.statusCode = 200;
    ctx.res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    ctx.res.setHeader('Content-Disposition', 'attachment; filename="request-logs.csv"');
    ctx.res.setHeader('Cache-Control', 'no-store');
    ctx.res.setHeader('Content-Length', body.byteLength);
    ctx.res.end(body);
    return;
  }
  sendJson(ctx.res, ctx.id, 200, { object: 'list', limit, data: rows.map(rowView), next_before: rows.length === limit ? rows.at(-1)!.id : null });
};
