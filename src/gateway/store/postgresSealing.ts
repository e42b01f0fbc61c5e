/**
 * Channel secrets at rest on PostgreSQL (channelSecretsAtRest.ts): sealed with the secret key every instance on
 * the database shares (MODEL_GATEWAY_SECRET_KEY). Without it a database runs until a channel has a secret to
 * open or store.
 */
import type pg from 'pg';
import { sealedPlainSecrets, type SecretColumns } from './channelSecretsAtRest.ts';
import { isSealed, SECRET_KEY_ENV, type SecretBox } from './secretBox.ts';
import { StoreError } from './types.ts';

export const NO_SECRET_KEY = `channel keys are sealed at rest with a secret key that every instance on the database shares: set ${SECRET_KEY_ENV} (32 bytes, base64 or hex; for example: openssl rand -base64 32)`;

/** A stored channel key, opened (one stored before sealing existed is plain). */
export function openChannelKey(box: SecretBox | null, stored: string, what: string): string {
  if (!isSealed(stored)) return stored;
  if (!box) throw new StoreError('invalid', `cannot open ${what}: ${NO_SECRET_KEY}`);
  return box.open(stored, what);
}

/** A channel secret (its key, a URL holding one) to store, sealed; `what` names it when it cannot be. */
export function sealChannelSecret(box: SecretBox | null, plain: string, what: string): string {
  if (!box) throw new StoreError('invalid', `${what} holds a secret and cannot be stored: ${NO_SECRET_KEY}`);
  return box.seal(plain);
}

/**
 * Secrets an older version (or a copy by one) left in plain text, sealed in place. Each row is changed only if it
 * still holds what was read, so instances starting together, or an edit meanwhile, lose nothing.
 */
export async function sealPlainChannelSecrets(pool: pg.Pool, box: SecretBox): Promise<void> {
  const { rows } = await pool.query<SecretColumns>('SELECT id::int AS id, api_key, base_url, proxy FROM channels');
  for (const row of rows) {
    const sealed = sealedPlainSecrets(row, (plain) => box.seal(plain));
    if (!sealed) continue;
    await pool.query(
      `UPDATE channels SET api_key = $1, base_url = $2, proxy = $3
        WHERE id = $4 AND api_key IS NOT DISTINCT FROM $5 AND base_url IS NOT DISTINCT FROM $6 AND proxy IS NOT DISTINCT FROM $7`,
      [sealed.api_key, sealed.base_url, sealed.proxy, row.id, row.api_key, row.base_url, row.proxy],
    );
  }
}

/**
 * On open: without the secret key, a database holding sealed secrets is refused (they could not be opened);
 * with it, secrets an older version left plain are sealed.
 */
export async function checkChannelSecrets(pool: pg.Pool, box: SecretBox | null, where: string): Promise<void> {
  if (box) return sealPlainChannelSecrets(pool, box);
  if (await holdsSealedSecrets(pool)) throw new StoreError('invalid', `${where} holds channel keys, and ${NO_SECRET_KEY}, the one they were sealed with.`);
}

/** Whether any channel holds a sealed secret (a key, a URL holding one): a database that cannot run without its secret key. */
export async function holdsSealedSecrets(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<Omit<SecretColumns, 'id'>>('SELECT api_key, base_url, proxy FROM channels');
  return rows.some((r) => r.api_key !== null || [r.base_url, r.proxy].some((url) => url !== null && isSealed(url)));
}
