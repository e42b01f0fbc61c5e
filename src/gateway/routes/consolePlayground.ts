/**
 * POST /api/console/playground/chat (issue 10, contract 4.10): a signed-in user's chat from the console's
 * Playground, relayed exactly as POST /v1/chat/completions with `stream: true` would be for the account's
 * key named "Playground" (made on first use, with the defaults of any new key; listed on the Keys page).
 * The browser never holds a secret, and the gateway needs none either: the relay works from the key's
 * record. So the key's state (disabled, expired), IP list, rates, concurrency, model list and spending
 * limit apply, the account's balance is reserved and charged, and the request is logged under that key.
 */
import { PLAYGROUND_KEY_NAME, type PlaygroundChatBody } from '../../contract/index.ts';
import { createKey } from '../admin.ts';
import { usableKey } from '../auth.ts';
import { HttpError } from '../http/errors.ts';
import { StoreError, type KeyRecord } from '../store/types.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler } from './api.ts';
import { admitKey } from './common.ts';
import { CHAT } from './endpoints.ts';
import { relayForKey } from './relayed.ts';
import type { SignedIn } from './session.ts';

/** The account's Playground key, made the first time it is needed (two first chats at once make one). */
async function playgroundKey(gw: Gateway, caller: SignedIn): Promise<KeyRecord> {
  const found = async (): Promise<KeyRecord | undefined> => (await gw.store.listKeys(caller.user.accountId)).find((k) => k.name === PLAYGROUND_KEY_NAME);
  const existing = await found();
  if (existing) return existing;
  const account = gw.catalog.account(caller.user.accountId) ?? (await gw.store.snapshot()).accounts.find((a) => a.id === caller.user.accountId);
  if (!account) throw new HttpError('not_signed_in', 'Your account no longer exists.');
  try {
    // Its secret is dropped here: nobody needs it, the relay works from the key's record. No creator either: it is
    // the account's, shared by its users, and no one who leaves holds it; it stops only with the whole account.
    return (await createKey(gw.store, { account: account.name, name: PLAYGROUND_KEY_NAME, models: null, expiresAt: null })).key;
  } catch (error) {
    const made = error instanceof StoreError && error.code === 'conflict' ? await found() : undefined;
    if (made) return made;
    throw error;
  }
}

/** The chat completions body the playground's turns stand for: streamed, with usage (and its cost) at the end. */
function chatBodyOf(body: PlaygroundChatBody): Buffer {
  const system = body.system?.trim() ? [{ role: 'system', content: body.system }] : [];
  const chat = { model: body.model, messages: [...system, ...body.messages], stream: true, stream_options: { include_usage: true } };
  return Buffer.from(JSON.stringify(chat));
}

export const playgroundChat: ApiHandler<'playgroundChat'> = async (gw, ctx, { caller, body }) => {
  const record = await playgroundKey(gw, caller);
  // The catalog holds the key's current state (a key just made, or just disabled on the Keys page).
  const reloading = gw.catalog.refresh();
  if (reloading) await reloading;
  const key = await admitKey(gw, ctx, usableKey(gw.catalog.keyByHash(record.hash), gw.catalog));
  await relayForKey(gw, ctx, CHAT, key, chatBodyOf(body));
  return { answered: true };
};
