/**
 * A whole answer from an upstream that ignored the cap it was sent (its own usage says more completion
 * tokens than the cap): cut to the cap, in the upstream's format, as if it had kept to it. The text is
 * cut in proportion (cap / what it reported), the stop reason says "length", the usage says the cap.
 * Null when the format has no text to cut this way.
 */
import type { UpstreamFormat } from './types.ts';

type Json = Record<string, unknown>;

const cutText = (text: unknown, ratio: number): unknown => (typeof text === 'string' ? text.slice(0, Math.floor(text.length * ratio)) : text);

/** `formatTool`: the Messages tool a JSON format was asked through (chatMessages/jsonFormat.ts): its call is the answer's text, cut as text. */
export function cutAnswer(format: UpstreamFormat, answer: Json, reported: number, cap: number, formatTool: string | null = null): Json | null {
  const ratio = cap / reported;
  if (format === 'chat' || format === 'completion') {
    const choices = (answer['choices'] as Json[] | undefined)?.map((choice) => {
      const message = choice['message'] as Json | undefined;
      return {
        ...choice,
        ...(message ? { message: { ...message, content: cutText(message['content'], ratio) } } : { text: cutText(choice['text'], ratio) }),
        finish_reason: 'length',
      };
    });
    const usage = answer['usage'] as Json;
    const prompt = typeof usage['prompt_tokens'] === 'number' ? usage['prompt_tokens'] : 0;
    return { ...answer, choices, usage: { ...usage, completion_tokens: cap, total_tokens: prompt + cap } };
  }
  if (format === 'messages') {
    const content = (answer['content'] as Json[] | undefined)?.map((block) => {
      if (block['type'] === 'text') return { ...block, text: cutText(block['text'], ratio) };
      if (block['type'] === 'tool_use' && formatTool !== null && block['name'] === formatTool) return { type: 'text', text: cutText(JSON.stringify(block['input'] ?? {}), ratio) };
      return block;
    });
    return { ...answer, content, stop_reason: 'max_tokens', usage: { ...(answer['usage'] as Json), output_tokens: cap } };
  }
  return null;
}
