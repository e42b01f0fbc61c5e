/**
 * Requests between chat completions and Messages, both ways. What each format has and the other
 * lacks is mapped where a faithful mapping exists and otherwise refused with a clear 400 (never
 * silently dropped where it changes the answer):
 * - system prompt: Messages' `system` <-> chat's leading system/developer messages; a Messages system message
 *   within the conversation -> a chat system message in its place (chat -> Messages gathers every system
 *   message in `system`: only the newest Claude models take one within the conversation);
 * - images: base64 / URL sources <-> `image_url` (data: URLs for base64);
 * - tools: `input_schema` <-> `parameters`; tool_use blocks <-> `tool_calls`, tool_result blocks <->
 *   `tool` messages, in order (a tool result answers the call right before it);
 * - thinking blocks are the upstream model's own and only an Anthropic upstream can check their
 *   signatures; for an OpenAI-style upstream the text of those before a turn's tool calls goes as that
 *   message's `reasoning_content` (DeepSeek's and Kimi's thinking models refuse a tool-call turn without it);
 * - images a tool returned (Claude Code's Read of a picture or screenshot) go in a user message right after the
 *   tool messages: chat tool messages carry text only.
 */
import { createHash } from 'node:crypto';
import type { ChatRequest, MessagesBlock, MessagesRequest } from '../../../../contract/index.ts';
import { quoteClientValue } from '../../../../contract/index.ts';
import { ConversionError } from '../types.ts';
import { inputOfArguments } from './answer.ts';
import { formatToolOf } from './jsonFormat.ts';
import { signedThinkingOf } from '../thinkingBlocks.ts';

type Json = Record<string, unknown>;

const asText = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Text of a Messages content (a string or blocks); non-text blocks are refused by `what`. */
function textOfBlocks(content: string | readonly MessagesBlock[] | undefined, what: string): string {
  if (content === undefined || typeof content === 'string') return content ?? '';
  return content
    .map((block) => {
      if (block.type !== 'text') throw new ConversionError(`${what}: a ${quoteClientValue(block.type)} block cannot be converted for this model's channel; send text.`);
      return asText(block['text']);
    })
    .join('\n\n');
}

// ---- Messages -> chat completions ------------------------------------------------------------

export function messagesToChatRequest(body: MessagesRequest): Json {
  const { model, system, tools, max_tokens, stream, stop_sequences, temperature, top_p, tool_choice, metadata } = body as MessagesRequest & Json;
  const chat: Json = { model, messages: [] as Json[], max_tokens };
  const out = chat['messages'] as Json[];
  const systemText = textOfBlocks(system, 'system');
  if (systemText) out.push({ role: 'system', content: systemText });
  body.messages.forEach((message, i) => {
    if (message.role === 'assistant') out.push(assistantToChat(message.content, i));
    else if (message.role === 'system') out.push(...systemToChat(message.content, i));
    else out.push(...userToChat(message.content, i));
  });
  if (stream !== undefined) chat['stream'] = stream;
  if (stop_sequences?.length) chat['stop'] = stop_sequences;
  if (temperature !== undefined) chat['temperature'] = temperature;
  if (top_p !== undefined) chat['top_p'] = top_p;
  const user = (metadata as { user_id?: unknown } | undefined)?.user_id;
  if (typeof user === 'string' && user) chat['user'] = chatUser(user);
  if (tools?.length) chat['tools'] = tools.map(toolToChat);
  Object.assign(chat, toolChoiceToChat(tool_choice));
  const format = outputFormatOf(body as MessagesRequest & Json);
  if (format) chat['response_format'] = { type: 'json_schema', json_schema: { name: 'output', schema: format } };
  const mcp = (body as Json)['mcp_servers'];
  if (Array.isArray(mcp) && mcp.length > 0) throw new ConversionError("mcp_servers: Anthropic's MCP connector cannot run on this model's channel; connect the MCP server in your client instead.");
  return chat;
}

/**
 * The JSON schema a Messages request asks its answer in (structured outputs: `output_config.format`, what the SDK's
 * parse() sends, or the beta's `output_format`): chat's `response_format` json_schema says the same. Null for none.
 */
