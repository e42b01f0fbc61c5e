/**
 * A key's limits as people give them (the CLI's flags, the console's JSON), turned into the store's
 * KeyLimits: money as exact decimal USD, an IP list checked strictly, each limit not given kept as it
 * is. Every problem is a StoreError 'invalid' that names the limit; callers say it their own way.
 */
import { formatMicroUsd, type SpendPeriod } from '../contract/index.ts';
import { parseUsd } from './accounts/money.ts';
import { NO_EXTRA_LIMITS, parseAllowList, periodEnd, type KeyLimits } from './store/keySettings.ts';
import { StoreError, type KeyRecord } from './store/types.ts';
import { DEFAULT_CONCURRENCY, DEFAULT_RPM } from './keys.ts';

/** Limits as given: absent (undefined) means "as it is"; null removes a spending limit or an IP list. */
export interface LimitChanges {
  readonly rpm?: number;
  readonly concurrency?: number;
  readonly tpm?: number;
  readonly rpd?: number;
  /** Decimal USD ("5", "0.25") or a number of dollars. */
  readonly spendLimitUsd?: string | number | null;
  readonly spendPeriod?: SpendPeriod;
  readonly allowIps?: readonly string[] | null;
}

/** A new key's limits: the defaults (rpm 1200, concurrency 64, nothing else), changed as given. */
export const DEFAULT_LIMITS: KeyLimits = { rpm: DEFAULT_RPM, concurrency: DEFAULT_CONCURRENCY, ...NO_EXTRA_LIMITS };

export function changedLimits(current: KeyLimits, changes: LimitChanges): KeyLimits {
  let spendLimit = current.spendLimit;
  if (changes.spendLimitUsd === null) spendLimit = null;
  else if (changes.spendLimitUsd !== undefined) {
    try {
      spendLimit = parseUsd(String(changes.spendLimitUsd));
    } catch (error) {
      throw new StoreError('invalid', `spending limit: ${(error as Error).message}`);
    }
    if (spendLimit < 1) throw new StoreError('invalid', 'spending limit: must be at least $0.000001 (no limit: leave it out, or remove it)');
  }
  let allowIps = current.allowIps;
  if (changes.allowIps === null) allowIps = null;
  else if (changes.allowIps !== undefined) allowIps = parseAllowList(changes.allowIps.map((e) => e.trim()));
  return {
    rpm: changes.rpm ?? current.rpm,
    concurrency: changes.concurrency ?? current.concurrency,
    tpm: changes.tpm ?? current.tpm,
    rpd: changes.rpd ?? current.rpd,
    spendLimit,
    spendPeriod: changes.spendPeriod ?? current.spendPeriod,
    allowIps,
  };
}

/** The key's limits in one line of words: "rpm=1200 concurrency=64 tpm=none rpd=none spend=$5.00/day allow_ips=any". */
export function describeLimits(k: KeyLimits): string {
  return [
    `rpm=${k.rpm || 'none'}`, `concurrency=${k.concurrency || 'none'}`, `tpm=${k.tpm || 'none'}`, `rpd=${k.rpd || 'none'}`,
    `spend=${k.spendLimit === null ? 'none' : `${formatMicroUsd(k.spendLimit)}/${k.spendPeriod}`}`,
    `allow_ips=${k.allowIps === null ? 'any' : k.allowIps.join(',')}`,
  ].join('\t');
}

/** The limits of a key record (its other fields left out). */
export function limitsOf(k: KeyRecord): KeyLimits {
  return { rpm: k.rpm, concurrency: k.concurrency, tpm: k.tpm, rpd: k.rpd, spendLimit: k.spendLimit, spendPeriod: k.spendPeriod, allowIps: k.allowIps };
}

/** When the key's spending starts from zero again after `now` (ISO time), or null for a total limit. */
export function resetsAt(k: KeyLimits, now: number): string | null {
  const end = periodEnd(k.spendPeriod, now);
  return end === null ? null : new Date(end).toISOString();
}
