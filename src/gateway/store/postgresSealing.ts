/**
 * Channel keys at rest on PostgreSQL: sealed with the secret key every instance on the database shares
 * (MODEL_GATEWAY_SECRET_KEY). Without it a database runs until a channel has a key to open or store.
 */
import { isSealed, SECRET_KEY_ENV, type SecretBox } from './secretBox.ts';
import { StoreError } from './types.ts';

export const NO_SECRET_KEY = `channel keys are sealed at rest with a secret key that every instance on the database shares: set ${SECRET_KEY_ENV} (32 bytes, base64 or hex; for example: openssl rand -base64 32)`;

/** A stored channel key, opened (one stored before sealing existed is plain). */
export function openChannelKey(box: SecretBox | null, stored: string, what: string): string {
  if (!isSealed(stored)) return stored;
  if (!box) throw new StoreError('invalid', `cannot open ${what}: ${NO_SECRET_KEY}`);
  return box.open(stored, what);
}

/** A channel key to store, sealed. */
export function sealChannelKey(box: SecretBox | null, plain: string | null): string | null {
  if (plain === null) return null;
  if (!box) throw new StoreError('invalid', `a channel key cannot be stored: ${NO_SECRET_KEY}`);
  return box.seal(plain);
}
