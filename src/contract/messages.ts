/**
 * The Anthropic Messages format (POST /v1/messages), as Claude Code and the Anthropic SDKs send it
 * when their base URL points at the gateway. Loose objects: fields we do not use (metadata,
 * thinking, cache_control, betas' new fields) pass through untouched to an `anthropic` channel.
 */
import { z } from 'zod';
import { ERROR_CODES, errorBody, type ErrorCode } from './errors.ts';
import { ModelName } from './kinds.ts';
import { MAX_REQUEST_LIST } from './values.ts';
import { listOf } from './lists.ts';

/** A content block: text, image, tool_use, tool_result, thinking, document, ... (by `type`). */
export const MessagesBlock = z.looseObject({ type: z.string().min(1) });
export type MessagesBlock = z.infer<typeof MessagesBlock>;

/**
 * `system` is a mid-conversation system message (Claude 4.8's; Claude Code since 2.1.154 sends its environment
 * that way): text only, where Anthropic's placement rules allow it, which an `anthropic` channel's upstream enforces.
 */
export const MessagesMessage = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), listOf(MessagesBlock, MAX_REQUEST_LIST)]),
});
export type MessagesMessage = z.infer<typeof MessagesMessage>;

const messagesFields = {
  model: ModelName,
  messages: listOf(MessagesMessage, MAX_REQUEST_LIST, 1),
  system: z.union([z.string(), listOf(MessagesBlock, MAX_REQUEST_LIST)]).optional(),
  tools: listOf(z.looseObject({ name: z.string().min(1) }), MAX_REQUEST_LIST).optional(),
};

export const MessagesRequest = z.looseObject({
  ...messagesFields,
  // Required by the Messages API: the answer's cap in tokens.
  max_tokens: z.number().int().positive(),
  stream: z.boolean().optional(),
  stop_sequences: listOf(z.string(), MAX_REQUEST_LIST).optional(),
});
export type MessagesRequest = z.infer<typeof MessagesRequest>;

/** Anthropic's least `thinking.budget_tokens`; `max_tokens` must be above the budget. */
export const MIN_THINKING_BUDGET = 1024;

/** The thinking budget of a request with extended thinking on (`thinking: {type: "enabled", budget_tokens}`), else null. */
export function thinkingBudgetOf(body: MessagesRequest): number | null {
  const thinking = body['thinking'] as { type?: unknown; budget_tokens?: unknown } | null | undefined;
  return thinking?.type === 'enabled' && typeof thinking.budget_tokens === 'number' ? thinking.budget_tokens : null;
}

/** POST /v1/messages/count_tokens: a Messages request without max_tokens. */
export const CountTokensRequest = z.looseObject(messagesFields);
export type CountTokensRequest = z.infer<typeof CountTokensRequest>;

/** The `anthropic-version` sent to an upstream when the client sent none (the API's stable version). */
export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic's error `type` for an HTTP status, so its SDKs raise the matching error class. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
    case 405:
    case 422:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 408:
    case 504:
      return 'timeout_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** Anthropic's `stop_reason` for an OpenAI `finish_reason`, and back. */
export const STOP_REASON_OF_FINISH: Readonly<Record<string, string>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

export const FINISH_OF_STOP_REASON: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** The contract's error (errors.ts) in Anthropic's shape: `{"type":"error","error":{"type","message"}}`, same status and message. */
export function anthropicErrorBody(code: ErrorCode, requestId: string, detail?: string, details?: Readonly<Record<string, unknown>>): AnthropicErrorBody {
  const { error } = errorBody(code, requestId, detail);
  return { type: 'error', error: { type: anthropicErrorType(ERROR_CODES[code].status), message: error.message, code, ...(details ? { details } : {}) }, request_id: requestId };
}

export interface AnthropicErrorBody {
  type: 'error';
  /** `details`: what Anthropic's SDKs act on, as its API sends it (`error_code` thread_unsupported_request: the SDK goes on without a thread). */
  error: { type: string; message: string; code: string; details?: Readonly<Record<string, unknown>> };
  request_id: string;
}
