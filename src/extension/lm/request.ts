/**
 * The OpenAI chat request for one VS Code language-model call. Pure.
 */
import type { ChatRequest } from '../../contract/index.ts';
import { toOpenAiMessages } from './messages.ts';
import type { LmMessageLike, ToolCallExtrasOf } from './messages.ts';
import { toOpenAiTools, toolChoice } from './tools.ts';
import type { LmToolLike } from './tools.ts';

/** modelOptions VS Code callers may set that every OpenAI-compatible gateway understands. */
const PASSED_OPTIONS = ['temperature', 'top_p', 'max_tokens', 'max_completion_tokens', 'stop', 'seed', 'presence_penalty', 'frequency_penalty', 'reasoning_effort'] as const;

export interface LmRequestInput {
  readonly model: string;
  readonly messages: ReadonlyArray<LmMessageLike>;
  readonly tools?: ReadonlyArray<LmToolLike> | undefined;
  readonly toolMode?: number | undefined;
  readonly modelOptions?: { readonly [name: string]: unknown } | undefined;
  /** What upstreams attached to the calls they made (toolCallExtras.ts), put back on those calls. */
  readonly toolCallExtras?: { of: ToolCallExtrasOf } | undefined;
  /** Whether the model takes images (its picker entry's capabilities.imageInput). */
  readonly imageInput?: boolean | undefined;
}

/** Thrown when nothing sendable is left (every part was empty or unsupported). Match on `code`. */
export class EmptyConversationError extends Error {
  readonly code = 'empty_conversation';
  constructor() {
    super('The conversation has no text, tool call or tool result to send to the model.');
    this.name = 'EmptyConversationError';
  }
}

export function buildChatRequest(input: LmRequestInput): ChatRequest {
  const extras = input.toolCallExtras;
  const messages = toOpenAiMessages(input.messages, { ...(extras ? { extrasOf: (callId: string) => extras.of(callId) } : {}), imageInput: input.imageInput ?? false });
  if (messages.length === 0) throw new EmptyConversationError();
  const request: ChatRequest = { model: input.model, messages, stream: true };
  const loose: Record<string, unknown> = request;
  for (const key of PASSED_OPTIONS) {
    const value = input.modelOptions?.[key];
    if (value !== undefined && value !== null) loose[key] = value;
  }
  const tools = toOpenAiTools(input.tools);
  if (tools) request.tools = tools;
  const choice = toolChoice(input.toolMode, input.tools);
  if (choice) request.tool_choice = choice;
  return request;
}
