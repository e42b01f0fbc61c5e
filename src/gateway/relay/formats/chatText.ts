/**
 * The answer text and the reasoning of a chat message or stream delta. `content` is text, or (Mistral's Magistral
 * and newer Large models, streamed and not) a list of chunks: text ones, and thinking ones whose `thinking` holds
 * the reasoning as text chunks. Reasoning also comes apart, as `reasoning_content` (DeepSeek, vLLM) or `reasoning`
 * (OpenRouter).
 */
import { reasoningTextOf } from '../../../contract/index.ts';

type Json = Record<string, unknown>;

const asText = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The text of chunks (or of a string). */
function textOfChunks(chunks: unknown): string {
  if (!Array.isArray(chunks)) return asText(chunks);
  return (chunks as (Json | null)[]).map((c) => (c?.['type'] === 'text' ? asText(c['text']) : '')).join('');
}

export function chatTextOf(part: Json): { text: string; reasoning: string } {
  const content = part['content'];
  const reasoning = reasoningTextOf(part);
  if (!Array.isArray(content)) return { text: asText(content), reasoning };
  const thinking = (content as (Json | null)[]).map((c) => (c?.['type'] === 'thinking' ? textOfChunks(c['thinking']) : '')).join('');
  return { text: textOfChunks(content), reasoning: reasoning + thinking };
}
