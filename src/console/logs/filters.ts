/**
 * The logs' filters live in the address (`#/logs?status=error&range=24h`), so a reload or a shared
 * link shows the same rows: read from the route's query, written back with navigate(). A time range
 * is either a preset counted back from now (`range=24h`) or two ISO times (`range=custom&since=&until=`).
 */

export const RANGES = ['', '1h', '24h', '7d', '30d', 'custom'] as const;
export type Range = (typeof RANGES)[number];

const RANGE_MS: Readonly<Record<Exclude<Range, '' | 'custom'>, number>> = {
  '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000,
};

export interface LogFilters {
  readonly key: string;
  readonly model: string;
  readonly status: '' | 'ok' | 'error';
  readonly range: Range;
  /** ISO times, with range=custom. */
  readonly since: string;
  readonly until: string;
  readonly request_id: string;
  /** Admins only: an account's or a user's name. */
  readonly account: string;
  readonly user: string;
}

export const NO_FILTERS: LogFilters = { key: '', model: '', status: '', range: '', since: '', until: '', request_id: '', account: '', user: '' };

const isRange = (value: string): value is Range => (RANGES as readonly string[]).includes(value);

export function filtersOf(query: URLSearchParams): LogFilters {
  const get = (name: string): string => query.get(name)?.trim() ?? '';
  const status = get('status');
  const range = get('range');
  return {
    key: /^\d+$/.test(get('key')) ? get('key') : '',
    model: get('model'),
    status: status === 'ok' || status === 'error' ? status : '',
    range: isRange(range) ? range : '',
    since: validTime(get('since')),
    until: validTime(get('until')),
    request_id: get('request_id'),
    account: get('account'),
    user: get('user'),
  };
}

function validTime(text: string): string {
  return text && Number.isFinite(Date.parse(text)) ? text : '';
}

/** The filters as the address keeps them (empty ones left out), with the page and live mode. */
export function addressOf(filters: LogFilters, extra: { before?: number | null; live?: boolean } = {}): Record<string, string | undefined> {
  const custom = filters.range === 'custom';
  return {
    key: filters.key || undefined,
    model: filters.model || undefined,
    status: filters.status || undefined,
    range: filters.range || undefined,
    since: custom ? filters.since || undefined : undefined,
    until: custom ? filters.until || undefined : undefined,
    request_id: filters.request_id || undefined,
    account: filters.account || undefined,
    user: filters.user || undefined,
    before: extra.before ? String(extra.before) : undefined,
    live: extra.live ? '1' : undefined,
  };
}

/** The time bounds the API is asked for, as ISO times: a preset counts back from `now`. */
export function boundsOf(filters: LogFilters, now = Date.now()): { since?: string; until?: string } {
  if (filters.range === '') return {};
  if (filters.range === 'custom') {
    return { ...(filters.since ? { since: new Date(filters.since).toISOString() } : {}), ...(filters.until ? { until: new Date(filters.until).toISOString() } : {}) };
  }
  return { since: new Date(now - RANGE_MS[filters.range]).toISOString() };
}

/** An ISO time as a datetime-local input shows it (the person's time zone, to the minute). */
export function localInputOf(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local input's value (the person's time zone) as an ISO time. */
export function isoOfLocalInput(value: string): string {
  if (!value) return '';
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}

export const hasFilters = (f: LogFilters): boolean => Object.values(f).some((v) => v !== '');
