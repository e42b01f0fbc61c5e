/**
 * A non-streamed answer: read the upstream's JSON, take its usage, put the platform's
 * model name in, write it. The body is parsed once (usage must be read) and, in the
 * common cases, not re-serialised: unchanged bytes go out as they came, or only the
 * `model` value is spliced (see modelName.ts).
 */
import { errorMessageOf } from '../../../contract/index.ts';
import { estimatedUsage, elapsedMs, next, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { clientGone } from '../../relay/clientGone.ts';
import { generatedChars } from '../../relay/estimate.ts';
import { withPlatformModel } from '../../relay/modelName.ts';
import { writeJson } from '../../relay/respond.ts';
import type { RelayUsage } from '../../relay/types.ts';

/** A complete 2xx answer (collected by exchangeJson): its usage taken, written to the client with the platform's model name. */
export function answerJson(ctx: AttemptContext, bytes: Buffer): AttemptResult {
  const { request, channel } = ctx;
  if (request.signal.aborted) return clientGone(ctx, estimatedUsage(request, 0));

  const raw = bytes.toString('utf8');
  let parsed: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(raw);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    parsed = value as Record<string, unknown>;
  } catch {
    return next('upstream_error', 'upstream answer is not JSON');
  }
  if (parsed['error'] !== undefined && parsed['error'] !== null) return next('upstream_error', `upstream error: ${errorMessageOf(parsed) ?? JSON.stringify(parsed['error'])}`);
  const usage = usageOfAnswer(request, parsed);
  if (usage === null) return next('upstream_error', `upstream answer has no ${request.operation === 'chat' || request.operation === 'completion' ? 'choices' : 'data'}`);
  const text = withPlatformModel(raw, parsed, request.model);
  writeJson(request.res, request.requestId, 200, text === raw ? bytes : text);
  return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs: elapsedMs(ctx.startedAt), usage } };
}

/**
 * What an answer of the request's operation costs: its reported usage (estimated when absent), or
 * for images the number delivered; null when the answer lacks what its operation must carry.
 */
function usageOfAnswer(request: AttemptContext['request'], answer: Record<string, unknown>): RelayUsage | null {
  const items = request.operation === 'chat' || request.operation === 'completion' ? answer['choices'] : answer['data'];
  if (!Array.isArray(items)) return null;
  switch (request.operation) {
    case 'image':
      return { promptTokens: 0, completionTokens: 0, estimated: false, images: items.length };
    case 'embedding':
      return inputUsageOf(answer['usage']) ?? estimatedUsage(request, 0);
    default:
      return usageOf(answer['usage']) ?? estimatedUsage(request, items.reduce((n: number, c: { message?: unknown } | null) => n + generatedChars(c?.message ?? c), 0));
  }
}

/** An embeddings answer's usage: input tokens only. */
function inputUsageOf(value: unknown): RelayUsage | null {
  const promptTokens = value !== null && typeof value === 'object' ? (value as { prompt_tokens?: unknown }).prompt_tokens : undefined;
  return isCount(promptTokens) ? { promptTokens, completionTokens: 0, estimated: false } : null;
}

/** The upstream's usage, when it reported a usable one. */
export function usageOf(value: unknown): RelayUsage | null {
  if (value === null || typeof value !== 'object') return null;
  const u = value as { prompt_tokens?: unknown; completion_tokens?: unknown };
  if (!isCount(u.prompt_tokens) || !isCount(u.completion_tokens)) return null;
  return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, estimated: false };
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}
