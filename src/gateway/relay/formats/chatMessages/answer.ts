/**
 * Whole (non-streamed) answers between chat completions and Messages, both ways: text, reasoning
 * (thinking blocks), tool calls, the stop reason, and usage (cache reads and writes included).
 * No empty text block is produced.
 */
import { FINISH_OF_STOP_REASON, STOP_REASON_OF_FINISH } from '../../../../contract/index.ts';
import { signedThinkingOf } from '../thinkingBlocks.ts';
import { chatTextOf } from '../chatText.ts';
import type { RelayUsage } from '../../types.ts';
import { toMessagesUsage, toOpenaiUsage } from '../usage.ts';
import { argumentsOf, toolCallsOf } from '../chatToolCalls.ts';
import { nestsDeeperThan } from '../../../../wire/jsonDepth.ts';

type Json = Record<string, unknown>;

const asText = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A tool call's `arguments` text as a Messages `input` object ({} when the model wrote none or no object). */
export function inputOfArguments(text: string): Json {
  if (text.trim() === '') return {};
  // Nested past what can be written again (wire/jsonDepth.ts): kept as the text it is.
  if (nestsDeeperThan(text)) return { arguments: text };
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : { arguments: text };
  } catch {
    return { arguments: text };
  }
}

/** A chat completion as a Messages answer (its first choice: Messages has no `n`). */
export function chatAnswerToMessages(answer: Json, model: string, usage: RelayUsage): Json {
  const choice = ((answer['choices'] as Json[] | undefined) ?? [])[0] ?? {};
  const message = (choice['message'] ?? {}) as Json;
  const content: Json[] = [];
  const { text, reasoning } = chatTextOf(message);
  if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  if (text) content.push({ type: 'text', text });
  const calls = toolCallsOf(message);
  for (const call of calls) {
    const fn = (call['function'] ?? {}) as Json;
    content.push({ type: 'tool_use', id: asText(call['id']) || `toolu_${content.length}`, name: asText(fn['name']), input: inputOfArguments(argumentsOf(fn)) });
  }
  const finish = asText(choice['finish_reason']);
  return {
    id: `msg_${asText(answer['id']) || 'gateway'}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: finish ? stopReasonOf(finish, calls.length > 0) : null,
    stop_sequence: null,
    usage: toMessagesUsage(usage),
  };
}

/**
 * The stop reason of an answer that ended with `finish`. One that called tools is a tool use, whatever finish it
 * came with (Gemini says "stop", some servers "eos"), unless the cap or a filter cut it: Claude Code runs the
 * tools only on tool_use.
 */
export function stopReasonOf(finish: string, calledTools: boolean): string {
  if (calledTools && finish !== 'length' && finish !== 'content_filter') return 'tool_use';
  return STOP_REASON_OF_FINISH[finish] ?? 'end_turn';
}

/**
 * A Messages answer as a chat completion. `formatTool`: the tool the request's JSON format was asked through
 * (jsonFormat.ts), whose call is the answer's content. `keepThinking`: the signed thinking blocks go along in the
 * message's `thinking_blocks`, for a Responses client on the way (thinkingBlocks.ts).
 */
export function messagesAnswerToChat(answer: Json, model: string, usage: RelayUsage, formatTool: string | null = null, keepThinking = false): Json {
  let text = '';
  let reasoning = '';
  /** The format's call, when the model made it: the content, alone (a second call or words around it would spoil the JSON). */
  let formatted: string | null = null;
  const calls: Json[] = [];
  for (const block of (answer['content'] as Json[] | undefined) ?? []) {
    if (block['type'] === 'text') text += asText(block['text']);
    else if (block['type'] === 'thinking') reasoning += asText(block['thinking']);
    else if (block['type'] === 'tool_use' && formatTool !== null && block['name'] === formatTool) formatted ??= JSON.stringify(block['input'] ?? {});
    else if (block['type'] === 'tool_use') {
      calls.push({ id: block['id'], type: 'function', function: { name: block['name'], arguments: JSON.stringify(block['input'] ?? {}) } });
    }
  }
  if (formatted !== null) text = formatted;
  const message: Json = { role: 'assistant', content: calls.length > 0 && !text ? null : text };
  if (reasoning) message['reasoning_content'] = reasoning;
  const thinking = keepThinking ? signedThinkingOf(answer['content']) : [];
  if (thinking.length > 0) message['thinking_blocks'] = thinking;
  if (calls.length > 0) message['tool_calls'] = calls;
  // The format's call alone is an answer that ended, not a call for the client to run.
  const stop = asText(answer['stop_reason']) === 'tool_use' && calls.length === 0 ? 'end_turn' : asText(answer['stop_reason']);
  return {
    id: `chatcmpl-${asText(answer['id']) || 'gateway'}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: FINISH_OF_STOP_REASON[stop] ?? (stop ? 'stop' : null) }],
    usage: toOpenaiUsage(usage),
  };
}
