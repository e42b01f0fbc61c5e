/**
 * One attempt against an OpenAI-compatible channel: POST {baseUrl}/chat/completions,
 * then the status decides: 2xx is answered (JSON or stream), 429 / 5xx / 408 and the
 * channel's own faults (401, 403, 404: a wrong upstream key or model mapping, which the
 * client cannot fix) fail over, any other 4xx is the client's request and is returned to
 * it faithfully (see `upstreamRejection` in types.ts).
 */
import type { Dispatcher } from 'undici';
import { dispatcherFor } from './dispatchers.ts';
import { chatCompletionsUrl, upstreamBody } from './upstreamBody.ts';
import { classify, clientGone, describe, estimatedUsage, next, retryAfterSeconds, NO_USAGE, Watchdog, type AttemptContext, type AttemptResult } from './attempt.ts';
import { relayJson } from './openaiJson.ts';
import { relayStream } from './openaiStream.ts';
import type { RelayOutcome } from './types.ts';

const REJECTION_BODY_LIMIT = 64 * 1024;

export async function openaiAttempt(ctx: AttemptContext): Promise<AttemptResult> {
  const { request, channel } = ctx;
  if (!channel.baseUrl) return next('upstream_error', 'channel has no base URL');
  const { origin, path } = chatCompletionsUrl(channel.baseUrl);
  // A stream needs its own controller (it stops the upstream when it stops reading) and the watchdog
  // (whose idle clock pauses while the client is slow). A JSON answer needs neither: undici's own
  // headersTimeout and bodyTimeout, passed below, are the same two clocks (first byte, then silence
  // between chunks), and the client's signal can abort the upstream request directly. That saves an
  // AbortController, a listener added and removed, and a timer per request. (undici runs timeouts of
  // 1 s and more on a coarse clock: they may fire up to about a second late.)
  let controller: AbortController | null = null;
  let watchdog: Watchdog | null = null;
  let onClientAbort: (() => void) | null = null;
  if (request.stream) {
    const c = (controller = new AbortController());
    watchdog = new Watchdog(c);
    onClientAbort = () => c.abort(request.signal.reason);
    request.signal.addEventListener('abort', onClientAbort, { once: true });
    if (request.signal.aborted) c.abort(request.signal.reason);
    watchdog.arm(channel.timeouts.firstByteMs);
  }
  try {
    let response: Dispatcher.ResponseData;
    try {
      response = await dispatcherFor(channel, origin).request({
        origin,
        path,
        method: 'POST',
        headers: request.stream ? (channel.apiKey ? streamHeaders(channel.apiKey) : STREAM_HEADERS) : channel.apiKey ? jsonHeaders(channel.apiKey) : JSON_HEADERS,
        body: upstreamBody(request, channel),
        signal: controller ? controller.signal : request.signal,
        headersTimeout: channel.timeouts.firstByteMs,
        bodyTimeout: channel.timeouts.idleMs,
      });
    } catch (err) {
      const kind = classify(err, controller?.signal ?? null, request.signal);
      if (kind === 'client') return clientGone(ctx, estimatedUsage(request, 0));
      if (kind === 'timeout') return next('upstream_timeout', `no answer within ${channel.timeouts.firstByteMs} ms`);
      return next('upstream_unavailable', `connection failed: ${describe(err)}`);
    }
    const status = response.statusCode;
    if (status >= 200 && status < 300) {
      return controller && watchdog ? await relayStream(ctx, response.body, watchdog, controller) : await relayJson(ctx, response.body);
    }
    if (status === 429) {
      response.body.dump().catch(() => {});
      return next('upstream_rate_limited', 'upstream HTTP 429', retryAfterSeconds(response.headers));
    }
    if (status >= 500 || status === 408 || status === 401 || status === 403 || status === 404 || status < 400) {
      response.body.dump().catch(() => {});
      return next(status === 408 ? 'upstream_timeout' : 'upstream_error', `upstream HTTP ${status}`);
    }
    return await rejection(ctx, status, response.body);
  } finally {
    watchdog?.clear();
    if (onClientAbort) request.signal.removeEventListener('abort', onClientAbort);
  }
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' } as const;
const STREAM_HEADERS = { 'content-type': 'application/json', accept: 'text/event-stream' } as const;

function jsonHeaders(apiKey: string): Record<string, string> {
  return { ...JSON_HEADERS, authorization: `Bearer ${apiKey}` };
}

function streamHeaders(apiKey: string): Record<string, string> {
  return { ...STREAM_HEADERS, authorization: `Bearer ${apiKey}` };
}

/** A 4xx about the request itself: the upstream's words go back to the client, with our type and code. */
async function rejection(ctx: AttemptContext, status: number, body: Dispatcher.ResponseData['body']): Promise<AttemptResult> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += chunk.toString('utf8');
      if (text.length > REJECTION_BODY_LIMIT) break;
    }
  } catch {
    // The status is known; the body is a courtesy.
  }
  body.destroy();
  let message = text.slice(0, 2000).trim() || `upstream HTTP ${status}`;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'object' && typeof parsed.error?.message === 'string') message = parsed.error.message;
    else if (typeof parsed.error === 'string') message = parsed.error;
    else if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // Not JSON: keep the text.
  }
  const outcome: RelayOutcome = {
    kind: 'failed',
    code: status === 413 ? 'request_too_large' : 'invalid_request',
    detail: message,
    upstreamRejection: { status, message },
    channel: ctx.channel.name,
    firstByteMs: null,
    usage: NO_USAGE,
  };
  return { kind: 'final', outcome };
}
