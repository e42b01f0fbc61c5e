/**
 * Error responses: the error a handler throws, and the one writer of the contract's error body
 * (src/contract/errors.ts errorBody: {"error":{"message","type","code"}}, message ending with the request id),
 * or of the same error in Anthropic's shape for the Messages API.
 */
import type { ServerResponse } from 'node:http';
import { anthropicErrorBody, ERROR_CODES, errorBody } from '../../contract/index.ts';
import type { ErrorCode } from '../../contract/index.ts';
import { setBaseHeaders } from './headers.ts';

/** Thrown anywhere in a handler; the app turns it into the contract response. */
export class HttpError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** Machine-readable details for Anthropic's error shape (`error.details`), which its SDKs act on. */
  readonly details: Readonly<Record<string, unknown>> | undefined;
  constructor(code: ErrorCode, detail?: string, headers: Record<string, string> = {}, details?: Readonly<Record<string, unknown>>) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'HttpError';
    this.code = code;
    this.detail = detail;
    this.headers = headers;
    this.details = details;
  }
}

/** Whose error body a request gets: the contract's (OpenAI's shape), or Anthropic's for the Messages API. */
export type ErrorShape = 'openai' | 'anthropic';

/** Sends the error, unless headers already went out (then the connection is ended). */
/** How an error goes out: extra headers, the body's shape, and a status other than the code's own (an upstream's 422 stays a 422). */
export interface ErrorOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly shape?: ErrorShape;
  /** Anthropic's shape only: its `error.details`. */
  readonly details?: Readonly<Record<string, unknown>> | undefined;
  readonly status?: number;
}

export function sendError(res: ServerResponse, requestId: string, code: ErrorCode, detail?: string, options: ErrorOptions = {}): void {
  const { headers = {}, shape = 'openai', status = ERROR_CODES[code].status, details } = options;
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  // Anthropic's clients send the key in x-api-key (the contract's words name the Bearer header only).
  const said = shape === 'anthropic' && code === 'missing_api_key' && detail === undefined ? 'Anthropic clients send it as "x-api-key: <API_KEY>".' : detail;
  const payload = JSON.stringify(shape === 'anthropic' ? anthropicErrorBody(code, requestId, said, details) : errorBody(code, requestId, detail));
  setBaseHeaders(res, requestId);
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}
