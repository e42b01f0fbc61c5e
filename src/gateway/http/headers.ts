/**
 * Headers every answer carries: its request id, and CORS (a web page may call the API with a key).
 * Most answers set them with setHeader (setBaseHeaders); the relay's answers, on the hot path, give
 * them to a single writeHead as a flat list (relay/respond.ts), so Node builds no header map at all.
 */
import type { ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '../../contract/index.ts';

export const REQUEST_ID = REQUEST_ID_HEADER;
export const ALLOW_ORIGIN = 'Access-Control-Allow-Origin';
export const EXPOSE = 'Access-Control-Expose-Headers';
export const EXPOSED = 'X-Request-Id, Request-Id, Retry-After, X-Gateway-Max-Tokens, X-Gateway-Cost';

/** For answers built with setHeader (errors, the console, the small JSON routes). */
export function setBaseHeaders(res: ServerResponse, requestId: string): void {
  res.setHeader(REQUEST_ID, requestId);
  res.setHeader(ALLOW_ORIGIN, '*');
  res.setHeader(EXPOSE, EXPOSED);
}
