/**
 * Error responses, all built from the contract's ERROR_CODES table: body
 * {"error":{"message","type","code"}}, message ending with the request id.
 */
import type { ServerResponse } from 'node:http';
import { ERROR_CODES, GATEWAY_ERROR_TYPE } from '../contract/index.ts';
import type { ErrorBody, ErrorCode } from '../contract/index.ts';
import { setBaseHeaders } from './headers.ts';

/** Thrown anywhere in a handler; the app turns it into the contract response. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  constructor(code: ErrorCode, detail?: string, headers: Record<string, string> = {}) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'GatewayError';
    this.code = code;
    this.detail = detail;
    this.headers = headers;
  }
}

export function errorBody(code: ErrorCode, requestId: string, detail?: string): ErrorBody {
  const base: string = ERROR_CODES[code].message;
  const message = `${base}${detail ? ` ${detail}` : ''} (request id: ${requestId})`;
  return { error: { message, type: GATEWAY_ERROR_TYPE, code } };
}

/** Sends the error, unless headers already went out (then the connection is ended). */
export function sendError(res: ServerResponse, requestId: string, code: ErrorCode, detail?: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const payload = JSON.stringify(errorBody(code, requestId, detail));
  setBaseHeaders(res, requestId);
  res.statusCode = ERROR_CODES[code].status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

export function sendJson(res: ServerResponse, requestId: string, status: number, value: unknown): void {
  const payload = JSON.stringify(value);
  setBaseHeaders(res, requestId);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}
