/** API key secrets: random, shown once, stored only as a SHA-256 hash plus a short display prefix. */
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'sk-';
export const DEFAULT_RPM = 1200;
export const DEFAULT_CONCURRENCY = 64;

/** `sk-` + 43 base64url characters (256 random bits). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Non-secret start of a key for lists and logs: "sk-AbCd…". */
export function displayPrefix(secret: string): string {
  return `${secret.slice(0, KEY_PREFIX.length + 4)}…`;
}
