/**
 * OpenAI-compatible chat completions (contract 4.3), as zod schemas.
 * Objects are loose: fields we do not use (tools, temperature, logprobs, ...)
 * pass through untouched in both directions.
 */
import { z } from 'zod';
import { ModelName } from './kinds.ts';
import { MAX_REQUEST_LIST } from './values.ts';
import { listOf } from './lists.ts';

/** Text, or OpenAI's array of content parts; null is legal on assistant turns that only call tools. */
export const MessageContent = z.union([z.string(), listOf(z.looseObject({ type: z.string() }), MAX_REQUEST_LIST), z.null()]);

export const ChatMessage = z.looseObject({
  role: z.string().min(1),
  content: MessageContent.optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatRequest = z.looseObject({
  model: ModelName,
  messages: listOf(ChatMessage, MAX_REQUEST_LIST, 1),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  /** Choices to generate, each up to the cap (reserved for all): OpenAI's bounds. */
  n: z.number().int().min(1).max(128).nullish(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

export const Usage = z.looseObject({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof Usage>;

export const ToolCall = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
});

/** `index` may be missing: Gemini's OpenAI-compatible API streams each call whole without one (clients then tell calls apart by id). */
export const ToolCallDelta = ToolCall.extend({ index: z.number().int().nonnegative().nullish() });

/** What an assistant message and a streamed delta both carry: the answer and, from reasoning models, its reasoning. */
const assistantText = {
  content: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  reasoning: z.string().nullish(),
};

/** The reasoning text of a message or delta: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter); '' when none. */
export function reasoningTextOf(part: { readonly reasoning_content?: unknown; readonly reasoning?: unknown }): string {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return text(part.reasoning_content) || text(part.reasoning);
}

/** The fields an answer and each of its stream chunks both carry. */
const answerEnvelope = {
  id: z.string().optional(),
  object: z.string().optional(),
  created: z.number().optional(),
  model: z.string().optional(),
};

export const ChatCompletion = z.looseObject({
  ...answerEnvelope,
  choices: z.array(
    z.looseObject({
      index: z.number().int().optional(),
      message: z.looseObject({ ...assistantText, role: z.string().optional(), tool_calls: z.array(ToolCall).nullish() }),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: Usage.nullish(),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

export const ChatCompletionChunk = z.looseObject({
  ...answerEnvelope,
  choices: z.array(
    z.looseObject({
      index: z.number().int().optional(),
      delta: z
        .looseObject({ ...assistantText, role: z.string().nullish(), tool_calls: z.array(ToolCallDelta).nullish() })
        .optional(),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: Usage.nullish(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;
