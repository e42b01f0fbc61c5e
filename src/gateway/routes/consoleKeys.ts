/**
 * A signed-in user's own API keys (issue 10, contract 5.2): GET and POST /api/console/keys, POST
 * /api/console/keys/limits {id, ...limits}, and POST /api/console/keys/{disable,enable,delete,rotate} {id}.
 * Only keys of the user's account are listed or touched: another account's key id answers 404
 * key_not_found, exactly like an id that does not exist. Keys are made and rotated by admin.ts, the one
 * place secrets are made; a secret is answered once, at creation or rotation, and never stored.
 */
import { type CreatedKey, type KeyLimitsBody, type KeyView, type NewKeyBody } from '../../contract/index.ts';
import type { z } from 'zod';
import { changeKeyLimits, createKey, rotateKey } from '../admin.ts';
import { resetsAt, type LimitChanges } from '../keyLimitChanges.ts';
import { dayOf, periodStartDay } from '../store/keySettings.ts';
import { keySnippets } from '../keySnippets.ts';
import { requestOrigin } from '../http/origin.ts';
import { HttpError } from '../http/errors.ts';
import { StoreError, type AccountRecord, type KeyRecord } from '../store/types.ts';
import { userStop } from '../auth.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler } from './api.ts';
import { isoTime, money, refuseUnknownModels } from './consoleCatalog.ts';
import type { SignedIn } from './session.ts';


/**
 * A key as the list shows it (contract KeyView), with what it spent in its current period (`spent`, micro-USD)
 * and the disabled user who stops it, as the request path sees its account (`account`).
 */
function keyView(k: KeyRecord, spent: number, now: number, account: AccountRecord | undefined): KeyView {
  return {
    id: k.id, name: k.name, prefix: k.prefix, status: k.status, created_at: isoTime(k.createdAt)!, last_used_at: isoTime(k.lastUsedAt),
    expires_at: isoTime(k.expiresAt), models: k.models ? [...k.models] : null, rpm: k.rpm, concurrency: k.concurrency, tpm: k.tpm, rpd: k.rpd,
    spend_limit: k.spendLimit === null ? null : money(k.spendLimit), spend_period: k.spendPeriod, spent: money(spent),
    resets_at: resetsAt(k, now), allow_ips: k.allowIps ? [...k.allowIps] : null, disabled_user: userStop(k, account)?.user ?? null,
  };
}

/** The keys as the list shows them, each with its spending in its current period (read from the store's key_usage). */
async function keyViews(gw: Gateway, keys: readonly KeyRecord[]): Promise<KeyView[]> {
  const now = gw.usage.now();
  const usage = await gw.store.keyUsage(keys.map((k) => ({ keyId: k.id, since: periodStartDay(k.spendPeriod, now), day: dayOf(now) })));
  return keys.map((k) => keyView(k, usage.get(k.id)?.spent ?? 0, now, gw.catalog.account(k.accountId)));
}

/** The keys of the signed-in user's account, oldest first. */
async function ownKeys(gw: Gateway, signedIn: SignedIn): Promise<KeyRecord[]> {
  return gw.store.listKeys(signedIn.user.accountId);
}

async function ownKey(gw: Gateway, signedIn: SignedIn, id: number): Promise<KeyRecord> {
  const key = (await ownKeys(gw, signedIn)).find((k) => k.id === id);
  if (!key) throw new HttpError('key_not_found', `Asked for id ${id}.`);
  return key;
}

/** The model the snippets call: the first chat model the key may use (they are chat requests), else any it may. */
function exampleModel(gw: Gateway, key: KeyRecord): string {
  const usable = gw.catalog.modelsForKey(key);
  return usable.find((m) => m.model.kind === 'chat')?.name ?? usable[0]?.name ?? key.models?.[0] ?? 'MODEL';
}

async function withSecret(gw: Gateway, ctx: RequestContext, key: KeyRecord, secret: string): Promise<z.input<typeof CreatedKey>> {
  const [view] = await keyViews(gw, [key]);
  return { object: 'console.key', key: view!, secret, snippets: keySnippets(requestOrigin(ctx.req, ctx.trustProxy), secret, exampleModel(gw, key)) };
}

