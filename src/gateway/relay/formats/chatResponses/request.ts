/**
 * A Responses request as chat completions, for upstreams without the Responses API.
 * `instructions` and system/developer items become system messages (those before any other as one), message items keep their
 * role, function_call items become an assistant turn's tool_calls and function_call_output items
 * the `tool` messages that answer them, in order (custom_tool_call and its output alike). Reasoning items are
 * the upstream model's own: their text goes back only as the `reasoning_content` of the assistant turn whose tool
 * calls they led to (DeepSeek's and Kimi's thinking models refuse such a turn without it). Images in a tool's output
 * (the Codex CLI's view_image) go in a user message after the tool messages: chat tool messages carry text only.
 * Function tools go as chat tools, namespaced ones flattened
 * (toolNames.ts), freeform (custom) ones as a function of one string.
 * Built-in tools (web search, file search, ...) cannot run on a chat upstream and are left out, as
 * a tool the model cannot use (the Codex CLI always offers web_search); forcing one with
 * tool_choice, and items without a chat equivalent, are a clear 400.
 */
import type { ResponsesItem, ResponsesRequest } from '../../../../contract/index.ts';
import { thinkingOfEncryptedContent, type ThinkingBlock } from '../thinkingBlocks.ts';
import { quoteClientValue } from '../../../../contract/index.ts';
import { ConversionError } from '../types.ts';
import { functionToolsOf, toolNamesOf, type ToolNames } from './toolNames.ts';

type Json = Record<string, unknown>;

const asText = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `keepThinking`: the gateway's own encrypted_content goes back as `thinking_blocks`, for a Messages upstream (thinkingBlocks.ts). */
export function responsesToChatRequest(body: ResponsesRequest, keepThinking = false): Json {
  const b = body as ResponsesRequest & Json;
  const names = toolNamesOf(b.tools);
  const messages: Json[] = [];
  if (b.instructions) messages.push({ role: 'system', content: b.instructions });
  if (typeof b.input === 'string') messages.push({ role: 'user', content: b.input });
  else {
    const carry: Carry = { reasoning: '', images: [], thinking: keepThinking ? [] : null };
    b.input.forEach((item, i) => addItem(messages, item, `input.${i}`, names, carry));
    flushImages(messages, carry);
  }
  const chat: Json = { model: b.model, messages: oneLeadingSystem(messages) };
  if (b.stream) chat['stream'] = true;
  if (b.max_output_tokens) chat['max_tokens'] = b.max_output_tokens;
  // prompt_cache_key (the Codex CLI's conversation id) keeps routing the conversation to the upstream's warm prompt cache.
  for (const field of ['temperature', 'top_p', 'parallel_tool_calls', 'user', 'prompt_cache_key', 'safety_identifier'] as const) {
    if (b[field] !== undefined && b[field] !== null) chat[field] = b[field];
  }
  const effort = (b['reasoning'] as { effort?: unknown } | null | undefined)?.effort;
  if (typeof effort === 'string') chat['reasoning_effort'] = effort;
  const tools = functionToolsOf(b.tools).map(({ namespace, tool }) => {
    const name = names.toChat({ name: asText(tool['name']), ...(namespace ? { namespace } : {}) });
    return tool['type'] === 'custom' ? customToolToChat(tool, name) : toolToChat(tool, name);
  });
  if (tools.length > 0) chat['tools'] = tools;
  const choice = toolChoiceToChat(b['tool_choice'], names);
  if (choice !== undefined) chat['tool_choice'] = choice;
  const format = (b['text'] as { format?: Json } | null | undefined)?.format;
  if (format?.['type'] === 'json_schema') {
    chat['response_format'] = { type: 'json_schema', json_schema: { name: format['name'], ...(format['description'] !== undefined ? { description: format['description'] } : {}), schema: format['schema'], strict: format['strict'] } };
  } else if (format?.['type'] === 'json_object') chat['response_format'] = { type: 'json_object' };
  return chat;
}

/**
 * The system messages before the first other one as one: the Codex CLI sends `instructions` and then developer items,
 * and the chat templates of many open models (Mistral's, Llama's on vLLM) refuse a second system message.
 */
