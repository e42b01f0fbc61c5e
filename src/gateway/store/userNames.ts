/**
 * User names are told apart without regard to case, as people expect of a sign-in name: "Ada" on a phone that
 * capitalizes the first letter signs in as "ada", and no one can make "Admin" beside "admin". Names are ASCII
 * (NAME_PATTERN), so SQLite's NOCASE and PostgreSQL's lower() agree. Not a unique index: a database may hold
 * names that differ only in case, made before this; they keep working by their exact spelling. So a new name
 * is checked inside the transaction that adds it (SQLite has one writer; PostgreSQL takes USER_NAMES_LOCK).
 */
import { StoreError } from './types.ts';

/** SQLite's migration 23 and PostgreSQL's 16: the index that finds a name without case. */
export const SQLITE_USER_NAME_INDEX = 'CREATE INDEX users_name_nocase ON users(name COLLATE NOCASE);';
export const POSTGRES_USER_NAME_INDEX = 'CREATE INDEX users_name_lower ON users(lower(name));';

/** Rows whose name is `name` without case, the exact spelling first (at most two are needed to choose). */
export const SQLITE_USERS_NAMED = 'SELECT * FROM users WHERE name = ?1 COLLATE NOCASE ORDER BY name = ?1 DESC, id LIMIT 2';
export const POSTGRES_USERS_NAMED = 'SELECT * FROM users WHERE lower(name) = lower($1) ORDER BY name = $1 DESC, id LIMIT 2';

/** "User names" as a PostgreSQL advisory lock key ("MGun"): held by a transaction that adds a user, until it ends. */
export const USER_NAMES_LOCK = 1296529774;

/** The memory store's NOCASE. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Of the users named `name` without case (the exact spelling first): that one, else the only one; none when several differ only in case. */
export function chooseNamed<T extends { readonly name: string }>(found: readonly T[], name: string): T | null {
  if (found[0]?.name === name) return found[0];
  return found.length === 1 ? found[0]! : null;
}

/** A new user's name that another user's spelling already takes. */
export function userNameTaken(name: string, taken: string): StoreError {
  return new StoreError('conflict', taken === name ? `a user named "${name}" already exists` : `a user named "${taken}" already exists (user names are told apart without case)`);
}
