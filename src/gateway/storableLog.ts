/**
 * A request log row as every store can hold it and read it back. One value a column cannot hold (a
 * fraction or a number past an `int` in PostgreSQL) makes PostgreSQL refuse the whole batch, and a batch
 * carries every request's charge of the last moments: billing would stop for everyone. A number past 2^53,
 * which SQLite does take, makes the row unreadable (sqlRows.ts `num`), and with it the console's logs.
 * Each known source is closed where the value is made (usage.ts, ledger.ts, contract/values.ts); this is
 * the net under all of them, field by field: a measured number that does not fit is kept as the nearest
 * one that does, and the operator is told. The gateway's own values (time, ids, and the cost, which the
 * ledger has already settled) are never changed here: one of them out of range is a bug to see, not to hide.
 */
import { MAX_COMPLETION_CAP } from './accounts/ledger.ts';
import { MAX_REPORTED_TOKENS } from './relay/formats/usage.ts';
import type { RequestLog } from './store/types.ts';

/** PostgreSQL's `int` (status, completion_cap). */
const MAX_INT_COLUMN = 2 ** 31 - 1;

/** The measured fields and the whole numbers each may hold (null where the field may be null). */
const BOUNDS = {
  status: { max: 999, nullable: false },
  promptTokens: { max: MAX_REPORTED_TOKENS, nullable: false },
  completionTokens: { max: MAX_REPORTED_TOKENS, nullable: false },
  latencyMs: { max: MAX_INT_COLUMN, nullable: false },
  completionCap: { max: Math.min(MAX_COMPLETION_CAP, MAX_INT_COLUMN), nullable: true },
} as const satisfies Partial<Record<keyof RequestLog, { max: number; nullable: boolean }>>;

type Bounded = keyof typeof BOUNDS;
const BOUNDED = Object.keys(BOUNDS) as Bounded[];

function fits(value: unknown, max: number): boolean {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max;
}

/** The nearest whole number in [0, max]; null (or 0) for what is not a number at all. */
function nearest(value: unknown, max: number, nullable: boolean): number | null {
  if (typeof value !== 'number' || Number.isNaN(value)) return nullable ? null : 0;
  return Math.min(max, Math.max(0, Math.round(value)));
}

/** A time in milliseconds a float column holds: finite and not negative, or null. */
const fitsMs = (value: unknown): boolean => value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0);

/**
 * `log` itself when every measured field fits (the usual case: no copy), else a copy with each misfit
 * replaced; `misfit` hears each one (the row as it came, the field, the value as it came, the value kept).
 */
export function storableLog(log: RequestLog, misfit: (log: RequestLog, field: string, came: unknown, kept: unknown) => void): RequestLog {
  let fixed: Record<string, unknown> | null = null;
  for (const field of BOUNDED) {
    const value = log[field];
    const { max, nullable } = BOUNDS[field];
    if ((nullable && (value === null || value === undefined)) || fits(value, max)) continue;
    const kept = nearest(value, max, nullable);
    misfit(log, field, value, kept);
    (fixed ??= { ...log })[field] = kept;
  }
  if (!fitsMs(log.firstByteMs)) {
    misfit(log, 'firstByteMs', log.firstByteMs, null);
    (fixed ??= { ...log }).firstByteMs = null;
  }
  return fixed ? (fixed as unknown as RequestLog) : log;
}
