/** provideTokenCount for a message: its text, tool calls and tool results, each estimated by tokens.ts. Pure. */
import { estimateTokens } from '../tokens.ts';
import { isToolCallPart, isToolResultPart, partText, toolResultText } from './messages.ts';

export function estimateMessageTokens(content: ReadonlyArray<unknown>): number {
  let tokens = 0;
  for (const part of content) {
    if (isToolCallPart(part)) tokens += estimateTokens(part.name + JSON.stringify(part.input ?? {}));
    else if (isToolResultPart(part)) tokens += estimateTokens(toolResultText(part.content));
    else tokens += estimateTokens(partText(part));
  }
  return tokens;
}
