/**
 * Streamed chat chunks -> what a language-model provider reports: text as it
 * arrives, reasoning as it arrives (when the host can show it: from
 * `reasoning_content`, or from a `<think>...</think>` opening the text, as @gateway
 * reads it too), and each tool call once its arguments are complete. Pure: the
 * sink is plain callbacks.
 */
import { reasoningTextOf, type ChatCompletionChunk } from '../../contract/index.ts';
import { ThinkTagSplitter } from '../chat/thinkTags.ts';
import { ToolCallAccumulator } from './toolCalls.ts';
import type { CompletedToolCall } from './toolCalls.ts';

export interface LmSink {
  text(value: string): void;
  thinking?(value: string): void;
  toolCall(call: CompletedToolCall): void;
}

/** What a stream delivered to the sink. */
export interface SinkSummary {
  readonly finishReason: string | null;
  readonly toolCalls: number;
  readonly textChars: number;
}


export async function sendChunksToSink(chunks: AsyncIterable<ChatCompletionChunk>, sink: LmSink, accumulator = new ToolCallAccumulator()): Promise<SinkSummary> {
  let finishReason: string | null = null;
  let toolCalls = 0;
  let textChars = 0;
  const splitter = new ThinkTagSplitter();
  const show = ({ reasoning, content }: { reasoning: string; content: string }) => {
    if (reasoning) sink.thinking?.(reasoning);
    if (content) {
      textChars += content.length;
      sink.text(content);
    }
  };
  const flush = () => {
    for (const call of accumulator.finish()) {
      toolCalls++;
      sink.toolCall(call);
    }
  };
  for await (const chunk of chunks) {
    for (const choice of chunk.choices) {
      if ((choice.index ?? 0) !== 0) continue; // we ask for one choice
      const delta = choice.delta;
      if (delta) {
        const reasoning = reasoningTextOf(delta);
        if (reasoning) sink.thinking?.(reasoning);
        if (delta.content) show(splitter.push(delta.content));
        if (delta.tool_calls && delta.tool_calls.length > 0) accumulator.add(delta.tool_calls);
      }
      if (choice.finish_reason) {
        finishReason = choice.finish_reason;
        flush();
      }
    }
  }
  show(splitter.finish());
  flush();
  return { finishReason, toolCalls, textChars };
}
