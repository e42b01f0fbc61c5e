/** One request's state while it is handled, and the log row it ends with. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cutWithMarker } from '../contract/index.ts';
import { clientAddress } from './http/clientAddress.ts';
import type { ErrorShape } from './http/errors.ts';
import type { LogWriter } from './logs.ts';
import type { RefusedRequest } from './http/malformedRequest.ts';
import type { RequestLog } from './store/types.ts';

/** The fields of the request log that handlers fill in as they learn them. */
export interface RequestLogFields {
  keyId: number | null;
  keyName: string | null;
  accountId: number | null;
  model: string | null;
  channel: string | null;
  errorCode: string | null;
  promptTokens: number;
  completionTokens: number;
  usageEstimated: boolean;
  cost: number;
  firstByteMs: number | null;
  stream: boolean;
  /** The completion cap the gateway set or lowered to; null when the client's own stood. */
  completionCap: number | null;
  /** The channels that failed first, as JSON; null when none did. */
  attempts: string | null;
  /** The model's name at the upstream of `channel`; null when no channel was tried. */
  upstreamModel: string | null;
  /** Logged only as a sample, as requests without a valid key are (a refused key's), though the row names the key. */
  sampled: boolean;
}

/** A User-Agent is logged up to this many characters (enough to tell clients and versions apart). */
export const MAX_USER_AGENT = 256;
/** The longest path kept (in the log row) or echoed (in messages): a long URL is cut, with a marker. */
export const MAX_PATH_SHOWN = 256;

export interface RequestContext {
  readonly id: string;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The request's path, whole (it is routed on); cut to MAX_PATH_SHOWN where it is logged or echoed. */
  readonly path: string;
  readonly time: number;
  /** performance.now() at arrival. */
  readonly started: number;
  /** Aborts when the client goes away or the server stops. */
  readonly signal: AbortSignal;
  readonly log: RequestLogFields;
  /** Set by finishLog: the request's log row is written (once). */
  logWritten: boolean;
  /** Set by a route that is deliberately not logged (the console's own page and reads, token counting). */
  noLog: boolean;
  /** The shape of this request's error body: Anthropic's under /v1/messages, the contract's elsewhere. */
  readonly errorShape: ErrorShape;
  /** The operator said the gateway is behind a proxy (`serve --trust-proxy`): its X-Forwarded-For and -Proto are believed. */
  readonly trustProxy: boolean;
}

export function emptyLogFields(): RequestLogFields {
  return {
    keyId: null, keyName: null, accountId: null, model: null, channel: null, errorCode: null,
    promptTokens: 0, completionTokens: 0, usageEstimated: false, cost: 0, firstByteMs: null, stream: false, completionCap: null, attempts: null, upstreamModel: null, sampled: false,
  };
}

/** Writes the request's log row once. Call it in the same synchronous step as the ledger settlement it reports. */
export function finishLog(logs: LogWriter, ctx: RequestContext): void {
  if (ctx.logWritten || ctx.noLog) return;
  ctx.logWritten = true;
  const l = ctx.log;
  const clientIp = clientAddress(ctx.req, ctx.trustProxy);
  const agent = ctx.req.headers['user-agent'];
  const row: RequestLog = {
    time: ctx.time, requestId: ctx.id, method: ctx.req.method ?? '', path: cutWithMarker(ctx.path, MAX_PATH_SHOWN), accountId: l.accountId, keyId: l.keyId, keyName: l.keyName,
    model: l.model, channel: l.channel, status: ctx.res.statusCode, errorCode: l.errorCode, promptTokens: l.promptTokens,
    completionTokens: l.completionTokens, usageEstimated: l.usageEstimated, cost: l.cost,
    latencyMs: Math.round(performance.now() - ctx.started), firstByteMs: l.firstByteMs, stream: l.stream, completionCap: l.completionCap, attempts: l.attempts,
    upstreamModel: l.upstreamModel, userAgent: agent ? cutWithMarker(agent, MAX_USER_AGENT) : null, clientIp,
  };
  if ((l.keyId !== null && !l.sampled) || logs.unauthenticated.admit(clientIp)) logs.record(row, l.sampled ? null : l.keyId);
  // After the row (and its charge) is queued: counting it can never stand in the way of billing.
  logs.metrics?.observe(row);
}

/** The log row of a request the HTTP parser refused (malformed, headers too large or too slow): no key, sampled per source. */
export function logRefusedRequest(logs: LogWriter, refused: RefusedRequest, time: number): void {
  const row: RequestLog = {
    time, requestId: refused.requestId, method: refused.method, path: cutWithMarker(refused.path, MAX_PATH_SHOWN), accountId: null, keyId: null, keyName: null,
    model: null, channel: null, status: refused.status, errorCode: refused.code, promptTokens: 0, completionTokens: 0, usageEstimated: false, cost: 0,
    latencyMs: 0, firstByteMs: null, stream: false, completionCap: null, attempts: null, upstreamModel: null, userAgent: null, clientIp: refused.clientIp,
  };
  if (logs.unauthenticated.admit(refused.clientIp)) logs.record(row, null);
  logs.metrics?.observe(row);
}
