/**
 * One attempt against an OpenAI-compatible channel: POST {baseUrl}/chat/completions,
 * then the status decides: 2xx is answered (JSON or stream), 429 / 5xx / 408 and the
 * channel's own faults (401, 403, 404: a wrong upstream key or model mapping, which the
 * client cannot fix) fail over, any other 4xx is the client's request and is returned to
 * it faithfully (see `upstreamRejection` in types.ts).
 */
import type { Dispatcher } from 'undici';
import { upstreamBody, upstreamUrl } from './requestBody.ts';
import { retryAfterMs, errorMessageOf } from '../../../contract/index.ts';
import { estimatedUsage, next, NO_USAGE, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { clientGone } from '../../relay/clientGone.ts';
import { classifyFailure as classify, describeFailure as describe } from '../../relay/failure.ts';
import { Watchdog } from '../../relay/watchdog.ts';
import { answerJson } from './jsonAnswer.ts';
import { exchangeJson, headersOf } from './jsonExchange.ts';
import { relayStream } from './streamAnswer.ts';
import type { RelayOutcome } from '../../relay/types.ts';

const REJECTION_BODY_LIMIT = 64 * 1024;

export async function openaiAttempt(ctx: AttemptContext): Promise<AttemptResult> {
  const { request, channel } = ctx;
  if (!channel.baseUrl) return next('upstream_error', 'channel has no base URL');
  const { origin, path } = upstreamUrl(channel.baseUrl, request.operation);
  const dispatcher = ctx.deps.pools.dispatcherFor(channel, origin);
  return request.stream ? streamAttempt(ctx, dispatcher, origin, path) : jsonAttempt(ctx, dispatcher, origin, path);
}

/**
 * A JSON answer needs no controller of its own and no watchdog: undici's own headersTimeout and
 * bodyTimeout, passed with the request, are the same two clocks (first byte, then silence between
 * chunks), and the client's signal aborts the upstream request directly. (undici runs timeouts of
 * 1 s and more on a coarse clock: they may fire up to about a second late.) The answer is collected
 * by exchangeJson (upstreamJson.ts), without undici's request() and its body stream.
 */
async function jsonAttempt(ctx: AttemptContext, dispatcher: Dispatcher, origin: string, path: string): Promise<AttemptResult> {
  const { request, channel } = ctx;
  const exchange = await exchangeJson(
    dispatcher,
    {
      origin,
      path,
      method: 'POST',
      headers: channel.apiKey ? withKey(JSON_HEADERS, channel.apiKey) : JSON_HEADERS,
      body: upstreamBody(request, channel),
      headersTimeout: channel.timeouts.firstByteMs,
      bodyTimeout: channel.timeouts.idleMs,
    },
    request.signal,
  );
  const { status, error } = exchange;
  const ok = status >= 200 && status < 300;
  if (error !== null && (status === 0 || ok)) {
    const kind = classify(error, null, request.signal);
    if (kind === 'client') return clientGone(ctx, estimatedUsage(request, 0));
    if (status === 0) {
      if (kind === 'timeout') return next('upstream_timeout', `no answer within ${channel.timeouts.firstByteMs} ms`);
      return next('upstream_unavailable', `connection failed: ${describe(error)}`);
    }
    if (kind === 'timeout') return next('upstream_timeout', 'upstream body timed out');
    return next('upstream_unavailable', `upstream body failed: ${describe(error)}`);
  }
  if (ok) return answerJson(ctx, exchange.body);
  // Not 2xx: the status decides; a body that broke off is only a shorter message.
  return failover(status, () => headersOf(exchange.rawHeaders)) ?? rejectionOf(ctx, status, exchange.body.toString('utf8'));
}

/**
 * A stream has its own controller (it stops the upstream when it stops reading) and the watchdog
 * (whose idle clock pauses while the client is slow).
 */
async function streamAttempt(ctx: AttemptContext, dispatcher: Dispatcher, origin: string, path: string): Promise<AttemptResult> {
  const { request, channel } = ctx;
  const controller = new AbortController();
  const watchdog = new Watchdog(controller);
  const onClientAbort = () => controller.abort(request.signal.reason);
  request.signal.addEventListener('abort', onClientAbort, { once: true });
  if (request.signal.aborted) controller.abort(request.signal.reason);
  watchdog.arm(channel.timeouts.firstByteMs);
  try {
    let response: Dispatcher.ResponseData;
    try {
      response = await dispatcher.request({
        origin,
        path,
        method: 'POST',
        headers: channel.apiKey ? withKey(STREAM_HEADERS, channel.apiKey) : STREAM_HEADERS,
        body: upstreamBody(request, channel),
        signal: controller.signal,
        headersTimeout: channel.timeouts.firstByteMs,
        bodyTimeout: channel.timeouts.idleMs,
      });
    } catch (err) {
      const kind = classify(err, controller.signal, request.signal);
      if (kind === 'client') return clientGone(ctx, estimatedUsage(request, 0));
      if (kind === 'timeout') return next('upstream_timeout', `no answer within ${channel.timeouts.firstByteMs} ms`);
      return next('upstream_unavailable', `connection failed: ${describe(err)}`);
    }
    const status = response.statusCode;
    if (status >= 200 && status < 300) return await relayStream(ctx, response.body, watchdog, controller);
    const failed = failover(status, () => response.headers);
    if (failed) {
      response.body.dump().catch(() => {});
      return failed;
    }
    return rejectionOf(ctx, status, await readText(response.body));
  } finally {
    watchdog.clear();
    request.signal.removeEventListener('abort', onClientAbort);
  }
}

const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json', accept: 'application/json' };
const STREAM_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json', accept: 'text/event-stream' };

function withKey(headers: Readonly<Record<string, string>>, apiKey: string): Record<string, string> {
  return { ...headers, authorization: `Bearer ${apiKey}` };
}

/**
 * A non-2xx status that fails over: 429, 5xx, 408, and the channel's own faults (401, 403, 404);
 * null for any other 4xx, a rejection of the request itself.
 */
function failover(status: number, headers: () => Record<string, string | string[] | undefined>): AttemptResult | null {
  if (status === 429) return next('upstream_rate_limited', 'upstream HTTP 429', retryAfterSecondsOf(headers()));
  if (status >= 500 || status === 408 || status === 401 || status === 403 || status === 404 || status < 400) {
    return next(status === 408 ? 'upstream_timeout' : 'upstream_error', `upstream HTTP ${status}`);
  }
  return null;
}

/** At most REJECTION_BODY_LIMIT characters of a body; a body that fails is only a shorter text. */
async function readText(body: Dispatcher.ResponseData['body']): Promise<string> {
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
  return text;
}

/** A 4xx about the request itself: the upstream's words go back to the client, with our type and code. */
function rejectionOf(ctx: AttemptContext, status: number, text: string): AttemptResult {
  const message = (errorMessageOf(parseOrText(text)) ?? text.slice(0, 2000).trim()) || `upstream HTTP ${status}`;
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

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whole seconds an upstream asked to wait, when it said. */
function retryAfterSecondsOf(headers: Record<string, string | string[] | undefined>): number | undefined {
  const ms = retryAfterMs(headers);
  return ms === null ? undefined : Math.ceil(ms / 1000);
}
