/**
 * The sessions table of the PostgreSQL store, apart from postgres.ts so that file keeps to one idea.
 * As on SQLite, session writes are not changes of the cached snapshot (no NOTIFY): the request
 * path's catalog holds no sessions, so a sign-in must not make every instance reload.
 */
import { FOREIGN_KEY_VIOLATION, type Query, UNIQUE_VIOLATION } from './postgresQuery.ts';
import { toSession, type Row } from './sqlRows.ts';
import { StoreError } from './types.ts';
import type { NewSession, SessionRecord } from './types.ts';


type RowsQuery = (sql: string, params?: unknown[]) => Promise<{ rows: Row[]; rowCount: number | null }>;

export class PostgresSessions {
  readonly #query: RowsQuery;

  constructor(query: RowsQuery) {
    this.#query = query;
  }

  /** The session, and the user's latest sign-in (users.last_sign_in_at), in one statement. */
  async create(s: NewSession): Promise<SessionRecord> {
    try {
      const { rows } = await this.#query(`WITH made AS (INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $3, $4) RETURNING *),
        signed_in AS (UPDATE users SET last_sign_in_at = $3 WHERE id = $2) SELECT * FROM made`,
        [s.idHash, s.userId, s.createdAt, s.expiresAt]);
      return toSession(rows[0]!);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === FOREIGN_KEY_VIOLATION) throw new StoreError('not_found', 'no such user');
      if (code === UNIQUE_VIOLATION) throw new StoreError('conflict', 'a session with this id exists already');
      throw error;
    }
  }

  async find(idHash: string): Promise<SessionRecord | null> {
    const { rows } = await this.#query('SELECT * FROM sessions WHERE id_hash = $1', [idHash]);
    return rows[0] ? toSession(rows[0]) : null;
  }

  async touch(idHash: string, at: number): Promise<void> {
    await this.#query('UPDATE sessions SET last_seen_at = GREATEST(last_seen_at, $1) WHERE id_hash = $2', [at, idHash]);
  }

  async revoke(idHash: string, at: number): Promise<void> {
    await this.#query('UPDATE sessions SET revoked_at = $1 WHERE id_hash = $2 AND revoked_at IS NULL', [at, idHash]);
  }

  async deleteEnded(now: number, idleSince: number): Promise<number> {
    return (await this.#query('DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at < $2 OR revoked_at IS NOT NULL', [now, idleSince])).rowCount ?? 0;
  }
}

/** Every live session of the user named `userName` revoked, in the caller's transaction (password changed, user disabled). */
export async function revokeUserSessions(query: Query, userName: string, at: number): Promise<void> {
  await query('UPDATE sessions SET revoked_at = $1 WHERE revoked_at IS NULL AND user_id = (SELECT id FROM users WHERE name = $2)', [at, userName]);
}
