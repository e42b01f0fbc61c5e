/**
 * Admin access tokens (issue 10), the one place they are made, checked and revoked, for the console and
 * the CLI alike. A token is `mgt-` and 256 random bits, made like an API key (keys.ts) and kept the same
 * way: the store has its SHA-256 and a display prefix, never the token, which exists only in the one
 * answer that makes it. A token acts as the admin who made it, and only while that user is an enabled
 * admin; it is refused once revoked or past its expiry. Making and revoking are admin actions, each
 * with its audit row in the same store step.
 */
import { ADMIN_TOKEN_PREFIX, type AdminTokenStatus } from '../contract/index.ts';
import type { Acting } from './accounts/userAdmin.ts';
import { displayPrefix, hashKey, randomSecret } from './keys.ts';
import type { AdminTokenRecord, Store, UserRecord } from './store/types.ts';

/** Use is written at most this often per token: a script polling the API does not write on every request. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface NewTokenRequest {
  readonly name: string;
  readonly expiresAt: number | null;
  /** The admin the token acts as. */
  readonly createdBy: UserRecord;
  /** Who the audit log names: the admin (console) or CLI_ACTOR (the command line). */
  readonly acting: Acting;
}

/** Makes a token; returns it with its record: the only time the token exists outside the script it is given to. */
export async function createAdminToken(store: Store, request: NewTokenRequest): Promise<{ token: string; record: AdminTokenRecord }> {
  const token = randomSecret(ADMIN_TOKEN_PREFIX);
  const record = await store.adminTokens.create(
    { name: request.name, hash: hashKey(token), prefix: displayPrefix(token, ADMIN_TOKEN_PREFIX), createdBy: request.createdBy.id, expiresAt: request.expiresAt },
    {
      actor: request.acting.actor, action: 'token.create', target: request.name, viaToken: request.acting.viaToken ?? null,
      details: { acts_as: request.createdBy.name, expires_at: request.expiresAt === null ? null : new Date(request.expiresAt).toISOString() },
    },
  );
  return { token, record };
}

/** Revokes the token `id` (answered as it is when revoked already), with its audit row. */
export async function revokeAdminToken(store: Store, id: number, acting: Acting, name: string): Promise<AdminTokenRecord> {
  return store.adminTokens.revoke(id, Date.now(), { actor: acting.actor, action: 'token.revoke', target: name, viaToken: acting.viaToken ?? null });
}

/** What a token is now: revoked wins over expired. */
export function tokenStatus(t: AdminTokenRecord, now: number): AdminTokenStatus {
  if (t.revokedAt !== null) return 'revoked';
  if (t.expiresAt !== null && t.expiresAt <= now) return 'expired';
  return 'active';
}

/** Why a token presented with a request is refused, or who it acts as. */
export type TokenCheck =
  | { readonly ok: true; readonly token: AdminTokenRecord; readonly user: UserRecord }
  | { readonly ok: false; readonly why: 'unknown' | 'revoked' | 'expired' | 'not_admin'; readonly creator?: string };

/** The token `secret` at `now`: known, not revoked, not expired, its creator still an enabled admin (read fresh). */
export async function checkAdminToken(store: Store, secret: string, now: number): Promise<TokenCheck> {
  const token = await store.adminTokens.findByHash(hashKey(secret));
  if (!token) return { ok: false, why: 'unknown' };
  const status = tokenStatus(token, now);
  if (status !== 'active') return { ok: false, why: status };
  const user = token.createdBy === null ? null : await store.findUser({ id: token.createdBy });
  if (!user || !user.admin || user.status !== 'enabled') return { ok: false, why: 'not_admin', ...(user ? { creator: user.name } : {}) };
  if (token.lastUsedAt === null || now - token.lastUsedAt >= TOUCH_EVERY_MS) await store.adminTokens.touch(token.id, now);
  return { ok: true, token, user };
}
