/**
 * The OAuth endpoints' side of HTTP (device sign-in, RFC 8628): their parameters and their errors.
 * OAuth clients (ours, and any RFC 8628 library) read RFC 6749 section 5.2's body,
 * {"error": "authorization_pending", "error_description": "..."}, where `error` is a string; the
 * contract's 7.1 body has an object there and would break them. So these two endpoints answer every
 * error in RFC 6749's shape, the description ending with the request id as the contract's messages do,
 * and the request id in X-Request-Id as on every answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthErrorCode } from '../../contract/index.ts';
import { ERROR_CODES } from '../../contract/index.ts';
import { HttpError } from './errors.ts';
import { setBaseHeaders } from './headers.ts';

/** An OAuth refusal a handler throws; the OAuth wrapper (routes/oauthDevice.ts) writes it. */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  constructor(error: OAuthErrorCode, description: string, status = 400, headers: Record<string, string> = {}) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = status;
    this.headers = headers;
  }
}

/** The contract's refusals of the HTTP layer (body too large, late, gateway busy) in OAuth's words. */
export function oauthErrorOf(error: HttpError): OAuthError {
  const spec = ERROR_CODES[error.code];
  const description = `${spec.message}${error.detail ? ` ${error.detail}` : ''}`;
  const code: OAuthErrorCode = spec.status === 429 || spec.status >= 500 ? 'temporarily_unavailable' : 'invalid_request';
  return new OAuthError(code, description, spec.status, { ...error.headers });
}

export function sendOAuthError(res: ServerResponse, requestId: string, error: OAuthError): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const payload = JSON.stringify({ error: error.error, error_description: `${error.message} (request id: ${requestId})` });
  setBaseHeaders(res, requestId);
  res.statusCode = error.status;
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  noStore(res);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

/** RFC 6749 section 5.1: answers that carry (or concern) credentials are never cached. */
export function noStore(res: ServerResponse): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

/**
 * The request's parameters: application/x-www-form-urlencoded as RFC 6749 says, or a flat JSON object
 * of strings (what many clients send anyway). A parameter given twice is refused (RFC 6749 section 3.2).
 */
export function oauthParams(req: IncomingMessage, body: Buffer): ReadonlyMap<string, string> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const params = new Map<string, string>();
  if (type === 'application/x-www-form-urlencoded') {
    for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
      if (params.has(name)) throw new OAuthError('invalid_request', `The parameter ${name} is given more than once.`);
      params.set(name, value);
    }
    return params;
  }
  if (type === 'application/json') {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      throw new OAuthError('invalid_request', 'The body is not valid JSON.');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OAuthError('invalid_request', 'The body must be a JSON object.');
    for (const [name, v] of Object.entries(value)) {
      if (typeof v !== 'string') throw new OAuthError('invalid_request', `The parameter ${name} must be a string.`);
      params.set(name, v);
    }
    return params;
  }
  throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded (RFC 6749) or a JSON object.');
}

/** A required parameter, at most `maxLength` characters. */
export function requiredParam(params: ReadonlyMap<string, string>, name: string, maxLength: number): string {
  const value = params.get(name);
  if (value === undefined || value === '') throw new OAuthError('invalid_request', `The parameter ${name} is missing.`);
  if (value.length > maxLength) throw new OAuthError('invalid_request', `The parameter ${name} is longer than ${maxLength} characters.`);
  return value;
}
