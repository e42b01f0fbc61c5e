/** What the relay itself writes to the client: answer headers, SSE framing, the in-stream error event. */
import type { ServerResponse } from 'node:http';
import { anthropicErrorBody, errorBody, type ErrorCode } from '../../contract/index.ts';
import { ALLOW_ORIGIN, EXPOSE, EXPOSED, REQUEST_ID } from '../http/headers.ts';
import type { RelayRequest } from './types.ts';
import { takeSequence } from './formats/responsesSequence.ts';

/** Where an answer goes: the response, its request id, and extra header pairs for it (X-Gateway-Max-Tokens). */
export interface Answering {
  readonly res: ServerResponse;
  readonly requestId: string;
  readonly answerHeaders?: readonly string[] | undefined;
}

/** The flat header list, with the request's extra pairs when it has some. */
function withExtra(headers: string[], to: Answering): string[] {
  return to.answerHeaders ? headers.concat(to.answerHeaders) : headers;
}

/**
 * Commits to a streamed answer: 200, event-stream headers sent at once, no Nagle delay.
 * Every header goes in one writeHead as a flat list (the core set none): no per-response header map.
 */
export function startEventStream(to: Answering): void {
  const { res } = to;
  res.writeHead(200, withExtra([
    REQUEST_ID, to.requestId, ALLOW_ORIGIN, '*', EXPOSE, EXPOSED,
    // No Connection header of ours: Node writes keep-alive, or close for an answer sent while the gateway stops.
    'content-type', 'text/event-stream; charset=utf-8', 'cache-control', 'no-cache', 'x-accel-buffering', 'no',
  ], to));
  res.socket?.setNoDelay(true);
  res.flushHeaders();
}

export function writeJson(to: Answering, status: number, body: string | Buffer, more?: readonly string[]): void {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const headers = withExtra([REQUEST_ID, to.requestId, ALLOW_ORIGIN, '*', EXPOSE, EXPOSED, 'content-type', 'application/json', 'content-length', String(length)], to);
  to.res.writeHead(status, more ? headers.concat(more) : headers);
  to.res.end(body);
}

/**
 * Ends a stream that broke after it started: one SSE error event in the contract's error shape (in
 * Anthropic's for a Messages stream), and deliberately no end marker (`[DONE]`, message_stop), so
 * that no client can take it for a finished answer.
 */
export function endWithStreamError(request: Pick<RelayRequest, 'res' | 'requestId' | 'operation' | 'model'>, code: ErrorCode, detail: string): void {
  const { res, requestId } = request;
  if (res.writableEnded || res.destroyed) return;
  if (request.operation === 'messages') res.end(`event: error\ndata: ${JSON.stringify(anthropicErrorBody(code, requestId, detail))}\n\n`);
  else if (request.operation === 'responses') {
    // The Responses `error` event (type, code, message), with the contract's `error` object too: the SDKs raise on it.
    // Then `response.failed`, the end a Responses client waits for (the Codex CLI takes a stream that ends without
    // response.completed or response.failed for a dropped connection, and sends the request again).
    const body = errorBody(code, requestId, detail);
    const failed = {
      id: `resp_${requestId}`, object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'failed', model: request.model,
      error: { code, message: body.error.message }, incomplete_details: null, output: [],
    };
    res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', sequence_number: takeSequence(res), code, message: body.error.message, param: null, ...body })}\n\n` +
      `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', sequence_number: takeSequence(res), response: failed })}\n\n`);
  } else res.end(`data: ${JSON.stringify(errorBody(code, requestId, detail))}\n\n`);
}

/**
 * Writes and resolves once the client can take more (backpressure), or at once when it can.
 * Resolves false when the response is gone (client disconnected).
 */
export function write(res: ServerResponse, text: string): Promise<boolean> | boolean {
  if (res.destroyed || res.writableEnded) return false;
  if (res.write(text)) return true;
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
