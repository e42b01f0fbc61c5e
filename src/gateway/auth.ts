/** Bearer-key authentication (contract section 5): every failure is a 401 or 403 from the contract table; an admin access token is never a key. */
import { ADMIN_TOKEN_PREFIX } from '../contract/index.ts';
import { HttpError } from './http/errors.ts';
import type { Catalog } from './catalog.ts';
import type { KeyRecord } from './store/types.ts';

export type AuthHeaderResult =
  | { readonly ok: true; readonly secret: string }
  | { readonly ok: false; readonly code: 'missing_api_key' | 'invalid_auth_header' | 'api_key_whitespace' };

/** Parses the raw Authorization header value. Pure. */
export function parseAuthorization(header: string | undefined): AuthHeaderResult {
  if (header === undefined || header.trim() === '') return { ok: false, code: 'missing_api_key' };
  const match = /^(\S+)(?:[ \t]([\s\S]*))?$/.exec(header);
  if (!match || match[1]!.toLowerCase() !== 'bearer') return { ok: false, code: 'invalid_auth_header' };
  const rest = match[2] ?? '';
  if (rest.trim() === '') return { ok: false, code: 'missing_api_key' };
  if (rest !== rest.trim()) return { ok: false, code: 'api_key_whitespace' };
  return { ok: true, secret: rest };
}

/**
 * The raw `x-api-key` header (how Anthropic's clients send a key) as the same result: the key
 * itself, with no scheme in front.
 */
export function parseApiKeyHeader(header: string): AuthHeaderResult {
  if (header.trim() === '') return { ok: false, code: 'missing_api_key' };
  if (header !== header.trim()) return { ok: false, code: 'api_key_whitespace' };
  return { ok: true, secret: header };
}

/**
 * The key this request authenticates with, or a HttpError (401 / 403). `Authorization: Bearer` is
 * the contract's way; `x-api-key` is taken when no Authorization header is sent.
 */
export function authenticate(header: string | undefined, catalog: Catalog, now = Date.now(), apiKeyHeader?: string): KeyRecord {
  const parsed = header === undefined && apiKeyHeader !== undefined ? parseApiKeyHeader(apiKeyHeader) : parseAuthorization(header);
  if (!parsed.ok) throw new HttpError(parsed.code);
  // An admin access token is for the admins' management API, never an API key (issue 10).
  if (parsed.secret.startsWith(ADMIN_TOKEN_PREFIX)) throw new HttpError('admin_token_not_accepted');
  return usableKey(catalog.keyBySecret(parsed.secret), catalog, now);
}

/**
 * A key the catalog holds, if it may make requests now: known, on an account, enabled, not expired; else
 * the refusal (401 invalid_api_key, 403 key_disabled, key_expired). What every key is held to, whether its
 * secret was presented or the gateway acts for it (the console's playground).
 */
export function usableKey(key: KeyRecord | undefined, catalog: Catalog, now = Date.now()): KeyRecord {
  if (!key || !catalog.account(key.accountId)) throw new HttpError('invalid_api_key');
  if (key.status !== 'enabled') throw new HttpError('key_disabled');
  if (key.expiresAt !== null && key.expiresAt <= now) throw new HttpError('key_expired');
  return key;
}
