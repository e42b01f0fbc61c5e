/**
 * A key's limits beyond its models and expiry (issue 10), as every store keeps them, and the rules a
 * store accepts them by: requests per minute, concurrency, tokens per minute, requests per day, a
 * spending limit over a period, and an IP allow-list. The CLI and the console check first with their own
 * words; this is the last line for every path (the SQL stores add CHECK constraints for the numbers).
 *
 * And the key's usage as the stores count it, per key and UTC day, in the same transaction as the log
 * rows it comes from (key_usage): its requests (all but those refused by its rate limits or its IP list)
 * and its settled charges. Never pruned with the logs, so a total spending limit stays true however long
 * the logs are kept.
 */
import { isIP } from 'node:net';
import { formatMicroUsd, isSpendPeriod, MAX_ALLOWED_IPS, MAX_BALANCE_MICRO, MAX_DAILY_REQUESTS, MAX_TOKENS_PER_MINUTE, type SpendPeriod } from '../../contract/index.ts';
import { StoreError, type NewKey, type RequestLog } from './types.ts';

export type { SpendPeriod };

export interface KeyLimits {
  /** Requests per minute; 0: none. */
  readonly rpm: number;
  /** Concurrent requests; 0: none. */
  readonly concurrency: number;
  /** Settled prompt + completion tokens per minute; 0: none. */
  readonly tpm: number;
  /** Requests per UTC day; 0: none. */
  readonly rpd: number;
  /** Micro-USD the key may spend in its period; null: no limit but the account's balance. */
  readonly spendLimit: number | null;
  readonly spendPeriod: SpendPeriod;
  /** IPv4/IPv6 addresses and CIDR ranges requests must come from; null: anywhere. */
  readonly allowIps: readonly string[] | null;
}

export const NO_EXTRA_LIMITS = { tpm: 0, rpd: 0, spendLimit: null, spendPeriod: 'total', allowIps: null } as const satisfies Partial<KeyLimits>;

/** A new key's limits, every one (absent ones: none), checked. */
export function newKeyLimits(key: NewKey): KeyLimits {
  const limits: KeyLimits = { ...NO_EXTRA_LIMITS, ...key.limits, rpm: key.rpm, concurrency: key.concurrency };
  assertKeyLimits(limits);
  return limits;
}

/** The limit columns of api_keys, in the order keyLimitValues gives them. */
export const KEY_LIMIT_COLUMNS = ['rpm', 'concurrency', 'tpm', 'rpd', 'spend_limit', 'spend_period', 'allow_ips'] as const;

export function keyLimitValues(l: KeyLimits): [number, number, number, number, number | null, string, string | null] {
  return [l.rpm, l.concurrency, l.tpm, l.rpd, l.spendLimit, l.spendPeriod, l.allowIps === null ? null : JSON.stringify(l.allowIps)];
}

export const DAY_MS = 86_400_000;

