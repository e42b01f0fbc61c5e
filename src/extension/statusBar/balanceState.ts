/**
 * The balance status bar's logic, without vscode: what state it is in, its text and
 * tooltip, and when to ask again (the interval, or an exponential backoff after failures,
 * so a broken gateway never gets a request storm).
 */
import { formatUsd } from '../../contract/index.ts';
import type { Balance } from '../../contract/index.ts';
import { escapeMarkdown } from '../errors/explain.ts';
import { english } from '../translate.ts';
import type { Translate } from '../translate.ts';


export type BalanceView =
  | { readonly kind: 'unconfigured'; readonly missing: readonly ('baseUrl' | 'apiKey')[] }
  | { readonly kind: 'loading' }
  | { readonly kind: 'ok'; readonly balance: Balance; readonly at: number }
  /** Nothing left, from the numbers or from a 403 insufficient-balance refusal. */
  | { readonly kind: 'exhausted'; readonly balance: Balance | null; readonly at: number; readonly message: string | null }
  /** The key was refused (401, or 403 other than balance). */
  | { readonly kind: 'refused'; readonly status: number | null; readonly message: string | null; readonly at: number }
  /** The gateway has no billing endpoints (404). */
  | { readonly kind: 'unavailable'; readonly at: number }
  /** `reached`: something answered (a 429, a 5xx, a web page), so "unreachable" would send the user to the wrong check. */
  | { readonly kind: 'error'; readonly message: string; readonly last: Balance | null; readonly at: number; readonly reached?: boolean };

/** Status bar item id (stable: the editor tests look for it). */
export const BALANCE_ITEM_ID = 'modelGateway.balance';

export const BACKOFF = { firstMs: 15_000, maxMs: 15 * 60_000 } as const;


/** Which view a successful balance reading gives. */
export function viewOfBalance(balance: Balance, at: number): BalanceView {
  if (!balance.unlimited && balance.remainingUsd !== null && balance.remainingUsd <= 0) return { kind: 'exhausted', balance, at, message: null };
  return { kind: 'ok', balance, at };
}

interface ErrorLike {
  family?: unknown;
  status?: unknown;
  condition?: unknown;
  code?: unknown;
  gatewayMessage?: unknown;
  message?: unknown;
}

/** Failures in which nothing answered at the address. */
const NOT_REACHED = new Set(['connection', 'timeout', 'aborted']);

/** Which view a failed reading gives (errors are the client's GatewayError, read structurally). */
export function viewOfError(error: unknown, last: Balance | null, at: number): BalanceView {
  const e = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  const status = typeof e.status === 'number' ? e.status : null;
  const message = typeof e.gatewayMessage === 'string' ? e.gatewayMessage : typeof e.message === 'string' ? e.message : String(error);
  if (e.condition === 'insufficient_balance' || e.code === 'insufficient_balance') return { kind: 'exhausted', balance: last, at, message };
  if (e.family === 'authentication' || e.family === 'permission') return { kind: 'refused', status, message, at };
  if (e.family === 'not_found') return { kind: 'unavailable', at };
  const reached = typeof e.family === 'string' && !NOT_REACHED.has(e.family);
  return { kind: 'error', message, last, at, reached };
}

/** Views that need the user's attention (warning background). */
export function isWarning(view: BalanceView): boolean {
  return view.kind === 'exhausted' || view.kind === 'refused';
}

function amount(balance: Balance, t: Translate): string {
  if (balance.unlimited) return t('Unlimited');
  if (balance.remainingUsd === null) return t('Gateway');
  return formatUsd(balance.remainingUsd);
}

export function statusText(view: BalanceView, t: Translate = english): string {
  switch (view.kind) {
    case 'unconfigured':
      return `$(credit-card) ${t('Gateway: not configured')}`;
    case 'loading':
      return `$(sync~spin) ${t('Gateway')}`;
    case 'ok':
      return `$(credit-card) ${amount(view.balance, t)}`;
    case 'exhausted':
      return view.balance && view.balance.remainingUsd !== null ? `$(credit-card) ${formatUsd(view.balance.remainingUsd)}` : `$(credit-card) ${t('Gateway: balance exhausted')}`;
    case 'refused':
      return `$(credit-card) ${t('Gateway: key refused')}`;
    case 'unavailable':
      return `$(credit-card) ${t('Gateway')}`;
    case 'error':
      if (view.last) return `$(credit-card) ${amount(view.last, t)} $(warning)`;
      return `$(credit-card) ${view.reached ? t('Gateway: balance not read') : t('Gateway: unreachable')}`;
  }
}

