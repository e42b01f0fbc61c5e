/**
 * An `anthropic` channel: a native Messages API upstream. Chat models only: a Messages request goes
 * as it came (thinking blocks and their signatures untouched; the client's `anthropic-version` and
 * `anthropic-beta` forwarded unchanged), a chat completions or Responses request is converted to Messages and
 * its answer back. The channel's key goes in `x-api-key`.
 */
import { DEFAULT_ANTHROPIC_VERSION, MIN_THINKING_BUDGET, thinkingBudgetOf, type ChatRequest } from '../../../contract/index.ts';
import { chatToMessagesRequest } from '../../relay/formats/chatMessages/request.ts';
import { responsesToChatRequest } from '../../relay/formats/chatResponses/request.ts';
import { translationFor } from '../../relay/formats/translation.ts';
import { convertRequest } from '../../relay/formats/types.ts';
import { next, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { httpAttempt } from '../../relay/httpAttempt.ts';
import type { Channel, RelayRequest } from '../../relay/types.ts';
import { upstreamModel } from '../openai/requestBody.ts';

/** `max_tokens` for a chat request that set none, on a free model (a priced one always has the account's cap). */
const DEFAULT_MAX_TOKENS = 8192;

export function anthropicAttempt(ctx: AttemptContext): Promise<AttemptResult> {
  const { request, channel } = ctx;
  if (!channel.baseUrl) return Promise.resolve(next('upstream_error', 'channel has no base URL'));
  const translation = translationFor(request.operation, 'messages');
  if (!translation) return Promise.resolve(next('upstream_error', `an anthropic channel serves chat models only: it cannot take ${request.operation} requests`));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: request.stream ? 'text/event-stream' : 'application/json',
    'anthropic-version': DEFAULT_ANTHROPIC_VERSION,
    ...request.anthropicHeaders,
  };
  if (channel.apiKey) headers['x-api-key'] = channel.apiKey;
  const { origin, path } = messagesUrl(channel.baseUrl);
  return httpAttempt(ctx, { origin, path, headers, body: convertRequest(() => messagesBody(request, channel)), translation });
}

/** `{baseUrl}/v1/messages`, whether the base URL is written with its `/v1` (as OpenAI-style ones are) or without (as Anthropic documents it). */
export function messagesUrl(baseUrl: string): { origin: string; path: string } {
  const url = new URL(baseUrl);
  const base = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { origin: url.origin, path: `${base}/v1/messages${url.search}` };
}

/**
 * The Messages body: the client's own (only `model` and, when the account cannot pay for more, a
 * lower `max_tokens` and thinking budget change), or a chat request converted, whose `max_tokens` is the client's cap,
 * else the account's, else the model default (Messages requires one).
 */
export function messagesBody(request: RelayRequest, channel: Channel): string {
  const model = upstreamModel(channel, request.model);
  const cap = request.maxCompletionTokens;
  if (request.operation === 'messages') {
    const body: Record<string, unknown> = { ...request.body, model };
    if (cap !== null && request.body.max_tokens > cap) {
      body['max_tokens'] = cap;
      // The API wants the thinking budget below max_tokens; the reservation left room for the least budget.
      const budget = thinkingBudgetOf(request.body);
      if (budget !== null && budget >= cap) body['thinking'] = { ...(request.body['thinking'] as object), budget_tokens: Math.max(MIN_THINKING_BUDGET, cap - 1) };
    }
    return JSON.stringify(body);
  }
  const chat = chatBodyOf(request);
  const asked = chat.max_completion_tokens ?? chat.max_tokens ?? null;
  const maxTokens = Math.min(asked ?? cap ?? DEFAULT_MAX_TOKENS, cap ?? Number.MAX_SAFE_INTEGER);
  return JSON.stringify({ ...chatToMessagesRequest(chat, maxTokens), model });
}

/** A chat or Responses request as chat completions (a Responses request goes to Messages through chat). */
function chatBodyOf(request: RelayRequest): ChatRequest {
  if (request.operation === 'chat') return request.body;
  if (request.operation === 'responses') return responsesToChatRequest(request.body, true) as ChatRequest;
  throw new Error(`no Messages body for ${request.operation}`);
}