function outputFormatOf(body: Json): Json | null {
  const config = body['output_config'];
  const format = (config !== null && typeof config === 'object' ? (config as Json)['format'] : undefined) ?? body['output_format'];
  if (format === undefined || format === null) return null;
  const { type, schema } = format as Json;
  if (type !== 'json_schema' || schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new ConversionError('output_config.format: this model\'s channel takes a format of type "json_schema" with its schema.');
  }
  return schema as Json;
}

/**
 * Chat's `user` for Messages' `metadata.user_id`. Claude Code's runs to 90-150 characters (a JSON of device, account
 * and session), and OpenAI refuses a `user` over 64 (OpenRouter over 128): a longer one goes as its SHA-256 in hex
 * (64 characters), the same person still the same id.
 */
function chatUser(id: string): string {
  return id.length <= 64 ? id : createHash('sha256').update(id).digest('hex');
}

function toolToChat(tool: Json): Json {
  const type = tool['type'];
  if (type !== undefined && type !== 'custom') {
    throw new ConversionError(`tools: the server tool ${quoteClientValue(type)} is Anthropic's own and cannot run on this model's channel.`);
  }
  const fn: Json = { name: tool['name'], parameters: tool['input_schema'] ?? { type: 'object', properties: {} } };
  if (typeof tool['description'] === 'string') fn['description'] = tool['description'];
  return { type: 'function', function: fn };
}

function toolChoiceToChat(choice: unknown): Json {
  if (choice === null || typeof choice !== 'object') return {};
  const c = choice as { type?: unknown; name?: unknown; disable_parallel_tool_use?: unknown };
  const out: Json = {};
  if (c.type === 'auto') out['tool_choice'] = 'auto';
  else if (c.type === 'any') out['tool_choice'] = 'required';
  else if (c.type === 'none') out['tool_choice'] = 'none';
  else if (c.type === 'tool') out['tool_choice'] = { type: 'function', function: { name: c.name } };
  if (c.disable_parallel_tool_use === true) out['parallel_tool_calls'] = false;
  return out;
}

function imageToChat(block: MessagesBlock, where: string): Json {
  const source = block['source'] as { type?: unknown; media_type?: unknown; data?: unknown; url?: unknown } | undefined;
  if (source?.type === 'base64') return { type: 'image_url', image_url: { url: `data:${asText(source.media_type)};base64,${asText(source.data)}` } };
  if (source?.type === 'url') return { type: 'image_url', image_url: { url: asText(source.url) } };
  throw new ConversionError(`${where}: an image must have a base64 or url source.`);
}

/** A system message within the conversation: text blocks only, as the Messages API takes them; none when empty. */
function systemToChat(content: string | readonly MessagesBlock[], i: number): Json[] {
  const text = textOfBlocks(content, `messages.${i}`);
  return text ? [{ role: 'system', content: text }] : [];
}

/** A user turn: its tool results first, as `tool` messages (each answers a call of the turn before), then its own content. */
function userToChat(content: string | readonly MessagesBlock[], i: number): Json[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const out: Json[] = [];
  const parts: Json[] = [];
  content.forEach((block, j) => {
    const where = `messages.${i}.content.${j}`;
    if (block.type === 'tool_result') {
      const { text, images } = toolResultToChat(block['content'], where);
      // Its images follow the tool messages, in the user message of this turn (chat tool messages hold text only).
      parts.push(...images);
      const said = text || (images.length > 0 ? `(${images.length === 1 ? 'an image' : `${images.length} images`}, in the next message)` : '');
      out.push({ role: 'tool', tool_call_id: block['tool_use_id'], content: block['is_error'] === true && !said ? 'error' : said });
    } else if (block.type === 'text') {
      // An empty text block would be an empty message, which Gemini and others refuse.
      if (asText(block['text'])) parts.push({ type: 'text', text: asText(block['text']) });
    } else if (block.type === 'image') {
      parts.push(imageToChat(block, where));
    } else if (block.type !== 'thinking' && block.type !== 'redacted_thinking') {
      throw new ConversionError(`${where}: a ${quoteClientValue(block.type)} block cannot be converted for this model's channel.`);
    }
  });
  if (parts.length > 0) {
    const onlyText = parts.every((p) => p['type'] === 'text');
    out.push({ role: 'user', content: onlyText ? parts.map((p) => p['text']).join('\n\n') : parts });
  }
  return out;
}