function oneLeadingSystem(messages: Json[]): Json[] {
  let n = 0;
  while (messages[n]?.['role'] === 'system' && typeof messages[n]!['content'] === 'string') n++;
  if (n < 2) return messages;
  return [{ role: 'system', content: messages.slice(0, n).map((m) => m['content'] as string).join('\n\n') }, ...messages.slice(n)];
}

/** What goes on from one item to those after it. */
interface Carry {
  /** The text of the reasoning items since the last message, for the tool calls they led to. */
  reasoning: string;
  /** Images of the tool outputs since the last other item, for the user message after them. */
  images: Json[];
  /** The signed thinking of the reasoning items since the last message, for the assistant turn they began; null when not kept. */
  thinking: ThinkingBlock[] | null;
}

/** The signed thinking carried so far, at the start of the assistant turn `message`. */
function addThinking(message: Json, carry: Carry): void {
  if (!carry.thinking?.length) return;
  message['thinking_blocks'] = [...((message['thinking_blocks'] as ThinkingBlock[] | undefined) ?? []), ...carry.thinking];
  carry.thinking = [];
}

/** The images tool outputs returned, as a user message after those outputs' tool messages. */
function flushImages(messages: Json[], carry: Carry): void {
  if (carry.images.length === 0) return;
  messages.push({ role: 'user', content: carry.images });
  carry.images = [];
}

function addItem(messages: Json[], item: ResponsesItem, where: string, names: ToolNames, carry: Carry): void {
  const it = item as Json;
  const type = item.type ?? 'message';
  if (type === 'reasoning') {
    carry.reasoning += reasoningTextOfItem(it);
    carry.thinking?.push(...thinkingOfEncryptedContent(it['encrypted_content']));
    return;
  }
  if (type !== 'function_call' && type !== 'custom_tool_call' && !(type === 'message' && item.role === 'assistant')) {
    carry.reasoning = '';
    if (carry.thinking) carry.thinking = [];
  }
  if (type !== 'function_call_output' && type !== 'custom_tool_call_output') flushImages(messages, carry);
  if (type === 'message') {
    const role = item.role === 'developer' ? 'system' : item.role;
    if (role !== 'user' && role !== 'system' && role !== 'assistant') throw new ConversionError(`${where}: unknown role ${quoteClientValue(item.role)}.`);
    messages.push({ role, content: contentToChat(it['content'], where, role) });
    if (role === 'assistant') addThinking(messages[messages.length - 1]!, carry);
  } else if (type === 'function_call' || type === 'custom_tool_call') {
    const name = names.toChat({ name: asText(it['name']), ...(typeof it['namespace'] === 'string' ? { namespace: it['namespace'] } : {}) });
    // A freeform call's raw text goes as the one argument its chat function has (customToolToChat).
    const args = type === 'custom_tool_call' ? JSON.stringify({ input: asText(it['input']) }) : asText(it['arguments']);
    const call = { id: asText(it['call_id']), type: 'function', function: { name, arguments: args } };
    let last = messages[messages.length - 1];
    // Parallel calls (and a call after the assistant's words) belong to one assistant turn.
    if (last?.['role'] === 'assistant') {
      last['tool_calls'] = [...((last['tool_calls'] as Json[] | undefined) ?? []), call];
      if (last['content'] === '') last['content'] = null;
    } else messages.push((last = { role: 'assistant', content: null, tool_calls: [call] }));
    addThinking(last, carry);
    if (carry.reasoning) {
      last['reasoning_content'] = `${asText(last['reasoning_content'])}${carry.reasoning}`;
      carry.reasoning = '';
    }
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const { text, images } = outputToChat(it['output'], `${where}.output`);
    carry.images.push(...images);
    const said = text || (images.length > 0 ? `(${images.length === 1 ? 'an image' : `${images.length} images`}, in the next message)` : '');
    messages.push({ role: 'tool', tool_call_id: asText(it['call_id']), content: said });
  } else {
    throw new ConversionError(`${where}: a ${quoteClientValue(type)} item cannot be served by this gateway's chat upstreams.`);
  }
}

