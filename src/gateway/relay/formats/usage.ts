/**
 * Usage in each format, to and from the relay's one shape (RelayUsage). `promptTokens` counts every
 * input token, cached ones included (OpenAI's `prompt_tokens`); Anthropic counts cache reads and
 * writes apart from `input_tokens`, so they are added in and split out again on the way back.
 */
import type { RelayUsage } from '../types.ts';

/**
 * The most tokens an upstream may report for one request: far above any real one, and low enough that a
 * count, the tally's hourly sums and the cost it prices stay exact integers in every store. An answer
 * claiming more (1e30 would reach PostgreSQL as "1e+30" and fail the log batch, every charge in it with
 * it) has its usage estimated, as when it says none.
 */
export const MAX_REPORTED_TOKENS = 1_000_000_000;

export function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_REPORTED_TOKENS;
}

function countOr0(n: unknown): number {
  return isCount(n) ? n : 0;
}

/**
 * An OpenAI `usage` (chat, completions), when it is a usable one. Cache reads are `prompt_tokens_details.cached_tokens`,
 * or DeepSeek's own `prompt_cache_hit_tokens` (its answers carry no cached_tokens).
 */
export function openaiUsage(value: unknown): RelayUsage | null {
  if (value === null || typeof value !== 'object') return null;
  const u = value as {
    prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown } | null;
    completion_tokens_details?: { reasoning_tokens?: unknown } | null; prompt_cache_hit_tokens?: unknown;
  };
  const cached = isCount(u.prompt_tokens_details?.cached_tokens) ? u.prompt_tokens_details.cached_tokens : u.prompt_cache_hit_tokens;
  return countedUsage(u.prompt_tokens, u.completion_tokens, cached, u.completion_tokens_details?.reasoning_tokens);
}

/** Input (cached ones included), output, cached input and reasoning counts as the relay's usage; null unless the first two are counts. */
function countedUsage(input: unknown, output: unknown, cachedInput: unknown, reasoning?: unknown): RelayUsage | null {
  if (!isCount(input) || !isCount(output)) return null;
  const cached = countOr0(cachedInput);
  const thought = countOr0(reasoning);
  return {
    promptTokens: input, completionTokens: output, estimated: false,
    ...(cached > 0 ? { cacheReadTokens: Math.min(cached, input) } : {}),
    ...(thought > 0 ? { reasoningTokens: Math.min(thought, output) } : {}),
  };
}

/** A Responses `usage` (input_tokens counts cached ones too, as OpenAI's prompt_tokens does; reasoning is in output_tokens). */
export function responsesUsage(value: unknown): RelayUsage | null {
  if (value === null || typeof value !== 'object') return null;
  const u = value as {
    input_tokens?: unknown; output_tokens?: unknown; input_tokens_details?: { cached_tokens?: unknown } | null;
    output_tokens_details?: { reasoning_tokens?: unknown } | null;
  };
  return countedUsage(u.input_tokens, u.output_tokens, u.input_tokens_details?.cached_tokens, u.output_tokens_details?.reasoning_tokens);
}

/** An embeddings answer's usage: input tokens only. */
export function inputUsage(value: unknown): RelayUsage | null {
  const promptTokens = value !== null && typeof value === 'object' ? (value as { prompt_tokens?: unknown }).prompt_tokens : undefined;
  return isCount(promptTokens) ? { promptTokens, completionTokens: 0, estimated: false } : null;
}

/**
 * An Anthropic `usage` (an answer's, or a stream's message_start / message_delta), when it says the input: in itself,
 * or in `base` (message_start's, for a message_delta). A message_delta's counts are cumulative, so each is the larger
 * of its own and message_start's (some servers put 0 there as a placeholder). No Messages request has no input: a usage
 * without an input count, or with 0 in all of them, is null, so that it is estimated, never a prompt charged as nothing.
 */
export function messagesUsage(value: unknown, base?: RelayUsage | null): RelayUsage | null {
  if (value === null || typeof value !== 'object') return null;
  const u = value as { input_tokens?: unknown; output_tokens?: unknown; cache_read_input_tokens?: unknown; cache_creation_input_tokens?: unknown };
  if (!isCount(u.input_tokens) && (!base || !isCount(u.output_tokens))) return null;
  const read = Math.max(countOr0(u.cache_read_input_tokens), base?.cacheReadTokens ?? 0);
  const write = Math.max(countOr0(u.cache_creation_input_tokens), base?.cacheWriteTokens ?? 0);
  const input = Math.max(isCount(u.input_tokens) ? u.input_tokens + read + write : 0, base?.promptTokens ?? 0);
  if (input === 0) return null;
  const usage: RelayUsage = { promptTokens: input, completionTokens: Math.max(countOr0(u.output_tokens), base?.completionTokens ?? 0), estimated: false };
  return { ...usage, ...(read > 0 ? { cacheReadTokens: read } : {}), ...(write > 0 ? { cacheWriteTokens: write } : {}) };
}

/** The relay's usage as OpenAI writes it. */
export function toOpenaiUsage(usage: RelayUsage): Record<string, unknown> {
  const body: Record<string, unknown> = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
  if (usage.cacheReadTokens) body['prompt_tokens_details'] = { cached_tokens: usage.cacheReadTokens };
  if (usage.reasoningTokens) body['completion_tokens_details'] = { reasoning_tokens: usage.reasoningTokens };
  return body;
}

/** The relay's usage as Anthropic writes it: uncached input apart from cache reads and writes. */
export function toMessagesUsage(usage: RelayUsage): Record<string, number> {
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.promptTokens - read - write),
    output_tokens: usage.completionTokens,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: write,
  };
}