/** A tool_result's content: its text, and its images as image_url parts. */
function toolResultToChat(result: unknown, where: string): { text: string; images: Json[] } {
  if (!Array.isArray(result)) return { text: asText(result), images: [] };
  const blocks = result as MessagesBlock[];
  const images = blocks.flatMap((b, k) => (b.type === 'image' ? [imageToChat(b, `${where}.content.${k}`)] : []));
  return { text: textOfBlocks(blocks.filter((b) => b.type !== 'image'), where), images };
}

function assistantToChat(content: string | readonly MessagesBlock[], i: number): Json {
  if (typeof content === 'string') return { role: 'assistant', content };
  let text = '';
  let thinking = '';
  const calls: Json[] = [];
  content.forEach((block, j) => {
    if (block.type === 'text') text += asText(block['text']);
    else if (block.type === 'thinking') thinking += asText(block['thinking']);
    else if (block.type === 'tool_use') {
      calls.push({ id: block['id'], type: 'function', function: { name: block['name'], arguments: JSON.stringify(block['input'] ?? {}) } });
    } else if (block.type !== 'thinking' && block.type !== 'redacted_thinking') {
      throw new ConversionError(`messages.${i}.content.${j}: a ${quoteClientValue(block.type)} block cannot be converted for this model's channel.`);
    }
  });
  if (calls.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text || null, ...(thinking ? { reasoning_content: thinking } : {}), tool_calls: calls };
}

// ---- chat completions -> Messages ------------------------------------------------------------

/** `maxTokens`: what Messages requires; the caller picks it (the client's value, capped, or the model's default). */
/**
 * Chat fields a Messages upstream has no counterpart for, and that change the answer a client gets: refused.
 * (`reasoning_effort` is not among them: it is advice, and extended thinking would need the signed thinking blocks
 * of earlier turns, which chat completions do not carry; the model answers without it.)
 */
function refuseUnconvertible(b: Json): void {
  if (typeof b['n'] === 'number' && b['n'] > 1) throw new ConversionError("n: this model's channel answers one choice at a time; send n 1 or leave it out.");
  if (b['logprobs'] === true || (typeof b['top_logprobs'] === 'number' && b['top_logprobs'] > 0)) {
    throw new ConversionError("logprobs: this model's channel does not return log probabilities; leave logprobs and top_logprobs out.");
  }
  const modalities = b['modalities'];
  if ((Array.isArray(modalities) && modalities.some((m) => m !== 'text')) || (b['audio'] !== undefined && b['audio'] !== null)) {
    throw new ConversionError("modalities, audio: this model's channel answers in text only; leave them out.");
  }
  if (b['web_search_options'] !== undefined && b['web_search_options'] !== null) {
    throw new ConversionError("web_search_options: this model's channel cannot search the web from a chat request; leave it out.");
  }
}

