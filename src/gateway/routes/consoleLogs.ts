/**
 * GET /api/console/account/logs: a signed-in user's request logs, of every key of their account and never
 * another's (the account comes from the session, not the query); GET /api/console/admin/logs: an admin's,
 * of every account, or of one by `account` or `user` name. Filters `key`, `model`, `status` (ok | error),
 * `since` and `until` (ISO-8601), `request_id`; newest first in pages of `limit` (1..200, default 50)
 * continued with `before`, or with `after` the rows written since, oldest first (a live view's poll).
 * `format=csv` answers the same rows as a CSV file (at most MAX_CSV_ROWS). The queries are parsed by their
 * schemas in the route table (contract api/logs.ts). Reading is not logged.
 */
import { DEFAULT_PAGE, logErrorMessage, MAX_CSV_ROWS, type AccountLogsQuery } from '../../contract/index.ts';
import type { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import type { Gateway } from '../gateway.ts';
import type { LogFilter } from '../store/logQuery.ts';
import type { StoredLog } from '../store/types.ts';
import { money } from './consoleCatalog.ts';
import type { ApiHandler, FileReply } from './api.ts';

type LogsQuery = z.output<typeof AccountLogsQuery>;

const iso = (ms: number): string => new Date(ms).toISOString();

export function rowView(l: StoredLog) {
  return {
    id: l.id, time: iso(l.time), request_id: l.requestId, method: l.method, path: l.path, key_id: l.keyId, key_name: l.keyName, model: l.model,
    status: l.status, error_code: l.errorCode, error_message: logErrorMessage(l.errorCode), prompt_tokens: l.promptTokens, completion_tokens: l.completionTokens,
    usage_estimated: l.usageEstimated, cost: money(l.cost), latency_ms: l.latencyMs, first_byte_ms: l.firstByteMs, stream: l.stream,
  };
}

const CSV_COLUMNS = ['time', 'request_id', 'key_name', 'model', 'path', 'status', 'error_code', 'prompt_tokens', 'completion_tokens', 'cost_usd', 'latency_ms', 'first_byte_ms', 'stream'] as const;

/**
 * A CSV field: quoted when it needs to be; one that starts with = + - @ (after any blanks, no-break spaces too,
 * which some spreadsheets skip) or a tab or carriage return is made text, so that no spreadsheet runs it as a formula.
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^(?:\s*[=+\-@]|[\t\r])/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows as a CSV file to download; the admins' has the account's name after the time. */
function csvOf(rows: readonly StoredLog[], withAccount: boolean): FileReply {
  const header = withAccount ? [CSV_COLUMNS[0], 'account', ...CSV_COLUMNS.slice(1)] : [...CSV_COLUMNS];
  const lines = [header.join(',')];
  for (const r of rows) {
    const v = rowView(r);
    const fields = [v.time, v.request_id, v.key_name, v.model, v.path, v.status, v.error_code, v.prompt_tokens, v.completion_tokens, v.cost.usd, v.latency_ms, v.first_byte_ms, v.stream];
    if (withAccount) fields.splice(1, 0, r.accountName);
    lines.push(fields.map(csvField).join(','));
  }
  return { file: Buffer.from(`${lines.join('\r\n')}\r\n`), contentType: 'text/csv; charset=utf-8', headers: { 'Content-Disposition': 'attachment; filename="request-logs.csv"', 'Cache-Control': 'no-store' } };
}

/** The rows of `query` in `accountId`'s logs (absent: every account's), as a page or as CSV. */
async function logsPage(gw: Gateway, query: LogsQuery, accountId: number | undefined) {
  const csv = query.format === 'csv';
  const limit = csv ? Math.min(query.limit ?? MAX_CSV_ROWS, MAX_CSV_ROWS) : (query.limit ?? DEFAULT_PAGE);
  // A key of another account filters to nothing, like one that does not exist: nothing is told about it.
  const filter: LogFilter = {
    limit, ...(accountId !== undefined ? { accountId } : {}),
    ...(query.key !== undefined ? { keyId: query.key } : {}), ...(query.model ? { model: query.model } : {}), ...(query.status ? { ok: query.status === 'ok' } : {}),
    ...(query.since !== undefined ? { since: query.since } : {}), ...(query.until !== undefined ? { until: query.until } : {}),
    ...(query.request_id ? { requestId: query.request_id } : {}),
    ...(query.before !== undefined ? { beforeId: query.before } : {}), ...(query.after !== undefined ? { afterId: query.after } : {}),
  };
  await gw.logs.flush(); // a request just made is listed
  // Read before the rows: every row up to it is visible to the list that follows (RequestLogStore.maxId).
  const horizon = await gw.store.requestLogs.maxId();
  const rows = await gw.store.requestLogs.list(filter);
  if (csv) return { rows, csv: true as const };
  const nextBefore = query.after === undefined && rows.length === limit ? rows.at(-1)!.id : null;
  return { rows, csv: false as const, page: { object: 'list' as const, limit, next_before: nextBefore, next_after: nextAfterOf(query, rows, limit, horizon) } };
}

/**
 * Where a live view polls from after this answer. Newest first: past the page's newest row, and up to the
 * horizon (no newer row matched). Oldest first: the page's last row while it is full (there may be more),
 * else the horizon, so that a filtered poll does not walk the same unmatched rows again. A page asked with
 * `before` alone is no place to poll from (null).
 */
function nextAfterOf(query: LogsQuery, rows: readonly StoredLog[], limit: number, horizon: number): number | null {
  if (query.after === undefined) return query.before !== undefined ? null : Math.max(rows[0]?.id ?? 0, horizon);
  if (rows.length === limit) return rows.at(-1)!.id;
  return Math.max(rows.at(-1)?.id ?? 0, horizon, query.after);
}

export const accountLogs: ApiHandler<'listAccountLogs'> = async (gw, _ctx, { caller, query }) => {
  const answer = await logsPage(gw, query, caller.user.accountId);
  if (answer.csv) return csvOf(answer.rows, false);
  return { body: { ...answer.page, data: answer.rows.map(rowView) } };
};

/** The account an admin's `account` and `user` name (both: the rows of both, so none unless they agree); undefined: every account. */
async function adminScope(gw: Gateway, query: { account?: string | undefined; user?: string | undefined }): Promise<number | undefined> {
  let accountId: number | undefined;
  if (query.account) {
    const account = await gw.store.getAccount(query.account);
    if (!account) throw new HttpError('account_not_found', `Asked for "${query.account}".`);
    accountId = account.id;
  }
  if (query.user) {
    const user = await gw.store.findUser({ name: query.user });
    if (!user) throw new HttpError('user_not_found', `Asked for "${query.user}".`);
    // No account has id 0 (ids start at 1): a user of another account than `account` matches nothing.
    accountId = accountId === undefined || accountId === user.accountId ? user.accountId : 0;
  }
  return accountId;
}

export const adminLogs: ApiHandler<'listAdminLogs'> = async (gw, _ctx, { query }) => {
  const answer = await logsPage(gw, query, await adminScope(gw, query));
  if (answer.csv) return csvOf(answer.rows, true);
  return { body: { ...answer.page, data: answer.rows.map((l) => ({ ...rowView(l), account: l.accountName })) } };
};
