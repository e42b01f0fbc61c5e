/** Administrative operations shared by the CLI, bootstrap and startGateway({ issueKey }). */
import { displayPrefix, generateKey, hashKey } from './keys.ts';
import { changedLimits, DEFAULT_LIMITS, limitsOf, type LimitChanges } from './keyLimitChanges.ts';
import type { KeyLimits } from './store/keySettings.ts';
import { StoreError } from './store/types.ts';
import type { KeyRecord, Store } from './store/types.ts';
import { DEFAULT_CHANNEL_TIMEOUT_MS } from '../contract/values.ts';

export const BOOTSTRAP_ACCOUNT = 'local';
export const BOOTSTRAP_BALANCE = 10_000_000;
export const BOOTSTRAP_KEY = 'default';
export const ECHO_MODEL = 'echo';
/** The offline models of the other kinds, on the same echo channel, so every endpoint works after the first start. */
export const ECHO_MODELS_BY_KIND = { completion: 'echo-completion', embedding: 'echo-embedding', image: 'echo-image' } as const;
export const ECHO_INPUT_PRICE = 2_000_000;
export const ECHO_OUTPUT_PRICE = 8_000_000;
export const ECHO_EMBEDDING_PRICE = 20_000;
export const ECHO_IMAGE_PRICE = 40_000;
export { DEFAULT_CHANNEL_TIMEOUT_MS };

/** A new key: its account and name, its models and expiry, and any limit not left at its default (keyLimitChanges.ts). */
export interface CreateKeyOptions extends LimitChanges {
  readonly account: string;
  /** The user making it (the console, a device sign-in, the playground); absent: the CLI. Its keys stop while that user is disabled. */
  readonly userId?: number | null;
  readonly name: string;
  readonly models?: readonly string[] | null;
  readonly expiresAt?: number | null;
}

/** A new key secret with what the store keeps of it (its hash and display prefix). */
function newSecret(): { secret: string; hash: string; prefix: string } {
  const secret = generateKey();
  return { secret, hash: hashKey(secret), prefix: displayPrefix(secret) };
}

/** Creates a key and returns its secret: the only time the secret exists outside the client. */
export async function createKey(store: Store, options: CreateKeyOptions): Promise<{ secret: string; key: KeyRecord }> {
  const account = await store.getAccount(options.account);
  if (!account) throw new StoreError('not_found', `no account named "${options.account}"`);
  const limits = changedLimits(DEFAULT_LIMITS, options);
  const { secret, hash, prefix } = newSecret();
  const key = await store.createKey({
    accountId: account.id,
    userId: options.userId ?? null,
    name: options.name,
    hash,
    prefix,
    // Each model once, in the order first given: a list that names one twice (["echo", "echo"]) is the same list.
    models: options.models && options.models.length > 0 ? [...new Set(options.models)] : null,
    expiresAt: options.expiresAt ?? null,
    rpm: limits.rpm,
    concurrency: limits.concurrency,
    limits,
  });
  return { secret, key };
}

/**
 * The key's limits changed as given (the others kept, as are its secret, models, expiry and status). Returns
 * the limits set. `actor` (the CLI's, an admin's change) records it in the audit log with the new limits.
 */
export async function changeKeyLimits(store: Store, key: KeyRecord, changes: LimitChanges, actor?: string): Promise<KeyLimits> {
  const limits = changedLimits(limitsOf(key), changes);
  const account = actor === undefined ? undefined : (await store.snapshot()).accounts.find((a) => a.id === key.accountId)?.name;
  const details = { rpm: limits.rpm, concurrency: limits.concurrency, tpm: limits.tpm, rpd: limits.rpd, spend_limit_micro_usd: limits.spendLimit, spend_period: limits.spendPeriod, allow_ips: limits.allowIps };
  await store.setKeyLimits(key.id, limits, actor === undefined ? undefined : { actor, action: 'key.limits', target: `${key.name} (account ${account ?? key.accountId})`, details });
  return limits;
}