/** A StoreError about a limit (a bad amount, IP entry or number) as the console's 400. */
function invalidLimits(error: unknown): never {
  if (error instanceof StoreError && error.code === 'invalid') throw new HttpError('invalid_request', `${error.message}.`);
  throw error;
}

/** The limits of a console body as the changes keyLimitChanges.ts takes. */
function limitChanges(body: KeyLimitsBody | NewKeyBody): LimitChanges {
  return {
    ...(body.rpm !== undefined ? { rpm: body.rpm } : {}), ...(body.concurrency !== undefined ? { concurrency: body.concurrency } : {}),
    ...(body.tpm !== undefined ? { tpm: body.tpm } : {}), ...(body.rpd !== undefined ? { rpd: body.rpd } : {}),
    ...(body.spend_limit_usd !== undefined ? { spendLimitUsd: body.spend_limit_usd } : {}),
    ...(body.spend_period !== undefined ? { spendPeriod: body.spend_period } : {}), ...(body.allow_ips !== undefined ? { allowIps: body.allow_ips } : {}),
  };
}

export const keys: ApiHandler<'listKeys'> = async (gw, _ctx, { caller }) => {
  // Last use is written with the request logs, in batches: flushed first so a key just used says so.
  await gw.logs.flush();
  return { body: { object: 'list', data: await keyViews(gw, await ownKeys(gw, caller)) } };
};

export const createOwnKey: ApiHandler<'createKey'> = async (gw, ctx, { caller, body }) => {
  refuseUnknownModels(gw, body.models);
  const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
  if (expiresAt !== null && expiresAt <= Date.now()) throw new HttpError('invalid_request', 'expires_at: is in the past; a key would be born expired.');
  const account = gw.catalog.account(caller.user.accountId) ?? (await gw.store.snapshot()).accounts.find((a) => a.id === caller.user.accountId);
  if (!account) throw new HttpError('not_signed_in', 'Your account no longer exists.');
  try {
    const { secret, key } = await createKey(gw.store, { account: account.name, userId: caller.user.id, name: body.name, models: body.models ?? null, expiresAt, ...limitChanges(body) });
    return { body: await withSecret(gw, ctx, key, secret) };
  } catch (error) {
    if (error instanceof StoreError && error.code === 'conflict') throw new HttpError('key_name_taken', `Asked for "${body.name}".`);
    invalidLimits(error);
  }
};

/** POST /api/console/keys/limits {id, ...limits}: the limits given changed, the others and every other setting kept. */
export const setOwnKeyLimits: ApiHandler<'setKeyLimits'> = async (gw, _ctx, { caller, body }) => {
  const key = await ownKey(gw, caller, body.id);
  await changeKeyLimits(gw.store, key, limitChanges(body)).catch(invalidLimits);
  const [view] = await keyViews(gw, [await ownKey(gw, caller, body.id)]);
  return { body: { object: 'console.key', key: view! } };
};

export const rotateOwnKey: ApiHandler<'rotateKey'> = async (gw, ctx, { caller, body: { id } }) => {
  const key = await ownKey(gw, caller, id);
  const { secret } = await rotateKey(gw.store, key.id);
  return { body: await withSecret(gw, ctx, await ownKey(gw, caller, id), secret) };
};

/** POST /api/console/keys/{disable,enable,delete} {id}. */
export function keyAction(action: 'disable' | 'enable' | 'delete'): ApiHandler<'disableKey' | 'enableKey' | 'deleteKey'> {
  return async (gw, _ctx, { caller, body: { id } }) => {
    const key = await ownKey(gw, caller, id);
    if (action === 'delete') {
      await gw.store.deleteKey(key.id);
      return { body: { object: 'console.key', id, deleted: true } };
    }
    await gw.store.setKeyStatus(key.id, action === 'disable' ? 'disabled' : 'enabled');
    const [view] = await keyViews(gw, [await ownKey(gw, caller, id)]);
    return { body: { object: 'console.key', key: view! } };
  };
}
