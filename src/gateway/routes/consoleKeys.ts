/**
 * A signed-in user's own API keys (issue 10, contract 5.2): GET and POST /api/console/keys, and POST
 * /api/console/keys/{disable,enable,delete,rotate} {id}. Only keys of the user's account are listed
 * or touched: another account's key id answers 404 key_not_found, exactly like an id that does not
 * exist. Keys are made and rotated by admin.ts, the one place secrets are made; a secret is answered
 * once, at creation or rotation, and never stored.
 */
import { createKey, rotateKey } from '../admin.ts';
import { keySnippets } from '../console/snippets.ts';
import { requestOrigin } from '../http/origin.ts';
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import { StoreError, type KeyRecord } from '../store/types.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { Handler } from './common.ts';
import { isoTime } from './consoleCatalog.ts';
import { KeyIdBody, NewKeyBody, parseBody } from './consoleSchemas.ts';
import { readConsoleJson, requireSession, type SignedIn } from './session.ts';

function keyView(k: KeyRecord) {
  return {
    id: k.id, name: k.name, prefix: k.prefix, status: k.status, created_at: isoTime(k.createdAt), last_used_at: isoTime(k.lastUsedAt),
    expires_at: isoTime(k.expiresAt), models: k.models, rpm: k.rpm, concurrency: k.concurrency,
  };
}

/** The keys of the signed-in user's account, oldest first. */
async function ownKeys(gw: Gateway, signedIn: SignedIn): Promise<KeyRecord[]> {
  return (await gw.store.listKeys()).filter((k) => k.accountId === signedIn.user.accountId);
}

async function ownKey(gw: Gateway, signedIn: SignedIn, id: number): Promise<KeyRecord> {
  const key = (await ownKeys(gw, signedIn)).find((k) => k.id === id);
  if (!key) throw new HttpError('key_not_found', `Asked for id ${id}.`);
  return key;
}

/** A model for the snippets: the key's first, else the first the gateway serves. */
function exampleModel(gw: Gateway, key: KeyRecord): string {
  return key.models?.[0] ?? gw.catalog.servable()[0]?.name ?? 'MODEL';
}

function answerSecret(gw: Gateway, ctx: RequestContext, status: number, key: KeyRecord, secret: string): void {
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, status, { object: 'console.key', key: keyView(key), secret, snippets: keySnippets(requestOrigin(ctx.req), secret, exampleModel(gw, key)) });
}

export const keys: Handler = async (gw, ctx) => {
  const signedIn = await requireSession(gw, ctx);
  // Last use is written with the request logs, in batches: flushed first so a key just used says so.
  await gw.logs.flush();
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'list', data: (await ownKeys(gw, signedIn)).map(keyView) });
};

export const createOwnKey: Handler = async (gw, ctx) => {
  const signedIn = await requireSession(gw, ctx);
  const body = parseBody(NewKeyBody, await readConsoleJson(gw, ctx));
  const unknown = (body.models ?? []).filter((m) => gw.catalog.lookup(m).kind === 'unknown');
  if (unknown.length > 0) throw new HttpError('invalid_request', `models: no model named ${unknown.map((m) => JSON.stringify(m)).join(', ')}.`);
  const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
  if (expiresAt !== null && expiresAt <= Date.now()) throw new HttpError('invalid_request', 'expires_at: is in the past; a key would be born expired.');
  const account = gw.catalog.account(signedIn.user.accountId) ?? (await gw.store.snapshot()).accounts.find((a) => a.id === signedIn.user.accountId);
  if (!account) throw new HttpError('not_signed_in', 'Your account no longer exists.');
  try {
    const { secret, key } = await createKey(gw.store, {
      account: account.name, name: body.name, models: body.models ?? null, expiresAt,
      ...(body.rpm !== undefined ? { rpm: body.rpm } : {}), ...(body.concurrency !== undefined ? { concurrency: body.concurrency } : {}),
    });
    answerSecret(gw, ctx, 201, key, secret);
  } catch (error) {
    if (error instanceof StoreError && error.code === 'conflict') throw new HttpError('key_name_taken', `Asked for "${body.name}".`);
    throw error;
  }
};

type KeyAction = 'disable' | 'enable' | 'delete' | 'rotate';

/** POST /api/console/keys/{action} {id}. */
export function keyAction(action: KeyAction): Handler {
  return async (gw, ctx) => {
    const signedIn = await requireSession(gw, ctx);
    const { id } = parseBody(KeyIdBody, await readConsoleJson(gw, ctx));
    const key = await ownKey(gw, signedIn, id);
    if (action === 'rotate') {
      const { secret } = await rotateKey(gw.store, key.id);
      answerSecret(gw, ctx, 200, await ownKey(gw, signedIn, id), secret);
      return;
    }
    if (action === 'delete') await gw.store.deleteKey(key.id);
    else await gw.store.setKeyStatus(key.id, action === 'disable' ? 'disabled' : 'enabled');
    ctx.noLog = true;
    sendJson(ctx.res, ctx.id, 200, action === 'delete' ? { object: 'console.key', id, deleted: true } : { object: 'console.key', key: keyView(await ownKey(gw, signedIn, id)) });
  };
}
