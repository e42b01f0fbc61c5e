/**
 * VS Code language-model messages -> OpenAI chat messages.
 *
 * Pure: the parts are read by shape, not by class, so this runs without vscode.
 * VS Code's part classes are plain data:
 *   LanguageModelTextPart       { value: string }
 *   LanguageModelToolCallPart   { callId, name, input }
 *   LanguageModelToolResultPart { callId, content: (TextPart | PromptTsxPart | DataPart | unknown)[] }
 *   LanguageModelDataPart       { mimeType, data: Uint8Array }   (newer VS Code builds)
 * The provider drops parts it recognises as something else (thinking parts) before calling.
 *
 * Mapping:
 *   System            -> { role: 'system', content }
 *   User              -> one { role: 'tool', tool_call_id, content } per tool result (first, so they follow
 *                        the assistant turn that made the calls), then { role: 'user', content } for its text
 *   Assistant         -> { role: 'assistant', content | null, tool_calls: [{ id, type: 'function', function: { name, arguments } }] }
 */

/** LanguageModelChatMessageRole values (User and Assistant are stable; System exists in newer builds). */
export const ROLE_USER = 1;
export const ROLE_ASSISTANT = 2;
export const ROLE_SYSTEM = 3;

export interface LmMessageLike {
  readonly role: number;
  readonly content: ReadonlyArray<unknown>;
  readonly name?: string | undefined;
}

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** What the upstream attached to the call when it made it (toolCallExtras.ts), sent back as it came. */
  [extra: string]: unknown;
}

/** The extra fields of a call the provider streamed earlier, by call id. */
export type ToolCallExtrasOf = (callId: string) => Readonly<Record<string, unknown>> | undefined;

export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

interface ToolCallLike {
  callId: string;
  name: string;
  input: unknown;
}
interface ToolResultLike {
  callId: string;
  content: ReadonlyArray<unknown>;
}
interface DataLike {
  mimeType: string;
  data: Uint8Array;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
export function isToolCallPart(part: unknown): part is ToolCallLike {
  return isRecord(part) && typeof part.callId === 'string' && typeof part.name === 'string' && 'input' in part;
}
export function isToolResultPart(part: unknown): part is ToolResultLike {
  return isRecord(part) && typeof part.callId === 'string' && Array.isArray(part.content);
}
function isDataPart(part: unknown): part is DataLike {
  return isRecord(part) && typeof part.mimeType === 'string' && part.data instanceof Uint8Array;
}
function isTextPart(part: unknown): part is { value: string } {
  return isRecord(part) && typeof part.value === 'string';
}

/** Text of a data part when it carries text (text/*, JSON); '' for images and cache hints. */
function dataText(part: DataLike): string {
  const mime = part.mimeType.toLowerCase();
  if (mime.startsWith('text/') || mime.includes('json')) return new TextDecoder().decode(part.data);
  return '';
}

/** The plain text of one content part, or '' when it has none we can send. */
export function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (isToolCallPart(part) || isToolResultPart(part)) return '';
  if (isDataPart(part)) return dataText(part);
  if (isTextPart(part)) return part.value;
  return '';
}

/** What a tool returned, as the string an OpenAI `tool` message carries. */
export function toolResultText(content: ReadonlyArray<unknown>): string {
  const pieces: string[] = [];
  for (const item of content) {
    if (typeof item === 'string') pieces.push(item);
    else if (isDataPart(item)) pieces.push(dataText(item));
    else if (isTextPart(item)) pieces.push(item.value);
    else if (isRecord(item) && 'value' in item) pieces.push(JSON.stringify(item.value)); // prompt-tsx JSON
    else if (item !== undefined && item !== null) pieces.push(JSON.stringify(item));
  }
  return pieces.join('');
}

export function toOpenAiMessages(messages: ReadonlyArray<LmMessageLike>, extrasOf: ToolCallExtrasOf = () => undefined): OpenAiMessage[] {
  const out: OpenAiMessage[] = [];
  for (const message of messages) {
    const text = message.content.map(partText).join('');
    if (message.role === ROLE_ASSISTANT) {
      const calls: OpenAiToolCall[] = message.content.filter(isToolCallPart).map((call) => ({
        ...extrasOf(call.callId),
        id: call.callId,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
      }));
      if (calls.length > 0) out.push({ role: 'assistant', content: text === '' ? null : text, tool_calls: calls });
      else if (text !== '') out.push({ role: 'assistant', content: text });
      continue;
    }
    if (message.role === ROLE_SYSTEM) {
      if (text !== '') out.push({ role: 'system', content: text });
      continue;
    }
    // User (and any role we do not know): tool results first, then the text.
    for (const result of message.content.filter(isToolResultPart)) {
      out.push({ role: 'tool', tool_call_id: result.callId, content: toolResultText(result.content) });
    }
    if (text !== '') out.push({ role: 'user', content: text });
  }
  return out;
}
