/**
 * The body sent upstream: the client's body with only what the gateway must change.
 * - `model`: the channel's upstream name for the platform model;
 * - the completion cap (chat and completions), only when the account's cap requires it: a client
 *   value larger than the cap is lowered to it; with no client value, the cap is added: for chat as
 *   `max_completion_tokens` for OpenAI itself (its reasoning models refuse `max_tokens`) and as
 *   `max_tokens` elsewhere (what every OpenAI-compatible server understands); completions only
 *   know `max_tokens`;
 * - streams: `stream_options.include_usage: true`, so the upstream reports real usage.
 * Every other field (tools, tool_choice, temperature, response_format, unknown ones)
 * passes through untouched.
 */
import type { Channel, RelayRequest } from '../../relay/types.ts';

export function upstreamModel(channel: Channel, platformModel: string): string {
  return channel.models.get(platformModel) ?? platformModel;
}

export function upstreamBody(request: RelayRequest, channel: Channel): string {
  const body: Record<string, unknown> = { ...request.body, model: upstreamModel(channel, request.model) };
  if (request.operation !== 'chat' && request.operation !== 'completion') return JSON.stringify(body);
  const cap = request.maxCompletionTokens;
  if (cap !== null && request.operation === 'completion') {
    const mt = request.body.max_tokens;
    if (typeof mt !== 'number' || mt > cap) body['max_tokens'] = cap;
  } else if (cap !== null && request.operation === 'chat') {
    const mt = request.body.max_tokens;
    const mct = request.body.max_completion_tokens;
    if (typeof mt === 'number' && mt > cap) body['max_tokens'] = cap;
    if (typeof mct === 'number' && mct > cap) body['max_completion_tokens'] = cap;
    if (typeof mt !== 'number' && typeof mct !== 'number') {
      body[prefersMaxCompletionTokens(channel) ? 'max_completion_tokens' : 'max_tokens'] = cap;
    }
  }
  if (request.stream) {
    const options = request.body.stream_options;
    body['stream_options'] = options ? { ...options, include_usage: true } : { include_usage: true };
  }
  return JSON.stringify(body);
}

function prefersMaxCompletionTokens(channel: Channel): boolean {
  const base = channel.baseUrl ?? '';
  return /^https?:\/\/(api\.openai\.com|[^/]+\.openai\.azure\.com)(?:[:/]|$)/i.test(base);
}

/** Each operation's path under an OpenAI-compatible base URL (which ends in /v1 or the like). */
const OPERATION_PATHS: Readonly<Record<RelayRequest['operation'], string>> = {
  chat: '/chat/completions',
  completion: '/completions',
  embedding: '/embeddings',
  image: '/images/generations',
};

/** `{baseUrl}/chat/completions` (or the operation's path), split for undici: origin and path (tolerates a trailing slash). */
export function upstreamUrl(baseUrl: string, operation: RelayRequest['operation']): { origin: string; path: string } {
  const cacheKey = `${operation} ${baseUrl}`;
  let target = urls.get(cacheKey);
  if (!target) {
    const url = new URL(baseUrl);
    target = { origin: url.origin, path: `${url.pathname.replace(/\/+$/, '')}${OPERATION_PATHS[operation]}${url.search}` };
    if (urls.size > 1000) urls.clear();
    urls.set(cacheKey, target);
  }
  return target;
}

const urls = new Map<string, { origin: string; path: string }>();
