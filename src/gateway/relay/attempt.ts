/**
 * One try of one channel, and how its failures are classified. An attempt ends either
 * `next` (it failed before anything reached the client: the relay may fail over) or
 * `final` (an outcome to return as is: an answer, a broken stream, a client abort, or an
 * upstream rejection of the request itself, which another channel would reject too).
 */
import type { Channel, RelayOutcome, RelayRequest, RelayUsage } from './types.ts';
import { estimatePromptTokens, estimateTokensOfChars } from './estimate.ts';
import { endWithStreamError } from './respond.ts';

export type FailoverCode = 'upstream_rate_limited' | 'upstream_timeout' | 'upstream_unavailable' | 'upstream_error';

export interface AttemptFailure {
  readonly code: FailoverCode;
  readonly detail: string;
  readonly retryAfterSeconds?: number;
}

export type FinalResult = { readonly kind: 'final'; readonly outcome: RelayOutcome };
export type AttemptResult = { readonly kind: 'next'; readonly failure: AttemptFailure } | FinalResult;

export interface AttemptContext {
  readonly request: RelayRequest;
  readonly channel: Channel;
  /** performance.now() when the relay started, for firstByteMs. */
  readonly startedAt: number;
}

export function next(code: FailoverCode, detail: string, retryAfterSeconds?: number): AttemptResult {
  return { kind: 'next', failure: retryAfterSeconds === undefined ? { code, detail } : { code, detail, retryAfterSeconds } };
}

export function elapsedMs(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 10) / 10;
}

export const NO_USAGE: RelayUsage = { promptTokens: 0, completionTokens: 0, estimated: false };

/** Usage when the upstream reported none: the prompt estimated from the request, the completion from the text seen. */
export function estimatedUsage(request: RelayRequest, completionChars: number): RelayUsage {
  return { promptTokens: estimatePromptTokens(request.body), completionTokens: estimateTokensOfChars(completionChars), estimated: true };
}

/** Reason given to an attempt's AbortController when one of our own timers fires. */
export const TIMEOUT_REASON = Object.assign(new Error('upstream timeout'), { code: 'RELAY_UPSTREAM_TIMEOUT' });

/** Aborts an attempt when the upstream is silent too long: the first byte, then between chunks. */
export class Watchdog {
  readonly #controller: AbortController;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #ms = -1;

  constructor(controller: AbortController) {
    this.#controller = controller;
  }

  /** (Re)starts the countdown; cheap to call on every chunk. */
  arm(ms: number): void {
    if (this.#timer !== null && ms === this.#ms) {
      this.#timer.refresh();
      return;
    }
    this.clear();
    this.#ms = ms;
    this.#timer = setTimeout(() => this.#controller.abort(TIMEOUT_REASON), ms);
  }

  clear(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}

export type FailureKind = 'client' | 'timeout' | 'connection' | 'error';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT', 'RELAY_UPSTREAM_TIMEOUT']);

/** What an error thrown by an upstream request or its body means. */
export function classify(err: unknown, attempt: AbortSignal | null, client: AbortSignal): FailureKind {
  if (client.aborted) return 'client';
  if (attempt?.aborted && attempt.reason === TIMEOUT_REASON) return 'timeout';
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return 'timeout';
  return 'connection';
}

export function describe(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e && typeof e.code === 'string') return e.code;
  return e && typeof e.message === 'string' ? e.message : String(err);
}

/** Seconds from `Retry-After` (seconds or an HTTP date) or `retry-after-ms`; undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Record<string, string | string[] | undefined>, now = Date.now()): number | undefined {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const ms = Number(first(headers['retry-after-ms']));
  if (Number.isFinite(ms) && ms >= 0 && first(headers['retry-after-ms']) !== undefined) return Math.ceil(ms / 1000);
  const value = first(headers['retry-after'])?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The client went away: nothing more to write; report what the upstream generated so far. */
export function clientGone(ctx: AttemptContext, usage: RelayUsage, firstByteMs: number | null = null): FinalResult {
  const { res } = ctx.request;
  // Usually the socket is already gone; if the abort came from a server stop instead, a
  // started stream still gets its error event (and no [DONE]).
  if (!res.headersSent) res.destroy();
  else endWithStreamError(res, 'upstream_error', 'request aborted', ctx.request.requestId);
  const outcome: RelayOutcome = {
    kind: 'broken',
    code: 'upstream_error',
    detail: 'client closed the connection',
    clientAborted: true,
    channel: ctx.channel.name,
    firstByteMs,
    usage,
  };
  return { kind: 'final', outcome };
}
