/** API key secrets (and admin access tokens, made alike): random, shown once, stored only as a SHA-256 hash plus a short display prefix. */
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'sk-';
export const DEFAULT_RPM = 1200;
export const DEFAULT_CONCURRENCY = 64;

/** `sk-` + 43 base64url characters (256 random bits). */
export function generateKey(): string {
  return randomSecret(KEY_PREFIX);
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Non-secret start of a key (or of another secret made the same way) for lists and logs: "sk-AbCd…", four characters past its prefix. */
export function displayPrefix(secret: string, prefix = KEY_PREFIX): string {
  return `${secret.slice(0, prefix.length + 4)}…`;
}

/** `prefix` + 43 base64url characters (256 random bits): an API key, an admin access token. */
export function randomSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}
