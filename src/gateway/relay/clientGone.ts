/** The client went away (or the gateway is stopping) during an attempt. */
import type { FinalResult, AttemptContext } from './attempt.ts';
import { endWithStreamError } from './respond.ts';
import type { RelayOutcome, RelayUsage } from './types.ts';

/** The reason the gateway aborts the requests still in flight when its stop grace is over. */
export const GATEWAY_STOPPING = new Error('gateway stopping');

/** The client went away: nothing more to write; report what the upstream generated so far. */
export function clientGone(ctx: AttemptContext, usage: RelayUsage, firstByteMs: number | null = null): FinalResult {
  const { res } = ctx.request;
  // The gateway stopping (its grace over) is no client gone: the client is told so, and the log says it.
  const stopping = ctx.request.signal.reason === GATEWAY_STOPPING;
  // Usually the socket is already gone; if the abort came from a server stop instead, a
  // started stream still gets its error event (and no [DONE]).
  if (!res.headersSent) res.destroy();
  else endWithStreamError(ctx.request, stopping ? 'gateway_stopping' : 'upstream_error', stopping ? 'the gateway stopped before the answer ended' : 'request aborted');
  const outcome: RelayOutcome = {
    kind: 'broken',
    code: stopping ? 'gateway_stopping' : 'upstream_error',
    detail: stopping ? 'the gateway stopped before the answer ended (its stop grace was over)' : 'client closed the connection',
    clientAborted: !stopping,
    channel: ctx.channel.name,
    firstByteMs,
    usage,
  };
  return { kind: 'final', outcome };
}
