/**
 * The built-in `echo` model, as pure functions: what it answers and how it counts.
 * - Reply: `You said: <text of the last user message>` (or `You said nothing.`). When the text
 *   wraps the user's words in a `<userRequest>` tag (VS Code's Agent mode adds context tags
 *   around them), the words inside the last such tag are what the user said. Images in that message
 *   (`image_url` parts; Messages and Responses images arrive as those) are counted after it:
 *   `You said: <text> (and 2 images)`, `You said nothing (and 1 image).`; text alone is answered as before.
 * - Tool calls: when the request carries `tools` (and `tool_choice` is not "none") and what the
 *   user said names one of them as `call <tool_name>`, optionally followed by a JSON object of
 *   arguments, the answer is a call of that tool (finish reason `tool_calls`) instead of text.
 *   Its id is `call_echo_<number of messages>`, so a conversation gets a new id per call.
 * - Tool results: when the messages since the last assistant turn include a `tool` result, the
 *   reply is `Tool <name> returned: <its content, cut at 200 characters>`.
 * - Tokens are word-sized: each run of whitespace plus the word after it is one token,
 *   so the count is deterministic and exact (it is the echo model's own tokenizer). A tool
 *   call counts one token for its name and one per argument piece (8 characters each).
 * - Prompt tokens: the words of every message's text, plus one per message (its role).
 * - Reasoning: when the last user message contains the word "think" (any case), a short
 *   `reasoning_content` is produced before the answer, for testing reasoning displays.
 * - The completion cap (the client's max_tokens / max_completion_tokens and the account's
 *   cap, whichever is smallest) counts reasoning, answer and tool-call tokens together; a cut
 *   answer finishes with `length` instead of `stop` / `tool_calls`.
 */
import type { ChatRequest } from '../../../contract/index.ts';
import { textOfContent } from '../../relay/estimate.ts';

export interface EchoToken {
  /** `tool_name` starts the tool call (its text is the name); `tool_arguments` carries a piece of its JSON arguments. */
  readonly kind: 'reasoning' | 'content' | 'tool_name' | 'tool_arguments';
  readonly text: string;
}

export interface EchoPlan {
  readonly tokens: readonly EchoToken[];
  readonly finishReason: 'stop' | 'length' | 'tool_calls';
  readonly promptTokens: number;
  /** Set when the answer is a tool call. */
  readonly toolCall?: { readonly id: string; readonly name: string; readonly arguments: string } | undefined;
}

/** Characters of tool-call arguments per streamed piece (and per completion token). */
export const TOOL_ARGUMENT_PIECE = 8;
/** Characters of a tool result quoted back. */
export const TOOL_RESULT_PREVIEW = 200;

