/**
 * Token estimates for when an upstream reports no usage. A deliberately simple rule,
 * about four characters per token (OpenAI's own rule of thumb for English text), plus a
 * small per-message overhead for the role framing. It is used only for charging answers
 * whose real count is unknown, and every estimated usage is flagged `estimated: true`.
 */
import type { ChatRequest, CountTokensRequest } from '../../contract/index.ts';
import type { RelayOperation } from './types.ts';
import { chatTextOf } from './formats/chatText.ts';

const CHARS_PER_TOKEN = 4;
const TOKENS_PER_MESSAGE = 4;

export function estimateTokensOfChars(chars: number): number {
  return chars <= 0 ? 0 : Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Characters of text a message carries: a string, or the text parts of a content array. */
export function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') {
      text += (text ? '\n' : '') + (part as { text: string }).text;
    }
  }
  return text;
}

/** The prompt tokens of a request, estimated from its text (token arrays are counted exactly). */
export function estimatePromptTokensOfRequest(request: RelayOperation): number {
  switch (request.operation) {
    case 'chat':
      return estimatePromptTokensOfChat(request.body);
    case 'completion':
      return estimateTokensOfInput(request.body.prompt) + estimateTokensOfInput(request.body.suffix ?? '');
    case 'embedding':
      return estimateTokensOfInput(request.body.input);
    case 'image':
      return estimateTokensOfChars(request.body.prompt.length);
    case 'messages':
      return estimatePromptTokensOfMessages(request.body);
    case 'responses': {
      const { input, instructions, tools } = request.body;
      const chars = (typeof input === 'string' ? input.length : JSON.stringify(input).length) + (instructions?.length ?? 0) + (tools ? JSON.stringify(tools).length : 0);
      return estimateTokensOfChars(chars) + TOKENS_PER_MESSAGE * (typeof input === 'string' ? 1 : input.length);
    }
  }
}

/** A prompt or input: text, texts, a token array, or token arrays. */
function estimateTokensOfInput(input: string | readonly string[] | readonly number[] | readonly (readonly number[])[]): number {
  if (typeof input === 'string') return estimateTokensOfChars(input.length);
  let tokens = 0;
  for (const item of input) tokens += typeof item === 'string' ? estimateTokensOfChars(item.length) : typeof item === 'number' ? 1 : item.length;
  return tokens;
}

function estimatePromptTokensOfChat(body: ChatRequest): number {
  let chars = 0;
  for (const message of body.messages) {
    chars += textOfContent(message.content).length;
    const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
    if (toolCalls !== undefined) chars += JSON.stringify(toolCalls).length;
  }
  if (body['tools'] !== undefined) chars += JSON.stringify(body['tools']).length;
  return estimateTokensOfChars(chars) + TOKENS_PER_MESSAGE * body.messages.length;
}

/**
 * A Messages request's prompt (also what count_tokens answers): the system prompt, every block's
 * text (tool inputs and results as their JSON), and the tools. Images count as their base64 text, a
 * generous bound.
 */
export function estimatePromptTokensOfMessages(body: CountTokensRequest): number {
  let chars = typeof body.system === 'string' ? body.system.length : body.system ? JSON.stringify(body.system).length : 0;
  for (const message of body.messages) chars += typeof message.content === 'string' ? message.content.length : JSON.stringify(message.content).length;
  if (body.tools !== undefined) chars += JSON.stringify(body.tools).length;
  return estimateTokensOfChars(chars) + TOKENS_PER_MESSAGE * body.messages.length;
}

/** What a Messages content block generated, in characters: its text, thinking, or a tool call's name and input. */
export function messagesBlockChars(block: unknown): number {
  if (block === null || typeof block !== 'object') return 0;
  const b = block as { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown; input?: unknown };
  if (b.type === 'text' && typeof b.text === 'string') return b.text.length;
  if (b.type === 'thinking' && typeof b.thinking === 'string') return b.thinking.length;
  if (b.type === 'tool_use') return (typeof b.name === 'string' ? b.name.length : 0) + JSON.stringify(b.input ?? {}).length;
  return 0;
}

/** Characters of generated text in one chat delta or message (content, reasoning, tool arguments) or completion choice (text). */
export function generatedChars(part: unknown): number {
  if (part === null || typeof part !== 'object') return 0;
  const p = part as { content?: unknown; text?: unknown; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: unknown; function_call?: unknown };
  let chars = 0;
  // Content as chunks too (Mistral's Magistral), with their thinking; reasoning counted once where a server sends it in two fields.
  const { text, reasoning } = chatTextOf(p as Record<string, unknown>);
  chars += text.length + reasoning.length;
  if (typeof p.text === 'string') chars += p.text.length;
  const calls = [...(Array.isArray(p.tool_calls) ? p.tool_calls : []), ...(p.function_call ? [{ function: p.function_call }] : [])];
  for (const call of calls) {
    const fn = call !== null && typeof call === 'object' ? (call as { function?: { name?: unknown; arguments?: unknown } }).function : undefined;
    // Arguments as an object too (some Ollama and llama.cpp builds), and the legacy function_call.
    if (fn && typeof fn.arguments === 'string') chars += fn.arguments.length;
    else if (fn && fn.arguments !== null && typeof fn.arguments === 'object') chars += JSON.stringify(fn.arguments).length;
    if (fn && typeof fn.name === 'string') chars += fn.name.length;
  }
  return chars;
}
