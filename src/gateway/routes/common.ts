/** The steps every keyed endpoint starts with: fresh cache, authentication, the key's request rate. */
import { authenticate } from '../auth.ts';
import { HttpError } from '../http/errors.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { KeyRecord } from '../store/types.ts';

export type Handler = (gw: Gateway, ctx: RequestContext) => Promise<void> | void;

/**
 * The request's key; a value (no promise) unless the catalog has to reload first. `counted: false`
 * for requests that do not count against the key's request rate (token counting).
 */
export function requireKey(gw: Gateway, ctx: RequestContext, counted = true): KeyRecord | Promise<KeyRecord> {
  const reloading = gw.catalog.refresh();
  return reloading ? reloading.then(() => keyOf(gw, ctx, counted)) : keyOf(gw, ctx, counted);
}

function keyOf(gw: Gateway, ctx: RequestContext, counted: boolean): KeyRecord | Promise<KeyRecord> {
  const { headers } = ctx.req;
  const apiKey = headers['x-api-key'];
  const key = authenticate(headers.authorization, gw.catalog, Date.now(), typeof apiKey === 'string' ? apiKey : undefined);
  ctx.log.keyId = key.id;
  ctx.log.keyName = key.name;
  ctx.log.accountId = key.accountId;
  if (!counted) return key;
  const wait = gw.rate.take(key.id, key.rpm);
  if (wait === 0) return key;
  return typeof wait === 'object' ? wait.then((w) => admitted(key, w)) : admitted(key, wait);
}

function admitted(key: KeyRecord, wait: number | 'unavailable'): KeyRecord {
  if (wait === 'unavailable') throw new HttpError('store_unavailable', undefined, { 'Retry-After': '5' });
  if (wait > 0) throw new HttpError('rate_limited', `The limit of this key is ${key.rpm} requests per minute.`, { 'Retry-After': String(wait) });
  return key;
}