/** A reasoning item's readable text: its raw reasoning (open models') or else its summary; '' when it has only encrypted content. */
function reasoningTextOfItem(item: Json): string {
  const texts = (parts: unknown) => (Array.isArray(parts) ? (parts as Json[]).map((p) => asText(p?.['text'])).join('') : '');
  return texts(item['content']) || texts(item['summary']);
}

/** A message's content: text, or parts (input_text, output_text, input_image). */
function contentToChat(content: unknown, where: string, role: string): unknown {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new ConversionError(`${where}.content: expected text or a list of parts.`);
  const parts = (content as Json[]).map((part, j) => {
    const type = part['type'];
    if (type === 'input_text' || type === 'output_text' || type === 'text') return { type: 'text', text: asText(part['text']) };
    if (type === 'input_image') {
      const url = asText(part['image_url']) || asText((part['image_url'] as Json | undefined)?.['url']);
      if (!url) throw new ConversionError(`${where}.content.${j}: an input_image needs an image_url (a file_id cannot be resolved here).`);
      return { type: 'image_url', image_url: { url, ...(part['detail'] ? { detail: part['detail'] } : {}) } };
    }
    throw new ConversionError(`${where}.content.${j}: a ${quoteClientValue(type)} part cannot be served by this gateway's chat upstreams.`);
  });
  // Assistant turns and plain text go as one string (every chat server takes that).
  return role === 'assistant' || parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text?: string }).text ?? '').join('') : parts;
}

/** A tool output: text, or content items (input_text, input_image): their text, and their images as image_url parts. */
function outputToChat(output: unknown, where: string): { text: string; images: Json[] } {
  if (typeof output === 'string') return { text: output, images: [] };
  const chat = contentToChat(output, where, 'user');
  if (typeof chat === 'string') return { text: chat, images: [] };
  const parts = chat as Json[];
  return { text: parts.map((p) => asText(p['text'])).join(''), images: parts.filter((p) => p['type'] === 'image_url') };
}

function toolToChat(tool: Json, name: string): Json {
  const fn: Json = { name, parameters: tool['parameters'] ?? { type: 'object', properties: {} } };
  if (typeof tool['description'] === 'string') fn['description'] = tool['description'];
  if (typeof tool['strict'] === 'boolean') fn['strict'] = tool['strict'];
  return { type: 'function', function: fn };
}

/**
 * A freeform tool as a chat function of one string, `input`: its raw text (a patch, a script). Its grammar, when it
 * has one, is given to the model in words, since a chat upstream cannot enforce it; the call comes back as a
 * custom_tool_call with that text (answer.ts).
 */
function customToolToChat(tool: Json, name: string): Json {
  const format = tool['format'] as { type?: unknown; syntax?: unknown; definition?: unknown } | undefined;
  const grammar = format?.type === 'grammar' && typeof format.definition === 'string'
    ? ` It must follow this ${typeof format.syntax === 'string' ? format.syntax : ''} grammar:\n${format.definition}` : '';
  const fn: Json = {
    name,
    parameters: { type: 'object', properties: { input: { type: 'string', description: `The tool's input, as raw text.${grammar}` } }, required: ['input'], additionalProperties: false },
  };
  if (typeof tool['description'] === 'string') fn['description'] = tool['description'];
  return { type: 'function', function: fn };
}

function toolChoiceToChat(choice: unknown, names: ToolNames): unknown {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') return choice;
  const c = choice as Json;
  if ((c['type'] === 'function' || c['type'] === 'custom') && typeof c['name'] === 'string') {
    return { type: 'function', function: { name: names.toChat({ name: c['name'], ...(typeof c['namespace'] === 'string' ? { namespace: c['namespace'] } : {}) }) } };
  }
  if (typeof c['type'] === 'string' && c['type'] !== 'allowed_tools') {
    throw new ConversionError(`tool_choice: the built-in tool ${quoteClientValue(c['type'])} cannot run on this gateway's chat upstreams; use function tools.`);
  }
  return undefined;
}
