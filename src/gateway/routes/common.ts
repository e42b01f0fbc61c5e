/** The steps every keyed endpoint starts with: fresh cache, authentication, the key's request rate. */
import { authenticate } from '../auth.ts';
import { HttpError } from '../http/errors.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { KeyRecord } from '../store/types.ts';

export type Handler = (gw: Gateway, ctx: RequestContext) => Promise<void> | void;

/** The request's key; a value (no promise) unless the catalog has to reload first. */
export function requireKey(gw: Gateway, ctx: RequestContext): KeyRecord | Promise<KeyRecord> {
  const reloading = gw.catalog.refresh();
  return reloading ? reloading.then(() => keyOf(gw, ctx)) : keyOf(gw, ctx);
}

function keyOf(gw: Gateway, ctx: RequestContext): KeyRecord {
  const key = authenticate(ctx.req.headers.authorization, gw.catalog);
  ctx.log.keyId = key.id;
  ctx.log.keyName = key.name;
  ctx.log.accountId = key.accountId;
  const wait = gw.rate.take(key.id, key.rpm);
  if (wait > 0) throw new HttpError('rate_limited', `The limit of this key is ${key.rpm} requests per minute.`, { 'Retry-After': String(wait) });
  return key;
}
