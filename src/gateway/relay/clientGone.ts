/** The client went away (or the gateway is stopping) during an attempt. */
import type { FinalResult, AttemptContext } from './attempt.ts';
import { endWithStreamError } from './respond.ts';
import type { RelayOutcome, RelayUsage } from './types.ts';

/** The client went away: nothing more to write; report what the upstream generated so far. */
export function clientGone(ctx: AttemptContext, usage: RelayUsage, firstByteMs: number | null = null): FinalResult {
  const { res } = ctx.request;
  // Usually the socket is already gone; if the abort came from a server stop instead, a
  // started stream still gets its error event (and no [DONE]).
  if (!res.headersSent) res.destroy();
  else endWithStreamError(ctx.request, 'upstream_error', 'request aborted');
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
