/**
 * GET /v1/dashboard/billing/daily?days=N&utc_offset_minutes=M: what this key spent on each of the last
 * N days (1..92, default 31; today included), oldest first, every day listed (0 when nothing was spent),
 * with its number of model requests.
 * The billing endpoints give totals only; this gives the series a client draws (the editor's Usage view),
 * with the same key and the same 401/403 answers. Days are the client's calendar days: M is its offset
 * from UTC (Asia/Shanghai is 480), so "today" and "this month" mean what the user means.
 *
 * Read from the key's request logs (each row carries the exact charge), newest first, at most MAX_ROWS
 * rows: a key busier than that over the window gets `complete: false` rather than a silently short sum.
 * Like the console's reads, this read is not itself logged.
 */
import { MICRO_USD_PER_USD } from '../../contract/index.ts';
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import { requireKey } from './common.ts';
import type { Handler } from './common.ts';

export const DEFAULT_DAYS = 31;
export const MAX_DAYS = 92;
/** Rows read at most per answer (a few MB, tens of ms on SQLite). */
export const MAX_ROWS = 20_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** UTC-14:00 .. UTC+14:00, the offsets in use. */
const MAX_OFFSET_MINUTES = 14 * 60;

function integerParam(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d{1,6}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new HttpError('invalid_request', `${name} must be an integer from ${min} to ${max}.`);
  }
  return Number(raw);
}

/** "YYYY-MM-DD" of the client's calendar day that holds `time`. */
function localDate(time: number, offsetMinutes: number): string {
  return new Date(time + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

export const daily: Handler = async (gw, ctx) => {
  // Not counted against the key's request rates, as the other billing reads (billing.ts).
  const key = await requireKey(gw, ctx, false);
  const params = new URLSearchParams(ctx.req.url?.split('?')[1] ?? '');
  const days = integerParam(params, 'days', DEFAULT_DAYS, 1, MAX_DAYS);
  const offset = integerParam(params, 'utc_offset_minutes', 0, -MAX_OFFSET_MINUTES, MAX_OFFSET_MINUTES);

  const now = Date.now();
  // Midnight (client time) that starts the oldest day of the window, as an epoch ms.
  const todayStart = Math.floor((now + offset * 60_000) / DAY_MS) * DAY_MS - offset * 60_000;
  const windowStart = todayStart - (days - 1) * DAY_MS;
  const buckets = new Map<string, { cost: number; requests: number }>();
  for (let i = 0; i < days; i++) buckets.set(localDate(windowStart + i * DAY_MS, offset), { cost: 0, requests: 0 });

  await gw.logs.flush(); // a request just made is counted
  const rows = await gw.store.listKeyLogs(key.id, MAX_ROWS);
  let reachedStart = rows.length < MAX_ROWS;
  for (const row of rows) {
    if (row.time < windowStart) {
      reachedStart = true;
      break; // newest first: the rest are older still
    }
    const bucket = buckets.get(localDate(row.time, offset));
    if (!bucket) continue; // a clock ahead of ours: not a day of the window
    bucket.cost += row.cost;
    // Model requests only: reads of the billing endpoints were logged before (no longer), and are not what a user counts.
    if (row.model !== null) bucket.requests += 1;
  }

  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, {
    object: 'billing_daily',
    utc_offset_minutes: offset,
    complete: reachedStart,
    data: [...buckets].map(([date, { cost, requests }]) => ({ date, cost_usd: cost / MICRO_USD_PER_USD, cost_micro_usd: cost, requests })),
  });
};
