/**
 * GET /api/openapi.json: the management API as an OpenAPI 3.1 document, generated from the route table
 * the gateway serves (contract api/openapi.ts) once, when first asked for, and answered as the same
 * bytes every time: public, cacheable (Cache-Control and an ETag; 304 to a matching If-None-Match).
 * Not at load: generating it walks every schema and sorts with ICU's collation, which kept ~2.3 MB
 * of ICU's data resident in every gateway, asked for or not.
 */
import { createHash } from 'node:crypto';
import { API_ROUTES, openApiDocument } from '../../contract/index.ts';
import type { ApiHandler } from './api.ts';

let generated: { readonly bytes: Buffer; readonly caching: Readonly<Record<string, string>> } | null = null;

function theDocument(): NonNullable<typeof generated> {
  if (generated) return generated;
  const bytes = Buffer.from(JSON.stringify(openApiDocument(API_ROUTES)), 'utf8');
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  generated = { bytes, caching: { 'Cache-Control': 'public, max-age=3600', ETag: etag } };
  return generated;
}

/** A client's If-None-Match that names this document (a list, a weak tag, or *). */
function alreadyHeld(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, '')).some((tag) => tag === etag || tag === '*');
}

export const openApi: ApiHandler<'getOpenApi'> = (_gw, ctx) => {
  const { bytes, caching } = theDocument();
  if (alreadyHeld(ctx.req.headers['if-none-match'], caching.ETag)) return { file: Buffer.alloc(0), contentType: 'application/json; charset=utf-8', status: 304, headers: caching };
  return { file: bytes, contentType: 'application/json; charset=utf-8', headers: caching };
};
