/**
 * A streamed answer, passed on event by event with no buffering: every upstream chunk is decoded,
 * the translation's reader learns what each event means (usage, generated text, the end, an
 * error), its shaper writes the client's events at once, and the headers go out with the first
 * event worth sending. Until the first write the attempt can still fail over; after it, any break
 * ends the stream with an error event in the client's format and no end marker.
 */
import { channelSecrets, redactSecrets, type SseItem } from '../../contract/index.ts';
import type { Translation } from './formats/translation.ts';
import { elapsedMs, estimatedCutLimit, estimatedUsage, next, NO_USAGE, type AttemptContext, type AttemptResult, type FailoverCode } from './attempt.ts';
import { estimateTokensOfChars } from './estimate.ts';
import type { RelayUsage } from './types.ts';
import { clientGone } from './clientGone.ts';
import { classifyFailure as classify, describeFailure as describe } from './failure.ts';
import type { Watchdog } from './watchdog.ts';
import { endWithStreamError, startEventStream, write } from './respond.ts';
import { SseDecoder, SseTooLargeError } from '../../wire/sse.ts';
import { closedItems } from './sse.ts';
import type { UpstreamStream } from './streamExchange.ts';
import { unreadableAnswer, type UpstreamFormat } from './formats/types.ts';

/** The event that ends a whole stream, by upstream format (named in the error when a stream stops short of it). */
const END_MARKER: Readonly<Record<UpstreamFormat, string>> = { chat: '[DONE]', completion: '[DONE]', embedding: '[DONE]', image: '[DONE]', messages: 'message_stop', responses: 'response.completed' };

interface Problem {
  readonly code: FailoverCode;
  readonly detail: string;
  /** Not worth another channel (an event the gateway could not read): answered as it is, no failover. */
  readonly final?: boolean;
}

export async function relayStream(
  ctx: AttemptContext,
  body: UpstreamStream,
  watchdog: Watchdog,
  controller: AbortController,
  translation: Translation,
): Promise<AttemptResult> {
  const { request, channel } = ctx;
  const { res } = request;
  const decoder = new SseDecoder(ctx.deps.limits.sseChars);
  const reader = translation.reader();
  const shaper = translation.shaper(request);
  let firstByteMs: number | null = null;
  let done = false;
  const usage = () => reader.usage() ?? estimatedUsage(request, reader.generatedChars);
  /** Set when the gateway ended the answer at its cap (the upstream streamed well past it): what it is charged. */
  let cutUsage: RelayUsage | null = null;
  const cutAt = cutLimitOf(request);

  /** The stream cannot go on: fail over if nothing was sent yet (unless `final`), else end it visibly broken. */
  const fail = (code: FailoverCode, said: string, final = false): AttemptResult => {
    const detail = redactSecrets(said, channelSecrets(channel));
    if (firstByteMs === null && final) return { kind: 'final', outcome: { kind: 'failed', code, detail, channel: channel.name, firstByteMs: null, usage: NO_USAGE } };
    if (firstByteMs === null) return next(code, detail);
    controller.abort();
    endWithStreamError(request, code, detail);
    return { kind: 'final', outcome: { kind: 'broken', code, detail, clientAborted: false, channel: channel.name, firstByteMs, usage: usage() } };
  };

  /**
   * Turns decoded items into the text to send; returns a failure when an item breaks the stream. An event the
   * converters cannot read ends the stream as the upstream's fault, after what came before it in the same batch.
   */
  const translate = (items: readonly SseItem[]): { out: string; problem?: Problem } => {
    const sent = { out: '' };
    try {
      return translateItems(items, sent);
    } catch (error) {
      const unreadable = unreadableAnswer(error);
      if (unreadable === null) throw error;
      ctx.deps.onFault?.(error, request.requestId);
      return { out: sent.out, problem: { code: 'upstream_error', detail: unreadable, final: true } };
    }
  };

  const translateItems = (items: readonly SseItem[], sent: { out: string }): { out: string; problem?: Problem } => {
    let out = '';
    for (const item of items) {
      if (item.type === 'comment') {
        // Keep-alives matter once the client is waiting on us; before that they would only commit us early.
        if (firstByteMs !== null || out) out += `:${item.text}\n\n`;
        continue;
      }
      const read = reader.read(item.event, item.data);
      if (read.kind === 'problem') return { out, problem: { code: 'upstream_error', detail: read.detail } };
      if (read.kind === 'skip') continue;
      if (read.event) out += shaper.event(read.event);
      sent.out = out;
      if (read.kind === 'end') {
        done = true;
        out += shaper.finish(usage());
        break;
      }
      if (cutAt !== null && estimateTokensOfChars(reader.generatedChars) > cutAt.limit) {
        // The upstream ignores the cap it was sent: end the answer at the length limit, as it should have.
        done = true;
        cutUsage = { ...usage(), completionTokens: cutAt.cap, estimated: true };
        for (const event of reader.cutEvents(cutUsage)) out += shaper.event(event);
        out += shaper.finish(cutUsage);
        break;
      }
    }
    return { out };
  };

  const send = async (out: string): Promise<boolean> => {
    if (firstByteMs === null) {
      startEventStream(request);
      firstByteMs = elapsedMs(ctx.startedAt);
    }
    const written = write(res, out);
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
    for await (const bytes of body) {
      watchdog.arm(channel.timeouts.idleMs);
      // After the end the answer is complete; reading the rest keeps the upstream connection reusable.
      if (done) continue;
      const { out, problem } = translate(decoder.push(bytes));
      if ((out || done) && !(await send(out))) {
        controller.abort();
        return clientGone(ctx, usage(), firstByteMs);
      }
      // Judged after sending what came before it: whether we may still fail over depends on it.
      if (problem) return fail(problem.code, problem.detail, problem.final);
      if (cutUsage) {
        controller.abort();
        break;
      }
    }
    if (!done) {
      // Only a final event that lacked its blank line can complete here.
      const closing = translate(closedItems(decoder.end()));
      const { problem } = closing;
      let { out } = closing;
      if (!done && !problem && reader.complete()) {
        // Finish reason and usage came, only the end marker did not: a whole answer, ended for the client as it should be.
        done = true;
        out += shaper.finish(usage());
      }
      if ((out || done) && !(await send(out))) return clientGone(ctx, usage(), firstByteMs);
      if (problem) return fail(problem.code, problem.detail, problem.final);
    }
  } catch (err) {
    if (err instanceof SseTooLargeError) return fail('upstream_error', `upstream stream refused: ${err.message}`);
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
    return fail('upstream_error', `upstream stream ended before its end (${END_MARKER[translation.upstream]})`);
  }
  const success = { kind: 'success', status: 200, channel: channel.name, firstByteMs: firstByteMs ?? elapsedMs(ctx.startedAt) } as const;
  return { kind: 'final', outcome: cutUsage ? { ...success, usage: cutUsage, cutAtCap: true } : { ...success, usage: usage() } };
}

/**
 * When a stream has gone well past the cap it was sent: its text, at four characters a token, is
 * twice the cap and more. The room is for the estimate's error (indented code runs to six characters
 * a token): an answer within its cap is never cut, and an upstream that ignores the cap is stopped
 * at about twice it instead of running on. Null when nothing is capped, or for several choices at
 * once (their text is not told apart here).
 */
function cutLimitOf(request: AttemptContext['request']): { cap: number; limit: number } | null {
  const cap = request.maxCompletionTokens;
  if (cap === null) return null;
  if ((request.choices ?? 1) > 1) return null;
  return { cap, limit: estimatedCutLimit(cap) };
}