export function tokenize(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/** What the user said in a message's text: the inside of its last `<userRequest>` tag if it has one, else all of it. */
export function userRequestText(text: string): string {
  const tagged = [...text.matchAll(/<userRequest>([\s\S]*?)<\/userRequest>/g)];
  return (tagged.length > 0 ? tagged[tagged.length - 1]![1]! : text).trim();
}

/** How many images a message's content holds (`image_url` parts). */
export function imageCount(content: unknown): number {
  return Array.isArray(content) ? content.filter((part) => (part as { type?: unknown } | null)?.type === 'image_url').length : 0;
}

/** The echo's text answer to what the user said, with the images of the message counted when it had any. */
function echoReply(said: string, images: number): string {
  const counted = images === 0 ? '' : ` (and ${images} image${images === 1 ? '' : 's'})`;
  return said ? `You said: ${said}${counted}` : `You said nothing${counted}.`;
}

/** The names of the request's function tools. */
function toolNames(body: ChatRequest): Set<string> {
  const names = new Set<string>();
  const tools = body['tools'];
  if (!Array.isArray(tools)) return names;
  for (const tool of tools) {
    const name = (tool as { function?: { name?: unknown } } | null)?.function?.name;
    if (typeof name === 'string' && name !== '') names.add(name);
  }
  return names;
}

/** The JSON object at the start of `text` (after blanks), as its source, or undefined when there is none. */
function leadingJsonObject(text: string): string | undefined {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

/**
 * The tool call that `said` asks for: the first `call <name>` naming one of `names`, with the JSON
 * object after it as arguments (`{}` without one). Undefined when no known tool is named, or when
 * the text after the name opens an object that is not valid JSON.
 */
export function requestedToolCall(said: string, names: ReadonlySet<string>): { name: string; arguments: string } | undefined {
  for (const match of said.matchAll(/\bcall\s+([A-Za-z0-9_.:-]+)/gi)) {
    // Longest known tool name the word starts with (a name may be followed by punctuation).
    const word = match[1]!;
    let name: string | undefined;
    for (const candidate of names) {
      if (word.startsWith(candidate) && !/[A-Za-z0-9_]/.test(word.charAt(candidate.length)) && candidate.length > (name?.length ?? 0)) name = candidate;
    }
    if (!name) continue;
    const rest = said.slice(match.index + match[0].length - word.length + name.length);
    const source = leadingJsonObject(rest);
    if (source === undefined) {
      if (/^\s*\{/.test(rest)) return undefined; // an object was begun but never closed
      return { name, arguments: '{}' };
    }
    try {
      const parsed: unknown = JSON.parse(source);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
      return { name, arguments: JSON.stringify(parsed) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

type Message = ChatRequest['messages'][number];

/** The name of the tool whose call `toolCallId` is, from the assistant turns before it. */
function toolNameOf(messages: readonly Message[], toolCallId: unknown): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const calls = (messages[i] as { tool_calls?: unknown }).tool_calls;
    if (!Array.isArray(calls)) continue;
    for (const call of calls) {
      const c = call as { id?: unknown; function?: { name?: unknown } } | null;
      if (c && c.id === toolCallId && typeof c.function?.name === 'string') return c.function.name;
    }
  }
  return 'tool';
}

function preview(text: string): string {
  const chars = Array.from(text.trim());
  return chars.length > TOOL_RESULT_PREVIEW ? `${chars.slice(0, TOOL_RESULT_PREVIEW).join('')}…` : chars.join('');
}

function pieces(text: string): string[] {
  const chars = Array.from(text); // never split a character's surrogate pair
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += TOOL_ARGUMENT_PIECE) out.push(chars.slice(i, i + TOOL_ARGUMENT_PIECE).join(''));
  return out;
}

export function planEcho(body: ChatRequest, accountCap: number | null): EchoPlan {
  const messages = body.messages;
  const promptTokens = messages.reduce((n, m) => n + tokenize(textOfContent(m.content)).length + 1, 0);
  // This turn: the messages after the last assistant message.
  let turnStart = messages.length;
  while (turnStart > 0 && messages[turnStart - 1]!.role !== 'assistant') turnStart--;
  const turn = messages.slice(turnStart);
  const toolResult = [...turn].reverse().find((m) => m.role === 'tool');
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const said = lastUser && !toolResult ? userRequestText(textOfContent(lastUser.content)) : '';

  const tokens: EchoToken[] = [];
  let toolCall: EchoPlan['toolCall'];
  if (/\bthink/i.test(said)) {
    const words = tokenize(said).length;
    for (const text of tokenize(`You asked me to think. Your message has ${words} word${words === 1 ? '' : 's'}; I will repeat it back to you.`)) {
      tokens.push({ kind: 'reasoning', text });
    }
  }
  const requested = said && body['tool_choice'] !== 'none' ? requestedToolCall(said, toolNames(body)) : undefined;
  if (toolResult) {
    const name = toolNameOf(messages, (toolResult as { tool_call_id?: unknown }).tool_call_id);
    for (const text of tokenize(`Tool ${name} returned: ${preview(textOfContent(toolResult.content))}`)) tokens.push({ kind: 'content', text });
  } else if (requested) {
    toolCall = { id: `call_echo_${messages.length}`, ...requested };
    tokens.push({ kind: 'tool_name', text: requested.name });
    for (const text of pieces(requested.arguments)) tokens.push({ kind: 'tool_arguments', text });
  } else {
    for (const text of tokenize(echoReply(said, lastUser ? imageCount(lastUser.content) : 0))) tokens.push({ kind: 'content', text });
  }

  const caps = [accountCap, body.max_tokens, body.max_completion_tokens].filter((c): c is number => typeof c === 'number');
  const cap = caps.length > 0 ? Math.min(...caps) : Infinity;
  if (tokens.length > cap) return { tokens: tokens.slice(0, cap), finishReason: 'length', promptTokens, toolCall };
  return { tokens, finishReason: toolCall ? 'tool_calls' : 'stop', promptTokens, toolCall };
}
