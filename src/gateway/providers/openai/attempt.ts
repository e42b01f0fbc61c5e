/**
 * An OpenAI-compatible channel: each request goes to `{baseUrl}/<endpoint>` in its own format, a
 * Messages request as chat completions (converted there and back), a Responses request as chat
 * too unless the upstream has the Responses API; with the channel's key as a Bearer token.
 */
import { translationFor } from '../../relay/formats/translation.ts';
import { convertRequest } from '../../relay/formats/types.ts';
import { next, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { httpAttempt } from '../../relay/httpAttempt.ts';
import { openaiFormatOf, upstreamBody, upstreamUrl } from './requestBody.ts';

export function openaiAttempt(ctx: AttemptContext): Promise<AttemptResult> {
  const { request, channel } = ctx;
  if (!channel.baseUrl) return Promise.resolve(next('upstream_error', 'channel has no base URL'));
  const format = openaiFormatOf(request, channel);
  const translation = translationFor(request.operation, format);
  if (!translation) return Promise.resolve(next('upstream_error', `an openai channel cannot serve ${request.operation} requests`));
  const { origin, path } = upstreamUrl(channel.baseUrl, format);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: request.stream ? 'text/event-stream' : 'application/json' };
  if (channel.apiKey) headers['authorization'] = `Bearer ${channel.apiKey}`;
  return httpAttempt(ctx, { origin, path, headers, body: convertRequest(() => upstreamBody(request, channel)), translation });
}
