/**
 * One attempt against an HTTP upstream (openai and anthropic channels): POST the prepared call,
 * then the status decides: 2xx is answered (JSON or stream), 429 / 5xx / 408 and the
 * channel's own faults (401, 404, a 403 not about the request: a wrong upstream key or model
 * mapping, which the client cannot fix) fail over, any other 4xx is the client's request and
 * is returned to it faithfully (see `upstreamRejection` in types.ts).
 */
import type { Dispatcher } from 'undici';
import { retryAfterMs, errorMessageOf, channelSecrets, redactSecrets } from '../../contract/index.ts';
import type { Translation } from './formats/translation.ts';
import { estimatedUsage, next, NO_USAGE, type AttemptContext, type AttemptFailure, type AttemptResult } from './attempt.ts';
import { forbiddenAbout, upstreamReason } from './upstreamRefusal.ts';
import { clientGone } from './clientGone.ts';
import { classifyFailure as classify, describeFailure as describe, upstreamStatusCode } from './failure.ts';
import { Watchdog } from './watchdog.ts';
import { answerJson } from './jsonAnswer.ts';
import { AnswerTooLargeError, exchangeJson, headersOf } from './jsonExchange.ts';
import { relayStream } from './streamAnswer.ts';
import { openStream, type UpstreamStream } from './streamExchange.ts';
import type { RelayOutcome } from './types.ts';

const REJECTION_BODY_LIMIT = 64 * 1024;
/** Of a failover's body (429, 5xx) only the start is read: its words, for the operator. */
const REASON_BODY_LIMIT = 4 * 1024;

/** One request to one upstream over HTTP, ready to send: what a provider prepares. */
export interface UpstreamCall {
  readonly origin: string;
  readonly path: string;
  /** Content type, accept (JSON or an event stream, as the client asked), the channel's key. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** How the upstream's answer is read and reshaped for the client. */
  readonly translation: Translation;
}

export function httpAttempt(ctx: AttemptContext, call: UpstreamCall): Promise<AttemptResult> {
  const dispatcher = ctx.deps.pools.dispatcherFor(ctx.channel, call.origin);
  return ctx.request.stream ? streamAttempt(ctx, dispatcher, call) : jsonAttempt(ctx, dispatcher, call);
}

/**
 * A JSON answer needs no controller of its own and no watchdog: undici's own headersTimeout and
 * bodyTimeout, passed with the request, are the same two clocks (first byte, then silence between
 * chunks), and the client's signal aborts the upstream request directly. (undici runs timeouts of
 * 1 s and more on a coarse clock: they may fire up to about a second late.) The answer is collected
 * by exchangeJson (upstreamJson.ts), without undici's request() and its body stream.
 */
async function jsonAttempt(ctx: AttemptContext, dispatcher: Dispatcher, call: UpstreamCall): Promise<AttemptResult> {
  const { request, channel } = ctx;
  const exchange = await exchangeJson(
    dispatcher,
    {
      origin: call.origin,
      path: call.path,
      method: 'POST',
      headers: call.headers,
      body: call.body,
      headersTimeout: channel.timeouts.firstByteMs,
      bodyTimeout: channel.timeouts.idleMs,
    },
    request.signal,
    ctx.deps.limits.answerBytes,
  );
  const { status, error } = exchange;
  const ok = status >= 200 && status < 300;
  if (error instanceof AnswerTooLargeError) return next('upstream_error', `upstream answer refused: ${error.message}`);
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
  if (ok) return answerJson(ctx, exchange.body, call.translation);
  // Not 2xx: the status decides; a body that broke off is only a shorter message.
  const text = exchange.body.toString('utf8');
  return failover(ctx, status, () => headersOf(exchange.rawHeaders), text) ?? rejectionOf(ctx, status, text);
}

/**
 * A stream has its own controller (it stops the upstream when it stops reading) and the watchdog
 * (whose idle clock pauses while the client is slow).
 */
