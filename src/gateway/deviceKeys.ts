/**
 * The key a device sign-in ends with: made when the approved device collects it (not at approval, so
 * a secret never waits in memory and a device that never comes back leaves no key behind), on the
 * approving user's account, narrowed to the models they chose, named after the client ("VS Code on
 * lab-pc" becomes "VS-Code-on-lab-pc", then "-2", "-3" when that name is taken; key names are unique
 * on an account). The approver must still be enabled and on that account when the device collects.
 */
import { createKey } from './admin.ts';
import type { Decision } from './accounts/deviceGrants.ts';
import type { Gateway } from './gateway.ts';
import { StoreError, type KeyRecord } from './store/types.ts';

const MAX_KEY_NAME_LENGTH = 64;
/** Names tried before giving up (a user with a hundred keys of one machine's name has other problems). */
const MAX_NAME_TRIES = 100;

/** A key name from a client name: the characters key names allow (cliArgs.ts identifier), runs of others as one "-". */
export function keyNameOf(clientName: string): string {
  const name = clientName.replace(/[^A-Za-z0-9._@-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, MAX_KEY_NAME_LENGTH - 4);
  return name === '' ? 'device' : name;
}

/** The new key and its secret, or null when the approver can no longer give one (disabled, moved, account gone). */
export async function issueDeviceKey(gw: Gateway, decision: Extract<Decision, { approved: true }>, clientName: string): Promise<{ secret: string; key: KeyRecord } | null> {
  const user = await gw.store.findUser({ id: decision.userId });
  if (!user || user.status !== 'enabled' || user.accountId !== decision.accountId) return null;
  const account = gw.catalog.account(decision.accountId) ?? (await gw.store.snapshot()).accounts.find((a) => a.id === decision.accountId);
  if (!account) return null;
  const base = keyNameOf(clientName);
  const taken = new Set((await gw.store.listKeys(account.id)).map((k) => k.name));
  for (let n = 1; n <= MAX_NAME_TRIES; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (taken.has(name)) continue;
    try {
      return await createKey(gw.store, { account: account.name, userId: user.id, name, models: decision.models });
    } catch (error) {
      // Made by someone else between the list and now: the next number.
      if (!(error instanceof StoreError && error.code === 'conflict')) throw error;
    }
  }
  throw new Error(`no free key name after ${MAX_NAME_TRIES} tries for "${base}"`);
}
