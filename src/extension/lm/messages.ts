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
 *                        and images (image_url parts with data: URLs). Chat tool messages carry text only: images
 *                        a tool returned go in that user message, and the tool message says so.
 *                        For a model that takes no images they are left out, and the text says one was there.
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

/** An image as OpenAI's content part: its bytes in a data: URL. */
export type OpenAiImagePart = { type: 'image_url'; image_url: { url: string } };
export type OpenAiUserContent = string | Array<{ type: 'text'; text: string } | OpenAiImagePart>;

export type OpenAiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: OpenAiUserContent }
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
/** The image types chat models take (OpenAI's, Anthropic's and Gemini's common set). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
function isImagePart(part: unknown): part is DataLike {
  return isDataPart(part) && IMAGE_TYPES.has(part.mimeType.toLowerCase());
}
function imageUrlPart(part: DataLike): OpenAiImagePart {
  return { type: 'image_url', image_url: { url: `data:${part.mimeType.toLowerCase()};base64,${Buffer.from(part.data).toString('base64')}` } };
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

/** A user turn's content: its text alone, or its text and images as parts. */
function userContent(text: string, images: readonly DataLike[]): OpenAiUserContent {
  if (images.length === 0) return text;
  return [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...images.map(imageUrlPart)];
}

const imagesNote = (count: number, where: string) => `(${count === 1 ? 'an image' : `${count} images`}${where})`;

export interface ConversionOptions {
  /** What upstreams attached to the calls they made, by call id. */
  readonly extrasOf?: ToolCallExtrasOf;
  /** Whether the model takes images: without, images are left out and the text says one was there. */
  readonly imageInput?: boolean;
}

export function toOpenAiMessages(messages: ReadonlyArray<LmMessageLike>, options: ConversionOptions = {}): OpenAiMessage[] {
  const extrasOf = options.extrasOf ?? (() => undefined);
  const imageInput = options.imageInput ?? false;
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
    // User (and any role we do not know): tool results first, then the text and the images.
    const images: DataLike[] = [];
    for (const result of message.content.filter(isToolResultPart)) {
      const returned = result.content.filter(isImagePart);
      const said = toolResultText(result.content);
      const note = returned.length === 0 ? '' : imagesNote(returned.length, imageInput ? ', in the next message' : ' this model cannot see');
      if (imageInput) images.push(...returned);
      out.push({ role: 'tool', tool_call_id: result.callId, content: said === '' ? note : note === '' ? said : `${said}\n${note}` });
    }
    const attached = message.content.filter(isImagePart);
    if (imageInput) images.push(...attached);
    const userText = !imageInput && attached.length > 0 ? `${text}${text === '' ? '' : '\n'}${imagesNote(attached.length, ' this model cannot see')}` : text;
    if (userText !== '' || images.length > 0) out.push({ role: 'user', content: userContent(userText, images) });
  }
  return out;
}