async function streamAttempt(ctx: AttemptContext, dispatcher: Dispatcher, call: UpstreamCall): Promise<AttemptResult> {
  const { request, channel } = ctx;
  const controller = new AbortController();
  const watchdog = new Watchdog(controller);
  const onClientAbort = () => controller.abort(request.signal.reason);
  request.signal.addEventListener('abort', onClientAbort, { once: true });
  if (request.signal.aborted) controller.abort(request.signal.reason);
  watchdog.arm(channel.timeouts.firstByteMs);
  try {
    let response: UpstreamStream;
    try {
      response = await openStream(dispatcher, {
        origin: call.origin,
        path: call.path,
        method: 'POST',
        headers: call.headers,
        body: call.body,
        headersTimeout: channel.timeouts.firstByteMs,
        bodyTimeout: channel.timeouts.idleMs,
      }, controller.signal);
    } catch (err) {
      const kind = classify(err, controller.signal, request.signal);
      if (kind === 'client') return clientGone(ctx, estimatedUsage(request, 0));
      if (kind === 'timeout') return next('upstream_timeout', `no answer within ${channel.timeouts.firstByteMs} ms`);
      return next('upstream_unavailable', `connection failed: ${describe(err)}`);
    }
    const status = response.status;
    if (status >= 200 && status < 300) return await relayStream(ctx, response, watchdog, controller, call.translation);
    // A rejection's words go to the client; a failure's only to the operator, so less of them is read first.
    const text = await readText(response, status === 429 || status >= 500 ? REASON_BODY_LIMIT : REJECTION_BODY_LIMIT);
    return failover(ctx, status, () => response.headers(), text) ?? rejectionOf(ctx, status, text);
  } finally {
    watchdog.clear();
    request.signal.removeEventListener('abort', onClientAbort);
  }
}

/**
 * A non-2xx status that fails over: 429, 5xx, 408, and the channel's own faults (401, 404, a 403 not about the
 * request); null for any other 4xx, a rejection of the request itself. The upstream's words go with the failure
 * as its reason, for the operator.
 */
function failover(ctx: AttemptContext, status: number, headers: () => Record<string, string | string[] | undefined>, body: string): AttemptResult | null {
  const reason = upstreamReason(body, ctx.channel);
  const about = status === 401 ? 'key' : status === 403 ? forbiddenAbout(reason) : null;
  if (about === 'request') return null;
  const failure = (detail: string, extra: Partial<AttemptFailure> = {}): AttemptResult => ({ kind: 'next', failure: { code: upstreamStatusCode(status), detail, ...(reason ? { reason } : {}), ...extra } });
  if (status === 429) {
    const retryAfterSeconds = retryAfterSecondsOf(headers());
    return failure('upstream HTTP 429', retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
  }
  if (about === 'key') return failure(`upstream HTTP ${status}: the channel's key was refused`, { keyRefused: true });
  if (status >= 500 || status === 408 || status === 404 || status === 403 || status < 400) return failure(`upstream HTTP ${status}`);
  return null;
}

/** At most `limit` characters of a body; a body that fails is only a shorter text. */
async function readText(body: UpstreamStream, limit: number): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += chunk.toString('utf8');
      if (text.length > limit) break;
    }
  } catch {
    // The status is known; the body is a courtesy.
  }
  body.destroy();
  return text;
}

/**
 * A 4xx about the request itself: the upstream's words go back to the client, with our type and code. A 403 that
 * is about the request (a content policy) is the contract's 400: the request is the client's to change.
 */
function rejectionOf(ctx: AttemptContext, upstreamStatus: number, text: string): AttemptResult {
  const status = upstreamStatus === 403 ? 400 : upstreamStatus;
  const message = redactSecrets((errorMessageOf(parseOrText(text)) ?? text.slice(0, 2000).trim()) || `upstream HTTP ${status}`, channelSecrets(ctx.channel));
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
