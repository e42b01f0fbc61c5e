/**
 * A chat completion as a Responses answer: output items (reasoning, the assistant message, function
 * calls, in that order), status `completed` or `incomplete` (the cap was reached), and usage in the
 * Responses shape. Served statelessly: nothing is stored under the response id.
 */
import { chatTextOf } from '../chatText.ts';
import { encryptedContentOf, signedThinkingOf, type ThinkingBlock } from '../thinkingBlocks.ts';
import type { RelayRequest, RelayUsage } from '../../types.ts';
import { toolNamesOf, type ToolName } from './toolNames.ts';
import { argumentsOf, toolCallsOf } from '../chatToolCalls.ts';

type Json = Record<string, unknown>;

const asText = (v: unknown): string => (typeof v === 'string' ? v : '');

export function toResponsesUsage(usage: RelayUsage): Json {
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

/** The response object around `output`: what every Responses answer and stream event carries. */
export function responseEnvelope(request: RelayRequest, id: string, createdAt: number, status: string, output: Json[], usage: RelayUsage | null, finish: string | null): Json {
  const body = request.body as Json;
  const incomplete = status === 'incomplete' ? { reason: finish === 'content_filter' ? 'content_filter' : 'max_output_tokens' } : null;
  return {
    id, object: 'response', created_at: createdAt, status, error: null, incomplete_details: incomplete,
    instructions: body['instructions'] ?? null, max_output_tokens: body['max_output_tokens'] ?? null, model: request.model,
    output, parallel_tool_calls: body['parallel_tool_calls'] ?? true, previous_response_id: null,
    temperature: body['temperature'] ?? null, tool_choice: body['tool_choice'] ?? 'auto', tools: body['tools'] ?? [], top_p: body['top_p'] ?? null,
    store: false, usage: usage ? toResponsesUsage(usage) : null,
  };
}

/** The status a chat finish_reason ends a response with. */
export function statusOfFinish(finish: string | null): 'completed' | 'incomplete' {
  return finish === 'length' || finish === 'content_filter' ? 'incomplete' : 'completed';
}

/** A reasoning item; an Anthropic model's signed thinking goes as its encrypted_content, to come back next turn. */
export function reasoningItem(id: string, text: string, thinking: readonly ThinkingBlock[] = []): Json {
  const encrypted = thinking.length > 0 ? { encrypted_content: encryptedContentOf(thinking) } : {};
  return { type: 'reasoning', id, summary: [{ type: 'summary_text', text }], ...encrypted };
}

export function messageItem(id: string, text: string, status = 'completed'): Json {
  return { type: 'message', id, status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

/**
 * A call of `tool` (its namespace too, for a namespaced one: the client routes the call by it). A freeform tool's
 * call is a custom_tool_call with its raw text, `input`, out of the one argument its chat function had.
 */
export function functionCallItem(id: string, callId: string, tool: ToolName, args: string, status = 'completed'): Json {
  const namespace = tool.namespace ? { namespace: tool.namespace } : {};
  if (tool.custom) return { type: 'custom_tool_call', id, call_id: callId, name: tool.name, ...namespace, input: customInputOf(args), status };
  return { type: 'function_call', id, call_id: callId, name: tool.name, ...namespace, arguments: args, status };
}

/** A freeform call's text from its chat arguments ({"input": "..."}); arguments that are not that JSON, as they came. */
export function customInputOf(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    const input = (parsed as { input?: unknown } | null)?.input;
    return typeof input === 'string' ? input : args;
  } catch {
    return args;
  }
}

export function chatAnswerToResponses(answer: Json, request: RelayRequest, usage: RelayUsage): Json {
  const choice = ((answer['choices'] as Json[] | undefined) ?? [])[0] ?? {};
  const message = (choice['message'] ?? {}) as Json;
  const base = asText(answer['id']) || request.requestId;
  const output: Json[] = [];
  const names = toolNamesOf(request.operation === 'responses' ? request.body.tools : undefined);
  const { text, reasoning } = chatTextOf(message);
  const thinking = signedThinkingOf(message['thinking_blocks']);
  if (reasoning || thinking.length > 0) output.push(reasoningItem(`rs_${base}`, reasoning, thinking));
  if (text) output.push(messageItem(`msg_${base}`, text));
  for (const [i, call] of toolCallsOf(message).entries()) {
    const fn = (call['function'] ?? {}) as Json;
    // A call needs an id: the client answers it by that (a legacy function_call has none).
    output.push(functionCallItem(`fc_${base}_${i}`, asText(call['id']) || `call_${base}_${i}`, names.fromChat(asText(fn['name'])), argumentsOf(fn)));
  }
  const finish = asText(choice['finish_reason']) || null;
  const status = statusOfFinish(finish);
  // The item the cap cut off is as incomplete as the response.
  const last = output.at(-1);
  if (status === 'incomplete' && last && last['type'] !== 'reasoning') last['status'] = 'incomplete';
  return responseEnvelope(request, `resp_${base}`, Math.floor(Date.now() / 1000), status, output, usage, finish);
}
