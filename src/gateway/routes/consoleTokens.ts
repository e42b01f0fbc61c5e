/**
 * Admin access tokens in the console (issue 10): GET /api/console/admin/tokens lists them (never a
 * token), POST /api/console/admin/tokens {name, expires_at?} makes one acting as the signed-in admin and
 * answers it this once (a session only: a token cannot make tokens), POST /api/console/admin/tokens/revoke
 * {id} revokes one (refused from its next request on). Tokens are made, checked and revoked by
 * adminTokens.ts, the one place they are, each change with its audit row.
 */
import { HttpError } from '../http/errors.ts';
import { createAdminToken, revokeAdminToken, tokenStatus } from '../adminTokens.ts';
import { StoreError, type AdminTokenRecord } from '../store/types.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler } from './api.ts';
import { isoTime } from './consoleCatalog.ts';

function tokenView(t: AdminTokenRecord, now: number, users: ReadonlyMap<number, string>) {
  return {
    id: t.id, name: t.name, prefix: t.prefix, status: tokenStatus(t, now), created_by: users.get(t.createdBy) ?? null, created_at: new Date(t.createdAt).toISOString(),
    expires_at: isoTime(t.expiresAt), revoked_at: isoTime(t.revokedAt), last_used_at: isoTime(t.lastUsedAt),
  };
}

/** The names of the tokens' creators (admins, a few), looked up by id rather than read with every user. */
async function userNames(gw: Gateway, tokens: readonly AdminTokenRecord[]): Promise<Map<number, string>> {
  const users = await Promise.all([...new Set(tokens.map((t) => t.createdBy))].map((id) => gw.store.findUser({ id })));
  return new Map(users.filter((u) => u !== null).map((u) => [u.id, u.name]));
}

export const adminTokens: ApiHandler<'listAdminTokens'> = async (gw) => {
  const tokens = await gw.store.adminTokens.list();
  const users = await userNames(gw, tokens);
  const now = Date.now();
  return { body: { object: 'list', data: tokens.map((t) => tokenView(t, now, users)) } };
};

export const adminCreateToken: ApiHandler<'createAdminToken'> = async (gw, _ctx, { caller, body }) => {
  const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
  if (expiresAt !== null && expiresAt <= Date.now()) throw new HttpError('invalid_request', 'expires_at: is in the past; the token would be born expired.');
  try {
    const { token, record } = await createAdminToken(gw.store, { name: body.name, expiresAt, createdBy: caller.user, acting: caller.acting });
    return { headers: { 'Cache-Control': 'no-store' }, body: { object: 'console.admin_token', admin_token: tokenView(record, Date.now(), await userNames(gw, [record])), token } };
  } catch (error) {
    if (error instanceof StoreError && error.code === 'conflict') throw new HttpError('admin_token_name_taken', `Asked for "${body.name}".`);
    throw error;
  }
};

export const adminRevokeToken: ApiHandler<'revokeAdminToken'> = async (gw, _ctx, { caller, body: { id } }) => {
  const found = (await gw.store.adminTokens.list()).find((t) => t.id === id);
  if (!found) throw new HttpError('admin_token_not_found', `Asked for id ${id}.`);
  const revoked = await revokeAdminToken(gw.store, id, caller.acting, found.name);
  return { body: { object: 'console.admin_token', admin_token: tokenView(revoked, Date.now(), await userNames(gw, [revoked])) } };
};
