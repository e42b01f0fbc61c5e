/**
 * One try of one channel: what it gets and how it ends. An attempt ends either
 * `next` (it failed before anything reached the client: the relay may fail over) or
 * `final` (an outcome to return as is: an answer, a broken stream, a client abort, or an
 * upstream rejection of the request itself, which another channel would reject too).
 */
import type { Channel, RelayOutcome, RelayRequest, RelayUsage } from './types.ts';
import { estimatePromptTokensOfRequest, estimateTokensOfChars } from './estimate.ts';
import type { UpstreamPools } from './pools.ts';

export type FailoverCode = 'upstream_rate_limited' | 'upstream_timeout' | 'upstream_unavailable' | 'upstream_error';

export interface AttemptFailure {
  readonly code: FailoverCode;
  readonly detail: string;
  readonly retryAfterSeconds?: number;
  /** The upstream refused the channel's own key (401, 403): the channel cannot serve anyone until it is fixed. */
  readonly keyRefused?: boolean;
  /** The upstream's own words (short, secrets masked): for the operator, with `detail`, never sent to the client. */
  readonly reason?: string;
}

/** A failure as the operator reads it: what happened, and the upstream's words when it said any. */
export function failureWords(failure: AttemptFailure): string {
  return failure.reason ? `${failure.detail}: ${failure.reason}` : failure.detail;
}

export type FinalResult = { readonly kind: 'final'; readonly outcome: RelayOutcome };
export type AttemptResult = { readonly kind: 'next'; readonly failure: AttemptFailure } | FinalResult;

/** How a provider tries one channel (providers/<type>/attempt.ts). */
export type Attempt = (ctx: AttemptContext) => Promise<AttemptResult>;

/** What one gateway gives every attempt: its own connection pools and settings, nothing process-wide. */
export interface RelayDeps {
  readonly pools: UpstreamPools;
  /** Milliseconds between two tokens of the offline `echo` model. */
  readonly echoDelayMs: number;
  /** The most an upstream may send: a whole JSON answer (bytes), one stream line or event (characters). */
  readonly limits: { readonly answerBytes: number; readonly sseChars: number };
  /** Told when an upstream refuses a channel's own key: the gateway disables the channel and says so. */
  readonly onKeyRefused?: (channel: Channel, detail: string) => void;
  /**
   * Told of an error the gateway's own code threw in an attempt (a fault of ours, or a converter meeting what its
   * format does not allow): its stack goes to the operator's log, whatever the client was answered.
   */
  readonly onFault?: (error: unknown, requestId: string) => void;
}

/** A JSON answer past this is refused (502), not held: 64 MiB. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface AttemptContext {
  readonly request: RelayRequest;
  readonly channel: Channel;
  readonly deps: RelayDeps;
  /** performance.now() when the relay started, for firstByteMs. */
  readonly startedAt: number;
}

export function next(code: FailoverCode, detail: string, retryAfterSeconds?: number): AttemptResult {
  return { kind: 'next', failure: retryAfterSeconds === undefined ? { code, detail } : { code, detail, retryAfterSeconds } };
}

/**
 * Where an answer estimated (at four characters a token) is taken to have run past its cap: well past it, so that
 * the estimate's error (indented code runs to six characters a token) never cuts an answer within its cap.
 */
export function estimatedCutLimit(cap: number): number {
  return 2 * cap + 64;
}

export function elapsedMs(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 10) / 10;
}

export const NO_USAGE: RelayUsage = { promptTokens: 0, completionTokens: 0, estimated: false };

/** Usage when the upstream reported none: the prompt estimated from the request, the completion from the text seen. */
export function estimatedUsage(request: RelayRequest, completionChars: number): RelayUsage {
  return { promptTokens: estimatePromptTokensOfRequest(request), completionTokens: estimateTokensOfChars(completionChars), estimated: true };
}
