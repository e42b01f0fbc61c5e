/**
 * The CLI's arguments as values, each checked where it is read: a mistake is a UsageError naming the
 * flag and what it accepts (exit code 2), never a stack trace or a silently odd value.
 */
import { isConfigurableModelName, isHttpUrl, parseIsoDate, MAX_BALANCE_MICRO, MAX_MODEL_NAME_LENGTH, MAX_PRICE_MICRO, NAME_PATTERN } from '../contract/index.ts';
import { isIP } from 'node:net';
import { parseUsd } from './accounts/money.ts';
import { InvalidSetting } from './accounts/userAdmin.ts';

/** Wrong arguments: message on stderr, exit code 2. */
export class UsageError extends Error {}

/** `work`, its refusal of a setting (the rules shared with the console, accounts/userAdmin.ts InvalidSetting) a UsageError. */
export async function asUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof InvalidSetting ? new UsageError(error.message) : error;
  }
}

export function int(value: string | undefined, flag: string, fallback: number, min = 0, max = 1_000_000_000): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** An http(s) URL, or a UsageError naming the flag. */
export function httpUrl(value: string, flag: string): string {
  if (!isHttpUrl(value)) throw new UsageError(`--${flag} must be an http:// or https:// URL, got "${value}"`);
  return value;
}

/** An ISO-8601 date or date-time (strict: parseIsoDate), as epoch ms. */
export function isoDate(value: string, flag: string): number {
  const parsed = parseIsoDate(value);
  if (typeof parsed === 'number') return parsed;
  throw new UsageError(`--${flag} must be an ISO-8601 date or date-time (2026-12-31, or 2026-12-31T18:00:00Z; UTC unless it says otherwise)${parsed.why ? `: ${parsed.why}` : ''}, got "${value}"`);
}

/** An ISO-8601 date or date-time in the future, as epoch ms; `what` is what it would expire (a key, the codes, the token). */
export function futureDate(value: string, flag: string, what: string, now = Date.now()): number {
  const ms = isoDate(value, flag);
  if (ms <= now) throw new UsageError(`--${flag} is in the past (${new Date(ms).toISOString()}): ${what} would be born expired`);
  return ms;
}

/** An amount in USD as micro-USD: exact, at most `max` (a balance's ceiling, or a price's). */
export function usdFlag(value: string | undefined, what: string, max = MAX_BALANCE_MICRO): number {
  if (value === undefined) throw new UsageError(`${what} is required`);
  try {
    return parseUsd(value, max);
  } catch (error) {
    throw new UsageError(`${what}: ${(error as Error).message}`);
  }
}

export const price = (value: string | undefined, what: string): number => usdFlag(value, what, MAX_PRICE_MICRO);

/** A yes|no flag (true|false too); null when not given. */
export function yesNo(value: string | undefined, flag: string): boolean | null {
  if (value === undefined) return null;
  if (value === 'yes' || value === 'true') return true;
  if (value === 'no' || value === 'false') return false;
  throw new UsageError(`--${flag} takes yes or no`);
}

/** A flag of yes, no or unknown (null: "not said"); undefined when not given. */
export function yesNoUnknown(value: string | undefined, flag: string): boolean | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'unknown') return null;
  const said = value === 'yes' || value === 'true' ? true : value === 'no' || value === 'false' ? false : undefined;
  if (said === undefined) throw new UsageError(`--${flag} takes yes, no or unknown`);
  return said;
}

export function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

export function need(value: string | undefined, what: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${what} is required`);
  return value.trim();
}

/** The longest account, key or channel name: these names appear in every list and log row. */
export const MAX_NAME_LENGTH = 64;

/** An account, key or channel name: 1 to 64 letters, digits, `.`, `_`, `-` or `@`. */
export function identifier(value: string | undefined, what: string): string {
  const name = need(value, what);
  if (!NAME_PATTERN.test(name)) {
    throw new UsageError(`${what} must be 1 to ${MAX_NAME_LENGTH} letters, digits, ".", "_", "-" or "@", got "${name.slice(0, 80)}${name.length > 80 ? '…' : ''}"`);
  }
  return name;
}

/** A model name: what clients send, so any printable text up to the contract's length. */
export function modelName(value: string | undefined, what: string): string {
  const name = need(value, what);
  if (!isConfigurableModelName(name)) {
    throw new UsageError(`${what} must be printable text of at most ${MAX_MODEL_NAME_LENGTH} characters, with no spaces around it`);
  }
  return name;
}

/** A host name: dot-separated labels of letters, digits and "-" (RFC 1123), the last one not all digits. */
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * An address to listen on: an IP address or a host name, no scheme, no port, or a UsageError naming the flag
 * (else "getaddrinfo ENOTFOUND http://127.0.0.1" names nothing the operator typed).
 */
export function listenHost(value: string, flag: string): string {
  const host = value.trim();
  if (host === '') throw new UsageError(`--${flag} is empty: give an address (127.0.0.1, the default, serves this machine only; 0.0.0.0 every interface)`);
  if (isIP(host) !== 0) return host;
  const hint = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? ' (an address, not a URL: the port goes in its own flag)'
    : /^\[.*\]$/.test(host) ? ' (an IPv6 address goes without brackets: ::1)'
    : /:\d+$/.test(host) ? ' (the port goes in its own flag)'
    : /^[\d.]+$/.test(host) ? ' (not an IPv4 address: four numbers from 0 to 255)' : '';
  if (hint || !HOST_NAME.test(host) || /^[\d.]+$/.test(host.split('.').at(-1)!)) {
    throw new UsageError(`--${flag} must be an IP address or a host name (127.0.0.1, 0.0.0.0, ::1, localhost)${hint}, got "${value}"`);
  }
  return host;
}
