/**
 * The relay: tries the model's channels in order (priority, then weight) until one
 * answers, and writes that answer to the client. See types.ts for the seam with the core.
 */
import { failureWords, NO_USAGE, type Attempt, type AttemptContext, type AttemptFailure, type AttemptResult, type RelayDeps } from './attempt.ts';
import { ChannelAffinity } from './affinity.ts';
import { clientGone } from './clientGone.ts';
import { orderChannels } from './order.ts';
import { endWithStreamError } from './respond.ts';
import type { Channel, FailedAttempt, RelayChat, RelayOutcome } from './types.ts';
import { ChannelHealth } from './health.ts';
import type { ChannelType } from '../../contract/index.ts';
import { ConversionError } from './formats/types.ts';

export type * from './types.ts';

/** The relay of one gateway: `providers` says how to try each channel type, `deps` are that gateway's own parts. */
export function createRelay(providers: Readonly<Record<ChannelType, Attempt>>, deps: RelayDeps, health = new ChannelHealth()): RelayChat {
  const affinity = new ChannelAffinity();
  return async (request) => {
    const startedAt = performance.now();
    const failures: AttemptFailure[] = [];
    let attempts: FailedAttempt[] | null = null;
    let last: Channel | null = null;
    const who = `${request.keyId} ${request.model}`;
    for (const channel of affinity.apply(who, health.usable(orderChannels(request.channels)))) {
      if (request.signal.aborted) return clientGone({ request, channel, deps, startedAt }, NO_USAGE).outcome;
      last = channel;
      const attemptStart = performance.now();
      const ctx: AttemptContext = { request, channel, deps, startedAt };
      const provider = providers[channel.type];
      let result: AttemptResult;
      try {
        // Awaited here, not in a wrapper: one suspended frame less for every request and open stream.
        result = provider ? await provider(ctx) : { kind: 'next', failure: { code: 'upstream_error', detail: `unsupported channel type ${String(channel.type)}` } };
      } catch (err) {
        result = faultOutcome(err, ctx);
      }
      if (result.kind === 'final') {
        const { outcome } = result;
        if (outcome.kind === 'success') {
          affinity.served(who, channel.id);
          health.succeeded(channel);
        } else if (outcome.kind === 'broken' && !outcome.clientAborted) {
          affinity.failed(who, channel.id);
          health.failed(channel, outcome.detail);
        }
        return attempts ? { ...outcome, attempts } : outcome;
      }
      affinity.failed(who, channel.id);
      const words = failureWords(result.failure);
      health.failed(channel, words);
      if (result.failure.keyRefused) deps.onKeyRefused?.(channel, words);
      failures.push(result.failure);
      (attempts ??= []).push({ channel: channel.name, code: result.failure.code, detail: words.slice(0, 300), ms: Math.round(performance.now() - attemptStart) });
    }
    const failed = allFailed(failures, last);
    return attempts ? { ...failed, attempts } : failed;
  };
}

/** What a throw from an attempt means: the request itself refused, or a fault of ours. */
function faultOutcome(err: unknown, ctx: AttemptContext): AttemptResult {
  // A request no channel of this type can take as sent: the client's to fix, no failover (a converter that threw on
  // it is told to the operator too: it may be a fault of ours).
  if (err instanceof ConversionError && err.cause !== undefined) ctx.deps.onFault?.(err.cause, ctx.request.requestId);
  if (err instanceof ConversionError && !ctx.request.res.headersSent) {
    return { kind: 'final', outcome: { kind: 'failed', code: 'invalid_request', detail: err.message, channel: ctx.channel.name, firstByteMs: null, usage: NO_USAGE } };
  }
  // A fault of ours, not the upstream's: no failover, and never a half-written answer left open.
  if (!(err instanceof ConversionError)) ctx.deps.onFault?.(err, ctx.request.requestId);
  const detail = err instanceof Error ? err.message : String(err);
  const base = { code: 'internal_error', detail, channel: ctx.channel.name, usage: NO_USAGE } as const;
  if (!ctx.request.res.headersSent) return { kind: 'final', outcome: { ...base, kind: 'failed', firstByteMs: null } };
  endWithStreamError(ctx.request, 'internal_error', '');
  return { kind: 'final', outcome: { ...base, kind: 'broken', clientAborted: false, firstByteMs: null } };
}

/** Every channel failed before answering: one contract error for all of them. */
function allFailed(failures: AttemptFailure[], last: Channel | null): RelayOutcome {
  const base = { kind: 'failed', channel: last?.name ?? null, firstByteMs: null, usage: NO_USAGE } as const;
  if (failures.length === 0) return { ...base, code: 'upstream_unavailable', detail: 'no enabled channel serves this model' };
  const detail = failures.length === 1 ? failures[0]!.detail : failures.map((f, i) => `attempt ${i + 1}: ${f.detail}`).join('; ');
  const limited = failures.filter((f) => f.code === 'upstream_rate_limited');
  if (limited.length > 0) {
    const retryAfterSeconds = limited.findLast((f) => f.retryAfterSeconds !== undefined)?.retryAfterSeconds;
    return retryAfterSeconds === undefined
      ? { ...base, code: 'upstream_rate_limited', detail }
      : { ...base, code: 'upstream_rate_limited', detail, retryAfterSeconds };
  }
  return { ...base, code: failures[failures.length - 1]!.code, detail };
}
