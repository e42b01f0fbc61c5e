/** Bearer-key authentication (contract section 5): every failure is a 401 or 403 from the contract table; an admin access token is never a key. */
import { ADMIN_TOKEN_PREFIX } from '../contract/index.ts';
import { HttpError } from './http/errors.ts';
import type { Catalog } from './catalog.ts';
import type { AccountRecord, KeyRecord } from './store/types.ts';

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
 * A key the catalog holds, if it may make requests now: known, on an account, enabled, its user not disabled,
 * not expired; else the refusal (401 invalid_api_key, 403 key_disabled, key_expired). What every key is held
 * to, whether its secret was presented or the gateway acts for it (the console's playground).
 */
export function usableKey(key: KeyRecord | undefined, catalog: Catalog, now = Date.now()): KeyRecord {
  const account = key && catalog.account(key.accountId);
  if (!key || !account) throw new HttpError('invalid_api_key');
  if (key.status !== 'enabled') throw new RefusedKeyError(key, 'key_disabled');
  const stop = userStop(key, account);
  if (stop) throw new RefusedKeyError(key, 'key_disabled', userStopDetail(stop));
  if (key.expiresAt !== null && key.expiresAt <= now) throw new RefusedKeyError(key, 'key_expired');
  return key;
}

/**
 * A known key refused (disabled, expired): its owner looks for the refusal in their logs ("did my request
 * get here?"), so the row names the key and its account.
 */
export class RefusedKeyError extends HttpError {
  readonly key: KeyRecord;
  constructor(key: KeyRecord, code: 'key_disabled' | 'key_expired', detail?: string) {
    super(code, detail);
    this.key = key;
  }
}

/** Which disabled user stops a key (its own status aside): the one to name, and whether the account has several, all disabled. */
export interface UserStop {
  readonly user: string;
  /** Every user of the key's account is disabled, and there are several (`account` names it). */
  readonly several: { readonly account: string; readonly users: number } | null;
}

/**
 * A key is refused while the user who made it is disabled, or while every user of its account is (the
 * single-user account's keys made by the CLI or before keys remembered their maker): from the state the
 * key and the account were read with (store/keyUsers.ts), so the request path asks the store nothing.
 */
export function userStop(key: KeyRecord, account: AccountRecord | undefined): UserStop | null {
  if (key.disabledCreator !== null) return { user: key.disabledCreator, several: null };
  const all = account?.usersDisabled;
  if (!all) return null;
  return { user: all.first, several: all.users > 1 ? { account: account.name, users: all.users } : null };
}

/** Why, and what to do (the names are users', never a secret). */
export function userStopDetail(stop: UserStop): string {
  const enable = `(model-gateway user enable ${stop.user})`;
  return stop.several
    ? `Every user of this key's account "${stop.several.account}" (${stop.several.users}) is disabled; an admin can enable one, for example "${stop.user}" ${enable}.`
    : `This key's user "${stop.user}" is disabled; an admin can enable them ${enable}.`;
}
