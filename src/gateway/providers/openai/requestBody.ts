/**
 * The body sent to an OpenAI-compatible upstream: the client's body with only what the gateway
 * must change (a Messages request is first converted to chat completions, relay/formats, and so is a
 * Responses request unless the upstream has the Responses API, which gets it as it came).
 * - `model`: the channel's upstream name for the platform model;
 * - the completion cap (chat and completions), only when the account's cap requires it: a client
 *   value larger than the cap is lowered to it; with no client value, the cap is added: for chat as
 *   `max_completion_tokens` for OpenAI itself (its reasoning models refuse `max_tokens`) and as
 *   `max_tokens` elsewhere (what every OpenAI-compatible server understands); completions only
 *   know `max_tokens`; Responses `max_output_tokens`;
 * - streams: `stream_options.include_usage: true`, so the upstream reports real usage.
 * Every other field (tools, tool_choice, temperature, response_format, unknown ones)
 * passes through untouched.
 */
import { messagesToChatRequest } from '../../relay/formats/chatMessages/request.ts';
import { responsesToChatRequest } from '../../relay/formats/chatResponses/request.ts';
import { withoutOwnThinking } from '../../relay/formats/thinkingBlocks.ts';
import type { UpstreamFormat } from '../../relay/formats/types.ts';
import type { Channel, RelayRequest } from '../../relay/types.ts';

export function upstreamModel(channel: Channel, platformModel: string): string {
  return channel.models.get(platformModel) ?? platformModel;
}

/**
 * The format an OpenAI-compatible upstream is sent a request in: its own; chat for a Messages
 * request, and for a Responses request unless the upstream has the Responses API.
 */
export function openaiFormatOf(request: RelayRequest, channel: Channel): UpstreamFormat {
  if (request.operation === 'responses') return channel.responsesApi ? 'responses' : 'chat';
  return request.operation === 'messages' ? 'chat' : request.operation;
}

/** The request as the upstream's format has it: a copy (its fields are changed below), converted where the formats differ. */
function bodyOf(request: RelayRequest, format: UpstreamFormat): Record<string, unknown> {
  if (request.operation === 'messages') return messagesToChatRequest(request.body);
  if (request.operation === 'responses' && format === 'chat') return responsesToChatRequest(request.body);
  return { ...request.body };
}

export function upstreamBody(request: RelayRequest, channel: Channel): string {
  const operation = openaiFormatOf(request, channel);
  const converted = request.operation !== operation;
  const body = bodyOf(request, operation);
  body['model'] = upstreamModel(channel, request.model);
  // Responses passes through: only its cap is lowered to what the account can pay (no stream_options there), and
  // an Anthropic model's thinking the gateway carried in it is left out (thinkingBlocks.ts).
  if (operation === 'responses') {
    if (Array.isArray(body['input'])) body['input'] = withoutOwnThinking(body['input']);
    return JSON.stringify(withCap(body, 'max_output_tokens', request.maxCompletionTokens));
  }
  if (operation !== 'chat' && operation !== 'completion') return JSON.stringify(body);
  if (converted && prefersMaxCompletionTokens(channel)) {
    body['max_completion_tokens'] = body['max_tokens'];
    delete body['max_tokens'];
  }
  const cap = request.maxCompletionTokens;
  const mt = body['max_tokens'];
  if (operation === 'completion') {
    withCap(body, 'max_tokens', cap);
  } else if (cap !== null) {
    const mct = body['max_completion_tokens'];
    if (typeof mt === 'number' && mt > cap) body['max_tokens'] = cap;
    if (typeof mct === 'number' && mct > cap) body['max_completion_tokens'] = cap;
    if (typeof mt !== 'number' && typeof mct !== 'number') {
      body[prefersMaxCompletionTokens(channel) ? 'max_completion_tokens' : 'max_tokens'] = cap;
    }
  }
  if (request.stream) {
    const options = body['stream_options'] as Record<string, unknown> | null | undefined;
    body['stream_options'] = options ? { ...options, include_usage: true } : { include_usage: true };
  }
  return JSON.stringify(body);
}

/** `body` with `field` at most `cap` (added when absent); unchanged when there is no cap. */
function withCap(body: Record<string, unknown>, field: string, cap: number | null): Record<string, unknown> {
  const asked = body[field];
  if (cap !== null && (typeof asked !== 'number' || asked > cap)) body[field] = cap;
  return body;
}

function prefersMaxCompletionTokens(channel: Channel): boolean {
  const base = channel.baseUrl ?? '';
  return /^https?:\/\/(api\.openai\.com|[^/]+\.openai\.azure\.com)(?:[:/]|$)/i.test(base);
}

/** Each format's path under an OpenAI-compatible base URL (which ends in /v1 or the like). */
const FORMAT_PATHS: Readonly<Partial<Record<UpstreamFormat, string>>> = {
  chat: '/chat/completions',
  completion: '/completions',
  embedding: '/embeddings',
  image: '/images/generations',
  responses: '/responses',
};

/** `{baseUrl}/chat/completions` (or the format's path), split for undici: origin and path (tolerates a trailing slash). */
export function upstreamUrl(baseUrl: string, format: UpstreamFormat): { origin: string; path: string } {
  const cacheKey = `${format} ${baseUrl}`;
  let target = urls.get(cacheKey);
  if (!target) {
    const url = new URL(baseUrl);
    target = { origin: url.origin, path: `${url.pathname.replace(/\/+$/, '')}${FORMAT_PATHS[format] ?? ''}${url.search}` };
    if (urls.size > 1000) urls.clear();
    urls.set(cacheKey, target);
  }
  return target;
}

const urls = new Map<string, { origin: string; path: string }>();