/** The UTC day of an epoch-ms time, as days since 1970-01-01. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);

/** The first UTC day of the spending period that `now` is in (0 for a total: since ever). */
export function periodStartDay(period: SpendPeriod, now: number): number {
  if (period === 'total') return 0;
  if (period === 'day') return dayOf(now);
  const d = new Date(now);
  return dayOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

/** When the period that `now` is in ends and the spending starts from zero again (epoch ms); null for a total. */
export function periodEnd(period: SpendPeriod, now: number): number | null {
  if (period === 'total') return null;
  if (period === 'day') return (dayOf(now) + 1) * DAY_MS;
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** What the key's usage is asked for: its spending since UTC day `since`, its requests on UTC day `day`. */
export interface KeyUsageQuery {
  readonly keyId: number;
  readonly since: number;
  readonly day: number;
}

/** A key's spending (micro-USD) since a day, and its requests on a day, as the store counts them. */
export interface KeyUsageTotals {
  /** Micro-USD. */
  readonly spent: number;
  readonly requests: number;
}

/** Logged under the key without counting as one of its requests: refused before it was the key's to make. */
const NOT_A_REQUEST = new Set(['rate_limited', 'ip_not_allowed', 'key_disabled', 'key_expired']);

/** A request refused by the key's rate limits or IP list, or while it was disabled or expired, is logged, but does not count as one of its requests. */
export function countsAsRequest(errorCode: string | null): boolean {
  return errorCode === null || !NOT_A_REQUEST.has(errorCode);
}

/** One key's usage on one UTC day, as a batch adds it. */
export interface DayUsage {
  readonly keyId: number;
  readonly day: number;
  requests: number;
  spent: number;
}

/** A batch's usage per key and UTC day (of each log's time), in key and day order (so SQL writers lock rows in one order). */
export function usageOf(logs: readonly RequestLog[]): DayUsage[] {
  const byKey = new Map<number, Map<number, DayUsage>>();
  for (const l of logs) {
    if (l.keyId === null) continue;
    let days = byKey.get(l.keyId);
    if (!days) byKey.set(l.keyId, (days = new Map()));
    const day = dayOf(l.time);
    let usage = days.get(day);
    if (!usage) days.set(day, (usage = { keyId: l.keyId, day, requests: 0, spent: 0 }));
    if (countsAsRequest(l.errorCode)) usage.requests++;
    usage.spent += l.cost;
  }
  const out: DayUsage[] = [];
  for (const keyId of [...byKey.keys()].sort((a, b) => a - b)) out.push(...[...byKey.get(keyId)!.values()].sort((a, b) => a.day - b.day));
  return out;
}

/** key_usage in memory (the memory store's). */
export class KeyUsageCounters {
  readonly #days = new Map<number, Map<number, { requests: number; spent: number }>>();

  add(logs: readonly RequestLog[]): void {
    for (const u of usageOf(logs)) {
      let days = this.#days.get(u.keyId);
      if (!days) this.#days.set(u.keyId, (days = new Map()));
      const day = days.get(u.day) ?? { requests: 0, spent: 0 };
      days.set(u.day, { requests: day.requests + u.requests, spent: day.spent + u.spent });
    }
  }

  query(queries: readonly KeyUsageQuery[]): Map<number, KeyUsageTotals> {
    const out = new Map<number, KeyUsageTotals>();
    for (const q of queries) {
      let spent = 0;
      for (const [day, u] of this.#days.get(q.keyId) ?? []) if (day >= Math.min(q.since, q.day)) spent += u.spent;
      out.set(q.keyId, { spent, requests: this.#days.get(q.keyId)?.get(q.day)?.requests ?? 0 });
    }
    return out;
  }

  delete(keyId: number): void {
    this.#days.delete(keyId);
  }
}

/** Throws unless every limit is one a store keeps (whole numbers in range, a known period, a strict IP list). */
export function assertKeyLimits(limits: KeyLimits): void {
  const whole = (value: number, what: string, max: number): void => {
    if (!Number.isSafeInteger(value) || value < 0 || value > max) throw new StoreError('invalid', `${what} must be a whole number from 0 to ${max}, got ${value}`);
  };
  whole(limits.rpm, 'rpm', 1_000_000_000);
  whole(limits.concurrency, 'concurrency', 1_000_000_000);
  whole(limits.tpm, 'tpm', MAX_TOKENS_PER_MINUTE);
  whole(limits.rpd, 'rpd', MAX_DAILY_REQUESTS);
  if (limits.spendLimit !== null && (!Number.isSafeInteger(limits.spendLimit) || limits.spendLimit < 1 || limits.spendLimit > MAX_BALANCE_MICRO)) {
    throw new StoreError('invalid', `a spending limit must be whole micro-USD from 1 to ${MAX_BALANCE_MICRO} (${formatMicroUsd(MAX_BALANCE_MICRO)}), got ${limits.spendLimit}`);
  }
  if (!isSpendPeriod(limits.spendPeriod)) throw new StoreError('invalid', `a spending period is total, day or month, got ${JSON.stringify(limits.spendPeriod)}`);
  if (limits.allowIps !== null) parseAllowList(limits.allowIps);
}

/** An entry of an IP allow-list, read strictly. */
export interface AllowEntry {
  readonly address: string;
  readonly family: 'ipv4' | 'ipv6';
  readonly prefix: number;
}

/**
 * One allow-list entry: an IPv4 or IPv6 address, or a CIDR range whose address is the range's first
 * (no host bits set: 10.1.2.3/8 is refused, naming 10.0.0.0/8). No spaces, zones, ports or brackets.
 * Throws a StoreError that says what is wrong.
 */
export function parseAllowEntry(text: string): AllowEntry {
  const slash = text.indexOf('/');
  const address = (slash < 0 ? text : text.slice(0, slash)).toLowerCase();
  const version = address.includes('%') ? 0 : isIP(address);
  if (version === 0) throw new StoreError('invalid', `"${text.slice(0, 80)}" is not an IPv4 or IPv6 address or CIDR range (like 203.0.113.7, 10.0.0.0/8 or 2001:db8::/32)`);
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const bits = version === 4 ? 32 : 128;
  if (slash < 0) return { address, family, prefix: bits };
  const prefixText = text.slice(slash + 1);
  const prefix = /^(0|[1-9]\d{0,2})$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= bits)) throw new StoreError('invalid', `"${text.slice(0, 80)}": the prefix length after "/" must be a whole number from 0 to ${bits}`);
  const bytes = addressBytes(address, version);
  const masked = bytes.map((b, i) => (i * 8 >= prefix ? 0 : i * 8 + 8 <= prefix ? b : b & (0xff << (8 - (prefix - i * 8)))));
  if (masked.some((b, i) => b !== bytes[i])) {
    throw new StoreError('invalid', `"${text}" has bits set after its first ${prefix}: the range is written with its first address, ${formatBytes(masked, version)}/${prefix}`);
  }
  return { address, family, prefix };
}

/** A whole allow-list: 1 to MAX_ALLOWED_IPS entries, each strict. Returns them as given (lower case). */
export function parseAllowList(entries: readonly string[]): string[] {
  if (entries.length === 0) throw new StoreError('invalid', 'an IP allow-list needs at least one address (no list: any address)');
  if (entries.length > MAX_ALLOWED_IPS) throw new StoreError('invalid', `an IP allow-list holds at most ${MAX_ALLOWED_IPS} addresses and ranges, got ${entries.length}`);
  return entries.map((e) => {
    parseAllowEntry(e);
    return e.toLowerCase();
  });
}

/** The 4 or 16 bytes of an address isIP accepted (IPv6 with "::" and a dotted IPv4 tail expanded). */
/**
 * The network a client address stands for when counting what it may send: an IPv4 address itself (an IPv4-mapped
 * IPv6 one too), an IPv6 address's /64 (one client commonly holds a whole /64, 2^64 addresses).
 */
export function networkOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (address.includes('%') || isIP(address) !== 6) return address;
  const bytes = addressBytes(address.toLowerCase(), 6);
  return `${formatBytes([...bytes.slice(0, 8), ...new Array<number>(8).fill(0)], 6)}/64`;
}

function addressBytes(address: string, version: number): number[] {
  if (version === 4) return address.split('.').map(Number);
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const words = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const halves = text.split('::');
  const all = halves.length === 2 ? [...words(halves[0]!), ...new Array<number>(8 - words(halves[0]!).length - words(halves[1]!).length).fill(0), ...words(halves[1]!)] : words(text);
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

/** Bytes as an address: dotted IPv4, or IPv6 with its longest run of zero groups written "::". */
function formatBytes(bytes: number[], version: number): string {
  if (version === 4) return bytes.join('.');
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((bytes[i]! << 8) | bytes[i + 1]!);
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = (ws: number[]): string => ws.map((w) => w.toString(16)).join(':');
  return best.at < 0 ? hex(words) : `${hex(words.slice(0, best.at))}::${hex(words.slice(best.at + best.length))}`;
}
