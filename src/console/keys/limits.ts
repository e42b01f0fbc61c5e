/**
 * A key's limits between the form and the API: the text of each field, the body of POST
 * /api/console/keys (a new key: an empty field is left out, so the gateway's default applies) and of
 * POST /api/console/keys/limits (an edit: an emptied field means "no limit"). 0 is "no limit" for every
 * count, so a key without one shows an empty field. Money stays text: the gateway parses the decimal exactly.
 */
import type { BodyOf } from '../api.ts';
import type { SpendPeriod } from '../../contract/api/keys.ts';
import type { KeyView } from './types.ts';

export const PERIODS = ['total', 'day', 'month'] as const satisfies readonly SpendPeriod[];

export interface LimitsForm {
  readonly rpm: string;
  readonly concurrency: string;
  readonly tpm: string;
  readonly rpd: string;
  /** Decimal USD ("2.50"); empty: no spending limit. */
  readonly spend: string;
  readonly period: SpendPeriod;
  /** Addresses and CIDR ranges, separated by commas, spaces or lines; empty: any address. */
  readonly ips: string;
}

export const EMPTY_LIMITS: LimitsForm = { rpm: '', concurrency: '', tpm: '', rpd: '', spend: '', period: 'total', ips: '' };

type Limits = Omit<BodyOf<'setKeyLimits'>, 'id'>;

/** "2.500000" -> "2.50", "0.000100" -> "0.0001", "5.000000" -> "5.00": the exact decimal, at least cents. */
export function usdText(usd: string): string {
  const [whole = '0', fraction = ''] = usd.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** The entries of a list typed with commas, spaces or one per line. */
export function splitList(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** A whole number typed in a field, or undefined when the field is empty (NaN when it is not a number: the gateway refuses it). */
function whole(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

/** The form's fields of a key as it is now (the editor starts from them). */
export function limitsFormOf(key: KeyView): LimitsForm {
  return {
    rpm: key.rpm ? String(key.rpm) : '',
    concurrency: key.concurrency ? String(key.concurrency) : '',
    tpm: key.tpm ? String(key.tpm) : '',
    rpd: key.rpd ? String(key.rpd) : '',
    spend: key.spend_limit ? usdText(key.spend_limit.usd) : '',
    period: key.spend_period,
    ips: key.allow_ips ? key.allow_ips.join(', ') : '',
  };
}

/**
 * The limits of the form as the API takes them. A new key leaves an empty field out (the default);
 * an edit sends every field, an emptied one as "none" (0 tokens or requests, null spending limit or list).
 */
export function limitsBody(form: LimitsForm, editing: boolean): Limits {
  const body: { -readonly [K in keyof Limits]: Limits[K] } = { spend_period: form.period };
  const rpm = whole(form.rpm);
  const concurrency = whole(form.concurrency);
  const tpm = whole(form.tpm);
  const rpd = whole(form.rpd);
  if (rpm !== undefined) body.rpm = rpm;
  else if (editing) body.rpm = 0;
  if (concurrency !== undefined) body.concurrency = concurrency;
  else if (editing) body.concurrency = 0;
  if (tpm !== undefined) body.tpm = tpm;
  else if (editing) body.tpm = 0;
  if (rpd !== undefined) body.rpd = rpd;
  else if (editing) body.rpd = 0;
  // As people write an amount: "$1,000.50" is 1000.50 (the server reads a plain decimal).
  const spend = form.spend.trim().replace(/^\$/, '').replace(/[,\s]/g, '');
  if (spend) body.spend_limit_usd = spend;
  else if (editing) body.spend_limit_usd = null;
  const ips = splitList(form.ips);
  if (ips.length > 0) body.allow_ips = ips;
  else if (editing) body.allow_ips = null;
  return body;
}
