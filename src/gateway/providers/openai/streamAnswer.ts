/**
 * A streamed answer, passed through event by event with no buffering: every upstream
 * chunk is decoded, each event it completes is (re)written at once, and the headers go
 * out with the first event worth sending. Per event we parse just enough to put the
 * platform's model name in, capture usage, drop the usage-only chunk the client did not
 * ask for, and count generated text for an estimate. Until the first write the attempt
 * can still fail over; after it, any break ends the stream with an SSE error event and
 * no [DONE].
 */
import type { Dispatcher } from 'undici';
import type { ErrorCode } from '../../../contract/index.ts';
import { elapsedMs, estimatedUsage, next, type AttemptContext, type AttemptResult, type FailoverCode } from '../../relay/attempt.ts';
import { clientGone } from '../../relay/clientGone.ts';
import { generatedChars } from '../../relay/estimate.ts';
import { classifyFailure as classify, describeFailure as describe } from '../../relay/failure.ts';
import { withPlatformModel } from '../../relay/modelName.ts';
import type { Watchdog } from '../../relay/watchdog.ts';
import { usageOf } from './jsonAnswer.ts';
import { endWithStreamError, SSE_DONE, startEventStream, write } from '../../relay/respond.ts';
import { errorMessageOf, type SseItem } from '../../../contract/index.ts';
import { SseDecoder } from '../../../wire/sse.ts';
import { closedItems } from '../../relay/sse.ts';
import type { RelayUsage } from '../../relay/types.ts';

interface Problem {
  readonly code: FailoverCode;
  readonly detail: string;
}

export async function relayStream(
  ctx: AttemptContext,
  body: Dispatcher.ResponseData['body'],
  watchdog: Watchdog,
  controller: AbortController,
): Promise<AttemptResult> {
  const { request, channel } = ctx;
  const { res } = request;
  const decoder = new SseDecoder();
  let firstByteMs: number | null = null;
  let upstreamUsage: RelayUsage | null = null;
  let completionChars = 0;
  let done = false;
  const usage = () => upstreamUsage ?? estimatedUsage(request, completionChars);

  /** The stream cannot go on: fail over if nothing was sent yet, else end it visibly broken. */
  const fail = (code: FailoverCode, detail: string): AttemptResult => {
    if (firstByteMs === null) return next(code, detail);
    controller.abort();
    endWithStreamError(res, code as ErrorCode, detail, request.requestId);
    return { kind: 'final', outcome: { kind: 'broken', code, detail, clientAborted: false, channel: channel.name, firstByteMs, usage: usage() } };
  };

  /** Turns decoded items into the text to send; returns a failure when an item breaks the stream. */
  const translate = (items: readonly SseItem[]): { out: string; problem?: Problem } => {
    let out = '';
    for (const item of items) {
      if (item.type === 'comment') {
        // Keep-alives matter once the client is waiting on us; before that they would only commit us early.
        if (firstByteMs !== null || out) out += `:${item.text}\n\n`;
        continue;
      }
      if (item.data === '[DONE]') {
        done = true;
        break;
      }
      // An empty `data:` carries nothing (some servers use it as a keep-alive).
      if (item.data.trim() === '') continue;
      let chunk: Record<string, unknown>;
      try {
        const value: unknown = JSON.parse(item.data);
        if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
        chunk = value as Record<string, unknown>;
      } catch {
        return { out, problem: { code: 'upstream_error', detail: 'upstream sent a malformed event' } };
      }
      if (item.event === 'error' || (chunk['error'] !== undefined && chunk['error'] !== null)) {
        return { out, problem: { code: 'upstream_error', detail: `upstream error: ${errorMessageOf(chunk) ?? JSON.stringify(chunk['error'] ?? chunk)}` } };
      }
      const reported = usageOf(chunk['usage']);
      if (reported) upstreamUsage = reported;
      const choices = chunk['choices'];
      if (Array.isArray(choices)) {
        for (const choice of choices) completionChars += generatedChars((choice as { delta?: unknown } | null)?.delta ?? choice);
      }
      if (reported && !request.clientWantsUsage) {
        if (!Array.isArray(choices) || choices.length === 0) continue;
        delete chunk['usage'];
        out += `data: ${withPlatformModel(JSON.stringify(chunk), chunk, request.model)}\n\n`;
        continue;
      }
      out += `data: ${withPlatformModel(item.data, chunk, request.model)}\n\n`;
    }
    return { out };
  };

  const send = async (out: string): Promise<boolean> => {
    if (firstByteMs === null) {
      startEventStream(res, request.requestId);
      firstByteMs = elapsedMs(ctx.startedAt);
    }
    const written = write(res, done ? out + SSE_DONE : out);
    let ok = written === true;
    if (written !== true && written !== false) {
      // A slow client is not a silent upstream: the idle clock stops while we wait for it.
      watchdog.clear();
      ok = await written;
      watchdog.arm(channel.timeouts.idleMs);
    }
    if (ok && done) res.end();
    return ok;
  };

  try {
    for await (const bytes of body as AsyncIterable<Buffer>) {
      watchdog.arm(channel.timeouts.idleMs);
      // After [DONE] the answer is complete; reading the rest keeps the upstream connection reusable.
      if (done) continue;
      const { out, problem } = translate(decoder.push(bytes));
      if ((out || done) && !(await send(out))) {
        controller.abort();
        return clientGone(ctx, usage(), firstByteMs);
      }
      // Judged after sending what came before it: whether we may still fail over depends on it.
      if (problem) return fail(problem.code, problem.detail);
    }
    if (!done) {
      // Only a final [DONE] that lacked its blank line can complete here.
      const { out, problem } = translate(closedItems(decoder.end()));
      if ((out || done) && !(await send(out))) return clientGone(ctx, usage(), firstByteMs);
      if (problem) return fail(problem.code, problem.detail);
    }
  } catch (err) {
    if (!done) {
      const kind = classify(err, controller.signal, request.signal);
      if (kind === 'client') return clientGone(ctx, usage(), firstByteMs);
      if (kind === 'timeout') return fail('upstream_timeout', firstByteMs === null ? 'no first event in time' : `upstream silent for ${channel.timeouts.idleMs} ms`);
      return fail(firstByteMs === null ? 'upstream_unavailable' : 'upstream_error', `upstream stream failed: ${describe(err)}`);
    }
  } finally {
    watchdog.clear();
  }
  if (!done) {
    if (request.signal.aborted) return clientGone(ctx, usage(), firstByteMs);
    return fail('upstream_error', 'upstream stream ended without [DONE]');
  }
  return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs: firstByteMs ?? elapsedMs(ctx.startedAt), usage: usage() } };
}
