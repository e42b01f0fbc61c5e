/**
 * A whole answer from an upstream that ignored the cap it was sent (its usage, or the estimate of an answer
 * without one, says more completion tokens than the cap): cut to the cap, in the upstream's format, as if it
 * had kept to it. Everything generated is cut in proportion (cap / what it reported): text, reasoning, tool
 * call arguments (cut JSON, as an upstream stopped mid-call sends); a Messages tool_use, whose input is an
 * object that cannot be cut, is left out. The stop reason says so ("length", "max_tokens", "incomplete"), the
 * usage says the cap. Null when the format has nothing to cut (embeddings, images).
 */
import type { UpstreamFormat } from './types.ts';

type Json = Record<string, unknown>;

/** `formatTool`: the Messages tool a JSON format was asked through (chatMessages/jsonFormat.ts): its call is the answer's text, cut as text. */
export function cutAnswer(format: UpstreamFormat, answer: Json, reported: number, cap: number, formatTool: string | null = null): Json | null {
  const cut = (text: unknown): unknown => (typeof text === 'string' ? text.slice(0, Math.floor(text.length * (cap / reported))) : text);
  if (format === 'chat' || format === 'completion') {
    const choices = (answer['choices'] as Json[] | undefined)?.map((choice) => {
      const message = choice['message'] as Json | undefined;
      return { ...choice, ...(message ? { message: cutChatMessage(message, cut) } : { text: cut(choice['text']) }), finish_reason: 'length' };
    });
    const usage = (answer['usage'] ?? {}) as Json;
    const prompt = typeof usage['prompt_tokens'] === 'number' ? usage['prompt_tokens'] : 0;
    return { ...answer, choices, usage: { ...usage, prompt_tokens: prompt, completion_tokens: cap, total_tokens: prompt + cap } };
  }
  if (format === 'messages') {
    const content = ((answer['content'] as Json[] | undefined) ?? []).flatMap((block): Json[] => {
      if (block['type'] === 'text') return [{ ...block, text: cut(block['text']) }];
      if (block['type'] === 'thinking') return [{ ...block, thinking: cut(block['thinking']) }];
      if (block['type'] === 'tool_use' && formatTool !== null && block['name'] === formatTool) return [{ type: 'text', text: cut(JSON.stringify(block['input'] ?? {})) }];
      return block['type'] === 'tool_use' ? [] : [block];
    });
    return { ...answer, content, stop_reason: 'max_tokens', usage: { ...((answer['usage'] ?? {}) as Json), output_tokens: cap } };
  }
  if (format === 'responses') {
    const output = ((answer['output'] as Json[] | undefined) ?? []).map((item) => cutResponsesItem(item, cut));
    const usage = (answer['usage'] ?? {}) as Json;
    const input = typeof usage['input_tokens'] === 'number' ? usage['input_tokens'] : 0;
    return { ...answer, output, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: { ...usage, output_tokens: cap, total_tokens: input + cap } };
  }
  return null;
}

function cutChatMessage(message: Json, cut: (text: unknown) => unknown): Json {
  const out: Json = { ...message, content: cut(message['content']) };
  for (const field of ['reasoning_content', 'reasoning']) if (typeof message[field] === 'string') out[field] = cut(message[field]);
  const calls = message['tool_calls'];
  if (Array.isArray(calls)) {
    out['tool_calls'] = calls.map((call: Json) => {
      const fn = call?.['function'] as Json | undefined;
      return fn ? { ...call, function: { ...fn, arguments: cut(fn['arguments']) } } : call;
    });
  }
  return out;
}

/** A Responses output item cut: a message's text parts, a call's arguments, a reasoning item's summary and text. */
function cutResponsesItem(item: Json, cut: (text: unknown) => unknown): Json {
  const parts = (list: unknown): unknown => (Array.isArray(list) ? list.map((part: Json) => (typeof part?.['text'] === 'string' ? { ...part, text: cut(part['text']) } : part)) : list);
  if (item['type'] === 'message') return { ...item, content: parts(item['content']), status: 'incomplete' };
  if (item['type'] === 'reasoning') return { ...item, summary: parts(item['summary']), ...(item['content'] ? { content: parts(item['content']) } : {}) };
  if (typeof item['arguments'] === 'string') return { ...item, arguments: cut(item['arguments']), status: 'incomplete' };
  if (typeof item['input'] === 'string') return { ...item, input: cut(item['input']), status: 'incomplete' };
  return item;
}
