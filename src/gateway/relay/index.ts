/**
 * The relay: tries the model's channels in order (priority, then weight) until one
 * answers, and writes that answer to the client. See types.ts for the seam with the core.
 */
import { clientGone, NO_USAGE, type AttemptContext, type AttemptFailure, type AttemptResult } from './attempt.ts';
import { echoAttempt } from './echo.ts';
import { openaiAttempt } from './openai.ts';
import { orderChannels } from './order.ts';
import { endWithStreamError } from './respond.ts';
import type { Channel, RelayChat, RelayOutcome } from './types.ts';

export { closeUpstreams } from './dispatchers.ts';
export type * from './types.ts';

export const relayChat: RelayChat = async (request) => {
  const startedAt = performance.now();
  const failures: AttemptFailure[] = [];
  let last: Channel | null = null;
  for (const channel of orderChannels(request.channels)) {
    if (request.signal.aborted) return clientGone({ request, channel, startedAt }, NO_USAGE).outcome;
    last = channel;
    const result = await attempt({ request, channel, startedAt });
    if (result.kind === 'final') return result.outcome;
    failures.push(result.failure);
  }
  return allFailed(failures, last);
};

async function attempt(ctx: AttemptContext): Promise<AttemptResult> {
  try {
    if (ctx.channel.type === 'echo') return await echoAttempt(ctx);
    if (ctx.channel.type === 'openai') return await openaiAttempt(ctx);
    return { kind: 'next', failure: { code: 'upstream_error', detail: `unsupported channel type ${String(ctx.channel.type)}` } };
  } catch (err) {
    // A fault of ours, not the upstream's: no failover, and never a half-written answer left open.
    const detail = err instanceof Error ? err.message : String(err);
    const base = { code: 'internal_error', detail, channel: ctx.channel.name, usage: NO_USAGE } as const;
    if (!ctx.request.res.headersSent) return { kind: 'final', outcome: { ...base, kind: 'failed', firstByteMs: null } };
    endWithStreamError(ctx.request.res, 'internal_error', '', ctx.request.requestId);
    return { kind: 'final', outcome: { ...base, kind: 'broken', clientAborted: false, firstByteMs: null } };
  }
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
