/**
 * GET /api/openapi.json: the management API as an OpenAPI 3.1 document, generated from the route table
 * the gateway serves (contract api/openapi.ts) once, when the gateway loads, and answered as the same
 * bytes every time: public, cacheable (Cache-Control and an ETag; 304 to a matching If-None-Match).
 */
import { createHash } from 'node:crypto';
import { API_ROUTES, openApiDocument } from '../../contract/index.ts';
import type { ApiHandler } from './api.ts';

const JSON_BYTES = Buffer.from(JSON.stringify(openApiDocument(API_ROUTES)), 'utf8');
const ETAG = `"${createHash('sha256').update(JSON_BYTES).digest('base64url').slice(0, 27)}"`;
const CACHING = { 'Cache-Control': 'public, max-age=3600', ETag: ETAG };

/** A client's If-None-Match that names this document (a list, a weak tag, or *). */
function alreadyHeld(ifNoneMatch: string | undefined): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, '')).some((tag) => tag === ETAG || tag === '*');
}

export const openApi: ApiHandler<'getOpenApi'> = (_gw, ctx) => {
  if (alreadyHeld(ctx.req.headers['if-none-match'])) return { file: Buffer.alloc(0), contentType: 'application/json; charset=utf-8', status: 304, headers: CACHING };
  return { file: JSON_BYTES, contentType: 'application/json; charset=utf-8', headers: CACHING };
};