function time(at: number): string {
  return new Date(at).toLocaleTimeString();
}

function balanceLines(balance: Balance, t: Translate): string[] {
  if (balance.unlimited) return [`${t('Remaining')}: ${t('Unlimited')}`, ...(balance.usedUsd !== null ? [`${t('Used')}: ${formatUsd(balance.usedUsd)}`] : [])];
  const money = (value: number | null) => (value === null ? '–' : formatUsd(value));
  return [`${t('Remaining')}: **${money(balance.remainingUsd)}**`, `${t('Used')}: ${money(balance.usedUsd)}`, `${t('Limit')}: ${money(balance.limitUsd)}`];
}

/** Tooltip Markdown (the vscode side wraps it in a MarkdownString). */
export function tooltipMarkdown(view: BalanceView, baseUrl: string, t: Translate = english): string {
  const lines: string[] = [`**${t('Model Gateway balance')}**`, ''];
  switch (view.kind) {
    case 'unconfigured':
      lines.push(view.missing.includes('baseUrl') ? t('No base URL is set.') : t('No API key is set.'), '', t('Click to set it up.'));
      break;
    case 'loading':
      lines.push(t('Reading the balance…'));
      break;
    case 'ok':
      lines.push(...balanceLines(view.balance, t).map((l) => `- ${l}`));
      break;
    case 'exhausted':
      lines.push(`$(warning) ${t('The balance is exhausted: requests will be refused (403) until the account is topped up.')}`);
      if (view.balance) lines.push('', ...balanceLines(view.balance, t).map((l) => `- ${l}`));
      if (view.message) lines.push('', `${t('The gateway said:')} ${escapeMarkdown(view.message)}`);
      break;
    case 'refused':
      lines.push(`$(warning) ${t('The gateway refused the API key ({0}). Set the key again or check it in the console.', view.status ?? '?')}`);
      if (view.message) lines.push('', `${t('The gateway said:')} ${escapeMarkdown(view.message)}`);
      break;
    case 'unavailable':
      lines.push(t('This gateway does not report a balance (no billing endpoints).'));
      break;
    case 'error':
      lines.push(`$(warning) ${t('The balance could not be read:')} ${escapeMarkdown(view.message)}`);
      if (view.last) lines.push('', t('Last known:'), ...balanceLines(view.last, t).map((l) => `- ${l}`));
      break;
  }
  if (baseUrl) lines.push('', `${t('Base URL')}: \`${baseUrl.replace(/`/g, '')}\``);
  if ('at' in view) lines.push('', `${t('Last refresh')}: ${time(view.at)}`);
  lines.push('', t('Click for actions.'));
  return lines.join('\n');
}

/** Exponential backoff with jitter after `failures` consecutive failures (1, 2, ...). */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const raw = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** Math.max(0, failures - 1));
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/**
 * When to read the balance next: the interval after a success, the larger of the interval and
 * the backoff after failures; null when periodic refresh is off (interval 0) and all is well.
 * Unavailable (no billing endpoints) is asked again only rarely.
 */
export function nextRefreshMs(view: BalanceView, intervalSeconds: number, failures: number, random: () => number = Math.random): number | null {
  if (view.kind === 'unconfigured' || view.kind === 'loading') return null;
  const interval = intervalSeconds * 1000;
  if (view.kind === 'unavailable') return BACKOFF.maxMs;
  if (failures > 0) return Math.max(interval, backoffMs(failures, random));
  return interval > 0 ? interval : null;
}

/** Whether a reading counts as a failure for the backoff. */
export function isFailure(view: BalanceView): boolean {
  return view.kind === 'error' || view.kind === 'refused' || (view.kind === 'exhausted' && view.balance === null);
}

/** Minimum spacing of refreshes that nobody clicked for (after a chat, on settings changes). */
export const SOFT_REFRESH_DEBOUNCE_MS = 1500;

/**
 * Whether a refresh nobody clicked for may run now: always when healthy, but during a
 * backoff only once the scheduled retry time has come (the scheduled retry does it anyway).
 */
export function softRefreshAllowed(failures: number, now: number, nextScheduledAt: number | null): boolean {
  return failures === 0 || nextScheduledAt === null || now >= nextScheduledAt;
}
