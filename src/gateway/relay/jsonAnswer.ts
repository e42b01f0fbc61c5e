/**
 * A non-streamed answer: read the upstream's JSON, take its usage, write it in the client's format.
 * The body is parsed once (usage must be read) and, when both sides speak the same format, not
 * re-serialised: unchanged bytes go out as they came, or only the `model` value is spliced
 * (see modelName.ts).
 */
import { errorMessageOf, channelSecrets, redactSecrets } from '../../contract/index.ts';
import { cutAnswer } from './formats/cutAnswer.ts';
import { formatToolName } from './formats/chatMessages/jsonFormat.ts';
import { answerWithCost } from './formats/cost.ts';
import { parseObject } from './formats/openaiStream.ts';
import type { Translation } from './formats/translation.ts';
import { unreadableAnswer } from './formats/types.ts';
import { estimatedCutLimit, estimatedUsage, elapsedMs, next, NO_USAGE, type AttemptContext, type AttemptResult } from './attempt.ts';
import { clientGone } from './clientGone.ts';
import { writeJson } from './respond.ts';

/** A complete 2xx answer (collected by exchangeJson): its usage taken, written to the client in its format. */
export function answerJson(ctx: AttemptContext, bytes: Buffer, translation: Translation): AttemptResult {
  try {
    return answerReadable(ctx, bytes, translation);
  } catch (error) {
    const unreadable = unreadableAnswer(error);
    if (unreadable === null || ctx.request.res.headersSent) throw error;
    // The upstream's answer, or a fault of ours on it: a 502 without trying the other channels (nor holding it against
    // this one's health), and the stack in the operator's log.
    ctx.deps.onFault?.(error, ctx.request.requestId);
    return { kind: 'final', outcome: { kind: 'failed', code: 'upstream_error', detail: redactSecrets(unreadable, channelSecrets(ctx.channel)), channel: ctx.channel.name, firstByteMs: null, usage: NO_USAGE } };
  }
}

function answerReadable(ctx: AttemptContext, bytes: Buffer, translation: Translation): AttemptResult {
  const { request, channel } = ctx;
  const raw = bytes.toString('utf8');
  const parsed = parseObject(raw);
  // A client gone while the answer came: the upstream did the whole work, and says what it was.
  if (request.signal.aborted) return clientGone(ctx, (parsed && translation.answerUsage(parsed, request)) || estimatedUsage(request, 0));
  if (!parsed) return next('upstream_error', 'upstream answer is not JSON');
  if (parsed['error'] !== undefined && parsed['error'] !== null) return next('upstream_error', redactSecrets(`upstream error: ${errorMessageOf(parsed) ?? JSON.stringify(parsed['error'])}`, channelSecrets(channel)));
  const usage = translation.answerUsage(parsed, request);
  if (usage === null) return next('upstream_error', `upstream answer is not a ${translation.upstream} answer`);
  const success = { kind: 'success', status: 200, channel: channel.name, firstByteMs: elapsedMs(ctx.startedAt) } as const;
  // An upstream that ignored the cap it was sent: the answer is cut to the cap, which holds for each of its choices
  // (the reservation covers them all). Its own count says so; an estimate (an answer without usage), only past
  // twice the cap, as a stream's (streamAnswer.ts): the room is for the estimate's error.
  const cap = request.maxCompletionTokens === null ? null : request.maxCompletionTokens * (request.choices ?? 1);
  const past = cap !== null && (usage.estimated ? usage.completionTokens > estimatedCutLimit(cap) : usage.completionTokens > cap);
  // A JSON format asked of a Messages upstream is the answer's text there (formats/chatMessages/jsonFormat.ts): cut as text.
  const formatTool = translation.upstream === 'messages' ? formatToolName(request) : null;
  const cut = past && cap !== null ? cutAnswer(translation.upstream, parsed, usage.completionTokens, cap, formatTool) : null;
  if (cut && cap !== null) {
    const capped = { ...usage, completionTokens: cap };
    const text = JSON.stringify(cut);
    const { body, headers } = answerWithCost(request, capped, translation.answer(text, cut, request, capped), text);
    writeJson(request, 200, body, headers);
    return { kind: 'final', outcome: { ...success, usage: capped, cutAtCap: true } };
  }
  const { body, headers } = answerWithCost(request, usage, translation.answer(raw, parsed, request, usage), raw, bytes);
  writeJson(request, 200, body, headers);
  return { kind: 'final', outcome: { ...success, usage } };
}
