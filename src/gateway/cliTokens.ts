/**
 * `model-gateway token ...`: admin access tokens for scripts (issue 10). `create NAME --admin-user USER
 * [--expires DATE]` prints the new token on standard output, the only time it is shown (the store keeps
 * its hash), and what was made on standard error, so `token create ... > token.txt` holds the token
 * alone; the token acts as USER, who must be an enabled admin. `list` never shows a token, only what is
 * known of it; `revoke NAME` stops the token of that name that is not revoked yet. Making and revoking
 * are recorded in the audit log under CLI_ACTOR.
 */
import { CLI_ACTOR } from '../contract/index.ts';
import { createAdminToken, revokeAdminToken, tokenStatus } from './adminTokens.ts';
import { futureDate, identifier, need, UsageError } from './cliArgs.ts';
import { StoreError, type Store } from './store/types.ts';

export interface TokenFlags {
  readonly 'admin-user'?: string | undefined;
  readonly expires?: string | undefined;
}

interface TokenIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const iso = (ms: number | null, none: string): string => (ms === null ? none : new Date(ms).toISOString());

export async function token(store: Store, sub: string | undefined, args: string[], flags: TokenFlags, io: TokenIo): Promise<number> {
  if (sub === 'create') {
    if (args.length !== 1) throw new UsageError('token create takes one NAME (and --admin-user USER)');
    const name = identifier(args[0], 'token NAME');
    const userName = identifier(flags['admin-user'], '--admin-user');
    const expiresAt = flags.expires === undefined ? null : futureDate(flags.expires, 'expires', 'the token');
    const user = (await store.listUsers()).find((u) => u.name === userName);
    if (!user) throw new StoreError('not_found', `no user named "${userName}"`);
    if (!user.admin || user.status !== 'enabled') throw new StoreError('invalid', `"${userName}" is not an enabled admin: a token acts as its admin, and would be refused`);
    const made = await createAdminToken(store, { name, expiresAt, createdBy: user, acting: { actor: CLI_ACTOR } });
    io.out(made.token);
    io.err(`admin access token "${name}" (${made.record.prefix}, id ${made.record.id}) made, acting as ${userName}, ${expiresAt === null ? 'never expiring' : `expiring ${iso(expiresAt, '')}`}. ` +
      'It is shown this once: store it now. Scripts send it as "Authorization: Bearer <token>".');
    return 0;
  }
  if (sub === 'list') {
    if (args.length > 0) throw new UsageError(`token list takes no arguments, got "${args[0]}"`);
    const users = new Map((await store.listUsers()).map((u) => [u.id, u.name]));
    const now = Date.now();
    for (const t of await store.adminTokens.list()) {
      io.out([t.id, t.name, t.prefix, tokenStatus(t, now), `acts_as=${users.get(t.createdBy) ?? t.createdBy}`, `created=${iso(t.createdAt, '-')}`,
        `expires=${iso(t.expiresAt, 'never')}`, `revoked=${iso(t.revokedAt, '-')}`, `last_used=${iso(t.lastUsedAt, 'never')}`].join('\t'));
    }
    return 0;
  }
  if (sub === 'revoke') {
    if (args.length !== 1) throw new UsageError('token revoke takes one NAME (as token list shows it)');
    const name = need(args[0], 'token NAME');
    const live = (await store.adminTokens.list()).find((t) => t.name === name && t.revokedAt === null);
    if (!live) throw new StoreError('not_found', `no admin access token named "${name}" that is not revoked`);
    await revokeAdminToken(store, live.id, { actor: CLI_ACTOR }, name);
    io.out(`admin access token "${name}" (${live.prefix}) revoked: refused from its next request on`);
    return 0;
  }
  throw new UsageError(`unknown command: token ${sub ?? ''}`);
}
