/** The steps every keyed endpoint starts with: fresh cache, authentication, the key's IP list and request rates. */
import { authenticate, RefusedKeyError } from '../auth.ts';
import { hasOwnLimits, type KeyState } from '../accounts/keyUsage.ts';
import { clientAddress } from '../http/clientAddress.ts';
import { HttpError } from '../http/errors.ts';
import { allowListOf } from './ipAllowList.ts';
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
  let key: KeyRecord;
  try {
    key = authenticate(headers.authorization, gw.catalog, Date.now(), typeof apiKey === 'string' ? apiKey : undefined);
  } catch (error) {
    if (error instanceof RefusedKeyError) {
      nameKey(ctx, error.key);
      // Still sampled as a request without a usable key: a leaked disabled key cannot fill the log.
      ctx.log.sampled = true;
    }
    throw error;
  }
  return admitKey(gw, ctx, key, counted);
}

/**
 * A usable key's request let in: the log row names the key and its account, its IP allow-list holds, and
 * (when `counted`) its request rates. The same steps whether the client presented the key's secret or the
 * gateway acts for the key (the console's playground, which has no secret).
 */
export function admitKey(gw: Gateway, ctx: RequestContext, key: KeyRecord, counted = true): KeyRecord | Promise<KeyRecord> {
  nameKey(ctx, key);
  if (key.allowIps !== null) {
    const address = clientAddress(ctx.req, gw.trustProxy);
    if (!allowListOf(key).allows(address)) throw new HttpError('ip_not_allowed', `This request came from ${address}.`);
  }
  if (!counted) return key;
  if (hasOwnLimits(key)) return admitOwn(gw, key);
  const wait = gw.rate.take(key.id, key.rpm);
  if (wait === 0) return key;
  return typeof wait === 'object' ? wait.then((w) => admitted(key, w)) : admitted(key, wait);
}

function nameKey(ctx: RequestContext, key: KeyRecord): void {
  ctx.log.keyId = key.id;
  ctx.log.keyName = key.name;
  ctx.log.accountId = key.accountId;
}

/** A key with limits of its own: its tokens per minute and requests per day first (counting it), then its requests per minute. */
async function admitOwn(gw: Gateway, key: KeyRecord): Promise<KeyRecord> {
  const state = await keyState(gw, key);
  const refused = gw.usage.admit(key, state);
  if (refused) throw new HttpError('rate_limited', refused.detail, { 'Retry-After': String(refused.wait) });
  try {
    return admitted(key, await gw.rate.take(key.id, key.rpm));
  } catch (error) {
    gw.usage.unadmit(state);
    throw error;
  }
}

/** The key's usage state (loaded once per period and day); a store that cannot be read is a 503, as for charges. */
export async function keyState(gw: Gateway, key: KeyRecord): Promise<KeyState> {
  try {
    return await gw.usage.state(key);
  } catch {
    throw new HttpError('store_unavailable', 'The usage of this key could not be read.', { 'Retry-After': '5' });
  }
}

function admitted(key: KeyRecord, wait: number | 'unavailable'): KeyRecord {
  if (wait === 'unavailable') throw new HttpError('store_unavailable', undefined, { 'Retry-After': '5' });
  if (wait > 0) throw new HttpError('rate_limited', `The limit of this key is ${key.rpm} requests per minute.`, { 'Retry-After': String(wait) });
  return key;
}