/** Rotation: a new secret for the key `id`, every setting kept; the old secret stops working at once. */
export async function rotateKey(store: Store, id: number): Promise<{ secret: string }> {
  const { secret, hash, prefix } = newSecret();
  await store.setKeySecret(id, hash, prefix);
  return { secret };
}

/**
 * The key called `name`, on the account called `account` when given. Key names are unique per account
 * only: a name on several accounts without `account` is a conflict that names them (say which).
 */
export async function keyNamed(store: Store, name: string, account?: string): Promise<KeyRecord> {
  const snap = await store.snapshot();
  const accountNames = new Map(snap.accounts.map((a) => [a.id, a.name]));
  const found = snap.keys.filter((k) => k.name === name && (account === undefined || accountNames.get(k.accountId) === account));
  if (found.length === 0) throw new StoreError('not_found', account === undefined ? `no key named "${name}"` : `no key named "${name}" on account "${account}"`);
  if (found.length > 1) {
    throw new StoreError('conflict', `keys named "${name}" are on several accounts (${found.map((k) => accountNames.get(k.accountId)).join(', ')}): say which with --account`);
  }
  return found[0]!;
}

/** On an empty store: account `local` with $10, an `echo` channel and priced model, key `default`. Returns its secret, or null when the store was not empty. */
export async function bootstrapIfEmpty(store: Store): Promise<string | null> {
  const snap = await store.snapshot();
  if (snap.accounts.length > 0 || snap.keys.length > 0 || snap.channels.length > 0) return null;
  await store.createAccount(BOOTSTRAP_ACCOUNT, BOOTSTRAP_BALANCE);
  await store.addChannel({
    name: 'echo', type: 'echo', baseUrl: null, apiKey: null,
    models: Object.fromEntries([ECHO_MODEL, ...Object.values(ECHO_MODELS_BY_KIND)].map((m) => [m, m])),
    priority: 0, weight: 1, timeoutMs: DEFAULT_CHANNEL_TIMEOUT_MS, proxy: null,
  });
  await store.setModel({ name: ECHO_MODEL, kind: 'chat', inputPrice: ECHO_INPUT_PRICE, outputPrice: ECHO_OUTPUT_PRICE, imagePrice: null, contextLength: 32_768, toolCalling: true, imageInput: true });
  const { completion, embedding, image } = ECHO_MODELS_BY_KIND;
  await store.setModel({ name: completion, kind: 'completion', inputPrice: ECHO_INPUT_PRICE, outputPrice: ECHO_OUTPUT_PRICE, imagePrice: null, contextLength: 32_768, toolCalling: null });
  await store.setModel({ name: embedding, kind: 'embedding', inputPrice: ECHO_EMBEDDING_PRICE, outputPrice: 0, imagePrice: null, contextLength: 8192, toolCalling: null });
  await store.setModel({ name: image, kind: 'image', inputPrice: 0, outputPrice: 0, imagePrice: ECHO_IMAGE_PRICE, contextLength: null, toolCalling: null });
  const { secret } = await createKey(store, { account: BOOTSTRAP_ACCOUNT, name: BOOTSTRAP_KEY });
  return secret;
}

/** Ensures the bootstrap account, replaces any key called `name` with a fresh one, returns its secret. */
export async function issueKey(store: Store, name: string): Promise<string> {
  await bootstrapIfEmpty(store);
  if (!(await store.getAccount(BOOTSTRAP_ACCOUNT))) await store.createAccount(BOOTSTRAP_ACCOUNT, BOOTSTRAP_BALANCE);
  const old = await keyNamed(store, name, BOOTSTRAP_ACCOUNT).catch((error: unknown) => {
    if (error instanceof StoreError && error.code === 'not_found') return null;
    throw error;
  });
  if (old) await store.deleteKey(old.id);
  const { secret } = await createKey(store, { account: BOOTSTRAP_ACCOUNT, name });
  return secret;
}