export function chatToMessagesRequest(body: ChatRequest, maxTokens: number): Json {
  const b = body as ChatRequest & Json;
  refuseUnconvertible(b);
  const system: string[] = [];
  const messages: { role: 'user' | 'assistant'; content: Json[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Json[]) => {
    if (blocks.length === 0) return;
    const last = messages[messages.length - 1];
    // Tool results and the user's next words are one user turn (the API wants turns to alternate).
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  body.messages.forEach((message, i) => {
    const m = message as Json;
    if (message.role === 'system' || message.role === 'developer') system.push(textOfParts(message.content, `messages.${i}`));
    else if (message.role === 'assistant') push('assistant', assistantToMessages(m));
    else if (message.role === 'tool') push('user', [{ type: 'tool_result', tool_use_id: m['tool_call_id'], content: textOfParts(message.content, `messages.${i}`) }]);
    else push('user', partsToBlocks(message.content, `messages.${i}`));
  });
  const out: Json = { model: b.model, max_tokens: maxTokens, messages };
  if (system.length > 0) out['system'] = system.join('\n\n');
  if (b.stream === true) out['stream'] = true;
  const stop = b['stop'];
  if (typeof stop === 'string') out['stop_sequences'] = [stop];
  else if (Array.isArray(stop) && stop.length > 0) out['stop_sequences'] = stop;
  // OpenAI's temperature goes to 2, Anthropic's to 1.
  if (typeof b['temperature'] === 'number') out['temperature'] = Math.min(1, b['temperature']);
  if (typeof b['top_p'] === 'number') out['top_p'] = b['top_p'];
  if (typeof b['user'] === 'string') out['metadata'] = { user_id: b['user'] };
  const tools = b['tools'];
  const clientTools = Array.isArray(tools) && tools.length > 0 ? tools.map(toolToMessages) : [];
  if (clientTools.length > 0) out['tools'] = clientTools;
  const choice = toolChoiceToMessages(b['tool_choice'], b['parallel_tool_calls']);
  if (choice) out['tool_choice'] = choice;
  const format = formatToolOf(b);
  if (format) {
    out['tools'] = [...clientTools, { name: format.name, description: format.description, input_schema: format.schema }];
    // The answer must come through the format's tool. A client that gave tools of its own (and did not rule them out)
    // may have one of those called instead, as OpenAI lets a model call a tool rather than answer; one it named stays named.
    const ownTools = clientTools.length > 0 && choice?.['type'] !== 'none';
    if (!ownTools) out['tool_choice'] = { type: 'tool', name: format.name, disable_parallel_tool_use: true };
    else if (choice?.['type'] !== 'tool') out['tool_choice'] = { ...choice, type: 'any' };
  }
  return out;
}

function textOfParts(content: unknown, where: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return (content as Json[])
    .map((part) => {
      if (part['type'] !== 'text') throw new ConversionError(`${where}: only text can be sent here for this model's channel.`);
      return asText(part['text']);
    })
    .join('\n\n');
}

function partsToBlocks(content: unknown, where: string): Json[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return (content as Json[]).flatMap((part, j): Json[] => {
    if (part['type'] === 'text') return asText(part['text']) ? [{ type: 'text', text: part['text'] }] : [];
    if (part['type'] === 'image_url') return [imageToMessages(part['image_url'], `${where}.content.${j}`)];
    throw new ConversionError(`${where}.content.${j}: a ${quoteClientValue(part['type'])} part cannot be converted for this model's channel.`);
  });
}

function imageToMessages(image: unknown, where: string): Json {
  const url = asText(typeof image === 'string' ? image : (image as { url?: unknown } | null)?.url);
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } };
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  throw new ConversionError(`${where}: an image must be an http(s) URL or a base64 data: URL.`);
}

function assistantToMessages(message: Json): Json[] {
  // Signed thinking (thinkingBlocks.ts) opens the turn, as the model wrote it.
  const blocks: Json[] = [...signedThinkingOf(message['thinking_blocks']), ...partsToBlocks(message['content'], 'assistant')];
  const calls = message['tool_calls'];
  if (Array.isArray(calls)) {
    for (const call of calls as Json[]) {
      const fn = (call['function'] ?? {}) as Json;
      blocks.push({ type: 'tool_use', id: call['id'], name: fn['name'], input: inputOfArguments(asText(fn['arguments'])) });
    }
  }
  return blocks;
}

function toolToMessages(tool: Json): Json {
  const fn = (tool['function'] ?? {}) as Json;
  const out: Json = { name: fn['name'], input_schema: fn['parameters'] ?? { type: 'object', properties: {} } };
  if (typeof fn['description'] === 'string') out['description'] = fn['description'];
  return out;
}

function toolChoiceToMessages(choice: unknown, parallel: unknown): Json | null {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'auto') return { type: 'auto', ...noParallel };
  if (choice === 'required') return { type: 'any', ...noParallel };
  if (choice === 'none') return { type: 'none' };
  const name = (choice as { function?: { name?: unknown } } | null)?.function?.name;
  if (typeof name === 'string') return { type: 'tool', name, ...noParallel };
  return parallel === false ? { type: 'auto', disable_parallel_tool_use: true } : null;
}
