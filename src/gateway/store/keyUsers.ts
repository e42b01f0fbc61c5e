/**
 * Keys and the users behind them (issue 10): a key remembers the user who made it (api_keys.user_id, null
 * for the CLI's keys and those made before), and is refused while that user is disabled, or while every
 * user of its account is (an account with users, none enabled: the single-user account's CLI keys). What a
 * key or account row needs of that is read with the row, from the users' status, never stored on it:
 *   - a key row: its creator's name when that user is disabled (`disabled_creator`);
 *   - an account row: when it has users and none is enabled, how many (`users_disabled`) and the first's name.
 * A user's change writes the stamps (writtenSince.ts) of the rows whose reading it changes, in its own
 * transaction: the incremental snapshot then brings those keys and that account back, on every instance.
 * Users never move between accounts, so the keys a user made are on their account.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Query } from './postgresQuery.ts';
import type { AccountRecord, KeyRecord, UserRecord } from './types.ts';

/** Every user of an account is disabled (it has at least one): its keys are refused. */
export interface UsersDisabled {
  /** How many users the account has (all disabled). */
  readonly users: number;
  /** The first of them (by id), to name. */
  readonly first: string;
}

/** The column a key row of `k` (the table's name or alias) is read with: its creator's name when disabled. Both SQL dialects. */
export const disabledCreatorColumn = (k: string): string =>
  `(SELECT u.name FROM users u WHERE u.id = ${k}.user_id AND u.status = 'disabled') AS disabled_creator`;

/**
 * The columns an account row of `a` is read with: its users' count when none is enabled (else 0), and its
 * first disabled user. Through the partial index on disabled users: an account without one costs a probe.
 */
export const accountUsersColumns = (a: string): string =>
  `(SELECT count(*) FROM users d WHERE d.account_id = ${a}.id AND d.status = 'disabled'
      AND NOT EXISTS (SELECT 1 FROM users e WHERE e.account_id = ${a}.id AND e.status = 'enabled')) AS users_disabled,
    (SELECT d.name FROM users d WHERE d.account_id = ${a}.id AND d.status = 'disabled' ORDER BY d.id LIMIT 1) AS first_disabled_user`;

/** The key rows (alias k), read with their creator's state: listKeys and the snapshot, which add their WHERE. */
export const KEYS_WITH_USERS = `SELECT k.*, ${disabledCreatorColumn('k')} FROM api_keys k`;
/** The account rows (alias a), read with their users' state: the snapshot. */
export const ACCOUNTS_WITH_USERS = `SELECT a.*, ${accountUsersColumns('a')} FROM accounts a`;

/** The schema both SQL stores add for this (SQLite's migration 22, PostgreSQL's 15), `idType` the column's type. Published: never edit it. */
export const keyUsersSchema = (idType: string): string => `
  ALTER TABLE api_keys ADD COLUMN user_id ${idType} REFERENCES users(id);
  CREATE INDEX api_keys_user ON api_keys(user_id);
  CREATE INDEX users_account ON users(account_id, status);
  CREATE INDEX users_disabled ON users(account_id, id) WHERE status = 'disabled';
`;

/**
 * SQLite, in the caller's transaction: the account of the user `user` (or the account `accountId`) and the
 * keys that user made are written again (their stamps taken), so the next snapshot reads them anew.
 */
export function stampSqliteUserRows(db: DatabaseSync, by: { readonly user: string } | { readonly accountId: number }): void {
  if ('accountId' in by) {
    db.prepare('UPDATE accounts SET name = name WHERE id = ?').run(by.accountId);
    return;
  }
  db.prepare('UPDATE accounts SET name = name WHERE id = (SELECT account_id FROM users WHERE name = ?)').run(by.user);
  db.prepare('UPDATE api_keys SET user_id = user_id WHERE user_id = (SELECT id FROM users WHERE name = ?)').run(by.user);
}

/** The same on PostgreSQL (whose key trigger stamps only a row that changed: the stamp is set here). */
export async function stampPostgresUserRows(query: Query, by: { readonly user: string } | { readonly accountId: number }): Promise<void> {
  if ('accountId' in by) {
    await query('UPDATE accounts SET written_by = pg_current_xact_id() WHERE id = $1', [by.accountId]);
    return;
  }
  await query('UPDATE accounts SET written_by = pg_current_xact_id() WHERE id = (SELECT account_id FROM users WHERE name = $1)', [by.user]);
  await query('UPDATE api_keys SET written_by = pg_current_xact_id() WHERE user_id = (SELECT id FROM users WHERE name = $1)', [by.user]);
}

/** The users' state of keys and accounts, as the SQL stores read it with their rows: the memory store's reading. */
export function usersReading(users: readonly UserRecord[]): { key: (key: KeyRecord) => KeyRecord; account: (account: AccountRecord) => AccountRecord } {
  const byId = new Map(users.map((u) => [u.id, u]));
  const byAccount = new Map<number, UserRecord[]>();
  for (const u of users) byAccount.set(u.accountId, [...(byAccount.get(u.accountId) ?? []), u]);
  return {
    key: (key) => {
      const creator = key.userId === null ? undefined : byId.get(key.userId);
      return { ...key, disabledCreator: creator?.status === 'disabled' ? creator.name : null };
    },
    account: (account) => ({ ...account, usersDisabled: usersDisabledOf(byAccount.get(account.id) ?? []) }),
  };
}

/** Whether the users of one account are all disabled (it has some): how many, and the first by id. */
export function usersDisabledOf(own: readonly UserRecord[]): UsersDisabled | null {
  if (own.length === 0 || own.some((u) => u.status === 'enabled')) return null;
  return { users: own.length, first: [...own].sort((a, b) => a.id - b.id)[0]!.name };
}
